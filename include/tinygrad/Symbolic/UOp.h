//===- UOp.h - interned UOp graph for symbolic rewriting --------*- C++ -*-===//
//
// tinygrad's rewrite rules rely on hash-consing: structurally equal nodes
// are the same object, so `x+x` matches by identity and every rewrite result
// is canonical. MLIR operations are not interned and mutate in place under
// RAUW, so the symbolic engine works on this small immutable, interned graph
// and converts from/to MLIR at pass boundaries (Bridge.h). The node layout
// mirrors tinygrad's UOp (op, dtype, src, arg) and its cached derived
// properties (vmin/vmax).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SYMBOLIC_UOP_H
#define TINYGRAD_SYMBOLIC_UOP_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Types.h"
#include "tinygrad/Support/DType.h"
#include "tinygrad/Support/ScalarALU.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include <memory>
#include <optional>
#include <utility>

namespace mlir::tinygrad::sym {

/// tinygrad's `Ops`, in enum order: the order is part of the semantics
/// (commutative operands are sorted by it).
enum class Op : uint8_t {
  SPECIAL, BUFFER, NOOP, REWRITE_ERROR, PARAM, FUNCTION, CALL, PROGRAM, LINEAR,
  SOURCE, BINARY, SINK, AFTER, GROUP, STACK, TUPLE, GETTUPLE, GETADDR, INDEX,
  SHRINK, LOAD, STORE, WMMA, CAST, BITCAST, EXP2, LOG2, SIN, SQRT, RECIPROCAL,
  NEG, TRUNC, ADD, MUL, SHL, SHR, CDIV, MAX, CMOD, CMPLT, CMPNE, CMPEQ, XOR, OR,
  AND, THREEFRY, SUB, FDIV, POW, FLOORDIV, FLOORMOD, WHERE, MULACC, BARRIER,
  RANGE, IF, END, ENDIF, WAIT, CONST, CUSTOM, CUSTOMI, INS, CONTIGUOUS,
  CONTIGUOUS_BACKWARD, DETACH, STAGE, COPY, MSELECT, MSTACK, CUSTOM_FUNCTION,
  RESHAPE, PERMUTE, EXPAND, PAD, FLIP, UNSHARD, REDUCE, ALLREDUCE, PYLITERAL
};
constexpr unsigned kNumOps = static_cast<unsigned>(Op::PYLITERAL) + 1;

llvm::StringRef getOpName(Op op);                    ///< "ADD"
std::optional<Op> parseOpName(llvm::StringRef name); ///< "ADD" -> Op::ADD

/// GroupOp membership.
bool isUnary(Op op);
bool isBinary(Op op);
bool isTernary(Op op);
bool isALU(Op op);
bool isCommutative(Op op);
bool isAssociative(Op op);
bool isIdempotent(Op op);
bool isComparison(Op op);
bool isIrreducible(Op op);
bool isMovement(Op op);
/// ALUOp of an ALU op (for constant folding).
std::optional<ALUOp> getALUOp(Op op);

/// The argument of a node. CONST carries a Scalar; every other op keeps the
/// MLIR attributes it was imported with (uniqued, so pointer-comparable) and,
/// for the ops rules inspect, a decoded view.
struct Arg {
  Scalar value;                 ///< CONST value (kind Int/Float/Bool/Invalid)
  mlir::DictionaryAttr attrs;   ///< inherent attributes of non-CONST ops
  bool operator==(const Arg &o) const {
    return value == o.value && attrs == o.attrs;
  }
};

/// A PARAM's ParamArg fields that symbolic rules read.
struct ParamInfo {
  int64_t slot = 0;
  std::optional<std::pair<Scalar, Scalar>> vminVmax;
  std::optional<int64_t> multipleOf;
  llvm::StringRef name;
  bool isALU = false;
};

class Context;

/// An interned node. Never mutated after creation, except for lazily cached
/// derived properties.
class UOp {
public:
  Op op;
  DType dtype;
  mlir::Type type; ///< full MLIR result type (dtype + shape + addrspace)
  llvm::ArrayRef<const UOp *> src;
  Arg arg;

  bool is(Op o) const { return op == o; }
  bool isConst() const { return op == Op::CONST; }
  bool isInvalid() const { return op == Op::CONST && arg.value.isInvalid(); }
  /// CONST value (only for CONST).
  const Scalar &val() const { return arg.value; }
  /// Integer CONST value, if this is an int CONST.
  std::optional<__int128> intVal() const;
  /// PARAM/BUFFER fields, decoded once per node.
  const ParamInfo &param() const;

  /// vmin / vmax exactly as tinygrad's `_min_max`.
  const std::pair<Scalar, Scalar> &bounds() const;
  const Scalar &vmin() const { return bounds().first; }
  const Scalar &vmax() const { return bounds().second; }

  Context &ctx() const { return *context; }

private:
  friend class Context;
  Context *context = nullptr;
  mutable std::optional<std::pair<Scalar, Scalar>> cachedBounds;
  mutable std::optional<ParamInfo> cachedParam;
  ParamInfo decodeParam() const;
};

using UOpRef = const UOp *;

/// The type `x` rebuilt over `src` has: its dtype, with the shape and
/// addrspace the dialects' type inference derives from `src` (what parsing
/// the printed node gives back). Null where `x`'s type stays as it is.
mlir::Type derivedType(UOpRef x, llvm::ArrayRef<UOpRef> src);

/// Owns and interns nodes; provides tinygrad's construction API.
class Context {
public:
  explicit Context(mlir::MLIRContext *mlirContext) : mlir(mlirContext) {
    table.reserve(128); // typical index expressions: avoid rehashing
  }
  Context(const Context &) = delete;

  mlir::MLIRContext *getMLIRContext() const { return mlir; }

  /// The interned node (op, type, src, arg).
  UOpRef get(Op op, mlir::Type type, llvm::ArrayRef<UOpRef> src, Arg arg = {});

  //===--------------------------------------------------------------------===//
  // Construction API (tinygrad's UOp methods and operators)
  //===--------------------------------------------------------------------===//
  mlir::Type typeFor(DType dt) const;
  UOpRef cnst(const Scalar &v, DType dt);
  UOpRef constInt(__int128 v, DType dt = DType::WeakInt) {
    return cnst(Scalar::fromInt(v), dt);
  }
  UOpRef constBool(bool b) { return cnst(Scalar::fromBool(b), DType::Bool); }
  /// `x.const_like(v)`: a CONST of x's dtype (bools/floats converted).
  UOpRef constLike(UOpRef x, const Scalar &v);
  UOpRef constLike(UOpRef x, __int128 v) { return constLike(x, Scalar::fromInt(v)); }
  /// `x.alu(op, *srcs)` with tinygrad's dtype derivation.
  UOpRef alu(Op op, llvm::ArrayRef<UOpRef> srcs);
  UOpRef add(UOpRef a, UOpRef b) { return alu(Op::ADD, {a, b}); }
  UOpRef mul(UOpRef a, UOpRef b) { return alu(Op::MUL, {a, b}); }
  UOpRef add(UOpRef a, __int128 c) { return add(a, ufix(a, c)); }
  UOpRef mul(UOpRef a, __int128 c) { return mul(a, ufix(a, c)); }
  UOpRef neg(UOpRef a) { return mul(a, -1); }          ///< -x = x*-1
  UOpRef sub(UOpRef a, UOpRef b) { return add(a, neg(b)); }
  UOpRef sub(UOpRef a, __int128 c) { return add(a, ufix(a, -c)); }
  UOpRef floordiv(UOpRef a, UOpRef b) { return alu(Op::FLOORDIV, {a, b}); }
  UOpRef floordiv(UOpRef a, __int128 c) { return floordiv(a, ufix(a, c)); }
  UOpRef floormod(UOpRef a, UOpRef b) { return alu(Op::FLOORMOD, {a, b}); }
  UOpRef floormod(UOpRef a, __int128 c) { return floormod(a, ufix(a, c)); }
  UOpRef lt(UOpRef a, UOpRef b) { return alu(Op::CMPLT, {a, b}); }
  UOpRef lt(UOpRef a, __int128 c) { return lt(a, ufix(a, c)); }
  UOpRef gt(UOpRef a, __int128 c) { return lt(ufix(a, c), a); }
  UOpRef ne(UOpRef a, UOpRef b) { return alu(Op::CMPNE, {a, b}); }
  UOpRef ne(UOpRef a, __int128 c) { return ne(a, ufix(a, c)); }
  UOpRef logicalNot(UOpRef a) { return ne(a, constBool(true)); }
  UOpRef andOp(UOpRef a, UOpRef b) { return alu(Op::AND, {a, b}); }
  UOpRef orOp(UOpRef a, UOpRef b) { return alu(Op::OR, {a, b}); }
  UOpRef maximum(UOpRef a, UOpRef b) { return alu(Op::MAX, {a, b}); }
  UOpRef where(UOpRef c, UOpRef t, UOpRef f) { return alu(Op::WHERE, {c, t, f}); }
  UOpRef cast(UOpRef x, DType dt);
  UOpRef stack(llvm::ArrayRef<UOpRef> srcs);
  /// `UOp.const(c)` for a Python int: weakint, or x's dtype handled by
  /// promotion in `alu`.
  UOpRef ufix(UOpRef x, __int128 c);
  /// usum/uprod (bool: OR/AND). Empty lists are not allowed.
  UOpRef usum(llvm::ArrayRef<UOpRef> xs);
  UOpRef uprod(llvm::ArrayRef<UOpRef> xs);
  /// `UOp.variable(name, lo, hi, dtype)` (a PARAM with vmin_vmax).
  UOpRef variable(llvm::StringRef name, __int128 lo, __int128 hi,
                  DType dt = DType::WeakInt);
  /// Rebuild `x` with new sources (tinygrad's `x.replace(src=...)`):
  /// ALU ops re-derive their dtype, every op its shape and addrspace
  /// (derivedType).
  UOpRef replaceSrc(UOpRef x, llvm::ArrayRef<UOpRef> src);

  //===--------------------------------------------------------------------===//
  // Symbolic helpers (tinygrad's UOp methods of the same names)
  //===--------------------------------------------------------------------===//
  void splitUOp(UOpRef x, Op sep, llvm::SmallVectorImpl<UOpRef> &out) const;
  /// (x, c) if x = ADD/MUL(y, CONST c), else (x, identity).
  std::pair<UOpRef, __int128> popConst(UOpRef x, Op op = Op::ADD);
  __int128 constFactor(UOpRef x) const;
  UOpRef divides(UOpRef x, __int128 v);
  UOpRef divideExact(UOpRef x, UOpRef v);
  UOpRef gcd(llvm::ArrayRef<UOpRef> xs);
  /// tinygrad's `tuplize` ordering: a < b.
  bool tuplizeLess(UOpRef a, UOpRef b) const;
  /// Whether `needle` is in the backward slice of `x` (including x).
  bool inBackwardSlice(UOpRef needle, UOpRef x) const;
  bool opInBackwardSlice(UOpRef x, std::initializer_list<Op> ops) const;
  size_t backwardSliceSize(UOpRef x) const;

  /// A node -> node memo owned by this context, one per `key` (the address
  /// of a function-local static). Nodes are interned and immutable, so a
  /// pure function of a node can cache here for the context's lifetime, as
  /// tinygrad caches with functools.cache. A cached null means "no result".
  llvm::DenseMap<UOpRef, UOpRef> &memo(const void *key) {
    auto &m = memos[key];
    if (!m)
      m = std::make_unique<llvm::DenseMap<UOpRef, UOpRef>>();
    return *m;
  }

  /// Errors found while rewriting (division by zero, overflow, loops).
  llvm::SmallVector<std::string, 2> errors;
  unsigned numCreated = 0;

private:
  mlir::MLIRContext *mlir;
  mutable mlir::Type dtypeTypes[kNumDTypes] = {}; ///< typeFor cache
  llvm::BumpPtrAllocator alloc;
  llvm::DenseMap<llvm::hash_code, llvm::SmallVector<UOp *, 1>> table;
  llvm::DenseMap<const void *, std::unique_ptr<llvm::DenseMap<UOpRef, UOpRef>>> memos;
};

/// Numeric comparison of bounds values the way Python compares bool/int/float.
int compareScalar(const Scalar &a, const Scalar &b);
bool scalarLess(const Scalar &a, const Scalar &b);
/// Python-style rendering of a bound (True/False for bools).
std::string formatBound(const Scalar &s);

} // namespace mlir::tinygrad::sym

#endif
