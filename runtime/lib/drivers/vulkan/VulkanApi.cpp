//===- VulkanApi.cpp - loading the Vulkan loader at run time --------------===//

#include "VulkanApi.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

using namespace tgrt;

namespace {

/// The loader's handle and the message of a failed dlopen, once per path
/// (TGRT_VULKAN_LOADER, default libvulkan.so.1) and process: the library
/// stays loaded, instances may be created again later.
struct Loader {
  void *handle = nullptr;
  std::string error;
};

const Loader &loader() {
  static std::mutex mutex;
  static std::map<std::string, Loader> loaders;
  const char *env = std::getenv("TGRT_VULKAN_LOADER");
  std::string path = env && *env ? env : "libvulkan.so.1";
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = loaders.try_emplace(path);
  if (fresh) {
    it->second.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!it->second.handle) {
      const char *e = dlerror();
      it->second.error = e ? e : path + ": dlopen failed";
    }
  }
  return it->second;
}

} // namespace

Status vk::loadGlobal(Api &api) {
  const Loader &l = loader();
  if (!l.handle)
    return failf(TGRT_UNAVAILABLE, "no Vulkan loader: %s", l.error.c_str());
  api.vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(l.handle, "vkGetInstanceProcAddr"));
  if (!api.vkGetInstanceProcAddr)
    return fail(TGRT_UNAVAILABLE, "the Vulkan loader has no vkGetInstanceProcAddr");
#define TGRT_VK_LOAD(name)                                                                         \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(nullptr, #name));             \
  if (!api.name)                                                                                   \
    return fail(TGRT_UNAVAILABLE, "the Vulkan loader has no " #name " (Vulkan 1.1 or newer is needed)");
  TGRT_VK_GLOBAL_FUNCTIONS(TGRT_VK_LOAD)
#undef TGRT_VK_LOAD
  return TGRT_OK;
}

Status vk::loadInstance(Api &api, VkInstance instance) {
#define TGRT_VK_LOAD(name)                                                                         \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(instance, #name));            \
  if (!api.name)                                                                                   \
    return fail(TGRT_UNAVAILABLE, "the Vulkan instance has no " #name);
  TGRT_VK_INSTANCE_FUNCTIONS(TGRT_VK_LOAD)
#undef TGRT_VK_LOAD
#define TGRT_VK_LOAD(name)                                                                         \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetInstanceProcAddr(instance, #name));
  TGRT_VK_OPTIONAL_INSTANCE_FUNCTIONS(TGRT_VK_LOAD)
#undef TGRT_VK_LOAD
  return TGRT_OK;
}

Status vk::loadDevice(Api &api, VkDevice device) {
#define TGRT_VK_LOAD(name)                                                                         \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetDeviceProcAddr(device, #name));                \
  if (!api.name)                                                                                   \
    return fail(TGRT_UNAVAILABLE, "the Vulkan device has no " #name " (Vulkan 1.2 is needed)");
  TGRT_VK_DEVICE_FUNCTIONS(TGRT_VK_LOAD)
#undef TGRT_VK_LOAD
#define TGRT_VK_LOAD(name)                                                                         \
  api.name = reinterpret_cast<PFN_##name>(api.vkGetDeviceProcAddr(device, #name));
  TGRT_VK_OPTIONAL_DEVICE_FUNCTIONS(TGRT_VK_LOAD)
#undef TGRT_VK_LOAD
  return TGRT_OK;
}

const char *vk::resultName(VkResult r) {
  switch (r) {
#define TGRT_VK_RESULT(x) case x: return #x;
    TGRT_VK_RESULT(VK_SUCCESS)
    TGRT_VK_RESULT(VK_NOT_READY)
    TGRT_VK_RESULT(VK_TIMEOUT)
    TGRT_VK_RESULT(VK_INCOMPLETE)
    TGRT_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    TGRT_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    TGRT_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    TGRT_VK_RESULT(VK_ERROR_DEVICE_LOST)
    TGRT_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    TGRT_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    TGRT_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    TGRT_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    TGRT_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    TGRT_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    TGRT_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    TGRT_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    TGRT_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    TGRT_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
    TGRT_VK_RESULT(VK_ERROR_UNKNOWN)
#undef TGRT_VK_RESULT
  default: return "VK_ERROR (unnamed)";
  }
}

Status vk::check(VkResult r, const char *call) {
  if (r == VK_SUCCESS)
    return TGRT_OK;
  Status code = r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY
                    ? TGRT_OUT_OF_MEMORY
                : r == VK_TIMEOUT ? TGRT_TIMEOUT
                : r == VK_ERROR_DEVICE_LOST ? TGRT_ABORTED
                                            : TGRT_INTERNAL;
  return failf(code, "%s failed: %s (%d)", call, resultName(r), static_cast<int>(r));
}
