//===- ScalarALU.h - tinygrad scalar constant semantics ---------*- C++ -*-===//
//
// A bit-faithful model of tinygrad's exec_alu/python_alu (tinygrad/uop/ops.py),
// truncate, CAST const folding and bitcast (tinygrad/dtype.py). A Scalar is a
// Python value: int, float, bool or the Invalid sentinel, and every operation
// follows Python's rules for the Python types involved (e.g. bool + bool is an
// int, math.trunc returns an int, int ** negative int is a float).
//
// Python ints are unbounded; here they are __int128. Whenever an exact result
// would not fit, the functions return std::nullopt, except that ring operations
// (add, sub, mul, neg, shl, pow) whose result is immediately truncated to an
// integer dtype of at most 64 bits keep the correct low bits, as ctypes does.
//
//===----------------------------------------------------------------------===//

#ifndef TINYGRAD_SUPPORT_SCALARALU_H
#define TINYGRAD_SUPPORT_SCALARALU_H

#include "tinygrad/Support/DType.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir {
namespace tinygrad {

struct Scalar {
  enum Kind : uint8_t { Int, Float, Bool, Invalid };
  Kind kind = Int;
  __int128 i = 0;
  double f = 0.0;
  bool b = false;

  static Scalar fromInt(__int128 v) {
    Scalar s;
    s.kind = Int;
    s.i = v;
    return s;
  }
  static Scalar fromFloat(double v) {
    Scalar s;
    s.kind = Float;
    s.f = v;
    return s;
  }
  static Scalar fromBool(bool v) {
    Scalar s;
    s.kind = Bool;
    s.b = v;
    return s;
  }
  static Scalar invalid() {
    Scalar s;
    s.kind = Invalid;
    return s;
  }

  bool isInt() const { return kind == Int; }
  bool isFloat() const { return kind == Float; }
  bool isBool() const { return kind == Bool; }
  bool isInvalid() const { return kind == Invalid; }

  /// Identity as a constant (like ConstFloat's cache key): kinds must match,
  /// floats compare by bits except that every nan equals every nan, so
  /// -0.0 != 0.0 and nan == nan.
  bool operator==(const Scalar &o) const;
  bool operator!=(const Scalar &o) const { return !(*this == o); }

  /// Python-ish repr for diagnostics: "3", "-0.0", "nan", "True", "Invalid".
  std::string str() const;
};

enum class ALUOp {
  Exp2,
  Log2,
  Sin,
  Sqrt,
  Reciprocal,
  Neg,
  Trunc,
  Add,
  Mul,
  Shl,
  Shr,
  CDiv,
  Max,
  CMod,
  CmpLt,
  CmpNe,
  CmpEq,
  Xor,
  Or,
  And,
  Threefry,
  Sub,
  FDiv,
  Pow,
  FloorDiv,
  FloorMod,
  Where,
  MulAcc,
};

unsigned getNumOperands(ALUOp op);

/// tinygrad's exec_alu(op, dtype, operands, truncate_output) on scalars, with
/// operands as tinygrad's const folder sees them (float CONST args are
/// ConstFloat, so CMPNE/CMPEQ treat nan as equal to nan).
///
/// Returns nullopt exactly where tinygrad raises, plus where a Python int
/// result does not fit __int128 (see file comment). Raising cases:
///  * wrong operand count (tinygrad: TypeError);
///  * FDIV: python_alu has no entry (KeyError) -- unless an operand is
///    Invalid, since the Invalid check comes first;
///  * THREEFRY: python_alu has no entry either; it is evaluated here as its
///    decomposition threefry2x32 with uint32 wraparound (the value tinygrad's
///    runtime computes) for dtype uint64 only, nullopt for other dtypes;
///  * SHL/SHR/XOR/OR/AND with a float operand, or a negative shift count;
///  * unary ops, MULACC and WHERE-as-arithmetic on Invalid (TypeError);
///  * POW overflowing a float (OverflowError is not caught by safe_pow);
///  * SHL/POW/EXP2 that would build a Python int of 2**40 bits or more
///    (MemoryError/OverflowError in Python);
///  * truncating a float (or Invalid) to an integer dtype (ctypes TypeError),
///    or Invalid to a float dtype -- e.g. WHERE(c, Invalid, x) with dtype int32
///    and truncateOutput, while dtype bool makes it True.
std::optional<Scalar> execALU(ALUOp op, DType dtype,
                              llvm::ArrayRef<Scalar> operands,
                              bool truncateOutput = true);

/// tinygrad's truncate[dtype](x) (identity for dtypes without an entry: void,
/// weakint, weakfloat, _uint128, _uint256). nullopt where it raises.
std::optional<Scalar> truncate(DType dtype, const Scalar &x);

/// Folding of CAST(CONST) = dtype.const(x): floats round through truncate,
/// bool is truthiness, and every other dtype takes int(x) *without wrapping*
/// (tinygrad keeps e.g. 300 as a uint8 const). nullopt for int(nan), int(inf).
std::optional<Scalar> castScalar(const Scalar &x, DType to);

/// tinygrad's bitcast(x, from, to) through struct; nullopt on itemsize
/// mismatch, dtypes without a struct format, or values struct rejects.
std::optional<Scalar> bitcastScalar(const Scalar &x, DType from, DType to);

/// float_to_fp16 (RNE, overflow to signed inf).
double roundToFloat16(double x);
/// float_to_bf16 (via float32 first, then RNE on the bit pattern).
double roundToBFloat16(double x);
/// fp8_to_float(float_to_fp8(x, dt), dt); dt must be an fp8 dtype.
double roundToFP8(double x, DType dt);
uint8_t floatToFP8Bits(double x, DType dt);
double fp8BitsToFloat(uint8_t bits, DType dt);

} // namespace tinygrad
} // namespace mlir

#endif // TINYGRAD_SUPPORT_SCALARALU_H
