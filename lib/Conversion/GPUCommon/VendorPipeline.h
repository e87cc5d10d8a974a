//===- VendorPipeline.h - the shape of the NVVM and ROCDL pipelines -*- C++ -*-===//
//
// Both conversions are the same sequence around a different attach-target
// and convert-gpu-to-<vendor> pass (GPUToNVVM/Pipeline.cpp,
// GPUToROCDL/Pipeline.cpp say why each step is there).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_CONVERSION_GPUCOMMON_VENDORPIPELINE_H
#define TINYGRAD_LIB_CONVERSION_GPUCOMMON_VENDORPIPELINE_H

#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

namespace mlir::tinygrad {

/// `attach` (the #nvvm/#rocdl.target), then on each gpu.module: workgroup
/// allocations to attributions, the kernels checked against `limits`,
/// gpu.block_dim folded to known_block_size by
/// integer range optimization, scf to cf, `convert`, cleanup; then the casts
/// between the type systems reconciled.
inline void buildVendorPipeline(OpPassManager &pm, std::unique_ptr<Pass> attach,
                                std::unique_ptr<Pass> convert, const GPUCheckLimitsOptions &limits) {
  pm.addPass(std::move(attach));
  OpPassManager &gm = pm.nest<gpu::GPUModuleOp>();
  gm.addNestedPass<gpu::GPUFuncOp>(createGPUWorkgroupAttributions());
  gm.addNestedPass<gpu::GPUFuncOp>(createGPUCheckLimits(limits));
  gm.addPass(arith::createIntRangeOptimizationsPass());
  gm.addPass(createSCFToControlFlowPass());
  gm.addPass(std::move(convert));
  gm.addPass(createCanonicalizerPass());
  gm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

} // namespace mlir::tinygrad

#endif
