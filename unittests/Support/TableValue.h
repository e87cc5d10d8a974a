//===- TableValue.h - encoding of generated expected values -----*- C++ -*-===//
//
// The generated .inc tables spell Python values with these macros so the
// tables stay plain aggregate initializers.
//
//===----------------------------------------------------------------------===//

#ifndef TINYGRAD_UNITTESTS_SUPPORT_TABLEVALUE_H
#define TINYGRAD_UNITTESTS_SUPPORT_TABLEVALUE_H

#include "tinygrad/Support/ScalarALU.h"

#include <cstdint>
#include <cstring>
#include <optional>

namespace tablevalue {

struct TV {
  // 'i' int (hi:lo, two's complement), 'f' float (bits in lo), 'b' bool,
  // 'v' Invalid, 'x' tinygrad raised, 'o' a Python int past __int128,
  // 'n' no operand.
  char kind;
  int64_t hi;
  uint64_t lo;
};

#define TI(v) (::tablevalue::TV{'i', (v) < 0 ? -1 : 0, static_cast<uint64_t>(v)})
#define TI2(hi, lo) (::tablevalue::TV{'i', (hi), (lo)})
#define TF(bits) (::tablevalue::TV{'f', 0, (bits)})
#define TB(v) (::tablevalue::TV{'b', 0, static_cast<uint64_t>(v)})
#define TINV (::tablevalue::TV{'v', 0, 0})
#define TX (::tablevalue::TV{'x', 0, 0})
#define TO (::tablevalue::TV{'o', 0, 0})
#define TN (::tablevalue::TV{'n', 0, 0})

/// The Scalar a TV stands for; nullopt for "raised", "too big" and "none".
inline std::optional<mlir::tinygrad::Scalar> toScalar(const TV &t) {
  using mlir::tinygrad::Scalar;
  switch (t.kind) {
  case 'i':
    return Scalar::fromInt(static_cast<__int128>(
        (static_cast<unsigned __int128>(static_cast<uint64_t>(t.hi)) << 64) |
        t.lo));
  case 'f': {
    double d;
    std::memcpy(&d, &t.lo, 8);
    return Scalar::fromFloat(d);
  }
  case 'b': return Scalar::fromBool(t.lo != 0);
  case 'v': return Scalar::invalid();
  default: return std::nullopt;
  }
}

inline std::string show(const std::optional<mlir::tinygrad::Scalar> &s) {
  return s ? s->str() : std::string("<nullopt>");
}

} // namespace tablevalue

#endif
