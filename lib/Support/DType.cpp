//===- DType.cpp - tinygrad scalar dtype model ----------------------------===//

#include "tinygrad/Support/DType.h"


#include "llvm/ADT/StringSwitch.h"

#include <array>
#include <cmath>
#include <limits>
#include <string>

using namespace mlir::tinygrad;

namespace {
using D = DType;

constexpr DTypeInfo kInfos[kNumDTypes] = {
    {-1, 0, 0, "void", "void", 0},
    {0, 800, 100, "weakint", "weakint", 0},
    {0, 1, 1, "bool", "bool", '?'},
    {1, 8, 1, "int8", "signed char", 'b'},
    {2, 8, 1, "uint8", "unsigned char", 'B'},
    {3, 16, 2, "int16", "short", 'h'},
    {4, 16, 2, "uint16", "unsigned short", 'H'},
    {5, 32, 4, "int32", "int", 'i'},
    {6, 32, 4, "uint32", "unsigned int", 'I'},
    {7, 64, 8, "int64", "long", 'q'},
    {8, 64, 8, "uint64", "unsigned long", 'Q'},
    {8, 128, 16, "_uint128", "uint128", 0},
    {8, 256, 32, "_uint256", "uint256", 0},
    {9, 800, 100, "weakfloat", "weakfloat", 0},
    {10, 8, 1, "fp8e4m3", "float8_e4m3", 0},
    {11, 8, 1, "fp8e5m2", "float8_e5m2", 0},
    {10, 8, 1, "fp8e4m3fnuz", "float8_e4m3fnuz", 0},
    {11, 8, 1, "fp8e5m2fnuz", "float8_e5m2fnuz", 0},
    {12, 16, 2, "float16", "half", 'e'},
    {13, 16, 2, "bfloat16", "__bf16", 0},
    {14, 32, 4, "float32", "float", 'f'},
    {15, 64, 8, "float64", "double", 'd'},
};

constexpr uint32_t bit(DType d) { return 1u << static_cast<unsigned>(d); }

// Direct parents in tinygrad's promo_lattice (JAX JEP-9407 style). Void and the
// internal wide uints have no entry: tinygrad raises KeyError for them.
uint32_t directParents(DType d) {
  switch (d) {
  case D::Bool: return bit(D::WeakInt);
  case D::WeakInt: return bit(D::Int8) | bit(D::UInt8);
  case D::Int8: return bit(D::Int16);
  case D::Int16: return bit(D::Int32);
  case D::Int32: return bit(D::Int64);
  case D::Int64: return bit(D::WeakFloat);
  case D::UInt8: return bit(D::Int16) | bit(D::UInt16);
  case D::UInt16: return bit(D::Int32) | bit(D::UInt32);
  case D::UInt32: return bit(D::Int64) | bit(D::UInt64);
  case D::UInt64: return bit(D::WeakFloat);
  case D::WeakFloat:
    return bit(D::FP8E4M3) | bit(D::FP8E5M2) | bit(D::FP8E4M3FNUZ) |
           bit(D::FP8E5M2FNUZ);
  case D::FP8E4M3:
  case D::FP8E5M2:
  case D::FP8E4M3FNUZ:
  case D::FP8E5M2FNUZ: return bit(D::Float16) | bit(D::BFloat16);
  case D::Float16:
  case D::BFloat16: return bit(D::Float32);
  case D::Float32: return bit(D::Float64);
  default: return 0;
  }
}

bool inLattice(DType d) { return d == D::Float64 || directParents(d) != 0; }

// Reflexive-transitive closure of directParents.
uint32_t computeAncestors(DType d) {
  uint32_t set = bit(d);
  uint32_t parents = directParents(d);
  for (unsigned i = 0; i < kNumDTypes; ++i)
    if (parents & (1u << i))
      set |= computeAncestors(static_cast<DType>(i));
  return set;
}

// Promotion runs on every mixed-dtype node the symbolic engine builds: the
// closure is computed once per dtype.
uint32_t ancestors(DType d) {
  static const std::array<uint32_t, kNumDTypes> table = [] {
    std::array<uint32_t, kNumDTypes> t{};
    for (unsigned i = 0; i < kNumDTypes; ++i)
      t[i] = computeAncestors(static_cast<DType>(i));
    return t;
  }();
  return table[static_cast<unsigned>(d)];
}
} // namespace

const DTypeInfo &mlir::tinygrad::getInfo(DType dt) {
  return kInfos[static_cast<unsigned>(dt)];
}

llvm::StringRef mlir::tinygrad::getName(DType dt) { return getInfo(dt).name; }

std::optional<DType> mlir::tinygrad::parseDType(llvm::StringRef attrName) {
  std::string lower = attrName.lower();
  for (unsigned i = 0; i < kNumDTypes; ++i)
    if (kInfos[i].name == lower)
      return static_cast<DType>(i);
  auto alias = llvm::StringSwitch<std::optional<DType>>(lower)
                   .Case("half", D::Float16)
                   .Case("float", D::Float32)
                   .Case("double", D::Float64)
                   .Case("uchar", D::UInt8)
                   .Case("ushort", D::UInt16)
                   .Case("uint", D::UInt32)
                   .Case("ulong", D::UInt64)
                   .Case("char", D::Int8)
                   .Case("short", D::Int16)
                   .Case("int", D::Int32)
                   .Case("long", D::Int64)
                   .Default(std::nullopt);
  return alias;
}

bool mlir::tinygrad::isFP8(DType dt) {
  return dt == D::FP8E4M3 || dt == D::FP8E5M2 || dt == D::FP8E4M3FNUZ ||
         dt == D::FP8E5M2FNUZ;
}
bool mlir::tinygrad::isFNUZ(DType dt) {
  return dt == D::FP8E4M3FNUZ || dt == D::FP8E5M2FNUZ;
}
bool mlir::tinygrad::isFloat(DType dt) {
  return dt >= D::WeakFloat && dt <= D::Float64;
}
bool mlir::tinygrad::isUnsigned(DType dt) {
  return dt == D::UInt8 || dt == D::UInt16 || dt == D::UInt32 ||
         dt == D::UInt64;
}
bool mlir::tinygrad::isInt(DType dt) {
  return dt == D::WeakInt || (dt >= D::Int8 && dt <= D::UInt64);
}
bool mlir::tinygrad::isSigned(DType dt) { return isInt(dt) && !isUnsigned(dt); }
bool mlir::tinygrad::isWeak(DType dt) {
  return dt == D::WeakInt || dt == D::WeakFloat;
}
bool mlir::tinygrad::isBool(DType dt) { return dt == D::Bool; }

DType mlir::tinygrad::strongDType(DType dt) {
  if (dt == D::WeakInt)
    return D::Int32;
  if (dt == D::WeakFloat)
    return D::Float32;
  return dt;
}

DType mlir::tinygrad::weakDType(DType dt) {
  if (isFloat(dt))
    return D::WeakFloat;
  if (isInt(dt))
    return D::WeakInt;
  return dt;
}

std::optional<__int128> mlir::tinygrad::intMinValue(DType dt) {
  if (dt == D::Bool)
    return 0;
  if (!isInt(dt) || dt == D::WeakInt)
    return std::nullopt;
  if (isUnsigned(dt))
    return 0;
  return -(static_cast<__int128>(1) << (getInfo(dt).bitsize - 1));
}

std::optional<__int128> mlir::tinygrad::intMaxValue(DType dt) {
  if (dt == D::Bool)
    return 1;
  if (!isInt(dt) || dt == D::WeakInt)
    return std::nullopt;
  int bits = getInfo(dt).bitsize - (isUnsigned(dt) ? 0 : 1);
  return (static_cast<__int128>(1) << bits) - 1;
}

double mlir::tinygrad::floatMinValue(DType dt) {
  if (dt == D::WeakInt)
    return -std::ldexp(1.0, 799);
  if (auto v = intMinValue(dt))
    return static_cast<double>(*v);
  return isFloat(dt) ? -std::numeric_limits<double>::infinity() : 0.0;
}

double mlir::tinygrad::floatMaxValue(DType dt) {
  // 2**800-1-2**799 rounds to 2**799 as a double.
  if (dt == D::WeakInt)
    return std::ldexp(1.0, 799);
  if (auto v = intMaxValue(dt))
    return static_cast<double>(*v);
  return isFloat(dt) ? std::numeric_limits<double>::infinity() : 1.0;
}

std::optional<FInfo> mlir::tinygrad::finfo(DType dt) {
  switch (dt) {
  case D::Float16: return FInfo{5, 10};
  case D::BFloat16: return FInfo{8, 7};
  case D::Float32: return FInfo{8, 23};
  case D::Float64: return FInfo{11, 52};
  case D::FP8E4M3:
  case D::FP8E4M3FNUZ: return FInfo{4, 3};
  case D::FP8E5M2:
  case D::FP8E5M2FNUZ: return FInfo{5, 2};
  default: return std::nullopt;
  }
}

bool mlir::tinygrad::dtypeLess(DType a, DType b) {
  const DTypeInfo &x = getInfo(a), &y = getInfo(b);
  if (x.priority != y.priority)
    return x.priority < y.priority;
  if (x.bitsize != y.bitsize)
    return x.bitsize < y.bitsize;
  if (x.cname != y.cname)
    return x.cname < y.cname;
  return x.fmt < y.fmt;
}

std::optional<DType> mlir::tinygrad::leastUpperDType(llvm::ArrayRef<DType> dts) {
  if (dts.empty())
    return std::nullopt;
  uint32_t common = ~0u;
  for (DType d : dts) {
    if (!inLattice(d))
      return std::nullopt;
    common &= ancestors(d);
  }
  // float64 is the lattice top, so the intersection is never empty.
  std::optional<DType> best;
  for (unsigned i = 0; i < kNumDTypes; ++i) {
    DType d = static_cast<DType>(i);
    if ((common & bit(d)) && (!best || dtypeLess(d, *best)))
      best = d;
  }
  return best;
}

std::optional<DType> mlir::tinygrad::leastUpperFloat(DType dt) {
  if (dt == D::WeakInt)
    return D::WeakFloat;
  if (isFloat(dt))
    return dt;
  return leastUpperDType({dt, D::Float32});
}

std::optional<DType> mlir::tinygrad::sumAccDType(DType dt) {
  if (isUnsigned(dt))
    return leastUpperDType({dt, D::UInt32});
  if (isInt(dt) || dt == D::Bool)
    return leastUpperDType({dt, D::Int32});
  return leastUpperDType({dt, D::Float32});
}

bool mlir::tinygrad::canLosslessCast(DType from, DType to) {
  if (from == to || from == D::Bool)
    return true;
  auto in = [from](std::initializer_list<DType> set) {
    for (DType d : set)
      if (d == from)
        return true;
    return false;
  };
  switch (to) {
  case D::WeakInt:
    return isInt(from) && from != D::WeakInt;
  case D::Float64:
    return isFP8(from) ||
           in({D::Float32, D::Float16, D::BFloat16, D::UInt32, D::UInt16,
               D::UInt8, D::Int32, D::Int16, D::Int8});
  case D::Float32:
    return isFP8(from) || in({D::Float16, D::BFloat16, D::UInt16, D::UInt8,
                              D::Int16, D::Int8});
  case D::Float16:
    return isFP8(from) || in({D::UInt8, D::Int8});
  case D::UInt64: return in({D::UInt32, D::UInt16, D::UInt8});
  case D::UInt32: return in({D::UInt16, D::UInt8});
  case D::UInt16: return in({D::UInt8});
  case D::Int64:
    return in({D::UInt32, D::UInt16, D::UInt8, D::Int32, D::Int16, D::Int8});
  case D::Int32: return in({D::UInt16, D::UInt8, D::Int16, D::Int8});
  case D::Int16: return in({D::UInt8, D::Int8});
  default: return false;
  }
}
