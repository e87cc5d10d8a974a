//===- Queue.cpp - recording HCQ commands and submitting them -------------===//

#include "Queue.h"

using namespace tgrt;

namespace {

/// The queue's recording, copied first if a submission still holds it.
CommandList &mutableCommands(tgrt_queue *q) {
  if (!q->commands->idle())
    q->commands = std::make_shared<CommandList>(*q->commands);
  return *q->commands;
}

Status record(tgrt_queue *q, Command c) {
  mutableCommands(q).push_back(std::move(c));
  return TGRT_OK;
}

/// signal / wait / timestamp: a command naming one signal (and a value).
Status recordSignalCommand(const char *function, tgrt_queue *queue, tgrt_signal *signal,
                           Command::Op op, uint64_t value) noexcept {
  return apiCall(function, [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(queue, function, "queue"));
    TGRT_RETURN_IF_ERROR(checkHandle(signal, function, "signal"));
    Command c(op);
    c.signal = Ref<tgrt_signal>::share(signal);
    c.value = value;
    return record(queue, std::move(c));
  });
}

Status recordExec(const char *function, tgrt_queue *queue, tgrt_program *program,
                  const tgrt_arg *args, uint32_t numArgs, const tgrt_dispatch &dispatch) {
  TGRT_RETURN_IF_ERROR(checkHandle(queue, function, "queue"));
  if (queue->type != TGRT_QUEUE_COMPUTE)
    return failf(TGRT_INVALID_ARGUMENT, "%s: exec needs a compute queue", function);
  Command c(Command::Exec);
  TGRT_RETURN_IF_ERROR(makeExec(function, queue->device.get(), program, args, numArgs, dispatch, c));
  return record(queue, std::move(c));
}

} // namespace

Status tgrt::makeExec(const char *function, tgrt_device *device, tgrt_program *program, const tgrt_arg *args,
                      uint32_t numArgs, const tgrt_dispatch &dispatch, Command &out) {
  Command c(Command::Exec);
  TGRT_RETURN_IF_ERROR(prepareLaunch(function, program, args, numArgs, dispatch, c.launch, &c.keep));
  if (program->device.get() != device)
    return failf(TGRT_INVALID_ARGUMENT, "%s: the program belongs to another device", function);
  c.program = Ref<tgrt_program>::share(program);
  out = std::move(c);
  return TGRT_OK;
}

Status tgrt::makeCopy(const char *function, tgrt_device *device, tgrt_buffer *dst, size_t dstOffset,
                      tgrt_buffer *src, size_t srcOffset, size_t size, Command &out) {
  TGRT_RETURN_IF_ERROR(checkHandle(dst, function, "dst"));
  TGRT_RETURN_IF_ERROR(checkHandle(src, function, "src"));
  TGRT_RETURN_IF_ERROR(checkRange(dst, dstOffset, size, function, "destination"));
  TGRT_RETURN_IF_ERROR(checkRange(src, srcOffset, size, function, "source"));
  if (dst->device.get() != device || src->device.get() != device)
    return failf(TGRT_INVALID_ARGUMENT, "%s: a buffer belongs to another device", function);
  Command c(Command::Copy);
  c.dst = Ref<tgrt_buffer>::share(dst);
  c.dstOffset = dstOffset;
  c.src = Ref<tgrt_buffer>::share(src);
  c.srcOffset = srcOffset;
  c.size = size;
  out = std::move(c);
  return TGRT_OK;
}

DeviceCommand Command::deviceCommand() const {
  DeviceCommand d;
  switch (op) {
  case Exec:
    d.op = DeviceCommand::Exec;
    d.program = program.get();
    d.launch = &launch;
    break;
  case Copy:
    d.op = DeviceCommand::Copy;
    d.dst = dst.get();
    d.dstOffset = dstOffset;
    d.src = src.get();
    d.srcOffset = srcOffset;
    d.size = size;
    break;
  case Timestamp:
    d.op = DeviceCommand::Timestamp;
    d.signal = signal.get();
    break;
  default:
    d.op = DeviceCommand::MemoryBarrier;
    break;
  }
  return d;
}

extern "C" {

tgrt_status tgrt_queue_create(tgrt_device *device, tgrt_queue_type type, tgrt_queue **out_queue) {
  return apiCall("tgrt_queue_create", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkOpenDevice(device, "tgrt_queue_create"));
    TGRT_RETURN_IF_ERROR(checkOut(out_queue, "tgrt_queue_create", "out_queue"));
    int kind = enumValue(type);
    if (kind != TGRT_QUEUE_COMPUTE && kind != TGRT_QUEUE_COPY)
      return failf(TGRT_INVALID_ARGUMENT, "tgrt_queue_create: unknown queue type %d", kind);
    Ref<tgrt_queue> q = Ref<tgrt_queue>::adopt(new tgrt_queue);
    q->device = Ref<tgrt_device>::share(device);
    q->type = static_cast<tgrt_queue_type>(kind);
    *out_queue = q.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_queue_destroy(tgrt_queue *queue) { return apiRelease("tgrt_queue_destroy", queue); }

tgrt_status tgrt_queue_exec(tgrt_queue *queue, tgrt_program *program, const tgrt_arg *args,
                            uint32_t num_args, int32_t core_id_arg_index, uint32_t nthreads) {
  return apiCall("tgrt_queue_exec", [&]() -> Status {
    return recordExec("tgrt_queue_exec", queue, program, args, num_args,
                      cpuDispatch(core_id_arg_index, nthreads));
  });
}

tgrt_status tgrt_queue_dispatch(tgrt_queue *queue, tgrt_program *program, const tgrt_arg *args,
                                uint32_t num_args, const tgrt_dispatch *dispatch) {
  return apiCall("tgrt_queue_dispatch", [&]() -> Status {
    if (!dispatch)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_queue_dispatch: dispatch is NULL");
    return recordExec("tgrt_queue_dispatch", queue, program, args, num_args, *dispatch);
  });
}

tgrt_status tgrt_queue_copy(tgrt_queue *queue, tgrt_buffer *dst, size_t dst_offset, tgrt_buffer *src,
                            size_t src_offset, size_t size) {
  return apiCall("tgrt_queue_copy", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(queue, "tgrt_queue_copy", "queue"));
    Command c(Command::Copy);
    TGRT_RETURN_IF_ERROR(makeCopy("tgrt_queue_copy", queue->device.get(), dst, dst_offset, src, src_offset, size, c));
    return record(queue, std::move(c));
  });
}

tgrt_status tgrt_queue_signal(tgrt_queue *queue, tgrt_signal *signal, uint64_t value) {
  return recordSignalCommand("tgrt_queue_signal", queue, signal, Command::Signal, value);
}

tgrt_status tgrt_queue_wait(tgrt_queue *queue, tgrt_signal *signal, uint64_t value) {
  return recordSignalCommand("tgrt_queue_wait", queue, signal, Command::Wait, value);
}

tgrt_status tgrt_queue_timestamp(tgrt_queue *queue, tgrt_signal *signal) {
  return recordSignalCommand("tgrt_queue_timestamp", queue, signal, Command::Timestamp, 0);
}

tgrt_status tgrt_queue_memory_barrier(tgrt_queue *queue) {
  return apiCall("tgrt_queue_memory_barrier", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(queue, "tgrt_queue_memory_barrier", "queue"));
    return record(queue, Command(Command::MemoryBarrier));
  });
}

tgrt_status tgrt_queue_submit(tgrt_queue *queue) {
  return apiCall("tgrt_queue_submit", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(queue, "tgrt_queue_submit", "queue"));
    tgrt_device *device = queue->device.get();
    std::shared_lock<std::shared_mutex> lock(device->lifecycle);
    TGRT_RETURN_IF_ERROR(checkNotClosed(device, "tgrt_queue_submit"));
    if (queue->commands->empty())
      return TGRT_OK;
    device->engine(queue->type).submit(Submission(queue->commands, 0));
    return TGRT_OK;
  });
}

tgrt_status tgrt_queue_reset(tgrt_queue *queue) {
  return apiCall("tgrt_queue_reset", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(queue, "tgrt_queue_reset", "queue"));
    queue->commands = std::make_shared<CommandList>();
    return TGRT_OK;
  });
}

tgrt_status tgrt_queue_command_count(const tgrt_queue *queue, size_t *out_count) {
  return apiQuery("tgrt_queue_command_count", queue, out_count, "out_count",
                  [](const tgrt_queue &q) { return q.commands->size(); });
}

} // extern "C"
