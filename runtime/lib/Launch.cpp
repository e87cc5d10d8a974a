//===- Launch.cpp - tinygrad's CPU calling convention ---------------------===//
//
// tinygrad calls a CPU kernel with every argument as a uint64 (buffers as
// their address, ints in 64-bit slots that the kernel may read as int32).
// The call stubs below are one function per arity, 0..TGRT_MAX_ARGS,
// generated with templates: stub<N> casts the entry to
// void(*)(uint64_t x N) and passes args[0..N).
//
//===----------------------------------------------------------------------===//

#include "Program.h"

#include <algorithm>
#include <array>
#include <utility>

using namespace tgrt;

namespace {

template <size_t> using U64 = uint64_t;

template <size_t... I> void callWithArgs(void *entry, const uint64_t *args, std::index_sequence<I...>) {
  using Fn = void (*)(U64<I>...);
  reinterpret_cast<Fn>(entry)(args[I]...);
}

template <size_t N> void callStub(void *entry, const uint64_t *args) {
  callWithArgs(entry, args, std::make_index_sequence<N>{});
}

using Stub = void (*)(void *, const uint64_t *);

template <size_t... N> constexpr auto makeStubTable(std::index_sequence<N...>) {
  return std::array<Stub, sizeof...(N)>{&callStub<N>...};
}

constexpr auto kStubs = makeStubTable(std::make_index_sequence<TGRT_MAX_ARGS + 1>{});

void invoke(const KernelCall &call, const uint64_t *args) { kStubs[call.numArgs](call.entry, args); }

void runThread(void *context, uint32_t tid) {
  const KernelCall &call = *static_cast<const KernelCall *>(context);
  uint64_t args[TGRT_MAX_ARGS];
  std::copy(call.args, call.args + call.numArgs, args);
  args[call.coreIdArg] = tid;
  invoke(call, args);
}

} // namespace

Status tgrt::prepareCall(const char *function, const tgrt_program *program, const tgrt_arg *args,
                         uint32_t numArgs, int32_t coreIdArg, uint32_t nthreads, KernelCall &call,
                         std::vector<Ref<tgrt_buffer>> *keep) {
  TGRT_RETURN_IF_ERROR(checkHandle(program, function, "program"));
  if (numArgs > TGRT_MAX_ARGS)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %u arguments, at most %d are supported", function,
                 numArgs, TGRT_MAX_ARGS);
  if (numArgs && !args)
    return failf(TGRT_INVALID_ARGUMENT, "%s: args is NULL but num_args is %u", function, numArgs);
  if (coreIdArg < -1 || (coreIdArg >= 0 && static_cast<uint32_t>(coreIdArg) >= numArgs))
    return failf(TGRT_INVALID_ARGUMENT, "%s: core_id_arg_index %d is not -1 or an index below %u",
                 function, coreIdArg, numArgs);
  if (coreIdArg < 0 && nthreads > 1)
    return failf(TGRT_INVALID_ARGUMENT,
                 "%s: nthreads is %u but there is no core_id argument to tell the threads apart",
                 function, nthreads);
  if (coreIdArg >= 0 && (nthreads == 0 || nthreads > INT32_MAX))
    return failf(TGRT_INVALID_ARGUMENT, "%s: nthreads %u must be in [1, 2^31)", function, nthreads);
  call.entry = program->image.entry();
  call.numArgs = numArgs;
  call.coreIdArg = coreIdArg;
  call.nthreads = coreIdArg >= 0 ? nthreads : 1;
  for (uint32_t i = 0; i < numArgs; ++i) {
    if (static_cast<int32_t>(i) == coreIdArg) {
      call.args[i] = 0;
      continue;
    }
    const tgrt_arg &a = args[i];
    switch (a.kind) {
    case TGRT_ARG_INT:
      call.args[i] = a.value;
      break;
    case TGRT_ARG_BUFFER: {
      if (!a.buffer)
        return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is a NULL buffer", function, i);
      if (a.buffer->magic() != tgrt_buffer::kMagic)
        return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is not a valid buffer handle", function, i);
      if (a.buffer->device.get() != program->device.get())
        return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is a buffer of another device", function, i);
      call.args[i] = reinterpret_cast<uint64_t>(a.buffer->data);
      if (keep)
        keep->push_back(Ref<tgrt_buffer>::share(a.buffer));
      break;
    }
    default:
      return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u has unknown kind %u", function, i, a.kind);
    }
  }
  return TGRT_OK;
}

void tgrt::runCall(ThreadPool &pool, const KernelCall &call) {
  if (call.coreIdArg < 0) {
    invoke(call, call.args);
    return;
  }
  pool.parallelFor(call.nthreads, &runThread, const_cast<KernelCall *>(&call));
}

extern "C" tgrt_status tgrt_program_launch(tgrt_program *program, const tgrt_arg *args,
                                           uint32_t num_args, int32_t core_id_arg_index,
                                           uint32_t nthreads) {
  return apiCall("tgrt_program_launch", [&]() -> Status {
    KernelCall call;
    TGRT_RETURN_IF_ERROR(prepareCall("tgrt_program_launch", program, args, num_args,
                                     core_id_arg_index, nthreads, call, nullptr));
    tgrt_device *device = program->device.get();
    std::shared_lock<std::shared_mutex> lock(device->lifecycle);
    TGRT_RETURN_IF_ERROR(checkNotClosed(device, "tgrt_program_launch"));
    runCall(*device->pool, call);
    return TGRT_OK;
  });
}
