//===- CPUDriver.cpp - the host as a device --------------------------------===//
//
// Memory is 64-byte aligned host memory, programs are ELF relocatable
// objects linked into this process (ElfLoader), and a launch calls the
// kernel with tinygrad's CPU convention: once, or once per thread id in
// parallel on the device's persistent thread pool (tinygrad calls them one
// after another in Python). Device commands run on the calling thread (the
// engine's, or the caller's for a direct launch), so they complete in order.
//
//===----------------------------------------------------------------------===//

#include "CallStubs.h"
#include "ElfLoader.h"
#include "ThreadPool.h"

#include "Buffer.h"
#include "Program.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace tgrt;

namespace {

constexpr size_t kAlignment = 64;
constexpr uint32_t kMaxThreads = 1024;

class CPUProgram final : public ProgramImpl {
public:
  LoadedImage image;
  const std::string &entryName() const override { return image.entryName(); }
};

/// One launch in tinygrad's CPU convention: every argument a uint64.
struct KernelCall {
  void *entry = nullptr;
  uint64_t args[TGRT_MAX_ARGS] = {};
  uint32_t numArgs = 0;
  int32_t coreIdArg = -1;
};

void runThread(void *context, uint32_t tid) {
  const KernelCall &call = *static_cast<const KernelCall *>(context);
  uint64_t args[TGRT_MAX_ARGS];
  std::copy(call.args, call.args + call.numArgs, args);
  args[call.coreIdArg] = tid;
  cpu::callKernel(call.entry, args, call.numArgs);
}

class CPUDriver final : public DeviceDriver {
public:
  explicit CPUDriver(uint32_t threads) : threads_(threads), pool_(std::make_unique<ThreadPool>(threads)) {}

  void query(tgrt_device_info &info) const override {
    std::strncpy(info.driver, "CPU", sizeof info.driver - 1);
    std::strncpy(info.description, "host CPU", sizeof info.description - 1);
    info.features = TGRT_FEATURE_FLOAT16 | TGRT_FEATURE_FLOAT64 | TGRT_FEATURE_INT8 |
                    TGRT_FEATURE_INT16 | TGRT_FEATURE_INT64 | TGRT_FEATURE_HOST_MEMORY;
    for (int d = 0; d < 3; ++d)
      info.max_workgroup_size[d] = 1, info.max_workgroup_count[d] = d == 0 ? threads_ : 1;
    info.max_workgroup_invocations = 1;
    info.subgroup_size = 1;
    info.buffer_offset_alignment = 1;
  }
  uint32_t threadCount() const override { return threads_; }

  Status allocate(size_t size, Memory &out) override {
    if (size > SIZE_MAX - kAlignment)
      return failf(TGRT_OUT_OF_MEMORY, "tgrt_buffer_alloc: cannot allocate %zu bytes", size);
    size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
    if (rounded == 0)
      rounded = kAlignment;
    void *p = nullptr;
    if (posix_memalign(&p, kAlignment, rounded) != 0 || !p)
      return failf(TGRT_OUT_OF_MEMORY, "tgrt_buffer_alloc: cannot allocate %zu bytes", size);
    std::memset(p, 0, rounded);
    out.handle = p;
    out.host = static_cast<uint8_t *>(p);
    out.size = size;
    return TGRT_OK;
  }
  Status importHost(void *host, size_t size, Memory &out) override {
    out.handle = nullptr;
    out.host = static_cast<uint8_t *>(host);
    out.size = size;
    return TGRT_OK;
  }
  void release(Memory &memory) noexcept override {
    std::free(memory.handle);
    memory = Memory();
  }

  Status loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) override {
    if (desc.format != TGRT_FORMAT_ELF)
      return fail(TGRT_UNSUPPORTED, "the CPU device runs ELF objects, not this program format");
    auto prog = std::make_unique<CPUProgram>();
    TGRT_RETURN_IF_ERROR(loadElfObject(desc.binary, desc.size, desc.entry_name, prog->image));
    out = std::move(prog);
    return TGRT_OK;
  }

  Status checkLaunch(const char *, const tgrt_program &, const Launch &) override { return TGRT_OK; }

  /// Runs the commands on the calling thread: complete when it returns.
  Status submit(const DeviceCommand *commands, size_t count, uint64_t &ticket) override {
    ticket = 0;
    for (size_t i = 0; i < count; ++i) {
      const DeviceCommand &c = commands[i];
      switch (c.op) {
      case DeviceCommand::Exec:
        exec(*c.program, *c.launch);
        break;
      case DeviceCommand::Copy:
        std::memmove(c.dst->data + c.dstOffset, c.src->data + c.srcOffset, c.size);
        break;
      case DeviceCommand::MemoryBarrier:
        // Commands already complete in order and the pool's join orders the
        // kernel threads' writes before whatever runs next.
        break;
      case DeviceCommand::Timestamp: // not given: deviceTimestamps() is false
        return fail(TGRT_INTERNAL, "the CPU driver got a device timestamp");
      }
    }
    return TGRT_OK;
  }

  void shutdown() noexcept override { pool_.reset(); }

private:
  void exec(const tgrt_program &program, const Launch &launch) {
    KernelCall call;
    call.entry = static_cast<const CPUProgram &>(*program.impl).image.entry();
    call.numArgs = launch.numArgs;
    call.coreIdArg = launch.coreIdArg;
    for (uint32_t i = 0; i < launch.numArgs; ++i) {
      const tgrt_arg &a = launch.args[i];
      call.args[i] = a.kind == TGRT_ARG_BUFFER ? reinterpret_cast<uint64_t>(a.buffer->data) : a.value;
    }
    if (call.coreIdArg < 0)
      cpu::callKernel(call.entry, call.args, call.numArgs);
    else
      pool_->parallelFor(launch.global[0], &runThread, &call);
  }

  uint32_t threads_;
  std::unique_ptr<ThreadPool> pool_;
};

} // namespace

Status tgrt::openCPUDriver(const tgrt_device_options &options, unsigned index,
                           std::unique_ptr<DeviceDriver> &out) {
  if (index != 0)
    return failf(TGRT_UNAVAILABLE, "there is one CPU device (CPU:0), not CPU:%u", index);
  if (options.num_threads > kMaxThreads)
    return failf(TGRT_INVALID_ARGUMENT, "num_threads %u exceeds %u", options.num_threads,
                 kMaxThreads);
  uint32_t threads = options.num_threads ? options.num_threads : ThreadPool::availableCores();
  out = std::make_unique<CPUDriver>(threads);
  return TGRT_OK;
}
