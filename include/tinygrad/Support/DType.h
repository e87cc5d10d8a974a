//===- DType.h - tinygrad scalar dtype model --------------------*- C++ -*-===//
//
// tinygrad's dtype table, predicates and promotion lattice (tinygrad/dtype.py)
// without any MLIR dependency, so both the dialects and the constant folder can
// share one definition of "what does tinygrad consider a uint8".
//
// Functions whose tinygrad counterpart raises return std::nullopt instead
// (LLVM is built without exceptions).
//
//===----------------------------------------------------------------------===//

#ifndef TINYGRAD_SUPPORT_DTYPE_H
#define TINYGRAD_SUPPORT_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir {
namespace tinygrad {

// Order matters: it is the enum order used by tables and by the dialects.
enum class DType : uint8_t {
  Void,
  WeakInt,
  Bool,
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  UInt128,
  UInt256,
  WeakFloat,
  FP8E4M3,
  FP8E5M2,
  FP8E4M3FNUZ,
  FP8E5M2FNUZ,
  Float16,
  BFloat16,
  Float32,
  Float64,
};

constexpr unsigned kNumDTypes = static_cast<unsigned>(DType::Float64) + 1;

struct DTypeInfo {
  int priority;
  int bitsize;
  int itemsize;
  /// Attribute name on `dtypes` (canonical spelling), e.g. "float32", "_uint128".
  llvm::StringLiteral name;
  /// tinygrad's DType.name (the C spelling), e.g. "float", "unsigned int".
  llvm::StringLiteral cname;
  /// struct format character, 0 when tinygrad has none.
  char fmt;
};

const DTypeInfo &getInfo(DType dt);
llvm::StringRef getName(DType dt);

/// Mirrors tinygrad's to_dtype(str): canonical attribute names plus the aliases
/// (half, float, double, char, uchar, short, ushort, int, uint, long, ulong);
/// case-insensitive because to_dtype lower()s its argument.
std::optional<DType> parseDType(llvm::StringRef attrName);

// Predicates, with tinygrad's exact membership: isInt/isFloat include the weak
// types; isUnsigned is only uint8..uint64 (tinygrad's dtypes.uints), so the
// internal _uint128/_uint256 are neither ints nor floats.
bool isFloat(DType dt);
bool isInt(DType dt);
bool isUnsigned(DType dt);
/// Not a tinygrad predicate: isInt && !isUnsigned (so weakint is signed).
bool isSigned(DType dt);
bool isWeak(DType dt);
bool isBool(DType dt);
bool isFP8(DType dt);
bool isFNUZ(DType dt);

/// tinygrad's strong_dtype with the default DEFAULT_INT/DEFAULT_FLOAT
/// (int32/float32).
DType strongDType(DType dt);
/// tinygrad's weak_dtype.
DType weakDType(DType dt);

/// DType.min / DType.max for integer dtypes of at most 64 bits and bool (0/1).
/// nullopt for weakint (bounds of +-2**799 do not fit) and non-integers.
std::optional<__int128> intMinValue(DType dt);
std::optional<__int128> intMaxValue(DType dt);
/// float(DType.min) / float(DType.max) for every dtype: +-inf for floats,
/// +-2**799 for weakint, False/True (0/1) for bool, void and _uint128/_uint256.
double floatMinValue(DType dt);
double floatMaxValue(DType dt);

struct FInfo {
  int exponent;
  int mantissa;
};
/// dtypes.finfo; nullopt for non-floats and weakfloat (tinygrad raises).
std::optional<FInfo> finfo(DType dt);

/// tinygrad's DType.__lt__ order: (priority, bitsize, cname, fmt).
bool dtypeLess(DType a, DType b);

/// least_upper_dtype over the promotion lattice. nullopt when tinygrad raises:
/// an empty list, or void/_uint128/_uint256 (not in the lattice).
std::optional<DType> leastUpperDType(llvm::ArrayRef<DType> dts);
/// least_upper_float (default_float = float32); nullopt where tinygrad raises.
std::optional<DType> leastUpperFloat(DType dt);
/// sum_acc_dtype with SUM_DTYPE unset (float32); nullopt where tinygrad raises.
std::optional<DType> sumAccDType(DType dt);
/// can_lossless_cast(from, to).
bool canLosslessCast(DType from, DType to);

} // namespace tinygrad
} // namespace mlir

#endif // TINYGRAD_SUPPORT_DTYPE_H
