//===- CudaDriver.cpp - kernels on an NVIDIA GPU through the driver API ---===//
//
// A CUDA:<n> device is the n-th CUDA device's primary context (the one the
// CUDA runtime and PyTorch share) with one stream. Buffers are cuMemAlloc
// allocations: device memory the host cannot map, so host copies go through
// cuMemcpyHtoD/DtoH (DeviceDriver::copyIn/copyOut). Programs are cubins or
// PTX (which the driver compiles for the device when it loads it) loaded
// with cuModuleLoadDataEx. A launch passes tinygrad's argument layout as
// cuLaunchKernel's kernelParams: each buffer's device pointer with its
// view's offset added, then each scalar (4 or 8 bytes, as
// tgrt_program_desc declares). A run enqueues its commands on the stream in
// order (the stream orders them; copies inside one allocation whose ranges
// overlap go through a temporary), records an event and polls it until it
// completes or the timeout passes (TGRT_CUDA_TIMEOUT_MS, default 10 min), so
// a kernel that never ends is an error, not a hang.
//
// Tested here only up to opening (no libcuda.so.1 on the build machine; the
// toolkit's stub library reports CUDA_ERROR_STUB_LIBRARY): the launch paths
// run when a machine with an NVIDIA GPU runs the tests (CudaTest.cpp) or
// scripts/device-check.sh.
//
//===----------------------------------------------------------------------===//

#include "CudaApi.h"

#include "Buffer.h"
#include "GpuProperties.h"
#include "Program.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

using namespace tgrt;
using namespace tgrt::cuda;

namespace {

std::chrono::milliseconds runTimeout() {
  const char *env = std::getenv("TGRT_CUDA_TIMEOUT_MS");
  return std::chrono::milliseconds(env && *env ? std::strtoull(env, nullptr, 10) : 600000);
}

/// Makes the device's context current on the calling thread for a scope:
/// engines and host copies call the driver from different threads.
class ScopedContext {
public:
  ScopedContext(const Api &api, CUcontext ctx) : api_(api) { ok_ = api.cuCtxPushCurrent(ctx) == CUDA_SUCCESS; }
  ~ScopedContext() {
    CUcontext popped;
    if (ok_)
      api_.cuCtxPopCurrent(&popped);
  }
  Status status() const {
    return ok_ ? TGRT_OK : fail(TGRT_INTERNAL, "CUDA: cuCtxPushCurrent failed");
  }

private:
  const Api &api_;
  bool ok_ = false;
};

class CudaProgram final : public ProgramImpl {
public:
  const std::string &entryName() const override { return entry; }
  std::string entry;
  CUmodule module = nullptr;
  CUfunction function = nullptr;
  int maxThreads = 0; // what the compiled function allows per block
  const Api *api = nullptr;
  CUcontext ctx = nullptr;
  ~CudaProgram() override {
    if (module) {
      ScopedContext scope(*api, ctx);
      api->cuModuleUnload(module);
    }
  }
};

CUdeviceptr devicePointer(const Memory &m) { return reinterpret_cast<CUdeviceptr>(m.handle); }

class CudaDriver final : public DeviceDriver {
public:
  ~CudaDriver() override;
  Status open(unsigned index);

  void query(tgrt_device_info &info) const override { props_.describe(info); }

  Status allocate(size_t size, Memory &out) override;
  void release(Memory &memory) noexcept override;
  Status copyIn(const Memory &memory, size_t offset, const void *src, size_t size) override;
  Status copyOut(const Memory &memory, size_t offset, void *dst, size_t size) override;
  Status loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) override;
  Status checkLaunch(const char *function, const tgrt_program &program, const Launch &launch) override;
  /// Runs the commands to completion before it returns (ticket 0): the
  /// engines' overlap of submit and wait is not used by this driver yet.
  Status submit(const DeviceCommand *commands, size_t count, uint64_t &ticket) override;
  void shutdown() noexcept override {
    std::lock_guard<std::mutex> lock(queueMutex_);
    if (ctx_) {
      ScopedContext scope(*api_, ctx_);
      api_->cuCtxSynchronize();
    }
  }

private:
  Status enqueue(const DeviceCommand &c);
  Status waitForStream();

  const Api *api_ = nullptr;
  CUdevice device_ = 0;
  CUcontext ctx_ = nullptr;
  GpuProperties props_;

  std::mutex queueMutex_; // runs are serialized on the one stream
  CUstream stream_ = nullptr;
  CUevent done_ = nullptr;
  std::unique_ptr<std::string> lost_; // why the device stopped accepting work
};

Status CudaDriver::open(unsigned index) {
  TGRT_RETURN_IF_ERROR(cuda::load(api_));
  const Api &api = *api_;
  int count = 0;
  TGRT_CU_CHECK(api, cuDeviceGetCount(&count));
  if (index >= static_cast<unsigned>(count))
    return failf(TGRT_UNAVAILABLE, "no CUDA device %u (there %s %d)", index, count == 1 ? "is" : "are",
                 count);
  TGRT_CU_CHECK(api, cuDeviceGet(&device_, static_cast<int>(index)));
  char name[256] = {};
  TGRT_CU_CHECK(api, cuDeviceGetName(name, sizeof name - 1, device_));
  props_.driver = "CUDA";
  props_.description = name;
  auto attr = [&](int a, uint32_t &v) {
    int value = 0;
    Status st = check(api, api.cuDeviceGetAttribute(&value, a, device_), "cuDeviceGetAttribute");
    v = static_cast<uint32_t>(value);
    return st;
  };
  uint32_t major = 0, minor = 0;
  TGRT_RETURN_IF_ERROR(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, major));
  TGRT_RETURN_IF_ERROR(attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, minor));
  props_.arch = "sm_" + std::to_string(major * 10 + minor);
  for (int d = 0; d < 3; ++d) {
    TGRT_RETURN_IF_ERROR(attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + d, props_.maxLocal[d]));
    TGRT_RETURN_IF_ERROR(attr(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + d, props_.maxGroups[d]));
  }
  TGRT_RETURN_IF_ERROR(attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, props_.maxThreads));
  // Static shared memory (48 KB; more needs a per-kernel opt-in).
  TGRT_RETURN_IF_ERROR(attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, props_.sharedBytes));
  TGRT_RETURN_IF_ERROR(attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, props_.subgroup));

  TGRT_CU_CHECK(api, cuDevicePrimaryCtxRetain(&ctx_, device_));
  ScopedContext scope(api, ctx_);
  TGRT_RETURN_IF_ERROR(scope.status());
  // Non-blocking: the legacy default stream (host copies) does not wait
  // for it; the C API orders host copies after waits itself.
  TGRT_CU_CHECK(api, cuStreamCreate(&stream_, CU_STREAM_NON_BLOCKING));
  TGRT_CU_CHECK(api, cuEventCreate(&done_, CU_EVENT_DISABLE_TIMING));
  return TGRT_OK;
}

CudaDriver::~CudaDriver() {
  if (!ctx_)
    return;
  {
    ScopedContext scope(*api_, ctx_);
    api_->cuCtxSynchronize();
    if (done_) api_->cuEventDestroy(done_);
    if (stream_) api_->cuStreamDestroy(stream_);
  }
  api_->cuDevicePrimaryCtxRelease(device_);
}

Status CudaDriver::allocate(size_t size, Memory &out) {
  ScopedContext scope(*api_, ctx_);
  TGRT_RETURN_IF_ERROR(scope.status());
  // cuMemAlloc rejects 0 bytes; a size-0 buffer still gets an address.
  size_t bytes = std::max<size_t>(size, 16);
  CUdeviceptr ptr = 0;
  CUresult r = api_->cuMemAlloc(&ptr, bytes);
  if (r != CUDA_SUCCESS)
    return failf(r == CUDA_ERROR_OUT_OF_MEMORY ? TGRT_OUT_OF_MEMORY : TGRT_INTERNAL,
                 "tgrt_buffer_alloc: cuMemAlloc of %zu bytes on %s failed: %s", size, props_.description.c_str(),
                 describe(*api_, r).c_str());
  // Buffers start zero-filled, as the C API promises.
  r = api_->cuMemsetD8(ptr, 0, bytes);
  if (r != CUDA_SUCCESS) {
    api_->cuMemFree(ptr);
    return check(*api_, r, "cuMemsetD8");
  }
  out.handle = reinterpret_cast<void *>(ptr);
  out.host = nullptr;
  out.size = size;
  return TGRT_OK;
}

void CudaDriver::release(Memory &memory) noexcept {
  if (memory.handle) {
    // Runs wait for their completion, so nothing in flight can use it.
    ScopedContext scope(*api_, ctx_);
    api_->cuMemFree(devicePointer(memory));
  }
  memory = Memory();
}

Status CudaDriver::copyIn(const Memory &memory, size_t offset, const void *src, size_t size) {
  if (!size)
    return TGRT_OK;
  ScopedContext scope(*api_, ctx_);
  TGRT_RETURN_IF_ERROR(scope.status());
  TGRT_CU_CHECK(*api_, cuMemcpyHtoD(devicePointer(memory) + offset, src, size));
  return TGRT_OK;
}

Status CudaDriver::copyOut(const Memory &memory, size_t offset, void *dst, size_t size) {
  if (!size)
    return TGRT_OK;
  ScopedContext scope(*api_, ctx_);
  TGRT_RETURN_IF_ERROR(scope.status());
  TGRT_CU_CHECK(*api_, cuMemcpyDtoH(dst, devicePointer(memory) + offset, size));
  return TGRT_OK;
}

Status CudaDriver::loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) {
  if (desc.format != TGRT_FORMAT_CUBIN && desc.format != TGRT_FORMAT_PTX)
    return fail(TGRT_UNSUPPORTED, "tgrt_program_create: a CUDA device runs cubin or PTX programs only");
  if (!desc.entry_name || !*desc.entry_name)
    return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_create: a CUDA program needs its entry name");
  const auto *bytes = static_cast<const uint8_t *>(desc.binary);
  std::string image;
  if (desc.format == TGRT_FORMAT_CUBIN) {
    // An ELF whose machine is EM_CUDA (190), so that other bytes get a
    // clear error instead of the driver's.
    if (desc.size < 64 || std::memcmp(bytes, "\x7f" "ELF", 4) != 0 || bytes[18] != 190)
      return failf(TGRT_INVALID_OBJECT, "tgrt_program_create: %zu bytes are not a cubin (an ELF "
                                        "file for machine EM_CUDA)", desc.size);
    image.assign(reinterpret_cast<const char *>(bytes), desc.size);
  } else {
    // PTX is text that cuModuleLoadData reads up to its NUL.
    image.assign(reinterpret_cast<const char *>(bytes), strnlen(reinterpret_cast<const char *>(bytes), desc.size));
    if (image.find(".entry") == std::string::npos)
      return failf(TGRT_INVALID_OBJECT, "tgrt_program_create: %zu bytes of PTX have no .entry", desc.size);
  }
  for (int d = 0; d < 3; ++d)
    if (desc.local_size[d] > props_.maxLocal[d])
      return failf(TGRT_INVALID_ARGUMENT, "tgrt_program_create: local size %u in dimension %d is over "
                                          "%s's %u", desc.local_size[d], d, props_.description.c_str(), props_.maxLocal[d]);
  ScopedContext scope(*api_, ctx_);
  TGRT_RETURN_IF_ERROR(scope.status());
  auto p = std::make_unique<CudaProgram>();
  p->api = api_;
  p->ctx = ctx_;
  p->entry = desc.entry_name;
  char log[4096] = {};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {log, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof log - 1))};
  CUresult r = api_->cuModuleLoadDataEx(&p->module, image.c_str(), 2, options, values);
  if (r != CUDA_SUCCESS) {
    bool bad = r == CUDA_ERROR_INVALID_IMAGE || r == CUDA_ERROR_NO_BINARY_FOR_GPU ||
               r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION;
    p->module = nullptr;
    return failf(bad ? TGRT_INVALID_OBJECT : TGRT_INTERNAL,
                 "tgrt_program_create: %s (%s) rejected the %s: %s%s%s", props_.description.c_str(), props_.arch.c_str(),
                 desc.format == TGRT_FORMAT_PTX ? "PTX" : "cubin", describe(*api_, r).c_str(),
                 *log ? "\n" : "", log);
  }
  r = api_->cuModuleGetFunction(&p->function, p->module, desc.entry_name);
  if (r == CUDA_ERROR_NOT_FOUND)
    return failf(TGRT_NOT_FOUND, "tgrt_program_create: the module has no kernel '%s'", desc.entry_name);
  TGRT_RETURN_IF_ERROR(check(*api_, r, "cuModuleGetFunction"));
  TGRT_CU_CHECK(*api_, cuFuncGetAttribute(&p->maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, p->function));
  out = std::move(p);
  return TGRT_OK;
}

Status CudaDriver::checkLaunch(const char *function, const tgrt_program &program, const Launch &launch) {
  TGRT_RETURN_IF_ERROR(checkArgumentKinds(function, program, launch));
  const auto &p = static_cast<const CudaProgram &>(*program.impl);
  return props_.checkSizes(function, program, launch, static_cast<uint32_t>(p.maxThreads));
}

Status CudaDriver::enqueue(const DeviceCommand &c) {
  switch (c.op) {
  case DeviceCommand::Exec: {
    const tgrt_program &program = *c.program;
    const Launch &launch = *c.launch;
    const auto &p = static_cast<const CudaProgram &>(*program.impl);
    // kernelParams[i] points at argument i's value; the driver copies as
    // many bytes as the kernel's parameter i has (little-endian: a 4-byte
    // scalar is the low half of its slot).
    uint64_t values[TGRT_MAX_ARGS];
    void *params[TGRT_MAX_ARGS];
    for (uint32_t i = 0; i < launch.numArgs; ++i) {
      const tgrt_arg &a = launch.args[i];
      values[i] = a.kind == TGRT_ARG_BUFFER ? devicePointer(a.buffer->root->memory) + a.buffer->offset : a.value;
      params[i] = &values[i];
    }
    TGRT_CU_CHECK(*api_, cuLaunchKernel(p.function, launch.global[0], launch.global[1], launch.global[2],
                                        launch.local[0], launch.local[1], launch.local[2], 0, stream_,
                                        params, nullptr));
    return TGRT_OK;
  }
  case DeviceCommand::Copy: {
    if (!c.size)
      return TGRT_OK;
    CUdeviceptr src = devicePointer(c.src->root->memory) + c.src->offset + c.srcOffset;
    CUdeviceptr dst = devicePointer(c.dst->root->memory) + c.dst->offset + c.dstOffset;
    if (src < dst + c.size && dst < src + c.size && src != dst) {
      // cuMemcpy's ranges must not overlap; tgrt_queue_copy's may (memmove).
      Memory tmp;
      TGRT_RETURN_IF_ERROR(allocate(c.size, tmp));
      CUdeviceptr t = devicePointer(tmp);
      Status st = check(*api_, api_->cuMemcpyDtoDAsync(t, src, c.size, stream_), "cuMemcpyDtoDAsync");
      if (st == TGRT_OK)
        st = check(*api_, api_->cuMemcpyDtoDAsync(dst, t, c.size, stream_), "cuMemcpyDtoDAsync");
      if (st == TGRT_OK)
        st = waitForStream(); // before the temporary is freed
      release(tmp);
      return st;
    }
    if (src != dst)
      TGRT_CU_CHECK(*api_, cuMemcpyDtoDAsync(dst, src, c.size, stream_));
    return TGRT_OK;
  }
  case DeviceCommand::MemoryBarrier:
    return TGRT_OK; // one stream runs its work in order, each command seeing the last one's writes
  case DeviceCommand::Timestamp:
    // deviceTimestamps() is false: the engine stamps after the work before.
    return fail(TGRT_INTERNAL, "CUDA: a timestamp command reached the driver");
  }
  return TGRT_OK;
}

Status CudaDriver::waitForStream() {
  TGRT_CU_CHECK(*api_, cuEventRecord(done_, stream_));
  auto start = std::chrono::steady_clock::now();
  auto limit = runTimeout();
  for (unsigned spins = 0;; ++spins) {
    CUresult r = api_->cuEventQuery(done_);
    if (r == CUDA_SUCCESS)
      return TGRT_OK;
    if (r != CUDA_ERROR_NOT_READY)
      return failf(TGRT_ABORTED, "CUDA: work on %s failed: %s", props_.description.c_str(), describe(*api_, r).c_str());
    auto waited = std::chrono::steady_clock::now() - start;
    if (waited > limit)
      return failf(TGRT_TIMEOUT, "CUDA: work on %s did not complete within %lld ms (TGRT_CUDA_TIMEOUT_MS)",
                   props_.description.c_str(), (long long)limit.count());
    // Short kernels finish within microseconds: yield first, then sleep.
    if (spins < 64)
      std::this_thread::yield();
    else
      std::this_thread::sleep_for(std::chrono::microseconds(waited < std::chrono::milliseconds(10) ? 20 : 500));
  }
}

Status CudaDriver::submit(const DeviceCommand *commands, size_t count, uint64_t &ticket) {
  ticket = 0;
  std::lock_guard<std::mutex> lock(queueMutex_);
  if (lost_)
    return failf(TGRT_ABORTED, "CUDA device '%s' is unusable after an earlier failure: %s", props_.description.c_str(),
                 lost_->c_str());
  ScopedContext scope(*api_, ctx_);
  TGRT_RETURN_IF_ERROR(scope.status());
  Status st = TGRT_OK;
  for (size_t i = 0; i < count && st == TGRT_OK; ++i)
    st = enqueue(commands[i]);
  std::string enqueueError = st == TGRT_OK ? "" : tgrt_last_error();
  // Whatever was enqueued finishes before this returns (or the device is
  // given up: a fault or timeout leaves the context unusable).
  Status waited = waitForStream();
  if (waited != TGRT_OK)
    lost_ = std::make_unique<std::string>(tgrt_last_error());
  if (st != TGRT_OK)
    return fail(st, enqueueError);
  return waited;
}

} // namespace

Status tgrt::openCudaDriver(const tgrt_device_options &, unsigned index, std::unique_ptr<DeviceDriver> &out) {
  auto d = std::make_unique<CudaDriver>();
  TGRT_RETURN_IF_ERROR(d->open(index));
  out = std::move(d);
  return TGRT_OK;
}
