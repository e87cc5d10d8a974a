//===- X86TruncatingConverts.h - guarded float->int to x86's cvtt* --*- C++ -*-===//
#ifndef TINYGRAD_TARGET_CPU_X86TRUNCATINGCONVERTS_H
#define TINYGRAD_TARGET_CPU_X86TRUNCATINGCONVERTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"

namespace mlir::tinygrad::cpu {

/// Replaces the emitter's guarded float -> signed conversions in `f` (after
/// LLVM's pipeline) by x86's truncating converts, which give the guard's
/// INT_MIN themselves. `features` is the target's feature string.
void useX86TruncatingConverts(llvm::Function &f, llvm::StringRef features);

} // namespace mlir::tinygrad::cpu

#endif
