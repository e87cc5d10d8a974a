//===- SPIRVTarget.cpp - SPIR-V binaries from the spirv dialect ------------===//
//
// convert-gpu-to-spirv emits the spirv.module next to the gpu.module it
// converted (which stays), so the binary is serialized from that module
// alone with upstream's serializer, in-process.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/SPIRV/SPIRVTarget.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Target/SPIRV/Serialization.h"

using namespace mlir;

FailureOr<std::string> tinygrad::spirv_target::serialize(ModuleOp module) {
  SmallVector<spirv::ModuleOp, 1> found;
  module.walk([&](spirv::ModuleOp m) { found.push_back(m); });
  if (found.size() != 1)
    return module.emitError("SPIR-V serialization expects one spirv.module, found ") << found.size();
  SmallVector<uint32_t, 0> words;
  if (failed(spirv::serialize(found.front(), words)))
    return found.front().emitError("SPIR-V serialization failed");
  return std::string(reinterpret_cast<const char *>(words.data()), words.size() * sizeof(uint32_t));
}
