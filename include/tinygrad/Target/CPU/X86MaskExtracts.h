//===- X86MaskExtracts.h - lanes of a compare as scalar compares -*- C++ -*-===//
#ifndef TINYGRAD_TARGET_CPU_X86MASKEXTRACTS_H
#define TINYGRAD_TARGET_CPU_X86MASKEXTRACTS_H

#include "llvm/IR/Function.h"

namespace mlir::tinygrad::cpu {

/// In `f` (after LLVM's pipeline, for an AVX-512 target): each lane read
/// out of a vector compare or i1 truncation that has other uses becomes a
/// scalar compare (truncation) of that lane's operands, so the mask never
/// goes from a k register to a general one while another instruction still
/// reads it (LLVM 22's EVEX compression drops such a mask). True if
/// anything changed.
bool scalarizeMaskExtracts(llvm::Function &f);

} // namespace mlir::tinygrad::cpu

#endif
