//===- SplitCrossBlockVectors.h - register-sized values between blocks -*- C++ -*-===//
#ifndef TINYGRAD_TARGET_CPU_SPLITCROSSBLOCKVECTORS_H
#define TINYGRAD_TARGET_CPU_SPLITCROSSBLOCKVECTORS_H

#include "llvm/IR/Function.h"

namespace mlir::tinygrad::cpu {

/// Carries each vector value of `f` that lives across basic blocks (a loop's
/// accumulator phi, a value a later block reads) and spans a number of
/// `registerBits`-wide registers that is not a power of two as that many
/// register-sized values instead. Returns whether it changed `f`.
bool splitCrossBlockVectors(llvm::Function &f, unsigned registerBits);

} // namespace mlir::tinygrad::cpu

#endif
