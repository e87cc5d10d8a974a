//===- HCQRuntime.cpp - hcq ops as runtime calls --------------------------===//
#include "tinygrad/Execution/HCQRuntime.h"
#include "ExecError.h"
#include "tinygrad/Execution/HCQHostFunction.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::exec;

namespace {


std::string where(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << op->getLoc() << ": " << op->getName();
  return s;
}

/// One walk over the ops: the runtime objects the function creates, and
/// what a capture needs to know about them.
struct Walker {
  const HCQBindings &bind;
  bool capture;
  llvm::DenseMap<Value, tgrt_queue *> queues;
  llvm::DenseMap<Value, tgrt_signal *> signals;
  std::vector<tgrt_queue *> ownedQueues;
  std::vector<tgrt_signal *> ownedSignals;
  std::vector<tgrt_queue *> submitted; ///< capture: in hcq.submit order

  Walker(const HCQBindings &bind, bool capture) : bind(bind), capture(capture) {}
  ~Walker() {
    for (tgrt_queue *q : ownedQueues)
      tgrt_queue_destroy(q);
    for (tgrt_signal *s : ownedSignals)
      tgrt_signal_destroy(s);
  }

  /// A function argument: which binding list and which entry.
  enum Kind { Device, Buffer, Program, Var };
  std::pair<Kind, unsigned> argument(BlockArgument a) const {
    size_t i = a.getArgNumber();
    const std::pair<Kind, size_t> lists[] = {
        {Device, bind.devices.size()}, {Buffer, bind.buffers.size()}, {Program, bind.programs.size()}};
    for (auto [kind, n] : lists) {
      if (i < n)
        return {kind, static_cast<unsigned>(i)};
      i -= n;
    }
    return {Var, static_cast<unsigned>(i)};
  }

  template <typename T>
  llvm::Expected<T> lookup(Operation *op, Value v, Kind kind, const std::vector<T> &list) {
    auto a = dyn_cast<BlockArgument>(v);
    if (!a)
      return error(where(op) + ": an operand that is not an argument of the function");
    auto [k, i] = argument(a);
    if (k != kind || i >= list.size())
      return error(where(op) + ": argument " + llvm::Twine(a.getArgNumber()) + " is not bound");
    return list[i];
  }
  llvm::Expected<tgrt_device *> device(Operation *op, Value v) { return lookup(op, v, Device, bind.devices); }
  llvm::Expected<tgrt_buffer *> buffer(Operation *op, Value v) { return lookup(op, v, Buffer, bind.buffers); }
  llvm::Expected<tgrt_program *> program(Operation *op, Value v) { return lookup(op, v, Program, bind.programs); }
  llvm::Expected<int64_t> integer(Operation *op, Value v) {
    if (auto c = v.getDefiningOp<arith::ConstantIntOp>())
      return c.value();
    return lookup(op, v, Var, bind.vars);
  }
  template <typename M>
  llvm::Expected<typename M::mapped_type> defined(Operation *op, const M &map, Value v, const char *what) {
    auto it = map.find(v);
    if (it == map.end())
      return error(where(op) + ": the " + what + " operand was not created by this function");
    return it->second;
  }

  llvm::Error call(Operation *op, tgrt_status s) {
    if (s != TGRT_OK)
      return error(where(op) + ": " + tgrt_last_error());
    return llvm::Error::success();
  }

  llvm::Error run(func::FuncOp fn) {
    size_t expected = bind.devices.size() + bind.buffers.size() + bind.programs.size() + bind.vars.size();
    if (fn.getNumArguments() != expected)
      return error(where(fn) + ": takes " + llvm::Twine(fn.getNumArguments()) + " arguments, " +
                   llvm::Twine(expected) + " bound");
    for (Operation &o : fn.getBody().front()) {
      Operation *op = &o;
      llvm::Error err = llvm::TypeSwitch<Operation *, llvm::Error>(op)
                            .Case([&](arith::ConstantIntOp) { return llvm::Error::success(); })
                            .Case([&](func::ReturnOp) { return llvm::Error::success(); })
                            .Case([&](hcq::QueueOp q) -> llvm::Error {
                              auto dev = device(op, q.getDevice());
                              if (!dev)
                                return dev.takeError();
                              tgrt_queue *queue = nullptr;
                              auto type = q.getKind() == hcq::QueueKind::Copy ? TGRT_QUEUE_COPY : TGRT_QUEUE_COMPUTE;
                              if (auto e = call(op, tgrt_queue_create(*dev, type, &queue)))
                                return e;
                              ownedQueues.push_back(queue);
                              queues[q.getResult()] = queue;
                              return llvm::Error::success();
                            })
                            .Case([&](hcq::NewSignalOp s) -> llvm::Error {
                              auto dev = device(op, s.getDevice());
                              if (!dev)
                                return dev.takeError();
                              tgrt_signal *signal = nullptr;
                              if (auto e = call(op, tgrt_signal_create(*dev, s.getValue(), &signal)))
                                return e;
                              ownedSignals.push_back(signal);
                              signals[s.getResult()] = signal;
                              return llvm::Error::success();
                            })
                            .Case([&](hcq::ExecOp x) { return exec(x); })
                            .Case([&](hcq::CopyOp c) -> llvm::Error {
                              auto q = defined(op, queues, c.getQueue(), "queue");
                              auto dst = buffer(op, c.getDst());
                              auto src = buffer(op, c.getSrc());
                              if (!q || !dst || !src)
                                return llvm::joinErrors(llvm::joinErrors(q.takeError(), dst.takeError()),
                                                        src.takeError());
                              return call(op, tgrt_queue_copy(*q, *dst, 0, *src, 0, c.getSize()));
                            })
                            .Case([&](hcq::WaitOp w) { return signalOp(op, w.getQueue(), w.getSignal(), w.getValue(), true); })
                            .Case([&](hcq::SignalOp s) { return signalOp(op, s.getQueue(), s.getSignal(), s.getValue(), false); })
                            .Case([&](hcq::TimestampOp t) -> llvm::Error {
                              auto q = defined(op, queues, t.getQueue(), "queue");
                              auto s = defined(op, signals, t.getSignal(), "signal");
                              if (!q || !s)
                                return llvm::joinErrors(q.takeError(), s.takeError());
                              return call(op, tgrt_queue_timestamp(*q, *s));
                            })
                            .Case([&](hcq::MemoryBarrierOp m) -> llvm::Error {
                              auto q = defined(op, queues, m.getQueue(), "queue");
                              if (!q)
                                return q.takeError();
                              return call(op, tgrt_queue_memory_barrier(*q));
                            })
                            .Case([&](hcq::SubmitOp s) -> llvm::Error {
                              auto q = defined(op, queues, s.getQueue(), "queue");
                              if (!q)
                                return q.takeError();
                              if (capture) {
                                submitted.push_back(*q);
                                return llvm::Error::success();
                              }
                              return call(op, tgrt_queue_submit(*q));
                            })
                            .Case([&](hcq::HostWaitOp h) -> llvm::Error {
                              auto s = defined(op, signals, h.getSignal(), "signal");
                              auto v = integer(op, h.getValue());
                              if (!s || !v)
                                return llvm::joinErrors(s.takeError(), v.takeError());
                              // A capture waits for the whole launch instead.
                              if (capture)
                                return llvm::Error::success();
                              return call(op, tgrt_signal_wait(*s, *v, kHCQHostWaitTimeoutMs));
                            })
                            .Default([&](Operation *) {
                              return error(where(op) + ": not an op of the runtime mapping");
                            });
      if (err)
        return err;
    }
    return llvm::Error::success();
  }

  llvm::Error signalOp(Operation *op, Value queue, Value signal, Value value, bool wait) {
    auto q = defined(op, queues, queue, "queue");
    auto s = defined(op, signals, signal, "signal");
    auto v = integer(op, value);
    if (!q || !s || !v)
      return llvm::joinErrors(llvm::joinErrors(q.takeError(), s.takeError()), v.takeError());
    return call(op, wait ? tgrt_queue_wait(*q, *s, *v) : tgrt_queue_signal(*q, *s, *v));
  }

  llvm::Error exec(hcq::ExecOp x) {
    Operation *op = x;
    auto q = defined(op, queues, x.getQueue(), "queue");
    if (!q)
      return q.takeError();
    auto prog = program(op, x.getProgram());
    if (!prog)
      return prog.takeError();
    if (x.getArgs().size() > TGRT_MAX_ARGS)
      return error(where(op) + ": " + llvm::Twine(x.getArgs().size()) + " arguments, at most " +
                   llvm::Twine(TGRT_MAX_ARGS));
    tgrt_dispatch d{};
    d.api_version = TGRT_API_VERSION;
    d.core_id_arg_index = -1;
    if (auto c = op->getAttrOfType<IntegerAttr>("core_id_arg"))
      d.core_id_arg_index = static_cast<int32_t>(c.getInt());
    for (int i = 0; i < 3; ++i) {
      auto g = x.getGlobalSize(), l = x.getLocalSize();
      d.global_size[i] = i < (int)g.size() ? static_cast<uint32_t>(g[i]) : 1;
      d.local_size[i] = i < (int)l.size() ? static_cast<uint32_t>(l[i]) : 1;
    }
    std::vector<tgrt_arg> args;
    for (Value a : x.getArgs()) {
      if (isa<hcq::BufferType>(a.getType())) {
        auto b = buffer(op, a);
        if (!b)
          return b.takeError();
        args.push_back(tgrt_arg_buffer(*b));
        continue;
      }
      auto v = integer(op, a);
      if (!v)
        return v.takeError();
      args.push_back(tgrt_arg_int(*v));
    }
    return call(op, tgrt_queue_dispatch(*q, *prog, args.data(), args.size(), &d));
  }
};

} // namespace

llvm::Error exec::runHCQ(func::FuncOp fn, const HCQBindings &bindings) {
  Walker w(bindings, /*capture=*/false);
  return w.run(fn);
}

/// Per variable, its uses as (exec index, argument index) in the graph of
/// `fn`'s submitted queues: tgrt_graph counts the execs of its non-empty
/// queues in capture (submit) order.
static std::vector<std::vector<std::pair<uint32_t, uint32_t>>> varUsesOf(func::FuncOp fn, size_t numObjects,
                                                                          size_t numVars) {
  llvm::DenseMap<Value, size_t> commands;
  llvm::DenseMap<Value, std::vector<std::vector<std::pair<uint32_t, uint32_t>>>> execs;
  std::vector<Value> submitted;
  for (Operation &op : fn.getBody().front()) {
    if (auto s = dyn_cast<hcq::SubmitOp>(op)) {
      submitted.push_back(s.getQueue());
      continue;
    }
    if (auto x = dyn_cast<hcq::ExecOp>(op)) {
      std::vector<std::pair<uint32_t, uint32_t>> uses;
      for (auto [i, a] : llvm::enumerate(x.getArgs()))
        if (auto ba = dyn_cast<BlockArgument>(a); ba && ba.getArgNumber() >= numObjects)
          uses.push_back({ba.getArgNumber() - static_cast<uint32_t>(numObjects), static_cast<uint32_t>(i)});
      execs[x.getQueue()].push_back(std::move(uses));
    }
    if (isa<hcq::ExecOp, hcq::CopyOp, hcq::WaitOp, hcq::SignalOp, hcq::TimestampOp, hcq::MemoryBarrierOp>(op))
      ++commands[op.getOperand(0)];
  }
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> uses(numVars);
  uint32_t execIndex = 0;
  for (Value q : submitted) {
    if (!commands.lookup(q))
      continue;
    for (const auto &e : execs[q]) {
      for (auto [var, arg] : e)
        if (var < numVars)
          uses[var].push_back({execIndex, arg});
      ++execIndex;
    }
  }
  return uses;
}

llvm::Expected<std::unique_ptr<HCQReplay>> HCQReplay::adopt(tgrt_graph *graph, func::FuncOp fn,
                                                            const HCQBindings &bindings) {
  std::unique_ptr<HCQReplay> r(new HCQReplay);
  r->graph = graph;
  size_t objects = bindings.devices.size() + bindings.buffers.size() + bindings.programs.size();
  r->varUses = varUsesOf(fn, objects, bindings.vars.size());
  if (bindings.devices.empty() || tgrt_signal_create(bindings.devices.front(), 0, &r->done) != TGRT_OK)
    return error(where(fn) + ": the replay's completion signal: " + tgrt_last_error());
  return r;
}

llvm::Expected<std::unique_ptr<HCQReplay>> HCQReplay::capture(func::FuncOp fn, const HCQBindings &bindings) {
  Walker w(bindings, /*capture=*/true);
  if (auto e = w.run(fn))
    return std::move(e);
  tgrt_graph *graph = nullptr; // a schedule that submits nothing has nothing to replay
  if (!w.submitted.empty() && tgrt_graph_create(w.submitted.data(), w.submitted.size(), &graph) != TGRT_OK)
    return error(where(fn) + ": capturing its queues: " + tgrt_last_error());
  return adopt(graph, fn, bindings);
}

llvm::Expected<std::unique_ptr<HCQReplay>> HCQReplay::capture(HCQHostFunction &compiled, func::FuncOp fn,
                                                              const HCQBindings &bindings) {
  bool submits = false;
  fn.walk([&](hcq::SubmitOp) { submits = true; });
  if (!submits) { // nothing to replay (an empty LINEAR); still run it once
    if (auto err = compiled.run(bindings))
      return std::move(err);
    return adopt(nullptr, fn, bindings);
  }
  auto graph = compiled.capture(bindings);
  if (!graph)
    return graph.takeError();
  return adopt(*graph, fn, bindings);
}

HCQReplay::~HCQReplay() {
  if (graph)
    tgrt_graph_destroy(graph);
  if (done)
    tgrt_signal_destroy(done);
}

llvm::Error HCQReplay::setVar(unsigned var, int64_t value) {
  if (var >= varUses.size())
    return error("variable " + llvm::Twine(var) + " of " + llvm::Twine(varUses.size()));
  for (auto [exec, arg] : varUses[var])
    if (tgrt_graph_update_arg(graph, exec, arg, value) != TGRT_OK)
      return error(llvm::Twine("patching variable ") + llvm::Twine(var) + ": " + tgrt_last_error());
  return llvm::Error::success();
}

llvm::Error HCQReplay::launch() {
  uint64_t n = ++launchCount;
  if (!graph)
    return llvm::Error::success(); // the schedule submits nothing
  if (tgrt_graph_launch(graph, done, n) != TGRT_OK)
    return error(llvm::Twine("launching the captured schedule: ") + tgrt_last_error());
  if (tgrt_signal_wait(done, n, kHCQHostWaitTimeoutMs) != TGRT_OK)
    return error(llvm::Twine("waiting for the captured schedule: ") + tgrt_last_error());
  return llvm::Error::success();
}
