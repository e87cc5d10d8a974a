//===- VulkanDriver.cpp - compute on a Vulkan device ----------------------===//
//
// A VULKAN:<n> device is the n-th physical device of a Vulkan 1.2 instance
// with one compute queue. Buffers are one VkBuffer each in memory that is
// host-visible and coherent (so copies from the host are plain memmoves and
// tgrt_buffer_host_pointer works); programs are SPIR-V compute pipelines whose
// interface follows tgrt_program_desc's convention (a storage buffer per
// buffer argument, one storage buffer of 32-bit words for the scalars and the
// views' offsets); device commands become one command buffer per run:
// dispatches and copies with a full memory barrier between them, submitted
// with a timeline semaphore that the host waits on.
//
// Not built: device-local memory with staging copies (for discrete GPUs
// whose fast memory is not host-visible), push constants for the scalars,
// and keeping command buffers in flight across runs (each run waits for its
// own completion, which is what the engines' in-order semantics need).
//
//===----------------------------------------------------------------------===//

#include "VulkanApi.h"

#include "Buffer.h"
#include "Program.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace tgrt;
using tgrt::vk::Api;

namespace {

/// Waiting for a run to finish gives up after this long (TGRT_VULKAN_TIMEOUT_MS
/// overrides it): a kernel that never ends is an error, not a hang.
uint64_t runTimeoutNs() {
  const char *env = std::getenv("TGRT_VULKAN_TIMEOUT_MS");
  uint64_t ms = env && *env ? std::strtoull(env, nullptr, 10) : 600000;
  return ms * 1000000ull;
}

/// A root buffer's Vulkan objects (Memory::handle).
struct Allocation {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
};

class VulkanProgram final : public ProgramImpl {
public:
  const std::string &entryName() const override { return entry; }
  std::string entry;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  uint32_t bindings = 0;   // buffers, plus the word pack when it exists
  uint32_t packWords = 0;  // 0: no word pack
  const Api *api = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  ~VulkanProgram() override {
    if (pipeline) api->vkDestroyPipeline(device, pipeline, nullptr);
    if (layout) api->vkDestroyPipelineLayout(device, layout, nullptr);
    if (setLayout) api->vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
    if (module) api->vkDestroyShaderModule(device, module, nullptr);
  }
};

class VulkanDriver final : public DeviceDriver {
public:
  ~VulkanDriver() override { destroy(); }

  Status open(unsigned index);

  void query(tgrt_device_info &info) const override {
    std::strncpy(info.driver, "VULKAN", sizeof info.driver - 1);
    std::strncpy(info.description, props_.deviceName, sizeof info.description - 1);
    info.features = features_ | TGRT_FEATURE_HOST_MEMORY;
    const VkPhysicalDeviceLimits &l = props_.limits;
    for (int d = 0; d < 3; ++d) {
      info.max_workgroup_size[d] = l.maxComputeWorkGroupSize[d];
      info.max_workgroup_count[d] = l.maxComputeWorkGroupCount[d];
    }
    info.max_workgroup_invocations = l.maxComputeWorkGroupInvocations;
    info.shared_memory_bytes = l.maxComputeSharedMemorySize;
    info.subgroup_size = subgroupSize_;
    info.buffer_offset_alignment = static_cast<uint32_t>(l.minStorageBufferOffsetAlignment);
  }

  Status allocate(size_t size, Memory &out) override;
  void release(Memory &memory) noexcept override;
  Status loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) override;
  Status checkLaunch(const char *function, const tgrt_program &program, const Launch &launch) override;
  Status run(const DeviceCommand *commands, size_t count) override;
  /// Records commands (no overlapping copies), submits them and waits.
  Status runSegment(const DeviceCommand *commands, size_t count);
  void shutdown() noexcept override {
    std::lock_guard<std::mutex> lock(queueMutex_);
    if (device_)
      api_.vkDeviceWaitIdle(device_);
  }

private:
  void destroy() noexcept;
  /// Makes the per-run descriptor pool and word ring hold what `commands` need.
  Status reserve(const DeviceCommand *commands, size_t count);
  Status recordExec(VkCommandBuffer cmd, const tgrt_program &program, const Launch &launch,
                    VkDeviceSize &ringUsed);
  VkDeviceSize align(VkDeviceSize v) const {
    VkDeviceSize a = std::max<VkDeviceSize>(props_.limits.minStorageBufferOffsetAlignment, 4);
    return (v + a - 1) / a * a;
  }

  Api api_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props_{};
  uint32_t subgroupSize_ = 1;
  uint32_t features_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  uint32_t memoryType_ = 0;

  // Everything below is used under queueMutex_: runs are serialized.
  std::mutex queueMutex_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer_ = VK_NULL_HANDLE;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  uint64_t timelineValue_ = 0;
  VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
  uint32_t poolSets_ = 0, poolDescriptors_ = 0;
  Memory ring_; // host-visible words: scalars and offsets of the run's launches
  std::unique_ptr<std::string> lost_; // why the device stopped accepting work
};

Status VulkanDriver::open(unsigned index) {
  TGRT_RETURN_IF_ERROR(vk::loadGlobal(api_));
  uint32_t loaderVersion = 0;
  TGRT_VK_CHECK(api_.vkEnumerateInstanceVersion(&loaderVersion));
  if (loaderVersion < VK_API_VERSION_1_2)
    return failf(TGRT_UNAVAILABLE, "the Vulkan loader is version %u.%u; 1.2 is needed",
                 VK_API_VERSION_MAJOR(loaderVersion), VK_API_VERSION_MINOR(loaderVersion));
  auto app = vk::make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "tinygrad-mlir";
  app.apiVersion = VK_API_VERSION_1_2;
  auto ici = vk::make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  ici.pApplicationInfo = &app;
  VkResult r = api_.vkCreateInstance(&ici, nullptr, &instance_);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    return fail(TGRT_UNAVAILABLE, "no Vulkan driver (ICD) is installed (vkCreateInstance: "
                                  "VK_ERROR_INCOMPATIBLE_DRIVER)");
  TGRT_RETURN_IF_ERROR(vk::check(r, "vkCreateInstance"));
  TGRT_RETURN_IF_ERROR(vk::loadInstance(api_, instance_));

  uint32_t n = 0;
  TGRT_VK_CHECK(api_.vkEnumeratePhysicalDevices(instance_, &n, nullptr));
  if (index >= n)
    return failf(TGRT_UNAVAILABLE, "no Vulkan device %u (there %s %u)", index, n == 1 ? "is" : "are", n);
  std::vector<VkPhysicalDevice> devices(n);
  TGRT_VK_CHECK(api_.vkEnumeratePhysicalDevices(instance_, &n, devices.data()));
  physical_ = devices[index];
  api_.vkGetPhysicalDeviceProperties(physical_, &props_);
  if (props_.apiVersion < VK_API_VERSION_1_2)
    return failf(TGRT_UNAVAILABLE, "Vulkan device %u (%s) supports Vulkan %u.%u; 1.2 is needed", index,
                 props_.deviceName, VK_API_VERSION_MAJOR(props_.apiVersion),
                 VK_API_VERSION_MINOR(props_.apiVersion));
  auto subgroup = vk::make<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  auto props2 = vk::make<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  props2.pNext = &subgroup;
  api_.vkGetPhysicalDeviceProperties2(physical_, &props2);
  subgroupSize_ = subgroup.subgroupSize ? subgroup.subgroupSize : 1;

  // The features kernels may need, enabled where the device has them and
  // reported through tgrt_device_query (the compiler's target follows them).
  auto f12 = vk::make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto f11 = vk::make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  f11.pNext = &f12;
  auto f2 = vk::make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  f2.pNext = &f11;
  api_.vkGetPhysicalDeviceFeatures2(physical_, &f2);
  if (!f12.timelineSemaphore)
    return failf(TGRT_UNAVAILABLE, "Vulkan device %u (%s) has no timeline semaphores", index,
                 props_.deviceName);
  auto e12 = vk::make<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  auto e11 = vk::make<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  e11.pNext = &e12;
  auto e2 = vk::make<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  e2.pNext = &e11;
  e12.timelineSemaphore = VK_TRUE;
  if (f2.features.shaderFloat64) e2.features.shaderFloat64 = VK_TRUE, features_ |= TGRT_FEATURE_FLOAT64;
  if (f2.features.shaderInt64) e2.features.shaderInt64 = VK_TRUE, features_ |= TGRT_FEATURE_INT64;
  if (f2.features.shaderInt16 && f11.storageBuffer16BitAccess) {
    e2.features.shaderInt16 = VK_TRUE;
    e11.storageBuffer16BitAccess = VK_TRUE;
    features_ |= TGRT_FEATURE_INT16;
    if (f12.shaderFloat16)
      e12.shaderFloat16 = VK_TRUE, features_ |= TGRT_FEATURE_FLOAT16;
  }
  if (f12.shaderInt8 && f12.storageBuffer8BitAccess) {
    e12.shaderInt8 = VK_TRUE;
    e12.storageBuffer8BitAccess = VK_TRUE;
    features_ |= TGRT_FEATURE_INT8;
  }

  uint32_t nf = 0;
  api_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nf, nullptr);
  std::vector<VkQueueFamilyProperties> families(nf);
  api_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nf, families.data());
  bool found = false;
  for (uint32_t i = 0; i < nf && !found; ++i)
    if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
      family_ = i, found = true;
  if (!found)
    return failf(TGRT_UNAVAILABLE, "Vulkan device %u (%s) has no compute queue", index, props_.deviceName);

  VkPhysicalDeviceMemoryProperties mem;
  api_.vkGetPhysicalDeviceMemoryProperties(physical_, &mem);
  const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  int best = -1;
  for (uint32_t i = 0; i < mem.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags f = mem.memoryTypes[i].propertyFlags;
    if ((f & host) != host)
      continue;
    if (best < 0 || (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
      best = static_cast<int>(i);
    if (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)
      break;
  }
  if (best < 0)
    return failf(TGRT_UNAVAILABLE, "Vulkan device %u (%s) has no host-visible coherent memory", index,
                 props_.deviceName);
  memoryType_ = static_cast<uint32_t>(best);

  float priority = 1.0f;
  auto qci = vk::make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  auto dci = vk::make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.pNext = &e2;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  TGRT_VK_CHECK(api_.vkCreateDevice(physical_, &dci, nullptr, &device_));
  TGRT_RETURN_IF_ERROR(vk::loadDevice(api_, device_));
  api_.vkGetDeviceQueue(device_, family_, 0, &queue_);

  auto cpi = vk::make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  cpi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  cpi.queueFamilyIndex = family_;
  TGRT_VK_CHECK(api_.vkCreateCommandPool(device_, &cpi, nullptr, &commandPool_));
  auto cai = vk::make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  cai.commandPool = commandPool_;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  TGRT_VK_CHECK(api_.vkAllocateCommandBuffers(device_, &cai, &commandBuffer_));
  auto sti = vk::make<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  sti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  auto sci = vk::make<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  sci.pNext = &sti;
  TGRT_VK_CHECK(api_.vkCreateSemaphore(device_, &sci, nullptr, &timeline_));
  return TGRT_OK;
}

void VulkanDriver::destroy() noexcept {
  if (device_) {
    api_.vkDeviceWaitIdle(device_);
    if (ring_.handle)
      release(ring_);
    if (descriptorPool_) api_.vkDestroyDescriptorPool(device_, descriptorPool_, nullptr);
    if (timeline_) api_.vkDestroySemaphore(device_, timeline_, nullptr);
    if (commandPool_) api_.vkDestroyCommandPool(device_, commandPool_, nullptr);
    api_.vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (instance_) {
    api_.vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

Status VulkanDriver::allocate(size_t size, Memory &out) {
  // Vulkan has no empty buffers; a size-0 tgrt buffer gets a few bytes.
  VkDeviceSize bytes = std::max<VkDeviceSize>(align(size), 16);
  auto a = std::make_unique<Allocation>();
  auto bci = vk::make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bci.size = bytes;
  bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
              VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  TGRT_VK_CHECK(api_.vkCreateBuffer(device_, &bci, nullptr, &a->buffer));
  VkMemoryRequirements req;
  api_.vkGetBufferMemoryRequirements(device_, a->buffer, &req);
  if (!(req.memoryTypeBits & (1u << memoryType_))) {
    api_.vkDestroyBuffer(device_, a->buffer, nullptr);
    return fail(TGRT_UNSUPPORTED, "tgrt_buffer_alloc: the device's storage buffers cannot live in its "
                                  "host-visible memory");
  }
  auto mai = vk::make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = memoryType_;
  VkResult r = api_.vkAllocateMemory(device_, &mai, nullptr, &a->memory);
  if (r != VK_SUCCESS) {
    api_.vkDestroyBuffer(device_, a->buffer, nullptr);
    return failf(TGRT_OUT_OF_MEMORY, "tgrt_buffer_alloc: cannot allocate %zu bytes: %s", size,
                 vk::resultName(r));
  }
  void *host = nullptr;
  r = api_.vkBindBufferMemory(device_, a->buffer, a->memory, 0);
  if (r == VK_SUCCESS)
    r = api_.vkMapMemory(device_, a->memory, 0, VK_WHOLE_SIZE, 0, &host);
  if (r != VK_SUCCESS) {
    api_.vkDestroyBuffer(device_, a->buffer, nullptr);
    api_.vkFreeMemory(device_, a->memory, nullptr);
    return failf(TGRT_INTERNAL, "tgrt_buffer_alloc: binding or mapping memory failed: %s",
                 vk::resultName(r));
  }
  std::memset(host, 0, bytes);
  a->size = bytes;
  out.host = static_cast<uint8_t *>(host);
  out.size = size;
  out.handle = a.release();
  return TGRT_OK;
}

void VulkanDriver::release(Memory &memory) noexcept {
  auto *a = static_cast<Allocation *>(memory.handle);
  if (a) {
    // Runs wait for their completion, so nothing in flight can use it.
    api_.vkDestroyBuffer(device_, a->buffer, nullptr);
    api_.vkUnmapMemory(device_, a->memory);
    api_.vkFreeMemory(device_, a->memory, nullptr);
    delete a;
  }
  memory = Memory();
}

Status VulkanDriver::loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) {
  if (desc.format != TGRT_FORMAT_SPIRV)
    return fail(TGRT_UNSUPPORTED, "tgrt_program_create: a Vulkan device runs SPIR-V programs only");
  if (desc.size < 20 || desc.size % 4 || *static_cast<const uint32_t *>(desc.binary) != 0x07230203u)
    return failf(TGRT_INVALID_OBJECT, "tgrt_program_create: %zu bytes are not a SPIR-V module "
                                      "(magic 0x07230203, a multiple of 4 bytes)", desc.size);
  if (!desc.entry_name || !*desc.entry_name)
    return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_create: a SPIR-V program needs its entry name");
  for (int d = 0; d < 3; ++d)
    if (desc.local_size[d] == 0 || desc.local_size[d] > props_.limits.maxComputeWorkGroupSize[d])
      return failf(TGRT_INVALID_ARGUMENT, "tgrt_program_create: local size %u in dimension %d is not "
                                          "in [1, %u]", desc.local_size[d], d,
                   props_.limits.maxComputeWorkGroupSize[d]);
  uint64_t invocations = uint64_t(desc.local_size[0]) * desc.local_size[1] * desc.local_size[2];
  if (invocations > props_.limits.maxComputeWorkGroupInvocations)
    return failf(TGRT_INVALID_ARGUMENT, "tgrt_program_create: %llu threads per workgroup, the device "
                                        "allows %u", (unsigned long long)invocations,
                 props_.limits.maxComputeWorkGroupInvocations);
  auto p = std::make_unique<VulkanProgram>();
  p->api = &api_;
  p->device = device_;
  p->entry = desc.entry_name;
  uint32_t words = 0;
  for (uint32_t i = 0; i < desc.num_scalars; ++i)
    words += desc.scalar_bytes[i] / 4;
  if (desc.offsets_word)
    words += desc.num_buffers;
  p->packWords = words;
  p->bindings = desc.num_buffers + (words ? 1 : 0);

  auto smi = vk::make<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  smi.codeSize = desc.size;
  smi.pCode = static_cast<const uint32_t *>(desc.binary);
  TGRT_VK_CHECK(api_.vkCreateShaderModule(device_, &smi, nullptr, &p->module));
  std::vector<VkDescriptorSetLayoutBinding> bindings(p->bindings);
  for (uint32_t i = 0; i < p->bindings; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto dli = vk::make<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  dli.bindingCount = p->bindings;
  dli.pBindings = bindings.data();
  TGRT_VK_CHECK(api_.vkCreateDescriptorSetLayout(device_, &dli, nullptr, &p->setLayout));
  auto pli = vk::make<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  pli.setLayoutCount = 1;
  pli.pSetLayouts = &p->setLayout;
  TGRT_VK_CHECK(api_.vkCreatePipelineLayout(device_, &pli, nullptr, &p->layout));
  auto cpi = vk::make<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpi.stage.module = p->module;
  cpi.stage.pName = p->entry.c_str();
  cpi.layout = p->layout;
  VkResult r = api_.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &cpi, nullptr, &p->pipeline);
  if (r != VK_SUCCESS)
    return failf(TGRT_INVALID_OBJECT, "tgrt_program_create: the device rejected the SPIR-V module "
                                      "(entry '%s'): %s", desc.entry_name, vk::resultName(r));
  out = std::move(p);
  return TGRT_OK;
}

Status VulkanDriver::checkLaunch(const char *function, const tgrt_program &program, const Launch &launch) {
  TGRT_RETURN_IF_ERROR(checkArgumentKinds(function, program, launch));
  for (uint32_t i = 0; i < program.numBuffers; ++i) {
    if (!program.offsetsWord &&
        launch.args[i].buffer->offset % props_.limits.minStorageBufferOffsetAlignment)
      return failf(TGRT_INVALID_ARGUMENT, "%s: argument %u is a view at offset %zu, not a multiple of "
                                          "%llu, and the program takes no view offsets", function, i,
                   launch.args[i].buffer->offset,
                   (unsigned long long)props_.limits.minStorageBufferOffsetAlignment);
  }
  for (int d = 0; d < 3; ++d) {
    if (launch.local[d] != program.localSize[d])
      return failf(TGRT_INVALID_ARGUMENT, "%s: local size %ux%ux%u, the program was compiled for %ux%ux%u",
                   function, launch.local[0], launch.local[1], launch.local[2], program.localSize[0],
                   program.localSize[1], program.localSize[2]);
    if (launch.global[d] > props_.limits.maxComputeWorkGroupCount[d])
      return failf(TGRT_INVALID_ARGUMENT, "%s: %u workgroups in dimension %d, the device allows %u",
                   function, launch.global[d], d, props_.limits.maxComputeWorkGroupCount[d]);
  }
  return TGRT_OK;
}

Status VulkanDriver::reserve(const DeviceCommand *commands, size_t count) {
  uint32_t sets = 0, descriptors = 0;
  VkDeviceSize ringBytes = 0;
  for (size_t i = 0; i < count; ++i)
    if (commands[i].op == DeviceCommand::Exec) {
      const auto &p = static_cast<const VulkanProgram &>(*commands[i].program->impl);
      ++sets;
      descriptors += p.bindings;
      ringBytes += align(uint64_t(p.packWords) * 4);
    }
  if (sets > poolSets_ || descriptors > poolDescriptors_ || !descriptorPool_) {
    if (descriptorPool_)
      api_.vkDestroyDescriptorPool(device_, descriptorPool_, nullptr);
    descriptorPool_ = VK_NULL_HANDLE;
    poolSets_ = std::max<uint32_t>(std::max(sets, 2 * poolSets_), 16);
    poolDescriptors_ = std::max<uint32_t>(std::max(descriptors, 2 * poolDescriptors_), 64);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, poolDescriptors_};
    auto dpi = vk::make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    dpi.maxSets = poolSets_;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &size;
    TGRT_VK_CHECK(api_.vkCreateDescriptorPool(device_, &dpi, nullptr, &descriptorPool_));
  } else {
    TGRT_VK_CHECK(api_.vkResetDescriptorPool(device_, descriptorPool_, 0));
  }
  if (ringBytes > ring_.size) {
    if (ring_.handle)
      release(ring_);
    TGRT_RETURN_IF_ERROR(allocate(std::max<VkDeviceSize>(ringBytes, 2 * ring_.size), ring_));
  }
  return TGRT_OK;
}

Status VulkanDriver::recordExec(VkCommandBuffer cmd, const tgrt_program &program, const Launch &launch,
                                VkDeviceSize &ringUsed) {
  const auto &p = static_cast<const VulkanProgram &>(*program.impl);
  auto dsi = vk::make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  dsi.descriptorPool = descriptorPool_;
  dsi.descriptorSetCount = 1;
  dsi.pSetLayouts = &p.setLayout;
  VkDescriptorSet set;
  TGRT_VK_CHECK(api_.vkAllocateDescriptorSets(device_, &dsi, &set));

  VkDeviceSize alignment = props_.limits.minStorageBufferOffsetAlignment;
  std::vector<VkDescriptorBufferInfo> infos(p.bindings);
  std::vector<uint32_t> words;
  for (uint32_t i = program.numBuffers; i < launch.numArgs; ++i) {
    uint64_t v = launch.args[i].value;
    words.push_back(static_cast<uint32_t>(v));
    if (program.scalarBytes[i - program.numBuffers] == 8)
      words.push_back(static_cast<uint32_t>(v >> 32));
  }
  for (uint32_t i = 0; i < program.numBuffers; ++i) {
    const tgrt_buffer *b = launch.args[i].buffer;
    const auto *a = static_cast<const Allocation *>(b->root->memory.handle);
    VkDeviceSize base = b->offset / alignment * alignment;
    infos[i].buffer = a->buffer;
    infos[i].offset = base;
    infos[i].range = VK_WHOLE_SIZE;
    if (program.offsetsWord)
      words.push_back(static_cast<uint32_t>(b->offset - base));
  }
  if (p.packWords) {
    const auto *ring = static_cast<const Allocation *>(ring_.handle);
    std::memcpy(ring_.host + ringUsed, words.data(), words.size() * 4);
    infos[program.numBuffers].buffer = ring->buffer;
    infos[program.numBuffers].offset = ringUsed;
    infos[program.numBuffers].range = words.size() * 4;
    ringUsed += align(words.size() * 4);
  }
  std::vector<VkWriteDescriptorSet> writes(p.bindings);
  for (uint32_t i = 0; i < p.bindings; ++i) {
    writes[i] = vk::make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  api_.vkUpdateDescriptorSets(device_, p.bindings, writes.data(), 0, nullptr);
  api_.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  api_.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
  api_.vkCmdDispatch(cmd, launch.global[0], launch.global[1], launch.global[2]);
  return TGRT_OK;
}

/// A copy inside one buffer whose ranges overlap: tgrt_queue_copy allows it
/// (memmove semantics), vkCmdCopyBuffer does not, so the host does it.
bool overlappingCopy(const DeviceCommand &c) {
  if (c.op != DeviceCommand::Copy || c.src->root != c.dst->root || !c.size)
    return false;
  size_t s = c.src->offset + c.srcOffset, d = c.dst->offset + c.dstOffset;
  return s < d + c.size && d < s + c.size;
}

Status VulkanDriver::run(const DeviceCommand *commands, size_t count) {
  std::lock_guard<std::mutex> lock(queueMutex_);
  if (lost_)
    return failf(TGRT_ABORTED, "Vulkan device '%s' is unusable after an earlier failure: %s",
                 props_.deviceName, lost_->c_str());
  size_t begin = 0;
  for (size_t i = 0; i <= count; ++i) {
    if (i < count && !overlappingCopy(commands[i]))
      continue;
    if (i > begin) {
      Status st = runSegment(commands + begin, i - begin);
      if (st != TGRT_OK) {
        // The hardware may still be running what was submitted: nothing
        // recorded since can be trusted, so the device stops here.
        lost_ = std::make_unique<std::string>(tgrt_last_error());
        return st;
      }
    }
    if (i < count) {
      const DeviceCommand &c = commands[i];
      std::memmove(c.dst->data + c.dstOffset, c.src->data + c.srcOffset, c.size);
    }
    begin = i + 1;
  }
  return TGRT_OK;
}

Status VulkanDriver::runSegment(const DeviceCommand *commands, size_t count) {
  TGRT_RETURN_IF_ERROR(reserve(commands, count));
  TGRT_VK_CHECK(api_.vkResetCommandPool(device_, commandPool_, 0));
  auto bi = vk::make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkCommandBuffer cmd = commandBuffer_;
  TGRT_VK_CHECK(api_.vkBeginCommandBuffer(cmd, &bi));
  // Every command sees every earlier one's writes (tinygrad's queues are in
  // order); the host sees all of them once the run's semaphore value is set.
  auto barrier = vk::make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  // Host writes (copies in, the word ring) before the first command.
  auto hostBarrier = vk::make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  hostBarrier.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT;
  hostBarrier.dstAccessMask = barrier.dstAccessMask;
  api_.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT, stages, 0, 1, &hostBarrier, 0, nullptr, 0,
                            nullptr);
  VkDeviceSize ringUsed = 0;
  for (size_t i = 0; i < count; ++i) {
    const DeviceCommand &c = commands[i];
    if (i > 0)
      api_.vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    switch (c.op) {
    case DeviceCommand::Exec:
      TGRT_RETURN_IF_ERROR(recordExec(cmd, *c.program, *c.launch, ringUsed));
      break;
    case DeviceCommand::Copy: {
      if (!c.size)
        break;
      VkBufferCopy region{c.src->offset + c.srcOffset, c.dst->offset + c.dstOffset, c.size};
      const auto *src = static_cast<const Allocation *>(c.src->root->memory.handle);
      const auto *dst = static_cast<const Allocation *>(c.dst->root->memory.handle);
      api_.vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
      break;
    }
    case DeviceCommand::MemoryBarrier:
      break; // the barrier before the next command is already full
    }
  }
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
  api_.vkCmdPipelineBarrier(cmd, stages, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  TGRT_VK_CHECK(api_.vkEndCommandBuffer(cmd));

  uint64_t value = ++timelineValue_;
  auto tsi = vk::make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  tsi.signalSemaphoreValueCount = 1;
  tsi.pSignalSemaphoreValues = &value;
  auto si = vk::make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.pNext = &tsi;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &timeline_;
  TGRT_VK_CHECK(api_.vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE));
  auto wi = vk::make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  wi.semaphoreCount = 1;
  wi.pSemaphores = &timeline_;
  wi.pValues = &value;
  VkResult r = api_.vkWaitSemaphores(device_, &wi, runTimeoutNs());
  if (r == VK_TIMEOUT)
    return failf(TGRT_TIMEOUT, "Vulkan: %zu command(s) did not complete within %llu ms "
                               "(TGRT_VULKAN_TIMEOUT_MS)", count,
                 (unsigned long long)(runTimeoutNs() / 1000000));
  return vk::check(r, "vkWaitSemaphores");
}

} // namespace

Status tgrt::openVulkanDriver(const tgrt_device_options &, unsigned index,
                              std::unique_ptr<DeviceDriver> &out) {
  auto d = std::make_unique<VulkanDriver>();
  TGRT_RETURN_IF_ERROR(d->open(index));
  out = std::move(d);
  return TGRT_OK;
}
