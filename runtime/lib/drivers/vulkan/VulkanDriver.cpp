//===- VulkanDriver.cpp - opening a Vulkan device, memory, programs -------===//
//
// See VulkanDriver.h for the model; runs of device commands are in
// VulkanQueue.cpp.
//
//===----------------------------------------------------------------------===//

#include "VulkanDriver.h"
#include "SpirvCheck.h"

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
using namespace tgrt::vk;

VulkanProgram::~VulkanProgram() {
  if (pipeline) api->vkDestroyPipeline(device, pipeline, nullptr);
  if (layout) api->vkDestroyPipelineLayout(device, layout, nullptr);
  if (setLayout) api->vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  if (module) api->vkDestroyShaderModule(device, module, nullptr);
}

void VulkanDriver::query(tgrt_device_info &info) const {
  std::strncpy(info.driver, "VULKAN", sizeof info.driver - 1);
  std::strncpy(info.description, props_.deviceName, sizeof info.description - 1);
  info.features = features_ | TGRT_FEATURE_HOST_MEMORY | (calibrated_ ? TGRT_FEATURE_DEVICE_TIMESTAMPS : 0);
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

void VulkanDriver::probeCalibratedTimestamps(std::vector<const char *> &extensions) {
  uint32_t n = 0;
  if (api_.vkEnumerateDeviceExtensionProperties(physical_, nullptr, &n, nullptr) != VK_SUCCESS)
    return;
  std::vector<VkExtensionProperties> exts(n);
  if (api_.vkEnumerateDeviceExtensionProperties(physical_, nullptr, &n, exts.data()) != VK_SUCCESS)
    return;
  bool has = false;
  for (const auto &e : exts)
    has |= std::strcmp(e.extensionName, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME) == 0;
  if (!has || !api_.vkGetPhysicalDeviceCalibrateableTimeDomainsEXT ||
      !props_.limits.timestampComputeAndGraphics)
    return;
  uint32_t nd = 0;
  api_.vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(physical_, &nd, nullptr);
  std::vector<VkTimeDomainEXT> domains(nd);
  api_.vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(physical_, &nd, domains.data());
  bool device = false, monotonic = false;
  for (VkTimeDomainEXT d : domains) {
    device |= d == VK_TIME_DOMAIN_DEVICE_EXT;
    monotonic |= d == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
  }
  if (device && monotonic) {
    extensions.push_back(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
    calibrated_ = true;
  }
}

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

  // Device timestamps need the queue to have them and a calibration
  // against the host clock.
  std::vector<const char *> extensions;
  if (families[family_].timestampValidBits) {
    probeCalibratedTimestamps(extensions);
    if (families[family_].timestampValidBits < 64)
      timestampMask_ = (1ull << families[family_].timestampValidBits) - 1;
  }

  float priority = 1.0f;
  auto qci = vk::make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  qci.queueFamilyIndex = family_;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  auto dci = vk::make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  dci.pNext = &e2;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  TGRT_VK_CHECK(api_.vkCreateDevice(physical_, &dci, nullptr, &device_));
  TGRT_RETURN_IF_ERROR(vk::loadDevice(api_, device_));
  if (calibrated_ && !api_.vkGetCalibratedTimestampsEXT)
    calibrated_ = false;
  api_.vkGetDeviceQueue(device_, family_, 0, &queue_);

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
    for (auto &f : frames_) {
      if (f->words.handle)
        release(f->words);
      if (f->queries) api_.vkDestroyQueryPool(device_, f->queries, nullptr);
      if (f->descriptors) api_.vkDestroyDescriptorPool(device_, f->descriptors, nullptr);
      if (f->pool) api_.vkDestroyCommandPool(device_, f->pool, nullptr);
    }
    frames_.clear();
    if (timeline_) api_.vkDestroySemaphore(device_, timeline_, nullptr);
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
    // Nothing in flight uses it: engines hold a submission's buffers until
    // its ticket has passed, and direct launches wait for theirs.
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
  if (!desc.entry_name || !*desc.entry_name)
    return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_create: a SPIR-V program needs its entry name");
  TGRT_RETURN_IF_ERROR(checkSpirvModule("tgrt_program_create", desc.binary, desc.size, desc.entry_name));
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


Status tgrt::openVulkanDriver(const tgrt_device_options &, unsigned index,
                              std::unique_ptr<DeviceDriver> &out) {
  auto d = std::make_unique<vk::VulkanDriver>();
  TGRT_RETURN_IF_ERROR(d->open(index));
  out = std::move(d);
  return TGRT_OK;
}
