//===- Isolated.h - run a function in a child process, bounded --*- C++ -*-===//
//
// What BEAM search times a candidate kernel in: a fault (SIGSEGV, SIGFPE,
// an abort) or a kernel that never returns must cost that candidate only,
// not the process searching. The function runs in a fork()ed child; its
// result string comes back through a pipe; a child past the time limit is
// killed.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_ISOLATED_H
#define TINYGRAD_EXECUTION_ISOLATED_H

#include "llvm/Support/Error.h"
#include <functional>
#include <string>

namespace mlir::tinygrad::exec {

/// Runs `fn` in a child process and returns what it returned, or an error:
/// the child's own error (fn's Expected error), "killed by signal N",
/// "timed out after S s" (the child is killed) or a failed fork/pipe. The
/// child only ever leaves through _exit. Call it from a thread that holds
/// no lock `fn` needs: the child has that one thread only (it opens its own
/// device, threads and all).
llvm::Expected<std::string> runIsolated(const std::function<llvm::Expected<std::string>()> &fn, double timeoutS);

} // namespace mlir::tinygrad::exec

#endif
