//===- SPIRVTarget.h - SPIR-V binaries from the spirv dialect -----*- C++ -*-===//
//
// The Vulkan target's serialization: the spirv.module that upstream's
// convert-gpu-to-spirv made of a kernel's gpu.module, as the words a
// VkShaderModule takes. Only serialization lives here; the conversion is in
// lib/Conversion.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_SPIRV_SPIRVTARGET_H
#define TINYGRAD_TARGET_SPIRV_SPIRVTARGET_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::tinygrad::spirv_target {

/// The binary of the one spirv.module in `module` (an error at `module`
/// when there is none or more than one, or the serializer fails).
FailureOr<std::string> serialize(ModuleOp module);

} // namespace mlir::tinygrad::spirv_target

#endif
