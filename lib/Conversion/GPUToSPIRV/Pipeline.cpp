//===- Pipeline.cpp - tg-gpu-to-spirv: a kernel's gpu.module to SPIR-V ----===//
//
// The route measured on the packaged MLIR 22 (shared/reference/
// gpu-lowering.md, section 1), with lavapipe running the result and
// spirv-val --target-env vulkan1.2 accepting it:
// 1. tg-gpu-scalarize-vectors: SPIR-V has no vectors wider than 4 (and
//    the emitter's lanes can be any number);
//    then (after a cleanup) tg-gpu-emulate-bfloat16 (bf16 as i16 bits,
//    tinygrad's manual casts), tg-gpu-legalize-arith-for-spirv (floor/ceil
//    divisions expanded, integer ops on bools computed in i32) and
//    tg-gpu-widen-bool-memory (i1 accumulators as i32 words: i1 memory
//    would need Int8), tg-gpu-loop-budget (lavapipe's per-thread loop
//    iteration budget: loops unrolled to fit it, or an error), then
//    tg-gpu-sign-extend-by-shifts: lavapipe gets
//    OpSConvert to 64 bits wrong, also where an index_cast becomes one
//    (GPUPasses.td);
// 2. convert-math-to-spirv inside the gpu.module: convert-gpu-to-spirv does
//    not lower math ops itself;
// 3. convert-gpu-to-spirv (32-bit index): the gpu.func becomes a
//    spirv.module next to the gpu.module, its memref arguments the storage
//    buffers of their spirv.interface_var_abi bindings, memref.alloc in the
//    Workgroup storage class a Workgroup variable;
// 4. spirv-lower-abi-attrs (the entry point and its LocalSize) and
//    spirv-update-vce (the capabilities and extensions the module uses,
//    within the gpu.module's spirv.target_env).
// lib/Target/SPIRV serializes the spirv.module.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/Conversion/GPUToSPIRV/GPUToSPIRVPass.h"
#include "mlir/Conversion/MathToSPIRV/MathToSPIRVPass.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"
#include "mlir/Dialect/SPIRV/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// The width `index` has in the SPIR-V module, which tg-gpu-sign-extend-by-
/// shifts must know: createConvertGPUToSPIRVPass() lowers it to 32 bits (its
/// use-64bit-index option is false, and MLIR 22's C++ constructor takes none).
static constexpr unsigned kIndexBitwidth = 32;

void mlir::tinygrad::buildGPUToSPIRVPipeline(OpPassManager &pm) {
  buildGPUToSPIRVPipeline(pm, TargetDescription::vulkan().maxLoopIterations);
}

void mlir::tinygrad::buildGPUToSPIRVPipeline(OpPassManager &pm, uint64_t maxLoopIterations) {
  OpPassManager &gm = pm.nest<gpu::GPUModuleOp>();
  gm.addNestedPass<gpu::GPUFuncOp>(createGPUScalarizeVectors());
  gm.addPass(createCanonicalizerPass());
  gm.addPass(createCSEPass());
  gm.addNestedPass<gpu::GPUFuncOp>(createGPUEmulateBFloat16());
  gm.addNestedPass<gpu::GPUFuncOp>(createGPULegalizeArithForSPIRV());
  gm.addNestedPass<gpu::GPUFuncOp>(createGPUWidenBoolMemory());
  gm.addNestedPass<gpu::GPUFuncOp>(createGPULoopBudget(GPULoopBudgetOptions{maxLoopIterations}));
  gm.addNestedPass<gpu::GPUFuncOp>(createGPUSignExtendByShifts(GPUSignExtendByShiftsOptions{kIndexBitwidth}));
  gm.addPass(createConvertMathToSPIRVPass());
  pm.addPass(createConvertGPUToSPIRVPass());
  OpPassManager &sm = pm.nest<spirv::ModuleOp>();
  sm.addPass(spirv::createSPIRVLowerABIAttributesPass());
  sm.addPass(spirv::createSPIRVUpdateVCEPass());
}
