//===- GraphRecorder.cpp - a schedule on compute and copy queues ----------===//
//
// tgrt_graph_recorder_*: HCQGraph.__init__ on the runtime. Each recorded
// command gets its queue (execs compute, copies copy) and its waits from the
// planner tinygrad-rt/hcq_deps.hpp (shared with tg-schedule-to-hcq); finish
// lays the commands out on two queues, with a signal after each command
// that something waits for, and captures them as a tgrt_graph.
//
//===----------------------------------------------------------------------===//

#include "Graph.h"

#include "tinygrad-rt/hcq_deps.hpp"

using namespace tgrt;

struct tgrt_graph_recorder final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x52475254; // "TRGR"
  static constexpr const char *kTypeName = "graph recorder";

  tgrt_graph_recorder() : Object(kMagic, &Object::destroyAs<tgrt_graph_recorder>) {}

  /// A recorded command: its queue (the tgrt_queue_type) and the waits
  /// before it; its value is its index + 1.
  struct Step {
    Command command;
    unsigned queue;
    std::vector<hcq_deps::Dep> waits;
    bool signals = false; ///< a later command waits for it
  };

  Ref<tgrt_device> device;
  std::vector<Step> steps;
  hcq_deps::Planner planner;
  uint32_t waits = 0;
};

namespace {

/// What a command touches, in the planner's terms. Buffers with host memory
/// are keyed by address (imports of one allocation are separate roots);
/// others by their root allocation and the offset in it.
hcq_deps::Access access(const tgrt_buffer *b, size_t offset, size_t size, bool written) {
  const tgrt_buffer *root = b->root;
  if (root->data) {
    auto begin = reinterpret_cast<uintptr_t>(root->data) + b->offset + offset;
    return {0, static_cast<int64_t>(begin), static_cast<int64_t>(begin + size), written};
  }
  auto begin = static_cast<int64_t>(b->offset + offset);
  return {reinterpret_cast<uintptr_t>(root), begin, begin + static_cast<int64_t>(size), written};
}

Status plan(tgrt_graph_recorder *r, Command c, unsigned queue, const std::vector<hcq_deps::Access> &accesses) {
  uint64_t value = r->steps.size() + 1;
  std::vector<hcq_deps::Dep> waits = r->planner.step(queue, accesses, value);
  for (const hcq_deps::Dep &d : waits)
    r->steps[d.value - 1].signals = true;
  r->waits += static_cast<uint32_t>(waits.size());
  r->steps.push_back({std::move(c), queue, std::move(waits), false});
  return TGRT_OK;
}

Command signalCommand(Command::Op op, const Ref<tgrt_signal> &signal, uint64_t value) {
  Command c(op);
  c.signal = signal;
  c.value = value;
  return c;
}

} // namespace

extern "C" {

tgrt_status tgrt_graph_recorder_create(tgrt_device *device, tgrt_graph_recorder **out_recorder) {
  return apiCall("tgrt_graph_recorder_create", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkOpenDevice(device, "tgrt_graph_recorder_create"));
    TGRT_RETURN_IF_ERROR(checkOut(out_recorder, "tgrt_graph_recorder_create", "out_recorder"));
    Ref<tgrt_graph_recorder> r = Ref<tgrt_graph_recorder>::adopt(new tgrt_graph_recorder);
    r->device = Ref<tgrt_device>::share(device);
    *out_recorder = r.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_graph_recorder_destroy(tgrt_graph_recorder *recorder) {
  return apiRelease("tgrt_graph_recorder_destroy", recorder);
}

tgrt_status tgrt_graph_recorder_dispatch(tgrt_graph_recorder *recorder, tgrt_program *program,
                                         const tgrt_arg *args, uint32_t num_args,
                                         const tgrt_dispatch *dispatch, uint64_t written_args) {
  return apiCall("tgrt_graph_recorder_dispatch", [&]() -> Status {
    const char *fn = "tgrt_graph_recorder_dispatch";
    TGRT_RETURN_IF_ERROR(checkHandle(recorder, fn, "recorder"));
    if (!dispatch)
      return failf(TGRT_INVALID_ARGUMENT, "%s: dispatch is NULL", fn);
    Command c(Command::Exec);
    TGRT_RETURN_IF_ERROR(makeExec(fn, recorder->device.get(), program, args, num_args, *dispatch, c));
    std::vector<hcq_deps::Access> accesses;
    for (uint32_t a = 0; a < num_args; ++a) {
      if (static_cast<int32_t>(a) == dispatch->core_id_arg_index)
        continue;
      bool written = a < 64 && ((written_args >> a) & 1);
      if (args[a].kind == TGRT_ARG_BUFFER)
        accesses.push_back(access(args[a].buffer, 0, args[a].buffer->size, written));
      else if (written)
        return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is written but is not a buffer", fn, a);
    }
    return plan(recorder, std::move(c), TGRT_QUEUE_COMPUTE, accesses);
  });
}

tgrt_status tgrt_graph_recorder_copy(tgrt_graph_recorder *recorder, tgrt_buffer *dst, size_t dst_offset,
                                     tgrt_buffer *src, size_t src_offset, size_t size) {
  return apiCall("tgrt_graph_recorder_copy", [&]() -> Status {
    const char *fn = "tgrt_graph_recorder_copy";
    TGRT_RETURN_IF_ERROR(checkHandle(recorder, fn, "recorder"));
    Command c(Command::Copy);
    TGRT_RETURN_IF_ERROR(makeCopy(fn, recorder->device.get(), dst, dst_offset, src, src_offset, size, c));
    return plan(recorder, std::move(c), TGRT_QUEUE_COPY,
                {access(dst, dst_offset, size, true), access(src, src_offset, size, false)});
  });
}

tgrt_status tgrt_graph_recorder_wait_count(const tgrt_graph_recorder *recorder, uint32_t *out_count) {
  return apiQuery("tgrt_graph_recorder_wait_count", recorder, out_count, "out_count",
                  [](const tgrt_graph_recorder &r) { return r.waits; });
}

tgrt_status tgrt_graph_recorder_finish(tgrt_graph_recorder *recorder, tgrt_graph **out_graph) {
  return apiCall("tgrt_graph_recorder_finish", [&]() -> Status {
    const char *fn = "tgrt_graph_recorder_finish";
    TGRT_RETURN_IF_ERROR(checkHandle(recorder, fn, "recorder"));
    TGRT_RETURN_IF_ERROR(checkOut(out_graph, fn, "out_graph"));
    if (recorder->steps.empty())
      return failf(TGRT_INVALID_ARGUMENT, "%s: nothing was recorded", fn);
    // One queue and one timeline signal per queue type; the copy queue
    // first, as tg-schedule-to-hcq emits them.
    const tgrt_queue_type order[] = {TGRT_QUEUE_COPY, TGRT_QUEUE_COMPUTE};
    Ref<tgrt_queue> queues[2];
    Ref<tgrt_signal> timelines[2];
    for (tgrt_queue_type t : order) {
      queues[t] = Ref<tgrt_queue>::adopt(new tgrt_queue);
      queues[t]->device = recorder->device;
      queues[t]->type = t;
      timelines[t] = Ref<tgrt_signal>::adopt(new tgrt_signal);
      timelines[t]->device = recorder->device;
    }
    for (size_t j = 0; j < recorder->steps.size(); ++j) {
      const tgrt_graph_recorder::Step &s = recorder->steps[j];
      CommandList &list = *queues[s.queue]->commands;
      for (const hcq_deps::Dep &d : s.waits)
        list.push_back(signalCommand(Command::Wait, timelines[d.queue], d.value));
      list.push_back(s.command);
      if (s.signals)
        list.push_back(signalCommand(Command::Signal, timelines[s.queue], j + 1));
    }
    tgrt_queue *captured[2];
    uint32_t n = 0;
    for (tgrt_queue_type t : order)
      if (!queues[t]->commands->empty())
        captured[n++] = queues[t].get();
    return tgrt_graph_create(captured, n, out_graph);
  });
}

} // extern "C"
