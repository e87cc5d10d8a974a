//===- HCQRuntime.h - hcq ops as runtime calls ------------------*- C++ -*-===//
//
// Runs a function of `hcq` ops (ScheduleToHCQ.h) against the runtime C API,
// each op one runtime call (the IREE HAL mapping): hcq.queue is
// tgrt_queue_create, hcq.new_signal tgrt_signal_create, hcq.exec
// tgrt_queue_dispatch, hcq.copy tgrt_queue_copy, hcq.wait / hcq.signal /
// hcq.timestamp / hcq.memory_barrier their tgrt_queue_* call, hcq.submit
// tgrt_queue_submit and hcq.host_wait tgrt_signal_wait.
//
// The ops are walked once. runHCQ submits and waits as it goes: the
// reference for the compiled form (HCQHostFunction.h, the same calls from
// native code). HCQReplay records the queues (by either) and, instead of
// submitting them, captures them as one tgrt_graph (tinygrad's
// TinyJit/HCQGraph): each launch() replays the recording, and setVar
// patches a bound variable into every exec that takes it
// (tgrt_graph_update_arg) without recording anything again.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_HCQRUNTIME_H
#define TINYGRAD_EXECUTION_HCQRUNTIME_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/Error.h"

#include "tinygrad-rt/runtime.h"

#include <memory>
#include <vector>

namespace mlir::tinygrad::exec {

/// The runtime objects behind the function's arguments, in its order.
struct HCQBindings {
  std::vector<tgrt_device *> devices;
  std::vector<tgrt_buffer *> buffers;
  std::vector<tgrt_program *> programs;
  std::vector<int64_t> vars;
};

/// How long a host wait may block before it is an error (tgrt_signal_wait
/// names the signal and the value).
constexpr uint64_t kHCQHostWaitTimeoutMs = 120000;

/// Runs `fn` once: records, submits and waits as its ops say.
llvm::Error runHCQ(func::FuncOp fn, const HCQBindings &bindings);

class HCQHostFunction;

class HCQReplay {
public:
  /// Records `fn`'s queues (all on one device) by walking its ops, and
  /// captures them.
  static llvm::Expected<std::unique_ptr<HCQReplay>> capture(func::FuncOp fn, const HCQBindings &bindings);
  /// The same with the queues recorded by `fn` compiled (HCQHostFunction).
  static llvm::Expected<std::unique_ptr<HCQReplay>> capture(HCQHostFunction &compiled, func::FuncOp fn,
                                                            const HCQBindings &bindings);
  ~HCQReplay();
  HCQReplay(const HCQReplay &) = delete;
  HCQReplay &operator=(const HCQReplay &) = delete;

  /// Sets variable `var` (an index into bindings.vars) for later launches.
  llvm::Error setVar(unsigned var, int64_t value);
  /// Launches the captured queues once and waits until they are done.
  llvm::Error launch();
  uint64_t launches() const { return launchCount; }

private:
  HCQReplay() = default;
  /// Takes `graph` (captured from `fn`'s submitted queues; null when it
  /// submits none: launches then do nothing).
  static llvm::Expected<std::unique_ptr<HCQReplay>> adopt(tgrt_graph *graph, func::FuncOp fn,
                                                          const HCQBindings &bindings);
  tgrt_graph *graph = nullptr;
  tgrt_signal *done = nullptr;
  uint64_t launchCount = 0;
  /// Per variable: (exec index in the graph, argument index) of its uses.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> varUses;
};

} // namespace mlir::tinygrad::exec

#endif
