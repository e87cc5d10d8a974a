//===- SpirvCheck.h - the structure of a SPIR-V module ----------*- C++ -*-===//
//
// Vulkan drivers may crash, hang or exhaust memory on a malformed module
// (passing one is invalid usage), so the Vulkan driver checks the structure
// before vkCreateShaderModule: the header, every instruction's word count
// inside the module, functions closed, and a GLCompute entry point of the
// requested name. This is not spirv-val: a well-formed module can still
// be rejected by the driver, which is then reported as such.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DRIVERS_VULKAN_SPIRVCHECK_H
#define TGRT_LIB_DRIVERS_VULKAN_SPIRVCHECK_H

#include "Status.h"

#include <cstddef>

namespace tgrt::vk {

/// TGRT_OK, or TGRT_INVALID_OBJECT / TGRT_NOT_FOUND with a message saying
/// what is wrong with the module (`function` prefixes it).
Status checkSpirvModule(const char *function, const void *binary, size_t size, const char *entry);

} // namespace tgrt::vk

#endif // TGRT_LIB_DRIVERS_VULKAN_SPIRVCHECK_H
