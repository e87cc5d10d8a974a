//===- LoopAttributes.h - what the emitter records on its loops -*- C++ -*-===//
//
// Discardable attributes the kernel emitter (KernelToStandard) sets on the
// loops it creates, for later passes that cannot recompute them from the
// IR: tinygrad's bounds are known on the UOp graph, not on the scalar a
// kernel loads its variables from.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CONVERSION_LOOPATTRIBUTES_H
#define TINYGRAD_CONVERSION_LOOPATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

namespace mlir::tinygrad {

/// On an `scf.for` whose upper bound is not a constant (it depends on a
/// variable): the most times it can iterate, tinygrad's vmax of the RANGE's
/// bound (an i64 attribute). tg-gpu-loop-budget counts such a loop by it.
inline constexpr llvm::StringLiteral kMaxTripCountAttr = "tg.max_trip_count";

} // namespace mlir::tinygrad

#endif // TINYGRAD_CONVERSION_LOOPATTRIBUTES_H
