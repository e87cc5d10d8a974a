//===- Pipeline.cpp - gpu.module in upstream dialects to ROCDL ------------===//
//
// As the NVVM pipeline, for AMD: workgroup allocations become attributions
// (ds_read/ds_write in LDS), integer range optimization folds gpu.block_dim
// to the known_block_size (otherwise it is __ockl_get_local_size, a device
// library call reading code object v5's hidden arguments), and math becomes
// __ocml_* calls that lib/Target/ROCDL links from ROCm's device libraries.
// The code object version is the #rocdl.target's abi (500 by default: MLIR
// defaults to 600, which ROCm 5 runtimes and comgr 5.2 cannot load).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"

#include "../GPUCommon/VendorPipeline.h"

using namespace mlir;
using namespace mlir::tinygrad;

GPUToROCDLOptions GPUToROCDLOptions::forTarget(const TargetDescription &target) {
  GPUToROCDLOptions o;
  o.chip = target.arch;
  o.wave64 = target.subgroupSize == 64;
  o.indexBitwidth = target.indexBits;
  o.limits = limitsOf(target);
  return o;
}

void mlir::tinygrad::buildGPUToROCDLPipeline(OpPassManager &pm, const GPUToROCDLOptions &options) {
  GpuROCDLAttachTargetOptions attach;
  attach.chip = options.chip;
  attach.abiVersion = options.abi;
  attach.optLevel = options.optLevel;
  attach.wave64Flag = options.wave64;
  ConvertGpuOpsToROCDLOpsOptions convert;
  convert.chipset = options.chip;
  convert.indexBitwidth = options.indexBitwidth;
  convert.useBarePtrCallConv = true;
  buildVendorPipeline(pm, createGpuROCDLAttachTarget(attach), createConvertGpuOpsToROCDLOps(convert), options.limits);
}
