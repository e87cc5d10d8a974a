//===- TransposeLaneGathers.h - transposed tile stores in registers -*- C++ -*-===//
#ifndef TINYGRAD_TARGET_CPU_TRANSPOSELANEGATHERS_H
#define TINYGRAD_TARGET_CPU_TRANSPOSELANEGATHERS_H

#include "llvm/IR/Function.h"

namespace mlir::tinygrad::cpu {

/// Rewrites each group of 128-bit shufflevectors of `f` that gather the same
/// lane of the same `registerBits`-wide registers of one wider vector (the
/// stores of a register tile whose contiguous axis runs across registers) as
/// one in-register transpose of those registers, read 128 bits at a time.
/// 32- and 64-bit lanes; a lone gather stays. Returns whether it changed `f`.
bool transposeLaneGathers(llvm::Function &f, unsigned registerBits);

} // namespace mlir::tinygrad::cpu

#endif
