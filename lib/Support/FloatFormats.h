//===- FloatFormats.h - bit-level small-float helpers (private) -*- C++ -*-===//

#ifndef TINYGRAD_LIB_SUPPORT_FLOATFORMATS_H
#define TINYGRAD_LIB_SUPPORT_FLOATFORMATS_H

#include <cstdint>
#include <optional>

namespace mlir {
namespace tinygrad {

/// struct.pack('e', x): RNE to IEEE half; nullopt where Python raises
/// OverflowError (the rounded value exceeds 65504).
std::optional<uint16_t> doubleToHalfBits(double x);
/// struct.unpack('e', ...).
double halfBitsToDouble(uint16_t bits);

} // namespace tinygrad
} // namespace mlir

#endif
