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

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <limits>
#include <string>

namespace mlir::tinygrad::exec {

/// Runs `fn` in a child process and returns what it returned, or an error:
/// the child's own error (fn's Expected error), "killed by signal N",
/// "timed out after S s" (the child is killed) or a failed fork/pipe. The
/// child only ever leaves through _exit. Call it from a thread that holds
/// no lock `fn` needs: the child has that one thread only (it opens its own
/// device, threads and all).
llvm::Expected<std::string> runIsolated(const std::function<llvm::Expected<std::string>()> &fn, double timeoutS);

/// A child process that answers requests one at a time, kept across
/// calls so what it sets up (a device, buffers) is paid for once: each
/// call() sends `request` and waits up to `timeoutS` for the reply. When
/// the child faults or runs past the limit, that call fails ("killed by
/// signal N", "timed out", the child killed) and the next call starts a
/// fresh child, forked from this process as it is then.
class IsolatedWorker {
public:
  /// Runs in the child, once per request; its state is the child's copy of
  /// whatever the function holds.
  using Handler = std::function<llvm::Expected<std::string>(const std::string &request)>;
  explicit IsolatedWorker(Handler handler) : handler(std::move(handler)) {}
  ~IsolatedWorker();
  IsolatedWorker(const IsolatedWorker &) = delete;
  IsolatedWorker &operator=(const IsolatedWorker &) = delete;

  /// Each notice() the child's handler says for this request bounds the
  /// rest of the call anew: the k-th to `afterNoticesS[k]` from then (a
  /// notice past the list, or an infinite entry, leaves the bound as it
  /// is), never past `timeoutS` from the call's start. A request's stages
  /// bounded apart: BEAM's object load, its first run, its other runs.
  llvm::Expected<std::string> call(const std::string &request, double timeoutS,
                                   llvm::ArrayRef<double> afterNoticesS = {});
  /// In the child, from the handler: the point of the current request that
  /// call()'s next `afterNoticesS` entry counts from. Nothing outside a
  /// worker's child.
  static void notice();
  /// Children started so far (a fault or a timeout costs one more).
  unsigned starts() const { return started; }
  /// A child is running (else the next call starts one).
  bool alive() const { return pid > 0; }

private:
  Handler handler;
  int pid = -1, toChild = -1, fromChild = -1;
  unsigned started = 0;
  llvm::Error start();
  /// Kills (if `kill`) and reaps the child; its exit as an error message.
  std::string stop(bool kill);
};

} // namespace mlir::tinygrad::exec

#endif
