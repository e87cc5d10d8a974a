//===- VulkanApi.h - the Vulkan functions the driver calls ------*- C++ -*-===//
//
// The runtime never links libvulkan: the loader is opened with dlopen when a
// VULKAN device is first opened, so a machine without it still runs the CPU
// driver and gets an error status naming the missing library. Every entry
// point used is listed once below (X-macro) and resolved through
// vkGetInstanceProcAddr / vkGetDeviceProcAddr.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DRIVERS_VULKAN_VULKANAPI_H
#define TGRT_LIB_DRIVERS_VULKAN_VULKANAPI_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include "Status.h"

namespace tgrt::vk {

#define TGRT_VK_GLOBAL_FUNCTIONS(X)                                                                \
  X(vkCreateInstance)                                                                              \
  X(vkEnumerateInstanceVersion)

#define TGRT_VK_INSTANCE_FUNCTIONS(X)                                                              \
  X(vkDestroyInstance)                                                                             \
  X(vkEnumeratePhysicalDevices)                                                                    \
  X(vkGetPhysicalDeviceProperties)                                                                 \
  X(vkGetPhysicalDeviceProperties2)                                                                \
  X(vkGetPhysicalDeviceFeatures2)                                                                  \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                      \
  X(vkGetPhysicalDeviceMemoryProperties)                                                           \
  X(vkCreateDevice)                                                                                \
  X(vkGetDeviceProcAddr)                                                                           \
  X(vkEnumerateDeviceExtensionProperties)

/// Extension entry points: null when the instance or device lacks them.
#define TGRT_VK_OPTIONAL_INSTANCE_FUNCTIONS(X) X(vkGetPhysicalDeviceCalibrateableTimeDomainsEXT)
#define TGRT_VK_OPTIONAL_DEVICE_FUNCTIONS(X) X(vkGetCalibratedTimestampsEXT)

#define TGRT_VK_DEVICE_FUNCTIONS(X)                                                                \
  X(vkDestroyDevice)                                                                               \
  X(vkGetDeviceQueue)                                                                              \
  X(vkDeviceWaitIdle)                                                                              \
  X(vkCreateBuffer)                                                                                \
  X(vkDestroyBuffer)                                                                               \
  X(vkGetBufferMemoryRequirements)                                                                 \
  X(vkAllocateMemory)                                                                              \
  X(vkFreeMemory)                                                                                  \
  X(vkBindBufferMemory)                                                                            \
  X(vkMapMemory)                                                                                   \
  X(vkUnmapMemory)                                                                                 \
  X(vkCreateShaderModule)                                                                          \
  X(vkDestroyShaderModule)                                                                         \
  X(vkCreateDescriptorSetLayout)                                                                   \
  X(vkDestroyDescriptorSetLayout)                                                                  \
  X(vkCreatePipelineLayout)                                                                        \
  X(vkDestroyPipelineLayout)                                                                       \
  X(vkCreateComputePipelines)                                                                      \
  X(vkDestroyPipeline)                                                                             \
  X(vkCreateDescriptorPool)                                                                        \
  X(vkDestroyDescriptorPool)                                                                       \
  X(vkResetDescriptorPool)                                                                         \
  X(vkAllocateDescriptorSets)                                                                      \
  X(vkUpdateDescriptorSets)                                                                        \
  X(vkCreateCommandPool)                                                                           \
  X(vkDestroyCommandPool)                                                                          \
  X(vkResetCommandPool)                                                                            \
  X(vkAllocateCommandBuffers)                                                                      \
  X(vkBeginCommandBuffer)                                                                          \
  X(vkEndCommandBuffer)                                                                            \
  X(vkCmdBindPipeline)                                                                             \
  X(vkCmdBindDescriptorSets)                                                                       \
  X(vkCmdDispatch)                                                                                 \
  X(vkCmdCopyBuffer)                                                                               \
  X(vkCmdPipelineBarrier)                                                                          \
  X(vkQueueSubmit)                                                                                 \
  X(vkCreateSemaphore)                                                                             \
  X(vkDestroySemaphore)                                                                            \
  X(vkWaitSemaphores)                                                                              \
  X(vkGetSemaphoreCounterValue)                                                                    \
  X(vkCreateQueryPool)                                                                             \
  X(vkDestroyQueryPool)                                                                            \
  X(vkCmdResetQueryPool)                                                                           \
  X(vkCmdWriteTimestamp)                                                                           \
  X(vkGetQueryPoolResults)

/// The loaded entry points of one instance and one device.
struct Api {
#define TGRT_VK_DECLARE(name) PFN_##name name = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  TGRT_VK_GLOBAL_FUNCTIONS(TGRT_VK_DECLARE)
  TGRT_VK_INSTANCE_FUNCTIONS(TGRT_VK_DECLARE)
  TGRT_VK_DEVICE_FUNCTIONS(TGRT_VK_DECLARE)
  TGRT_VK_OPTIONAL_INSTANCE_FUNCTIONS(TGRT_VK_DECLARE)
  TGRT_VK_OPTIONAL_DEVICE_FUNCTIONS(TGRT_VK_DECLARE)
#undef TGRT_VK_DECLARE
};

/// Opens the Vulkan loader (libvulkan.so.1, or TGRT_VULKAN_LOADER) once per
/// process and fills the global entry points. TGRT_UNAVAILABLE with the
/// dlopen message when it is missing.
Status loadGlobal(Api &api);
/// Instance-level entry points (after vkCreateInstance).
Status loadInstance(Api &api, VkInstance instance);
/// Device-level entry points (after vkCreateDevice).
Status loadDevice(Api &api, VkDevice device);

/// A Vulkan struct zero-initialized with its sType set.
template <typename T> T make(VkStructureType type) {
  T v{};
  v.sType = type;
  return v;
}

/// A VkResult's name ("VK_ERROR_OUT_OF_DEVICE_MEMORY").
const char *resultName(VkResult r);
/// TGRT_OK for VK_SUCCESS, else a status naming the call and the result.
Status check(VkResult r, const char *call);

} // namespace tgrt::vk

#define TGRT_VK_CHECK(call) TGRT_RETURN_IF_ERROR(::tgrt::vk::check((call), #call))

#endif // TGRT_LIB_DRIVERS_VULKAN_VULKANAPI_H
