//===- ScheduleToHCQ.h - a schedule as hcq queue commands -------*- C++ -*-===//
//
// tg-schedule-to-hcq: the steps of a LINEAR schedule (kernel launches and
// copies, in order) become one function of `hcq` ops, as tinygrad's
// HCQGraph builds its queues (runtime/graph/hcq.py): a compute queue per
// device, a copy queue per device that copies from it, an `exec` or `copy`
// per step, and `wait`/`signal` on per-queue timeline signals where a step
// depends on another queue's step. Dependencies are tinygrad's DepsTracker
// (device.py access_resources: read-after-write, write-after-read and
// write-after-write on overlapping byte ranges of one allocation), then
// _resolve_deps: a queue's own earlier steps need no wait (our engines run
// a queue in order), a dependency already covered by an earlier wait of the
// same queue is dropped, only the latest per queue is kept, and a step
// signals only when something waits for it. Each compute queue waits for
// its device's copy queues at the end and raises a final value the host
// waits for.
//
// The function takes its objects as arguments, in this order: devices,
// buffers, executables, then the bound variables (i64, so a replay can
// patch them: tinygrad's var_vals at submit).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_SCHEDULETOHCQ_H
#define TINYGRAD_EXECUTION_SCHEDULETOHCQ_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

#include <string>
#include <vector>

namespace mlir::tinygrad::exec {

/// A buffer argument: bytes [begin, end) of allocation `storage` (views of
/// one allocation share it; tinygrad's DepsTracker key) on `device`.
struct HCQBuffer {
  unsigned device = 0;
  unsigned storage = 0;
  int64_t begin = 0, end = 0;
};

struct HCQExecArg {
  enum Kind { Buffer, Var, CoreId } kind = Buffer;
  unsigned index = 0; ///< Buffer: into buffers; Var: into vars
};

struct HCQStep {
  enum Kind { Exec, Copy } kind = Exec;
  // Exec
  unsigned program = 0;
  std::vector<HCQExecArg> args;
  std::vector<unsigned> written; ///< indices into args the kernel stores to
  int64_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
  // Copy (buffer indices)
  unsigned dst = 0, src = 0;
  int64_t bytes = 0;
};

struct HCQProgram {
  std::string name;
  unsigned device = 0;
};

struct HCQScheduleInput {
  std::vector<std::string> devices;
  std::vector<HCQBuffer> buffers;
  std::vector<HCQProgram> programs;
  std::vector<std::string> vars;
  std::vector<HCQStep> steps;
};

/// Builds `func.func @name` at b's insertion point. Fails (with a located
/// diagnostic) on a step that names an object the input does not have.
FailureOr<func::FuncOp> buildHCQSchedule(OpBuilder &b, Location loc, StringRef name,
                                         const HCQScheduleInput &in);

} // namespace mlir::tinygrad::exec

#endif
