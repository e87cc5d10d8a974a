//===- Graph.cpp - capturing queue recordings and replaying them ----------===//

#include "Graph.h"

#include <algorithm>
#include <unordered_set>

using namespace tgrt;

namespace {

Command signalCommand(Command::Op op, tgrt_signal *signal, uint64_t value, uint64_t span) {
  Command c(op);
  c.signal = Ref<tgrt_signal>::share(signal);
  c.value = value;
  c.span = span;
  return c;
}

Status newSignal(tgrt_device *device, Ref<tgrt_signal> &out) {
  out = Ref<tgrt_signal>::adopt(new tgrt_signal);
  out->device = Ref<tgrt_device>::share(device);
  return TGRT_OK;
}

/// Signals the captured commands both signal and wait on are the graph's:
/// their values advance by `span` per launch.
void rebaseInternalSignals(std::vector<tgrt_graph::Part> &parts) {
  std::unordered_map<tgrt_signal *, uint64_t> signaled, waited;
  for (auto &p : parts)
    for (const Command &c : *p.commands) {
      if (c.op == Command::Signal && !c.span)
        signaled[c.signal.get()] = std::max(signaled[c.signal.get()], c.value);
      if (c.op == Command::Wait && !c.span)
        waited[c.signal.get()] = std::max(waited[c.signal.get()], c.value);
    }
  std::unordered_map<tgrt_signal *, uint64_t> span;
  for (auto [s, top] : signaled)
    if (auto w = waited.find(s); w != waited.end()) {
      uint64_t highest = std::max(top, w->second), now = s->load();
      if (highest > now)
        span[s] = highest - now;
    }
  for (auto &p : parts)
    for (Command &c : *p.commands)
      if ((c.op == Command::Signal || c.op == Command::Wait) && !c.span)
        if (auto it = span.find(c.signal.get()); it != span.end())
          c.span = it->second;
}

/// Both engines in one graph: launch k's parts wait for launch k-1's tail
/// (done >= k), the other engine's last part raises its join (>= k+1).
Status addCrossEngineOrder(tgrt_graph &g) {
  TGRT_RETURN_IF_ERROR(newSignal(g.device.get(), g.done));
  tgrt_queue_type other = g.tailType == TGRT_QUEUE_COMPUTE ? TGRT_QUEUE_COPY : TGRT_QUEUE_COMPUTE;
  for (auto &p : g.parts)
    p.commands->insert(p.commands->begin(), signalCommand(Command::Wait, g.done.get(), 0, 1));
  for (auto it = g.parts.rbegin(); it != g.parts.rend(); ++it)
    if (it->type == other) {
      Ref<tgrt_signal> join;
      TGRT_RETURN_IF_ERROR(newSignal(g.device.get(), join));
      it->commands->push_back(signalCommand(Command::Signal, join.get(), 1, 1));
      g.joins.push_back(join);
      break;
    }
  return TGRT_OK;
}

void indexSites(tgrt_graph &g) {
  for (uint32_t p = 0; p < g.parts.size(); ++p) {
    const CommandList &list = *g.parts[p].commands;
    for (uint32_t i = 0; i < list.size(); ++i) {
      const Command &c = list[i];
      tgrt_graph::Site site{p, i};
      auto use = [&](tgrt_buffer *b, tgrt_graph::BufferUse::Kind kind, uint32_t arg) {
        auto [it, fresh] = g.buffers.try_emplace(b);
        if (fresh) {
          it->second.handle = Ref<tgrt_buffer>::share(b);
          it->second.size = b->size;
        }
        it->second.uses.push_back({site, kind, arg});
      };
      if (c.op == Command::Exec) {
        g.execs.push_back(site);
        for (uint32_t a = 0; a < c.launch.numArgs; ++a)
          if (c.launch.args[a].kind == TGRT_ARG_BUFFER && static_cast<int32_t>(a) != c.launch.coreIdArg)
            use(c.launch.args[a].buffer, tgrt_graph::BufferUse::Arg, a);
      } else if (c.op == Command::Copy) {
        use(c.dst.get(), tgrt_graph::BufferUse::CopyDst, 0);
        use(c.src.get(), tgrt_graph::BufferUse::CopySrc, 0);
      }
    }
  }
}

/// Re-checks an exec with new arguments or dims, as recording it would.
Status relaunch(const char *function, const Command &c, const tgrt_arg *args, const uint32_t global[3],
                Launch &out, std::vector<Ref<tgrt_buffer>> &keep) {
  tgrt_dispatch d{};
  d.api_version = TGRT_API_VERSION;
  for (int i = 0; i < 3; ++i) {
    d.global_size[i] = global[i];
    d.local_size[i] = c.launch.local[i];
  }
  d.core_id_arg_index = c.launch.coreIdArg;
  return prepareLaunch(function, c.program.get(), args, c.launch.numArgs, d, out, &keep);
}

Status checkExecIndex(const char *function, const tgrt_graph *g, uint32_t index) {
  if (index >= g->execs.size())
    return failf(TGRT_OUT_OF_RANGE, "%s: exec %u, the graph has %zu", function, index, g->execs.size());
  return TGRT_OK;
}

} // namespace

Command &tgrt_graph::mutableCommand(Site site) {
  auto &list = parts[site.part].commands;
  if (!list->idle()) // a launch in flight holds it
    list = std::make_shared<CommandList>(*list);
  return (*list)[site.command];
}

extern "C" {

tgrt_status tgrt_graph_create(tgrt_queue *const *queues, uint32_t num_queues, tgrt_graph **out_graph) {
  return apiCall("tgrt_graph_create", [&]() -> Status {
    const char *fn = "tgrt_graph_create";
    TGRT_RETURN_IF_ERROR(checkOut(out_graph, fn, "out_graph"));
    if (!queues || num_queues == 0)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_graph_create: no queues to capture");
    Ref<tgrt_graph> g = Ref<tgrt_graph>::adopt(new tgrt_graph);
    for (uint32_t i = 0; i < num_queues; ++i) {
      TGRT_RETURN_IF_ERROR(checkHandle(queues[i], fn, "queue"));
      if (i && queues[i]->device.get() != queues[0]->device.get())
        return failf(TGRT_INVALID_ARGUMENT, "%s: queue %u belongs to another device", fn, i);
      if (!queues[i]->commands->empty())
        g->parts.push_back({queues[i]->type, std::make_shared<CommandList>(*queues[i]->commands)});
    }
    g->device = queues[0]->device;
    TGRT_RETURN_IF_ERROR(checkOpenDevice(g->device.get(), fn));
    if (!g->parts.empty()) {
      g->tailType = g->parts.back().type;
      g->multiEngine = std::any_of(g->parts.begin(), g->parts.end(),
                                   [&](const tgrt_graph::Part &p) { return p.type != g->tailType; });
    }
    rebaseInternalSignals(g->parts);
    if (g->multiEngine)
      TGRT_RETURN_IF_ERROR(addCrossEngineOrder(*g));
    indexSites(*g);
    *out_graph = g.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_graph_destroy(tgrt_graph *graph) { return apiRelease("tgrt_graph_destroy", graph); }

tgrt_status tgrt_graph_exec_count(const tgrt_graph *graph, uint32_t *out_count) {
  return apiQuery("tgrt_graph_exec_count", graph, out_count, "out_count",
                  [](const tgrt_graph &g) { return static_cast<uint32_t>(g.execs.size()); });
}

tgrt_status tgrt_graph_update_buffer(tgrt_graph *graph, const tgrt_buffer *captured, tgrt_buffer *buffer) {
  return apiCall("tgrt_graph_update_buffer", [&]() -> Status {
    const char *fn = "tgrt_graph_update_buffer";
    TGRT_RETURN_IF_ERROR(checkHandle(graph, fn, "graph"));
    TGRT_RETURN_IF_ERROR(checkHandle(buffer, fn, "buffer"));
    auto it = graph->buffers.find(captured);
    if (it == graph->buffers.end())
      return failf(TGRT_NOT_FOUND, "%s: the captured recording names no such buffer", fn);
    const tgrt_graph::CapturedBuffer &cb = it->second;
    if (buffer->device.get() != graph->device.get())
      return failf(TGRT_INVALID_ARGUMENT, "%s: the buffer belongs to another device", fn);
    if (buffer->size < cb.size)
      return failf(TGRT_OUT_OF_RANGE, "%s: the buffer has %zu bytes, the captured one %zu", fn,
                   buffer->size, cb.size);
    // Check every patched launch first, so that a rejected buffer changes
    // nothing.
    struct Patched {
      tgrt_graph::Site site;
      Launch launch;
      std::vector<Ref<tgrt_buffer>> keep;
    };
    std::vector<Patched> patched;
    for (const auto &use : cb.uses) {
      if (use.kind != tgrt_graph::BufferUse::Arg)
        continue;
      const Command &c = (*graph->parts[use.site.part].commands)[use.site.command];
      if (!patched.empty() && patched.back().site.part == use.site.part &&
          patched.back().site.command == use.site.command) {
        // Another argument of the same exec: patch the patched launch.
        Patched &p = patched.back();
        Launch next;
        std::vector<Ref<tgrt_buffer>> keep;
        p.launch.args[use.arg].buffer = buffer;
        TGRT_RETURN_IF_ERROR(relaunch(fn, c, p.launch.args.data(), p.launch.global, next, keep));
        p.launch = next;
        p.keep = std::move(keep);
        continue;
      }
      Patched p{use.site, {}, {}};
      tgrt_arg args[TGRT_MAX_ARGS];
      std::copy(c.launch.args.begin(), c.launch.args.end(), args);
      args[use.arg].buffer = buffer;
      TGRT_RETURN_IF_ERROR(relaunch(fn, c, args, c.launch.global, p.launch, p.keep));
      patched.push_back(std::move(p));
    }
    for (Patched &p : patched) {
      Command &c = graph->mutableCommand(p.site);
      c.launch = p.launch;
      c.keep = std::move(p.keep);
    }
    for (const auto &use : cb.uses) {
      if (use.kind == tgrt_graph::BufferUse::Arg)
        continue;
      Command &c = graph->mutableCommand(use.site);
      (use.kind == tgrt_graph::BufferUse::CopyDst ? c.dst : c.src) = Ref<tgrt_buffer>::share(buffer);
    }
    return TGRT_OK;
  });
}

tgrt_status tgrt_graph_update_arg(tgrt_graph *graph, uint32_t exec_index, uint32_t arg_index,
                                  int64_t value) {
  return apiCall("tgrt_graph_update_arg", [&]() -> Status {
    const char *fn = "tgrt_graph_update_arg";
    TGRT_RETURN_IF_ERROR(checkHandle(graph, fn, "graph"));
    TGRT_RETURN_IF_ERROR(checkExecIndex(fn, graph, exec_index));
    tgrt_graph::Site site = graph->execs[exec_index];
    const Command &c = (*graph->parts[site.part].commands)[site.command];
    if (arg_index >= c.launch.numArgs || c.launch.args[arg_index].kind != TGRT_ARG_INT ||
        static_cast<int32_t>(arg_index) == c.launch.coreIdArg)
      return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u of exec %u is not an integer argument", fn,
                   arg_index, exec_index);
    graph->mutableCommand(site).launch.args[arg_index].value = static_cast<uint64_t>(value);
    return TGRT_OK;
  });
}

tgrt_status tgrt_graph_update_dispatch(tgrt_graph *graph, uint32_t exec_index,
                                       const uint32_t global_size[3]) {
  return apiCall("tgrt_graph_update_dispatch", [&]() -> Status {
    const char *fn = "tgrt_graph_update_dispatch";
    TGRT_RETURN_IF_ERROR(checkHandle(graph, fn, "graph"));
    TGRT_RETURN_IF_ERROR(checkExecIndex(fn, graph, exec_index));
    if (!global_size)
      return failf(TGRT_INVALID_ARGUMENT, "%s: global_size is NULL", fn);
    tgrt_graph::Site site = graph->execs[exec_index];
    const Command &c = (*graph->parts[site.part].commands)[site.command];
    Launch next;
    std::vector<Ref<tgrt_buffer>> keep;
    TGRT_RETURN_IF_ERROR(relaunch(fn, c, c.launch.args.data(), global_size, next, keep));
    Command &m = graph->mutableCommand(site);
    m.launch = next;
    m.keep = std::move(keep);
    return TGRT_OK;
  });
}

tgrt_status tgrt_graph_launch(tgrt_graph *graph, tgrt_signal *signal, uint64_t value) {
  return apiCall("tgrt_graph_launch", [&]() -> Status {
    const char *fn = "tgrt_graph_launch";
    TGRT_RETURN_IF_ERROR(checkHandle(graph, fn, "graph"));
    if (signal)
      TGRT_RETURN_IF_ERROR(checkHandle(signal, fn, "signal"));
    tgrt_device *device = graph->device.get();
    std::shared_lock<std::shared_mutex> lock(device->lifecycle);
    TGRT_RETURN_IF_ERROR(checkNotClosed(device, fn));
    uint64_t epoch = graph->launches++;
    for (const auto &p : graph->parts)
      device->engine(p.type).submit(Submission(p.commands, epoch));
    if (graph->multiEngine || signal) {
      auto tail = std::make_shared<CommandList>();
      for (const auto &j : graph->joins)
        tail->push_back(signalCommand(Command::Wait, j.get(), 1, 1));
      if (graph->multiEngine)
        tail->push_back(signalCommand(Command::Signal, graph->done.get(), 1, 1));
      if (signal)
        tail->push_back(signalCommand(Command::Signal, signal, value, 0));
      device->engine(graph->tailType).submit(Submission(std::move(tail), epoch));
    }
    return TGRT_OK;
  });
}

} // extern "C"
