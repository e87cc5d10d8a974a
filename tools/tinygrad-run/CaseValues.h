//===- CaseValues.h - buffer values of a kernel case, by dtype ---*- C++ -*-===//
//
// How tinygrad's dtypes lie in memory and how the corpus JSON spells their
// values: encode a JSON element into a buffer, decode one back, compare
// floats within 1e-5 relative or 2 ulp (fp8s exactly: their values are
// few, and tinygrad's emulation is reproduced bit for bit). Shared by
// tinygrad-run and bench-kernels.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TOOLS_CASEVALUES_H
#define TINYGRAD_TOOLS_CASEVALUES_H

#include "tinygrad/Support/DType.h"
#include "tinygrad/Support/ScalarALU.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <string>

namespace tgcase {
namespace json = llvm::json;

struct DTypeDesc {
  enum Kind { Int, UInt, Float, Bool } kind;
  unsigned bytes;
};
inline std::optional<DTypeDesc> describe(llvm::StringRef dt) {
  static const std::map<std::string, DTypeDesc> table = {
      {"bool", {DTypeDesc::Bool, 1}},     {"int8", {DTypeDesc::Int, 1}},
      {"uint8", {DTypeDesc::UInt, 1}},    {"int16", {DTypeDesc::Int, 2}},
      {"uint16", {DTypeDesc::UInt, 2}},   {"int32", {DTypeDesc::Int, 4}},
      {"uint32", {DTypeDesc::UInt, 4}},   {"int64", {DTypeDesc::Int, 8}},
      {"uint64", {DTypeDesc::UInt, 8}},   {"float16", {DTypeDesc::Float, 2}},
      {"bfloat16", {DTypeDesc::Float, 2}}, {"float32", {DTypeDesc::Float, 4}},
      {"float64", {DTypeDesc::Float, 8}}, {"fp8e4m3", {DTypeDesc::Float, 1}},
      {"fp8e5m2", {DTypeDesc::Float, 1}}, {"fp8e4m3fnuz", {DTypeDesc::Float, 1}},
      {"fp8e5m2fnuz", {DTypeDesc::Float, 1}}};
  auto it = table.find(dt.str());
  if (it == table.end())
    return std::nullopt;
  return it->second;
}

/// A JSON element as a double (floats), or an integer.
inline std::optional<double> asDouble(const json::Value &v) {
  if (auto d = v.getAsNumber())
    return *d;
  if (auto b = v.getAsBoolean())
    return *b ? 1.0 : 0.0;
  if (auto s = v.getAsString()) {
    if (*s == "nan")
      return std::nan("");
    if (*s == "-nan")
      return -std::nan("");
    if (*s == "inf")
      return INFINITY;
    if (*s == "-inf")
      return -INFINITY;
  }
  return std::nullopt;
}
inline std::optional<int64_t> asInt(const json::Value &v) {
  if (auto i = v.getAsInteger())
    return *i;
  if (auto u = v.getAsUINT64())
    return (int64_t)*u;
  if (auto b = v.getAsBoolean())
    return *b ? 1 : 0;
  return std::nullopt;
}

/// float32 -> bfloat16 bits, round to nearest even (NaN stays NaN).
inline uint16_t floatToBF16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return uint16_t((bits >> 16) | 0x40);
  bits += 0x7fff + ((bits >> 16) & 1);
  return uint16_t(bits >> 16);
}

/// The fp8 dtype a buffer dtype names, if it is one.
inline std::optional<mlir::tinygrad::DType> fp8DType(llvm::StringRef dt) {
  auto d = mlir::tinygrad::parseDType(dt);
  return d && mlir::tinygrad::isFP8(*d) ? d : std::nullopt;
}

/// Encodes one element into memory in the dtype's layout.
inline bool encode(const json::Value &v, llvm::StringRef dt, const DTypeDesc &d, char *dst) {
  if (d.kind == DTypeDesc::Float) {
    auto x = asDouble(v);
    if (!x)
      return false;
    // Corpus floats are float32-exact: round through float32 first.
    float f = (float)*x;
    if (auto f8 = fp8DType(dt)) {
      // tinygrad's float_to_fp8 (how its buffers take fp8 values)
      *dst = (char)mlir::tinygrad::floatToFP8Bits(*x, *f8);
    } else if (dt == "float64") {
      double dd = std::isnan(*x) ? *x : (double)f;
      if (v.getAsNumber())
        dd = *x;
      std::memcpy(dst, &dd, 8);
    } else if (dt == "float32") {
      std::memcpy(dst, &f, 4);
    } else if (dt == "float16") {
      _Float16 h = (_Float16)f;
      std::memcpy(dst, &h, 2);
    } else {
      uint16_t h = floatToBF16(f);
      std::memcpy(dst, &h, 2);
    }
    return true;
  }
  auto i = asInt(v);
  if (!i)
    return false;
  std::memcpy(dst, &*i, d.bytes); // little endian: the low bytes
  return true;
}

/// Decodes an element as (is-float, double value, integer value).
struct Elem {
  bool isFloat;
  double f;
  int64_t i;
  uint64_t u;
};
inline Elem decode(const char *src, llvm::StringRef dt, const DTypeDesc &d) {
  Elem e{d.kind == DTypeDesc::Float, 0, 0, 0};
  if (auto f8 = fp8DType(dt))
    e.f = mlir::tinygrad::fp8BitsToFloat((uint8_t)*src, *f8);
  else if (dt == "float64")
    std::memcpy(&e.f, src, 8);
  else if (dt == "float32") {
    float f;
    std::memcpy(&f, src, 4);
    e.f = f;
  } else if (dt == "float16") {
    _Float16 h;
    std::memcpy(&h, src, 2);
    e.f = (double)h;
  } else if (dt == "bfloat16") {
    uint16_t h;
    std::memcpy(&h, src, 2);
    uint32_t bits = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    e.f = f;
  } else {
    uint64_t raw = 0;
    std::memcpy(&raw, src, d.bytes);
    if (d.kind == DTypeDesc::Int && d.bytes < 8) {
      unsigned sh = 64 - 8 * d.bytes;
      e.i = (int64_t)(raw << sh) >> sh;
    } else {
      e.i = (int64_t)raw;
    }
    e.u = raw;
    if (d.kind == DTypeDesc::Bool)
      e.i = raw != 0;
  }
  return e;
}

/// ULP distance in the dtype's own precision.
inline double ulpOf(double x, llvm::StringRef dt) {
  int mant = dt == "float64" ? 52 : dt == "float32" ? 23 : dt == "float16" ? 10 : 7;
  int e;
  std::frexp(std::fabs(x), &e);
  return std::ldexp(1.0, e - 1 - mant);
}

/// `exact`: bit for bit (a zero only matches a zero of its sign; NaNs
/// still match NaNs). Off by default, as the comparison tinygrad-run
/// promises: our heuristic's summation split may round a sum differently.
/// Whether `got` is `want` as far as a float comparison goes: NaN for NaN,
/// else within 1e-5 relative or 2 ulps of the dtype, or (`absFloor` > 0,
/// --scaled-tolerance) within that absolute distance.
inline bool floatsMatch(double got, double want, llvm::StringRef dt, bool exact = false, double absFloor = 0) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want);
  if (exact)
    return got == want && std::signbit(got) == std::signbit(want);
  if (std::isinf(got) || std::isinf(want))
    return got == want;
  if (fp8DType(dt))
    return got == want && std::signbit(got) == std::signbit(want);
  if (got == want)
    return true;
  double diff = std::fabs(got - want);
  double scale = std::max(std::fabs(got), std::fabs(want));
  return diff <= 1e-5 * scale || diff <= 2 * ulpOf(scale, dt) || diff <= absFloor;
}

/// --scaled-tolerance's absolute floor for an output: 1e-5 (1e-2 at 16 bits
/// and fewer) of its largest finite expected magnitude. A long sum summed
/// in another order (our split accumulators) rounds in proportion to its
/// terms, not to its value, which cancellation makes small; an output
/// computed wrong is off by the terms' size.
template <typename ValueAt>
double scaledFloor(int64_t count, unsigned itemBytes, ValueAt valueAt) {
  double largest = 0;
  for (int64_t i = 0; i < count; ++i) {
    std::optional<double> v = valueAt(i);
    if (v && std::isfinite(*v))
      largest = std::max(largest, std::fabs(*v));
  }
  return (itemBytes <= 2 ? 1e-2 : 1e-5) * largest;
}

/// A value as JSON: numbers, with non-finite floats spelled as the corpus
/// does ("nan", "inf", "-inf") since JSON has no such numbers.
inline llvm::json::Value toJSON(const Elem &e, const DTypeDesc &d) {
  if (e.isFloat) {
    if (std::isnan(e.f))
      return std::signbit(e.f) ? "-nan" : "nan";
    if (std::isinf(e.f))
      return e.f > 0 ? "inf" : "-inf";
    return e.f;
  }
  if (d.kind == DTypeDesc::Bool)
    return e.i != 0;
  if (d.kind == DTypeDesc::UInt)
    return e.u;
  return e.i;
}

inline std::string show(const Elem &e, const DTypeDesc &d) {
  if (e.isFloat) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", e.f);
    return buf;
  }
  return d.kind == DTypeDesc::UInt ? std::to_string(e.u) : std::to_string(e.i);
}

} // namespace tgcase

#endif
