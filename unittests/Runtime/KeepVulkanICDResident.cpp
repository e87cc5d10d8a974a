//===- KeepVulkanICDResident.cpp - lavapipe stays loaded under LSan -------===//
//
// Compiled into the ASan/LSan test binaries only. The Vulkan loader loads
// the ICD (Mesa's lavapipe here) when an instance enumerates its devices
// and unloads it again at vkDestroyInstance. lavapipe keeps state of a
// one-time initialization (a pthread_once inside the driver) in its
// globals; once the library is unloaded those blocks are unreachable and
// LeakSanitizer reports them as leaks of 128 bytes each, with every frame
// but the loader's an "<unknown module>" (seen on Mesa 22.3.6-1+deb12u2 on
// a Zen 5 host; not on the machines before). Holding the library loaded
// for the whole process, as any process that uses Vulkan more than once
// effectively does, keeps them reachable. Nothing is suppressed: a block
// the loader or our driver leaks is still reported.
//
//===----------------------------------------------------------------------===//
#include <dlfcn.h>

namespace {
[[gnu::constructor]] void keepLavapipeResident() {
  // Absent (no Mesa Vulkan drivers): nothing to keep; the Vulkan tests skip.
  (void)dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
}
} // namespace
