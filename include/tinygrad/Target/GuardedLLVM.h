//===- GuardedLLVM.h - LLVM's passes with their aborts as errors -*- C++ -*-===//
//
// LLVM's back ends abort the process on some inputs they do not handle
// (report_fatal_error, a crash): the random-program sweeps met x86's
// instruction selection on vectors of 32784 lanes and AMDGPU's on a vector
// fpext of 5 half lanes, each worked around where it was found. Such an
// abort ended the process that embeds us (tinygrad, a Python program) and
// every kernel after it; run under runGuardedLLVM it is one kernel's failed
// compile, reported as an error.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_GUARDEDLLVM_H
#define TINYGRAD_TARGET_GUARDEDLLVM_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"

namespace mlir::tinygrad {

/// Runs `fn` (LLVM's passes over a module of ours) so that an abort inside
/// it returns false instead of ending the process. LLVM's crash recovery
/// (what clang runs its in-process cc1 under) jumps back here, so `fn`'s
/// frames are not unwound: what it worked on (the module, a pass manager)
/// is then in no known state, for the caller to drop and never reuse, and
/// no lock may be taken inside `fn`. LLVM has printed its message on
/// stderr. A signal outside such a call still reaches the handlers the
/// process had (the recovery handler restores them and raises it again).
inline bool runGuardedLLVM(llvm::function_ref<void()> fn) {
  llvm::CrashRecoveryContext::Enable(); // idempotent; re-armed after a foreign signal
  llvm::CrashRecoveryContext crc;
  return crc.RunSafely(fn);
}

} // namespace mlir::tinygrad

#endif // TINYGRAD_TARGET_GUARDEDLLVM_H
