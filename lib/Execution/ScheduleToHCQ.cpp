//===- ScheduleToHCQ.cpp - a schedule as hcq queue commands ---------------===//
//
// Two passes over the steps, as HCQGraph.__init__: the first assigns each
// step its queue and its waits (DepsTracker, _resolve_deps: the planner in
// tinygrad-rt/hcq_deps.hpp, which the runtime's graph recorder shares) and
// marks the steps something waits for; the second emits the queues'
// commands.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Execution/ScheduleToHCQ.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"

#include "tinygrad-rt/hcq_deps.hpp"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::exec;

namespace {

/// A queue: (device, kind); compute queues first in creation order.
struct QueueKey {
  unsigned device;
  hcq::QueueKind kind;
  bool operator<(const QueueKey &o) const {
    return std::tie(device, kind) < std::tie(o.device, o.kind);
  }
};

using tgrt::hcq_deps::Dep;

struct Planned {
  unsigned queue;
  std::vector<Dep> waits; ///< in emission order
  bool signals = false;   ///< something waits for this step
};

} // namespace

FailureOr<func::FuncOp> exec::buildHCQSchedule(OpBuilder &b, Location loc, StringRef name,
                                               const HCQScheduleInput &in) {
  MLIRContext *ctx = b.getContext();
  auto bad = [&](const Twine &msg) -> FailureOr<func::FuncOp> {
    emitError(loc) << "tg-schedule-to-hcq: " << msg;
    return failure();
  };
  for (auto [i, buf] : llvm::enumerate(in.buffers))
    if (buf.device >= in.devices.size() || buf.begin > buf.end)
      return bad("buffer " + Twine(i) + " has no device or a negative size");
  for (auto [i, p] : llvm::enumerate(in.programs))
    if (p.device >= in.devices.size())
      return bad("program " + Twine(i) + " has no device");

  // ---- plan: queues, waits, signals (HCQGraph.__init__, _resolve_deps) ----
  std::vector<QueueKey> queues;
  std::map<QueueKey, unsigned> queueIndex;
  auto queueFor = [&](QueueKey k) {
    auto [it, fresh] = queueIndex.try_emplace(k, queues.size());
    if (fresh)
      queues.push_back(k);
    return it->second;
  };
  std::vector<Planned> plan(in.steps.size());
  tgrt::hcq_deps::Planner planner;
  for (auto [j, step] : llvm::enumerate(in.steps)) {
    std::vector<tgrt::hcq_deps::Access> accesses;
    auto touch = [&](const HCQBuffer &buf, bool written) {
      accesses.push_back({buf.storage, buf.begin, buf.end, written});
    };
    unsigned device;
    hcq::QueueKind kind;
    if (step.kind == HCQStep::Exec) {
      if (step.program >= in.programs.size())
        return bad("step " + Twine(j) + " launches program " + Twine(step.program) + " of " +
                   Twine(in.programs.size()));
      device = in.programs[step.program].device;
      kind = hcq::QueueKind::Compute;
      for (auto [a, arg] : llvm::enumerate(step.args)) {
        if (arg.kind == HCQExecArg::Buffer) {
          if (arg.index >= in.buffers.size())
            return bad("step " + Twine(j) + " names buffer " + Twine(arg.index));
          touch(in.buffers[arg.index], llvm::is_contained(step.written, a));
        } else if (arg.kind == HCQExecArg::Var && arg.index >= in.vars.size()) {
          return bad("step " + Twine(j) + " names variable " + Twine(arg.index));
        }
      }
    } else {
      if (step.dst >= in.buffers.size() || step.src >= in.buffers.size())
        return bad("copy step " + Twine(j) + " names a buffer it does not have");
      // Copies are enqueued on the source's device (HCQGraph: "prioritize
      // enqueuing on the src device").
      device = in.buffers[step.src].device;
      kind = hcq::QueueKind::Copy;
      touch(in.buffers[step.dst], true);
      touch(in.buffers[step.src], false);
    }
    unsigned q = queueFor({device, kind});
    std::vector<Dep> waits = planner.step(q, accesses, j + 1);
    for (const Dep &d : waits)
      plan[d.value - 1].signals = true;
    plan[j] = {q, std::move(waits), false};
  }
  // Every device that has queues gets a compute queue: it joins the
  // device's copy queues at the end and raises the value the host waits for.
  for (size_t i = 0, n = queues.size(); i < n; ++i)
    queueFor({queues[i].device, hcq::QueueKind::Compute});
  std::vector<std::vector<Dep>> finalWaits(queues.size());
  for (unsigned q = 0; q < queues.size(); ++q) {
    if (queues[q].kind != hcq::QueueKind::Compute)
      continue;
    for (unsigned c = 0; c < queues.size(); ++c) {
      std::optional<uint64_t> last = planner.last(c);
      if (queues[c].kind != hcq::QueueKind::Copy || queues[c].device != queues[q].device || !last)
        continue;
      if (planner.covers(q, {c, *last}))
        continue; // an earlier wait already covers it
      finalWaits[q].push_back({c, *last});
      plan[*last - 1].signals = true;
    }
  }

  // ---- emit ----
  auto i64 = b.getI64Type();
  SmallVector<Type> argTypes;
  argTypes.append(in.devices.size(), hcq::DeviceType::get(ctx));
  argTypes.append(in.buffers.size(), hcq::BufferType::get(ctx));
  argTypes.append(in.programs.size(), hcq::ExecutableType::get(ctx));
  argTypes.append(in.vars.size(), i64);
  auto fn = func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  Block *body = fn.addEntryBlock();
  OpBuilder e = OpBuilder::atBlockEnd(body);
  size_t at = 0;
  auto args = [&](size_t n) {
    auto r = body->getArguments().slice(at, n);
    at += n;
    return r;
  };
  auto devices = args(in.devices.size()), buffers = args(in.buffers.size()),
       programs = args(in.programs.size()), vars = args(in.vars.size());
  for (auto [i, v] : llvm::enumerate(in.vars))
    fn.setArgAttr(in.devices.size() + in.buffers.size() + in.programs.size() + i, "hcq.var",
                  b.getStringAttr(v));

  llvm::DenseMap<uint64_t, Value> constants;
  auto constant = [&](uint64_t v) {
    Value &c = constants[v];
    if (!c)
      c = arith::ConstantIntOp::create(e, loc, static_cast<int64_t>(v), 64);
    return c;
  };
  std::vector<Value> queueValues, signals;
  for (const QueueKey &k : queues) {
    queueValues.push_back(hcq::QueueOp::create(e, loc, devices[k.device], k.kind));
    signals.push_back(hcq::NewSignalOp::create(e, loc, devices[k.device], 0));
    if (k.kind == hcq::QueueKind::Compute)
      hcq::MemoryBarrierOp::create(e, loc, queueValues.back());
  }
  for (auto [j, step] : llvm::enumerate(in.steps)) {
    const Planned &p = plan[j];
    Value q = queueValues[p.queue];
    for (const Dep &d : p.waits)
      hcq::WaitOp::create(e, loc, q, signals[d.queue], constant(d.value));
    if (step.kind == HCQStep::Exec) {
      SmallVector<Value> operands;
      int32_t coreId = -1;
      for (auto [a, arg] : llvm::enumerate(step.args)) {
        switch (arg.kind) {
        case HCQExecArg::Buffer:
          operands.push_back(buffers[arg.index]);
          break;
        case HCQExecArg::Var:
          operands.push_back(vars[arg.index]);
          break;
        case HCQExecArg::CoreId:
          coreId = a;
          operands.push_back(constant(0));
          break;
        }
      }
      auto ex = hcq::ExecOp::create(e, loc, q, programs[step.program], operands,
                                    b.getDenseI64ArrayAttr(step.global), b.getDenseI64ArrayAttr(step.local));
      if (coreId >= 0)
        ex->setAttr("core_id_arg", b.getI32IntegerAttr(coreId));
    } else {
      hcq::CopyOp::create(e, loc, q, buffers[step.dst], buffers[step.src], step.bytes);
    }
    if (p.signals)
      hcq::SignalOp::create(e, loc, q, signals[p.queue], constant(j + 1));
  }
  uint64_t done = in.steps.size() + 1;
  for (unsigned q = 0; q < queues.size(); ++q) {
    if (queues[q].kind != hcq::QueueKind::Compute)
      continue;
    for (const Dep &d : finalWaits[q])
      hcq::WaitOp::create(e, loc, queueValues[q], signals[d.queue], constant(d.value));
    hcq::SignalOp::create(e, loc, queueValues[q], signals[q], constant(done));
  }
  // Copy queues first: compute queues may wait for them.
  for (auto kind : {hcq::QueueKind::Copy, hcq::QueueKind::Compute})
    for (unsigned q = 0; q < queues.size(); ++q)
      if (queues[q].kind == kind)
        hcq::SubmitOp::create(e, loc, queueValues[q], devices[queues[q].device]);
  for (unsigned q = 0; q < queues.size(); ++q)
    if (queues[q].kind == hcq::QueueKind::Compute)
      hcq::HostWaitOp::create(e, loc, signals[q], constant(done));
  func::ReturnOp::create(e, loc);
  return fn;
}
