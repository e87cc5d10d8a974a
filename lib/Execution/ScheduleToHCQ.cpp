//===- ScheduleToHCQ.cpp - a schedule as hcq queue commands ---------------===//
//
// Two passes over the steps, as HCQGraph.__init__: the first assigns each
// step its queue and its waits (DepsTracker, _resolve_deps) and marks the
// steps something waits for; the second emits the queues' commands.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Execution/ScheduleToHCQ.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"

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

/// A dependency: step value `value` (= step index + 1) on queue `queue`.
struct Dep {
  unsigned queue;
  uint64_t value;
};

/// tinygrad's DepsTracker (device.py): per allocation, the byte ranges last
/// written and read since, each with the step that did it.
class DepsTracker {
  struct Range {
    int64_t begin, end;
    Dep dep;
  };
  std::map<unsigned, std::vector<Range>> writes_, reads_;

public:
  /// The steps an access of `bufs` (those in `written` stored to) must wait
  /// for, after which the access is recorded as `dep`.
  std::vector<Dep> access(const std::vector<HCQBuffer> &bufs, const std::vector<bool> &written, Dep dep) {
    std::vector<Dep> wait;
    auto overlapping = [&](const std::vector<Range> &rs, const HCQBuffer &b) {
      for (const Range &r : rs)
        if (r.begin < b.end && b.begin < r.end)
          wait.push_back(r.dep);
    };
    for (size_t i = 0; i < bufs.size(); ++i) {
      overlapping(writes_[bufs[i].storage], bufs[i]);
      if (written[i])
        overlapping(reads_[bufs[i].storage], bufs[i]);
    }
    for (size_t i = 0; i < bufs.size(); ++i) {
      const HCQBuffer &b = bufs[i];
      if (!written[i]) {
        reads_[b.storage].push_back({b.begin, b.end, dep});
        continue;
      }
      // A write hides what it overwrites: keep only the parts outside it.
      for (auto *map : {&writes_, &reads_}) {
        std::vector<Range> kept;
        for (const Range &r : (*map)[b.storage]) {
          if (r.begin < std::min(b.begin, r.end))
            kept.push_back({r.begin, std::min(b.begin, r.end), r.dep});
          if (std::max(b.end, r.begin) < r.end)
            kept.push_back({std::max(b.end, r.begin), r.end, r.dep});
        }
        (*map)[b.storage] = std::move(kept);
      }
      writes_[b.storage].push_back({b.begin, b.end, dep});
    }
    return wait;
  }
};

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
  std::vector<std::optional<uint64_t>> lastStep;               // per queue: last step value
  std::vector<std::map<unsigned, uint64_t>> queueAccess;       // per queue: value known reached, per queue
  std::vector<Planned> plan(in.steps.size());
  DepsTracker deps;
  for (auto [j, step] : llvm::enumerate(in.steps)) {
    std::vector<HCQBuffer> bufs;
    std::vector<bool> written;
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
          bufs.push_back(in.buffers[arg.index]);
          written.push_back(llvm::is_contained(step.written, a));
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
      bufs = {in.buffers[step.dst], in.buffers[step.src]};
      written = {true, false};
    }
    unsigned q = queueFor({device, kind});
    lastStep.resize(queues.size());
    queueAccess.resize(queues.size());
    uint64_t value = j + 1;
    std::vector<Dep> all = deps.access(bufs, written, {q, value});
    if (lastStep[q])
      all.push_back({q, *lastStep[q]});
    std::stable_sort(all.begin(), all.end(), [](const Dep &x, const Dep &y) { return x.value > y.value; });
    std::vector<Dep> waits;
    for (const Dep &d : all) {
      auto it = queueAccess[q].find(d.queue);
      if (it != queueAccess[q].end() && it->second >= d.value)
        continue;
      queueAccess[q][d.queue] = d.value;
      // Same-queue order needs no wait: our engines run a queue in order.
      if (d.queue != q)
        waits.push_back(d);
    }
    for (const Dep &d : waits)
      plan[d.value - 1].signals = true;
    std::reverse(waits.begin(), waits.end());
    plan[j] = {q, std::move(waits), false};
    lastStep[q] = value;
  }
  // Every device that has queues gets a compute queue: it joins the
  // device's copy queues at the end and raises the value the host waits for.
  for (size_t i = 0, n = queues.size(); i < n; ++i)
    queueFor({queues[i].device, hcq::QueueKind::Compute});
  lastStep.resize(queues.size());
  queueAccess.resize(queues.size());
  std::vector<std::vector<Dep>> finalWaits(queues.size());
  for (unsigned q = 0; q < queues.size(); ++q) {
    if (queues[q].kind != hcq::QueueKind::Compute)
      continue;
    for (unsigned c = 0; c < queues.size(); ++c) {
      if (queues[c].kind != hcq::QueueKind::Copy || queues[c].device != queues[q].device || !lastStep[c])
        continue;
      if (auto it = queueAccess[q].find(c); it != queueAccess[q].end() && it->second >= *lastStep[c])
        continue; // an earlier wait already covers it
      finalWaits[q].push_back({c, *lastStep[c]});
      plan[*lastStep[c] - 1].signals = true;
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
