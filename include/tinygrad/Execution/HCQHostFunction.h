//===- HCQHostFunction.h - a schedule compiled to host code -----*- C++ -*-===//
//
// A function of hcq queue commands (ScheduleToHCQ.h) compiled for this
// process: convert-hcq-to-runtime turns it into an llvm.func of
// tgrt_hcq_* calls (tinygrad-rt/hcq.h) and MLIR's ExecutionEngine JITs it,
// with the runtime's functions bound by address. run() is then one native
// call that records, submits and waits; capture() records into a state
// that keeps the submitted queues, made into one tgrt_graph to replay.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_HCQHOSTFUNCTION_H
#define TINYGRAD_EXECUTION_HCQHOSTFUNCTION_H

#include "tinygrad/Execution/HCQRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace mlir {
class ExecutionEngine;
} // namespace mlir

struct tgrt_hcq_state;

namespace mlir::tinygrad::exec {

class HCQHostFunction {
public:
  /// Compiles a copy of `fn` (which stays as it is).
  static llvm::Expected<std::unique_ptr<HCQHostFunction>> compile(func::FuncOp fn);
  ~HCQHostFunction();

  /// Runs it once: records, submits and waits as its ops say.
  llvm::Error run(const HCQBindings &bindings);
  /// Records its queues without submitting them: their graph.
  llvm::Expected<tgrt_graph *> capture(const HCQBindings &bindings);

  /// The LLVM dialect module it was compiled from.
  const std::string &llvmDialect() const { return text; }

private:
  HCQHostFunction() = default;
  llvm::Error call(tgrt_hcq_state *state, const HCQBindings &bindings);
  std::unique_ptr<ExecutionEngine> engine;
  void (*entry)(tgrt_hcq_state *, void *const *, const int64_t *) = nullptr;
  unsigned numArgs = 0;
  std::string name, text;
};

} // namespace mlir::tinygrad::exec

#endif
