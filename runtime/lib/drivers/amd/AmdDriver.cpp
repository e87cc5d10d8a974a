//===- AmdDriver.cpp - kernels on an AMD GPU through the HSA runtime ------===//
//
// An AMD:<n> device is the n-th GPU agent of ROCm's HSA runtime with one AQL
// queue. Buffers come from the agent's coarse-grained global memory pool
// (device memory the host cannot map: host copies are staged through
// fine-grained system memory with hsa_memory_copy). Programs are HSACO code
// objects (ELF, e_machine EM_AMDGPU) loaded into an executable; the kernel
// is the symbol "<entry>.kd". A launch allocates its kernarg segment from
// the system pool flagged KERNARG_INIT and fills tinygrad's AMD layout:
// each buffer's device address (view offset added) as 8 bytes, then each
// scalar at its natural alignment; when the code object asks for more
// (code object v5's hidden arguments, placed after the explicit ones at an
// 8-byte boundary) the hidden block counts and group sizes are filled too,
// which device-library code such as __ockl_get_local_size reads. Then one
// kernel-dispatch packet is written (header last, with release/acquire
// fences at system scope), the doorbell rung, and the completion signal
// waited on with a timeout (TGRT_AMD_TIMEOUT_MS, default 10 min).
//
// NOT RUN ON HARDWARE: no machine this project has seen has an AMD GPU or
// the HSA runtime, so only the error path (no libhsa-runtime64) is tested
// (AmdTest.cpp). Everything past hsa_init is written against the HSA 1.1
// specification and ROCm's hsa_ext_amd.h and compiles; treat it as a
// first draft until a run on a gfx90a/gfx942 confirms it. Each command is
// dispatched and waited for before the next (no packets in flight across
// commands), which keeps the ordering obviously right at some latency.
//
//===----------------------------------------------------------------------===//

#include "HsaApi.h"

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
#include <vector>

using namespace tgrt;
using namespace tgrt::hsa;

namespace {

uint64_t timeoutMs() {
  const char *env = std::getenv("TGRT_AMD_TIMEOUT_MS");
  return env && *env ? std::strtoull(env, nullptr, 10) : 600000;
}

class AmdProgram final : public ProgramImpl {
public:
  const std::string &entryName() const override { return entry; }
  std::string entry;
  hsa_executable_t executable{};
  hsa_code_object_reader_t reader{};
  uint64_t kernelObject = 0;
  uint32_t kernargBytes = 0, groupBytes = 0, privateBytes = 0;
  const Api *api = nullptr;
  ~AmdProgram() override {
    if (executable.handle) api->hsa_executable_destroy(executable);
    if (reader.handle) api->hsa_code_object_reader_destroy(reader);
  }
};

/// What agent iteration collects.
struct Agents {
  const Api *api;
  std::vector<hsa_agent_t> gpus;
  hsa_agent_t cpu{};
  bool haveCpu = false;
};

hsa_status_t collectAgent(hsa_agent_t agent, void *data) {
  auto *a = static_cast<Agents *>(data);
  uint32_t type = 0;
  if (a->api->hsa_agent_get_info(agent, HSA_AGENT_INFO_DEVICE, &type) != HSA_STATUS_SUCCESS)
    return HSA_STATUS_SUCCESS;
  if (type == HSA_DEVICE_TYPE_GPU)
    a->gpus.push_back(agent);
  else if (type == HSA_DEVICE_TYPE_CPU && !a->haveCpu)
    a->cpu = agent, a->haveCpu = true;
  return HSA_STATUS_SUCCESS;
}

/// The first global pool of an agent whose flags include `want`.
struct PoolSearch {
  const Api *api;
  uint32_t want;
  hsa_amd_memory_pool_t found{};
  bool ok = false;
};

hsa_status_t findPool(hsa_amd_memory_pool_t pool, void *data) {
  auto *s = static_cast<PoolSearch *>(data);
  uint32_t segment = 0, flags = 0;
  bool alloc = false;
  if (s->api->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &segment) ||
      segment != HSA_AMD_SEGMENT_GLOBAL ||
      s->api->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags) ||
      s->api->hsa_amd_memory_pool_get_info(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, &alloc) ||
      !alloc || (flags & s->want) != s->want)
    return HSA_STATUS_SUCCESS;
  s->found = pool;
  s->ok = true;
  return HSA_STATUS_INFO_BREAK;
}

void *devicePointer(const Memory &m) { return m.handle; }

class AmdDriver final : public DeviceDriver {
public:
  ~AmdDriver() override;
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

private:
  Status allocateFrom(hsa_amd_memory_pool_t pool, size_t size, void *&out);
  /// Copies through a fine-grained staging allocation the GPU can reach.
  Status staged(void *dst, const void *src, size_t size, bool toDevice);
  Status dispatch(const tgrt_program &program, const Launch &launch);

  const Api *api_ = nullptr;
  hsa_agent_t gpu_{}, cpu_{};
  hsa_amd_memory_pool_t devicePool_{}, kernargPool_{}, hostPool_{};
  GpuProperties props_;
  uint32_t maxGrid_[3] = {}; // work-items per dimension (an AQL grid counts items, not groups)
  int profile_ = 0;

  std::mutex queueMutex_; // runs are serialized on the one queue
  hsa_queue_t *queue_ = nullptr;
  hsa_signal_t done_{};
  std::unique_ptr<std::string> lost_;
};

Status AmdDriver::open(unsigned index) {
  TGRT_RETURN_IF_ERROR(hsa::load(api_));
  const Api &api = *api_;
  Agents agents{api_, {}, {}, false};
  TGRT_HSA_CHECK(api, hsa_iterate_agents(collectAgent, &agents));
  if (index >= agents.gpus.size())
    return failf(TGRT_UNAVAILABLE, "no AMD GPU %u (the HSA runtime lists %zu)", index, agents.gpus.size());
  if (!agents.haveCpu)
    return fail(TGRT_UNAVAILABLE, "the HSA runtime lists no CPU agent (for kernargs and staging)");
  gpu_ = agents.gpus[index];
  cpu_ = agents.cpu;
  char name[64] = {}, product[64] = {};
  TGRT_HSA_CHECK(api, hsa_agent_get_info(gpu_, HSA_AGENT_INFO_NAME, name));
  if (api.hsa_agent_get_info(gpu_, HSA_AMD_AGENT_INFO_PRODUCT_NAME, product) != HSA_STATUS_SUCCESS)
    std::strncpy(product, name, sizeof product - 1);
  props_.driver = "AMD";
  props_.arch = name;
  props_.description = product;
  uint16_t maxDim[3] = {};
  TGRT_HSA_CHECK(api, hsa_agent_get_info(gpu_, HSA_AGENT_INFO_WAVEFRONT_SIZE, &props_.subgroup));
  TGRT_HSA_CHECK(api, hsa_agent_get_info(gpu_, HSA_AGENT_INFO_WORKGROUP_MAX_DIM, maxDim));
  TGRT_HSA_CHECK(api, hsa_agent_get_info(gpu_, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE, &props_.maxThreads));
  TGRT_HSA_CHECK(api, hsa_agent_get_info(gpu_, HSA_AGENT_INFO_GRID_MAX_DIM, maxGrid_));
  TGRT_HSA_CHECK(api, hsa_agent_get_info(gpu_, HSA_AGENT_INFO_PROFILE, &profile_));
  for (int d = 0; d < 3; ++d) {
    props_.maxLocal[d] = maxDim[d];
    // The workgroups any local size allows (the exact bound, items / local,
    // is checked per launch).
    props_.maxGroups[d] = maxDim[d] ? maxGrid_[d] / maxDim[d] : 0;
  }
  // Every CDNA and RDNA chip has 64 KB of LDS per workgroup.
  props_.sharedBytes = 65536;

  PoolSearch device{api_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED};
  PoolSearch kernarg{api_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT};
  PoolSearch host{api_, HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED};
  api.hsa_amd_agent_iterate_memory_pools(gpu_, findPool, &device);
  api.hsa_amd_agent_iterate_memory_pools(cpu_, findPool, &kernarg);
  api.hsa_amd_agent_iterate_memory_pools(cpu_, findPool, &host);
  if (!device.ok || !kernarg.ok || !host.ok)
    return failf(TGRT_UNAVAILABLE, "AMD GPU %u (%s) lacks a %s memory pool", index, props_.arch.c_str(),
                 !device.ok ? "coarse-grained device" : !kernarg.ok ? "kernarg" : "fine-grained host");
  devicePool_ = device.found, kernargPool_ = kernarg.found, hostPool_ = host.found;

  uint32_t queueMax = 0;
  TGRT_HSA_CHECK(api, hsa_agent_get_info(gpu_, HSA_AGENT_INFO_QUEUE_MAX_SIZE, &queueMax));
  TGRT_HSA_CHECK(api, hsa_queue_create(gpu_, std::min<uint32_t>(queueMax, 1024), HSA_QUEUE_TYPE_SINGLE,
                                       nullptr, nullptr, UINT32_MAX, UINT32_MAX, &queue_));
  TGRT_HSA_CHECK(api, hsa_signal_create(1, 0, nullptr, &done_));
  return TGRT_OK;
}

AmdDriver::~AmdDriver() {
  if (done_.handle) api_->hsa_signal_destroy(done_);
  if (queue_) api_->hsa_queue_destroy(queue_);
}

Status AmdDriver::allocateFrom(hsa_amd_memory_pool_t pool, size_t size, void *&out) {
  hsa_status_t s = api_->hsa_amd_memory_pool_allocate(pool, size, 0, &out);
  if (s != HSA_STATUS_SUCCESS)
    return failf(TGRT_OUT_OF_MEMORY, "AMD: allocating %zu bytes failed: %s", size, describe(*api_, s).c_str());
  // The GPU and the CPU both reach every allocation of ours.
  hsa_agent_t both[2] = {gpu_, cpu_};
  s = api_->hsa_amd_agents_allow_access(2, both, nullptr, out);
  if (s != HSA_STATUS_SUCCESS) {
    api_->hsa_amd_memory_pool_free(out);
    return check(*api_, s, "hsa_amd_agents_allow_access");
  }
  return TGRT_OK;
}

Status AmdDriver::allocate(size_t size, Memory &out) {
  // Rounded to whole words for hsa_amd_memory_fill; never 0 bytes.
  size_t bytes = std::max<size_t>((size + 3) / 4 * 4, 16);
  void *p = nullptr;
  TGRT_RETURN_IF_ERROR(allocateFrom(devicePool_, bytes, p));
  if (hsa_status_t s = api_->hsa_amd_memory_fill(p, 0, bytes / 4); s != HSA_STATUS_SUCCESS) {
    api_->hsa_amd_memory_pool_free(p);
    return check(*api_, s, "hsa_amd_memory_fill");
  }
  out.handle = p;
  out.host = nullptr;
  out.size = size;
  return TGRT_OK;
}

void AmdDriver::release(Memory &memory) noexcept {
  if (memory.handle)
    api_->hsa_amd_memory_pool_free(memory.handle);
  memory = Memory();
}

Status AmdDriver::staged(void *dst, const void *src, size_t size, bool toDevice) {
  void *stage = nullptr;
  TGRT_RETURN_IF_ERROR(allocateFrom(hostPool_, size, stage));
  if (toDevice)
    std::memcpy(stage, src, size);
  hsa_status_t s = toDevice ? api_->hsa_memory_copy(dst, stage, size) : api_->hsa_memory_copy(stage, src, size);
  if (s == HSA_STATUS_SUCCESS && !toDevice)
    std::memcpy(dst, stage, size);
  api_->hsa_amd_memory_pool_free(stage);
  return check(*api_, s, "hsa_memory_copy");
}

Status AmdDriver::copyIn(const Memory &memory, size_t offset, const void *src, size_t size) {
  return size ? staged(static_cast<uint8_t *>(devicePointer(memory)) + offset, src, size, true) : TGRT_OK;
}

Status AmdDriver::copyOut(const Memory &memory, size_t offset, void *dst, size_t size) {
  return size ? staged(dst, static_cast<uint8_t *>(devicePointer(memory)) + offset, size, false) : TGRT_OK;
}

Status AmdDriver::loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) {
  if (desc.format != TGRT_FORMAT_HSACO)
    return fail(TGRT_UNSUPPORTED, "tgrt_program_create: an AMD device runs HSACO programs only");
  const auto *bytes = static_cast<const uint8_t *>(desc.binary);
  // An ELF whose machine is EM_AMDGPU (224).
  if (desc.size < 64 || std::memcmp(bytes, "\x7f" "ELF", 4) != 0 || bytes[18] != 224)
    return failf(TGRT_INVALID_OBJECT, "tgrt_program_create: %zu bytes are not an HSACO (an ELF file "
                                      "for machine EM_AMDGPU)", desc.size);
  if (!desc.entry_name || !*desc.entry_name)
    return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_create: an AMD program needs its entry name");
  const Api &api = *api_;
  auto p = std::make_unique<AmdProgram>();
  p->api = api_;
  p->entry = desc.entry_name;
  hsa_status_t s = api.hsa_code_object_reader_create_from_memory(desc.binary, desc.size, &p->reader);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_executable_create_alt(profile_, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, nullptr, &p->executable);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_executable_load_agent_code_object(p->executable, gpu_, p->reader, nullptr, nullptr);
  if (s == HSA_STATUS_SUCCESS)
    s = api.hsa_executable_freeze(p->executable, nullptr);
  if (s != HSA_STATUS_SUCCESS)
    return failf(s == HSA_STATUS_ERROR_INVALID_ISA || s == HSA_STATUS_ERROR_INVALID_CODE_OBJECT
                     ? TGRT_INVALID_OBJECT
                     : TGRT_INTERNAL,
                 "tgrt_program_create: %s (%s) rejected the code object: %s", props_.description.c_str(),
                 props_.arch.c_str(), describe(api, s).c_str());
  std::string symbolName = p->entry + ".kd";
  hsa_executable_symbol_t symbol{};
  s = api.hsa_executable_get_symbol_by_name(p->executable, symbolName.c_str(), &gpu_, &symbol);
  if (s != HSA_STATUS_SUCCESS)
    return failf(TGRT_NOT_FOUND, "tgrt_program_create: the code object has no kernel '%s' (%s)",
                 desc.entry_name, describe(api, s).c_str());
  TGRT_HSA_CHECK(api, hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &p->kernelObject));
  TGRT_HSA_CHECK(api, hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &p->kernargBytes));
  TGRT_HSA_CHECK(api, hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, &p->groupBytes));
  TGRT_HSA_CHECK(api, hsa_executable_symbol_get_info(symbol, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, &p->privateBytes));
  out = std::move(p);
  return TGRT_OK;
}

Status AmdDriver::checkLaunch(const char *function, const tgrt_program &program, const Launch &launch) {
  TGRT_RETURN_IF_ERROR(checkArgumentKinds(function, program, launch));
  // The AQL packet counts work-items: the grid is workgroups * local size.
  for (int d = 0; d < 3; ++d)
    if (uint64_t(launch.global[d]) * launch.local[d] > maxGrid_[d])
      return failf(TGRT_INVALID_ARGUMENT, "%s: %llu work-items in dimension %d, %s allows %u", function,
                   (unsigned long long)(uint64_t(launch.global[d]) * launch.local[d]), d,
                   props_.arch.c_str(), maxGrid_[d]);
  GpuProperties exact = props_;
  for (int d = 0; d < 3; ++d)
    exact.maxGroups[d] = UINT32_MAX;
  return exact.checkSizes(function, program, launch);
}

Status AmdDriver::dispatch(const tgrt_program &program, const Launch &launch) {
  const auto &p = static_cast<const AmdProgram &>(*program.impl);
  // Explicit arguments: 8-byte addresses, then scalars at their alignment.
  std::vector<uint8_t> args;
  auto put = [&](uint64_t v, size_t bytes) {
    args.resize((args.size() + bytes - 1) / bytes * bytes);
    args.insert(args.end(), reinterpret_cast<uint8_t *>(&v), reinterpret_cast<uint8_t *>(&v) + bytes);
  };
  for (uint32_t i = 0; i < launch.numArgs; ++i) {
    const tgrt_arg &a = launch.args[i];
    if (a.kind == TGRT_ARG_BUFFER)
      put(reinterpret_cast<uintptr_t>(devicePointer(a.buffer->root->memory)) + a.buffer->offset, 8);
    else
      put(a.value, program.scalarBytes[i - program.numBuffers]);
  }
  size_t explicitBytes = args.size();
  size_t total = std::max<size_t>(p.kernargBytes, explicitBytes);
  size_t hidden = (explicitBytes + 7) / 8 * 8;
  args.resize(total, 0);
  // Code object v5 hidden arguments (AMDGPUUsage "Code Object V5 Metadata"):
  // block counts (u32 x3) at +0, group sizes (u16 x3) at +12, remainders
  // (u16 x3, 0: the grid is whole groups) at +18, grid dims (u16) at +64.
  if (total >= hidden + 66) {
    for (int d = 0; d < 3; ++d) {
      uint32_t blocks = launch.global[d];
      uint16_t group = static_cast<uint16_t>(launch.local[d]);
      std::memcpy(&args[hidden + 4 * d], &blocks, 4);
      std::memcpy(&args[hidden + 12 + 2 * d], &group, 2);
    }
    uint16_t dims = 3;
    std::memcpy(&args[hidden + 64], &dims, 2);
  }
  void *kernarg = nullptr;
  TGRT_RETURN_IF_ERROR(allocateFrom(kernargPool_, std::max<size_t>(total, 16), kernarg));
  std::memcpy(kernarg, args.data(), total);

  const Api &api = *api_;
  api.hsa_signal_store_relaxed(done_, 1);
  uint64_t index = api.hsa_queue_add_write_index_screlease(queue_, 1);
  while (index - api.hsa_queue_load_read_index_scacquire(queue_) >= queue_->size) {
  } // the ring is full: wait for the packet processor (never with one packet in flight)
  auto *packet = static_cast<hsa_kernel_dispatch_packet_t *>(queue_->base_address) + (index % queue_->size);
  hsa_kernel_dispatch_packet_t body{};
  body.setup = 3 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  body.workgroup_size_x = static_cast<uint16_t>(launch.local[0]);
  body.workgroup_size_y = static_cast<uint16_t>(launch.local[1]);
  body.workgroup_size_z = static_cast<uint16_t>(launch.local[2]);
  body.grid_size_x = launch.global[0] * launch.local[0];
  body.grid_size_y = launch.global[1] * launch.local[1];
  body.grid_size_z = launch.global[2] * launch.local[2];
  body.private_segment_size = p.privateBytes;
  body.group_segment_size = p.groupBytes;
  body.kernel_object = p.kernelObject;
  body.kernarg_address = kernarg;
  body.completion_signal = done_;
  // Everything but the header first; the header's store publishes the packet.
  std::memcpy(reinterpret_cast<uint8_t *>(packet) + 4, reinterpret_cast<uint8_t *>(&body) + 4, sizeof body - 4);
  uint16_t header = (HSA_PACKET_TYPE_KERNEL_DISPATCH << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE);
  uint32_t headerAndSetup = header | (uint32_t(body.setup) << 16);
  __atomic_store_n(reinterpret_cast<uint32_t *>(packet), headerAndSetup, __ATOMIC_RELEASE);
  api.hsa_signal_store_screlease(queue_->doorbell_signal, static_cast<int64_t>(index));

  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs());
  while (api.hsa_signal_wait_scacquire(done_, HSA_SIGNAL_CONDITION_LT, 1, 1000000, HSA_WAIT_STATE_ACTIVE) >= 1) {
    if (std::chrono::steady_clock::now() > deadline) {
      // The packet may still run and read its kernarg: leak it rather than free it under the GPU.
      return failf(TGRT_TIMEOUT, "AMD: kernel '%s' did not complete within %llu ms (TGRT_AMD_TIMEOUT_MS)",
                   p.entry.c_str(), (unsigned long long)timeoutMs());
    }
  }
  api.hsa_amd_memory_pool_free(kernarg);
  return TGRT_OK;
}

Status AmdDriver::submit(const DeviceCommand *commands, size_t count, uint64_t &ticket) {
  ticket = 0;
  std::lock_guard<std::mutex> lock(queueMutex_);
  if (lost_)
    return failf(TGRT_ABORTED, "AMD device '%s' is unusable after an earlier failure: %s", props_.arch.c_str(),
                 lost_->c_str());
  for (size_t i = 0; i < count; ++i) {
    const DeviceCommand &c = commands[i];
    Status st = TGRT_OK;
    if (c.op == DeviceCommand::Exec) {
      st = dispatch(*c.program, *c.launch);
      if (st != TGRT_OK)
        lost_ = std::make_unique<std::string>(tgrt_last_error());
    } else if (c.op == DeviceCommand::Timestamp) {
      // deviceTimestamps() is false: the engine stamps after the work before.
      st = fail(TGRT_INTERNAL, "AMD: a timestamp command reached the driver");
    } else if (c.op == DeviceCommand::Copy && c.size) {
      auto *src = static_cast<uint8_t *>(devicePointer(c.src->root->memory)) + c.src->offset + c.srcOffset;
      auto *dst = static_cast<uint8_t *>(devicePointer(c.dst->root->memory)) + c.dst->offset + c.dstOffset;
      if (src < dst + c.size && dst < src + c.size) {
        // Overlapping ranges (memmove semantics): through a staging copy.
        std::vector<uint8_t> tmp(c.size);
        st = staged(tmp.data(), src, c.size, false);
        if (st == TGRT_OK)
          st = staged(dst, tmp.data(), c.size, true);
      } else {
        st = check(*api_, api_->hsa_memory_copy(dst, src, c.size), "hsa_memory_copy");
      }
    }
    if (st != TGRT_OK)
      return st;
  }
  return TGRT_OK;
}

} // namespace

Status tgrt::openAmdDriver(const tgrt_device_options &, unsigned index, std::unique_ptr<DeviceDriver> &out) {
  auto d = std::make_unique<AmdDriver>();
  TGRT_RETURN_IF_ERROR(d->open(index));
  out = std::move(d);
  return TGRT_OK;
}
