//===- HCQCalls.cpp - the runtime calls of compiled hcq schedules ---------===//
//
// Each function is the runtime.h call its hcq op stands for, behind the
// state's first failure: a compiled schedule calls them unconditionally,
// and the caller reads the outcome once (tgrt_hcq_state_status).
//
//===----------------------------------------------------------------------===//
#include "tinygrad-rt/hcq.h"

#include "Queue.h"

#include <string>
#include <vector>

struct tgrt_hcq_state {
  bool capture = false;
  uint64_t timeoutMs = 0;
  tgrt_status status = TGRT_OK;
  std::string message;
  std::vector<tgrt_queue *> queues, submitted;
  std::vector<tgrt_signal *> signals;

  /// False once a call failed: later calls do nothing.
  bool ok() const { return status == TGRT_OK; }
  void check(const char *op, tgrt_status s) {
    if (s != TGRT_OK && ok()) {
      status = s;
      message = std::string(op) + ": " + tgrt_last_error();
    }
  }
  void failWith(const char *op, const std::string &why) {
    if (ok()) {
      status = TGRT_INVALID_ARGUMENT;
      message = std::string(op) + ": " + why;
    }
  }
};

extern "C" {

tgrt_status tgrt_hcq_state_create(int capture, uint64_t host_wait_timeout_ms, tgrt_hcq_state **out_state) {
  if (!out_state)
    return TGRT_INVALID_ARGUMENT;
  auto *s = new tgrt_hcq_state;
  s->capture = capture != 0;
  s->timeoutMs = host_wait_timeout_ms;
  *out_state = s;
  return TGRT_OK;
}

void tgrt_hcq_state_destroy(tgrt_hcq_state *state) {
  if (!state)
    return;
  for (tgrt_queue *q : state->queues)
    tgrt_queue_destroy(q);
  for (tgrt_signal *s : state->signals)
    tgrt_signal_destroy(s);
  delete state;
}

tgrt_status tgrt_hcq_state_status(const tgrt_hcq_state *state, const char **out_message) {
  if (!state)
    return TGRT_INVALID_ARGUMENT;
  if (out_message)
    *out_message = state->message.c_str();
  return state->status;
}

tgrt_status tgrt_hcq_state_capture(tgrt_hcq_state *state, tgrt_graph **out_graph) {
  if (!state || !out_graph || !state->capture || !state->ok())
    return TGRT_INVALID_ARGUMENT;
  return tgrt_graph_create(state->submitted.data(), static_cast<uint32_t>(state->submitted.size()), out_graph);
}

tgrt_queue *tgrt_hcq_queue(tgrt_hcq_state *state, tgrt_device *device, uint32_t kind) {
  tgrt_queue *q = nullptr;
  if (!state->ok())
    return nullptr;
  if (kind > 1) {
    state->failWith("hcq.queue", "queue kind " + std::to_string(kind) + " is neither compute (0) nor copy (1)");
    return nullptr;
  }
  state->check("hcq.queue", tgrt_queue_create(device, kind ? TGRT_QUEUE_COPY : TGRT_QUEUE_COMPUTE, &q));
  if (q)
    state->queues.push_back(q);
  return q;
}

tgrt_signal *tgrt_hcq_new_signal(tgrt_hcq_state *state, tgrt_device *device, uint64_t value) {
  tgrt_signal *s = nullptr;
  if (!state->ok())
    return nullptr;
  state->check("hcq.new_signal", tgrt_signal_create(device, value, &s));
  if (s)
    state->signals.push_back(s);
  return s;
}

void tgrt_hcq_exec(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_program *program, const uint64_t *args,
                   uint32_t num_args, const int64_t *dims, int32_t core_id_arg_index) {
  if (!state->ok())
    return;
  if (num_args > TGRT_MAX_ARGS) {
    state->failWith("hcq.exec", std::to_string(num_args) + " arguments, at most " + std::to_string(TGRT_MAX_ARGS));
    return;
  }
  tgrt_arg a[TGRT_MAX_ARGS];
  for (uint32_t i = 0; i < num_args; ++i) {
    uint64_t kind = args[2 * i], value = args[2 * i + 1];
    if (kind == TGRT_ARG_BUFFER)
      a[i] = tgrt_arg_buffer(reinterpret_cast<tgrt_buffer *>(static_cast<uintptr_t>(value)));
    else
      a[i] = tgrt_arg_int(static_cast<int64_t>(value));
  }
  tgrt_dispatch d{};
  d.api_version = TGRT_API_VERSION;
  for (int i = 0; i < 3; ++i) {
    d.global_size[i] = static_cast<uint32_t>(dims[i]);
    d.local_size[i] = static_cast<uint32_t>(dims[3 + i]);
  }
  d.core_id_arg_index = core_id_arg_index;
  state->check("hcq.exec", tgrt_queue_dispatch(queue, program, a, num_args, &d));
}

void tgrt_hcq_copy(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_buffer *dst, tgrt_buffer *src, uint64_t size) {
  if (state->ok())
    state->check("hcq.copy", tgrt_queue_copy(queue, dst, 0, src, 0, size));
}

void tgrt_hcq_wait(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_signal *signal, uint64_t value) {
  if (state->ok())
    state->check("hcq.wait", tgrt_queue_wait(queue, signal, value));
}

void tgrt_hcq_signal(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_signal *signal, uint64_t value) {
  if (state->ok())
    state->check("hcq.signal", tgrt_queue_signal(queue, signal, value));
}

void tgrt_hcq_timestamp(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_signal *signal) {
  if (state->ok())
    state->check("hcq.timestamp", tgrt_queue_timestamp(queue, signal));
}

void tgrt_hcq_memory_barrier(tgrt_hcq_state *state, tgrt_queue *queue) {
  if (state->ok())
    state->check("hcq.memory_barrier", tgrt_queue_memory_barrier(queue));
}

void tgrt_hcq_submit(tgrt_hcq_state *state, tgrt_queue *queue, tgrt_device *device) {
  if (!state->ok())
    return;
  tgrt_status s = tgrt::checkHandle(queue, "hcq.submit", "queue");
  if (s == TGRT_OK && queue->device.get() != device) {
    state->failWith("hcq.submit", "the queue belongs to another device");
    return;
  }
  if (s != TGRT_OK || !state->capture)
    state->check("hcq.submit", s != TGRT_OK ? s : tgrt_queue_submit(queue));
  else
    state->submitted.push_back(queue);
}

void tgrt_hcq_host_wait(tgrt_hcq_state *state, tgrt_signal *signal, uint64_t value) {
  // A capture waits for the whole graph launch instead.
  if (state->ok() && !state->capture)
    state->check("hcq.host_wait", tgrt_signal_wait(signal, value, state->timeoutMs));
}

} // extern "C"
