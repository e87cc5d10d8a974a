//===- FloatFormats.cpp - fp16 / bf16 / fp8 conversions -------------------===//
//
// tinygrad's float_to_fp16, float_to_bf16 and fp8 conversions
// (tinygrad/dtype.py), done on bits so no host _Float16/bf16 support is needed.
//
//===----------------------------------------------------------------------===//

#include "FloatFormats.h"
#include "tinygrad/Support/ScalarALU.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::tinygrad;

std::optional<uint16_t> mlir::tinygrad::doubleToHalfBits(double x) {
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x))
    return sign | 0x7e00; // CPython packs every nan as the plain quiet nan
  if (std::isinf(x))
    return sign | 0x7c00;
  double a = std::fabs(x);
  if (a == 0.0)
    return sign;
  int e;
  std::frexp(a, &e);
  // Quantum of the half-precision grid around a (fixed below the normals).
  int qexp = e - 1 < -14 ? -24 : e - 1 - 10;
  double q = std::nearbyint(std::ldexp(a, -qexp)); // RNE, scaling is exact
  double v = std::ldexp(q, qexp);
  if (v > 65504.0)
    return std::nullopt;
  if (v < 0x1p-14) // subnormal (or rounded up to exactly the smallest normal)
    return sign | static_cast<uint16_t>(q);
  std::frexp(v, &e);
  int biased = e - 1 + 15;
  uint16_t mant = static_cast<uint16_t>(std::ldexp(v, -(e - 1) + 10) - 1024);
  return sign | static_cast<uint16_t>(biased << 10) | mant;
}

double mlir::tinygrad::halfBitsToDouble(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exp = (bits >> 10) & 0x1f, mant = bits & 0x3ff;
  if (exp == 0x1f)
    return mant ? std::copysign(std::numeric_limits<double>::quiet_NaN(), sign)
                : sign * std::numeric_limits<double>::infinity();
  if (exp == 0)
    return sign * std::ldexp(mant, -24);
  return sign * std::ldexp(1024 + mant, exp - 25);
}

double mlir::tinygrad::roundToFloat16(double x) {
  std::optional<uint16_t> bits = doubleToHalfBits(x);
  if (!bits) // float_to_fp16 maps OverflowError to a signed inf
    return std::copysign(std::numeric_limits<double>::infinity(), x);
  return halfBitsToDouble(*bits);
}

double mlir::tinygrad::roundToBFloat16(double x) {
  if (!std::isfinite(x))
    return x;
  // Rounds twice on purpose: to float32 first, then RNE on the top 16 bits.
  float f = static_cast<float>(x);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u = static_cast<uint32_t>((uint64_t(u) + 0x7FFF + ((u >> 16) & 1)) &
                            0xFFFF0000u);
  std::memcpy(&f, &u, 4);
  return f;
}

namespace {
struct FP8Cfg {
  int bias, sigBits;
  uint64_t mantMask, minDenormHalf, ovfThreshold, maxNorm, minNorm;
};

// Thresholds from CUDA's cuda_fp8.hpp, as tinygrad's _fp8_cfg uses them.
const FP8Cfg &fp8Cfg(DType dt) {
  static const FP8Cfg kE4M3 = {7, 4, 0x7, 0x3F50000000000000,
                               0x407D000000000000, 0x7E, 0x3F90000000000000};
  static const FP8Cfg kE5M2 = {15, 3, 0x3, 0x3EE0000000000000,
                               0x40EE000000000000 - 1, 0x7B,
                               0x3F10000000000000};
  static const FP8Cfg kE4M3FNUZ = {8, 4, 0x7, 0x3F40000000000000,
                                   0x406F000000000000 - 1, 0x7F,
                                   0x3F80000000000000};
  static const FP8Cfg kE5M2FNUZ = {16, 3, 0x3, 0x3ED0000000000000,
                                   0x40EE000000000000 - 1, 0x7F,
                                   0x3F00000000000000};
  switch (dt) {
  case DType::FP8E4M3: return kE4M3;
  case DType::FP8E5M2: return kE5M2;
  case DType::FP8E4M3FNUZ: return kE4M3FNUZ;
  default: return kE5M2FNUZ;
  }
}
} // namespace

uint8_t mlir::tinygrad::floatToFP8Bits(double x, DType dt) {
  bool fnuz = isFNUZ(dt);
  if (fnuz && !std::isfinite(x))
    return 0x80;
  if (fnuz && x == 0.0)
    return 0x00;
  if (dt == DType::FP8E4M3 && !std::isfinite(x)) // no inf: saturate to nan
    return std::signbit(x) ? 0xff : 0x7f;
  if (dt == DType::FP8E5M2 && !std::isfinite(x))
    return (std::signbit(x) ? 0x80 : 0) | (std::isinf(x) ? 0x7c : 0x7f);
  const FP8Cfg &c = fp8Cfg(dt);
  uint64_t xbits;
  std::memcpy(&xbits, &x, 8);
  uint64_t halfUlp = uint64_t(1) << (52 - c.sigBits);
  uint64_t sign = ((xbits >> 63) & 1) << 7;
  int64_t exp = int64_t((xbits >> 52) & 0x7FF) - 1023 + c.bias;
  uint64_t mantissa = (xbits >> (53 - c.sigBits)) & c.mantMask;
  uint64_t absx = xbits & 0x7FFFFFFFFFFFFFFF;
  uint64_t res;
  if (absx <= c.minDenormHalf) {
    res = 0;
  } else if (absx > c.ovfThreshold) {
    res = c.maxNorm;
  } else if (absx >= c.minNorm) {
    res = (uint64_t(exp) << (c.sigBits - 1)) | mantissa;
    uint64_t roundBits = xbits & ((halfUlp << 1) - 1);
    if (roundBits > halfUlp || (roundBits == halfUlp && (mantissa & 1)))
      res += 1;
  } else {
    int64_t shift = 1 - exp;
    mantissa |= uint64_t(1) << (c.sigBits - 1);
    res = mantissa >> shift;
    uint64_t half = halfUlp << shift;
    uint64_t roundBits = (xbits | (uint64_t(1) << 52)) & ((half << 1) - 1);
    if (roundBits > half || (roundBits == half && (res & 1)))
      res += 1;
  }
  if (fnuz && res == 0) // fnuz has no negative zero
    return 0;
  return static_cast<uint8_t>(res | sign);
}

double mlir::tinygrad::fp8BitsToFloat(uint8_t x, DType dt) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  bool fnuz = isFNUZ(dt);
  if (fnuz && x == 0x80)
    return nan;
  if ((x & 0x7F) == 0)
    return (x & 0x80) ? -0.0 : 0.0;
  const FP8Cfg &c = fp8Cfg(dt);
  int mantBits = c.sigBits - 1, expBits = 8 - c.sigBits;
  int expMax = (1 << expBits) - 1, mantMax = (1 << mantBits) - 1;
  int sign = (x >> 7) & 1, exp = (x >> mantBits) & expMax,
      mantissa = x & mantMax;
  if (!fnuz && exp == expMax) {
    if (dt == DType::FP8E5M2)
      return std::copysign(mantissa ? nan : std::numeric_limits<double>::infinity(),
                           sign ? -1.0 : 1.0);
    if (mantissa == mantMax)
      return nan;
  }
  double frac = double(mantissa) / (mantMax + 1);
  double val = exp == 0 ? std::ldexp(frac, 1 - c.bias)
                        : std::ldexp(1 + frac, exp - c.bias);
  return sign ? -val : val;
}

double mlir::tinygrad::roundToFP8(double x, DType dt) {
  return fp8BitsToFloat(floatToFP8Bits(x, dt), dt);
}
