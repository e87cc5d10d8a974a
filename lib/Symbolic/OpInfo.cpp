//===- OpInfo.cpp - tinygrad Ops names and GroupOp sets -------------------===//
#include "tinygrad/Symbolic/UOp.h"

#include "llvm/ADT/StringMap.h"

using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;

static const char *const kOpNames[kNumOps] = {
    "SPECIAL", "BUFFER", "NOOP", "REWRITE_ERROR", "PARAM", "FUNCTION", "CALL",
    "PROGRAM", "LINEAR", "SOURCE", "BINARY", "SINK", "AFTER", "GROUP", "STACK",
    "TUPLE", "GETTUPLE", "GETADDR", "INDEX", "SHRINK", "LOAD", "STORE", "WMMA",
    "CAST", "BITCAST", "EXP2", "LOG2", "SIN", "SQRT", "RECIPROCAL", "NEG",
    "TRUNC", "ADD", "MUL", "SHL", "SHR", "CDIV", "MAX", "CMOD", "CMPLT", "CMPNE",
    "CMPEQ", "XOR", "OR", "AND", "THREEFRY", "SUB", "FDIV", "POW", "FLOORDIV",
    "FLOORMOD", "WHERE", "MULACC", "BARRIER", "RANGE", "IF", "END", "ENDIF",
    "WAIT", "CONST", "CUSTOM", "CUSTOMI", "INS", "CONTIGUOUS",
    "CONTIGUOUS_BACKWARD", "DETACH", "STAGE", "COPY", "MSELECT", "MSTACK",
    "CUSTOM_FUNCTION", "RESHAPE", "PERMUTE", "EXPAND", "PAD", "FLIP", "UNSHARD",
    "REDUCE", "ALLREDUCE", "PYLITERAL"};

llvm::StringRef sym::getOpName(Op op) {
  return kOpNames[static_cast<unsigned>(op)];
}

std::optional<Op> sym::parseOpName(llvm::StringRef name) {
  static const llvm::StringMap<Op> map = [] {
    llvm::StringMap<Op> m;
    for (unsigned i = 0; i < kNumOps; ++i)
      m[kOpNames[i]] = static_cast<Op>(i);
    return m;
  }();
  auto it = map.find(name);
  if (it == map.end())
    return std::nullopt;
  return it->second;
}

namespace {
/// Membership bitsets of the GroupOp sets, built once.
struct GroupTable {
  bool unary[kNumOps] = {}, binary[kNumOps] = {}, ternary[kNumOps] = {},
       commutative[kNumOps] = {}, associative[kNumOps] = {},
       idempotent[kNumOps] = {}, comparison[kNumOps] = {},
       irreducible[kNumOps] = {}, movement[kNumOps] = {};
  static void set(bool *t, std::initializer_list<Op> ops) {
    for (Op o : ops)
      t[static_cast<unsigned>(o)] = true;
  }
  GroupTable() {
    set(unary, {Op::EXP2, Op::LOG2, Op::SIN, Op::SQRT, Op::RECIPROCAL, Op::NEG,
                Op::TRUNC});
    set(binary, {Op::ADD, Op::MUL, Op::CDIV, Op::MAX, Op::CMOD, Op::CMPLT,
                 Op::CMPNE, Op::CMPEQ, Op::XOR, Op::SHL, Op::SHR, Op::OR,
                 Op::AND, Op::THREEFRY, Op::SUB, Op::FDIV, Op::POW,
                 Op::FLOORDIV, Op::FLOORMOD});
    set(ternary, {Op::WHERE, Op::MULACC});
    set(commutative, {Op::ADD, Op::MUL, Op::MAX, Op::CMPNE, Op::CMPEQ,
                      Op::XOR, Op::AND, Op::OR});
    set(associative, {Op::ADD, Op::MUL, Op::AND, Op::OR, Op::MAX});
    set(idempotent, {Op::OR, Op::AND, Op::MAX});
    set(comparison, {Op::CMPLT, Op::CMPNE, Op::CMPEQ});
    set(irreducible, {Op::CONST, Op::SPECIAL, Op::RANGE, Op::PARAM, Op::GETADDR});
    set(movement, {Op::RESHAPE, Op::EXPAND, Op::PERMUTE, Op::PAD, Op::SHRINK,
                   Op::FLIP});
  }
};
const GroupTable &groups() {
  static const GroupTable t;
  return t;
}
unsigned idx(Op op) { return static_cast<unsigned>(op); }
} // namespace

bool sym::isUnary(Op op) { return groups().unary[idx(op)]; }
bool sym::isBinary(Op op) { return groups().binary[idx(op)]; }
bool sym::isTernary(Op op) { return groups().ternary[idx(op)]; }
bool sym::isALU(Op op) { return isUnary(op) || isBinary(op) || isTernary(op); }
bool sym::isCommutative(Op op) { return groups().commutative[idx(op)]; }
bool sym::isAssociative(Op op) { return groups().associative[idx(op)]; }
bool sym::isIdempotent(Op op) { return groups().idempotent[idx(op)]; }
bool sym::isComparison(Op op) { return groups().comparison[idx(op)]; }
bool sym::isIrreducible(Op op) { return groups().irreducible[idx(op)]; }
bool sym::isMovement(Op op) { return groups().movement[idx(op)]; }

std::optional<ALUOp> sym::getALUOp(Op op) {
  switch (op) {
  case Op::EXP2: return ALUOp::Exp2;
  case Op::LOG2: return ALUOp::Log2;
  case Op::SIN: return ALUOp::Sin;
  case Op::SQRT: return ALUOp::Sqrt;
  case Op::RECIPROCAL: return ALUOp::Reciprocal;
  case Op::NEG: return ALUOp::Neg;
  case Op::TRUNC: return ALUOp::Trunc;
  case Op::ADD: return ALUOp::Add;
  case Op::MUL: return ALUOp::Mul;
  case Op::SHL: return ALUOp::Shl;
  case Op::SHR: return ALUOp::Shr;
  case Op::CDIV: return ALUOp::CDiv;
  case Op::MAX: return ALUOp::Max;
  case Op::CMOD: return ALUOp::CMod;
  case Op::CMPLT: return ALUOp::CmpLt;
  case Op::CMPNE: return ALUOp::CmpNe;
  case Op::CMPEQ: return ALUOp::CmpEq;
  case Op::XOR: return ALUOp::Xor;
  case Op::OR: return ALUOp::Or;
  case Op::AND: return ALUOp::And;
  case Op::THREEFRY: return ALUOp::Threefry;
  case Op::SUB: return ALUOp::Sub;
  case Op::FDIV: return ALUOp::FDiv;
  case Op::POW: return ALUOp::Pow;
  case Op::FLOORDIV: return ALUOp::FloorDiv;
  case Op::FLOORMOD: return ALUOp::FloorMod;
  case Op::WHERE: return ALUOp::Where;
  case Op::MULACC: return ALUOp::MulAcc;
  default: return std::nullopt;
  }
}
