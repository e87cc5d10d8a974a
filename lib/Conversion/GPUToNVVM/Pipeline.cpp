//===- Pipeline.cpp - gpu.module in upstream dialects to NVVM -------------===//
//
// Upstream's passes in the order gpu-lowering.md measured to work with
// MLIR 22, plus two of ours: workgroup allocations become attributions
// first (the only form convert-gpu-to-nvvm lowers to .shared), and integer
// range optimization folds gpu.block_dim to the kernel's known_block_size
// (convert-gpu-to-nvvm leaves %ntid reads otherwise). Math becomes __nv_*
// libdevice calls, linked and made IEEE by lib/Target/NVVM.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"

#include "../GPUCommon/VendorPipeline.h"

using namespace mlir;
using namespace mlir::tinygrad;

GPUToNVVMOptions GPUToNVVMOptions::forTarget(const TargetDescription &target) {
  GPUToNVVMOptions o;
  o.chip = target.arch;
  o.indexBitwidth = target.indexBits;
  o.limits = limitsOf(target);
  return o;
}

void mlir::tinygrad::buildGPUToNVVMPipeline(OpPassManager &pm, const GPUToNVVMOptions &options) {
  GpuNVVMAttachTargetOptions attach;
  attach.chip = options.chip;
  attach.features = options.features;
  attach.optLevel = options.optLevel;
  ConvertGpuOpsToNVVMOpsOptions convert;
  convert.indexBitwidth = options.indexBitwidth;
  convert.useBarePtrCallConv = true;
  // redux.sync (warp reductions) exists from sm_80.
  unsigned sm = 0;
  convert.hasRedux = !StringRef(options.chip).drop_front(3).consumeInteger(10, sm) && sm >= 80;
  buildVendorPipeline(pm, createGpuNVVMAttachTarget(attach), createConvertGpuOpsToNVVMOps(convert), options.limits);
}
