//===- GPUPasses.h - the SPIR-V, NVVM and ROCDL conversions --------*- C++ -*-===//
//
// A kernel's gpu.module in upstream dialects (scf, arith, math, memref,
// vector, gpu) goes to the SPIR-V dialect, or to NVVM or ROCDL (plus llvm),
// through these pipelines, built from upstream's passes; lib/Target/SPIRV,
// lib/Target/NVVM and lib/Target/ROCDL then serialize the result (SPIR-V,
// PTX, cubin, HSACO).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CONVERSION_GPUPASSES_H
#define TINYGRAD_CONVERSION_GPUPASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <string>

namespace mlir {
class DialectRegistry;
namespace tinygrad {
struct TargetDescription;

#define GEN_PASS_DECL
#include "tinygrad/Conversion/GPUPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tinygrad/Conversion/GPUPasses.h.inc"

/// Options of the `tg-gpu-to-nvvm` pipeline.
struct GPUToNVVMOptions {
  std::string chip = "sm_90"; ///< the #nvvm.target chip
  std::string features;       ///< LLVM features ("+ptx80"); "": the chip's minimum PTX
  unsigned indexBitwidth = 32;
  unsigned optLevel = 3;
  GPUCheckLimitsOptions limits; ///< tinygrad's CUDARenderer: 1024 threads, 48 KB
  /// cuda:sm_N's options (chip, index width).
  static GPUToNVVMOptions forTarget(const TargetDescription &target);
};

/// Options of the `tg-gpu-to-rocdl` pipeline.
struct GPUToROCDLOptions {
  std::string chip = "gfx942"; ///< the #rocdl.target chip and convert-gpu-to-rocdl chipset
  std::string abi = "500";     ///< code object version x100 (COV5: what ROCm 5.x and comgr 5.2 load)
  bool wave64 = true;          ///< CDNA: 64; RDNA (gfx10+): 32
  unsigned indexBitwidth = 32;
  unsigned optLevel = 3;
  GPUCheckLimitsOptions limits; ///< set by forTarget (1024 threads, 64 KB of LDS)
  /// amd:gfxN's options (chip, wave size, index width).
  static GPUToROCDLOptions forTarget(const TargetDescription &target);
};

/// gpu.module in upstream dialects -> NVVM + llvm, with a #nvvm.target.
void buildGPUToNVVMPipeline(OpPassManager &pm, const GPUToNVVMOptions &options);
/// gpu.module in upstream dialects -> ROCDL + llvm, with a #rocdl.target.
void buildGPUToROCDLPipeline(OpPassManager &pm, const GPUToROCDLOptions &options);

/// gpu.module in upstream dialects -> a spirv.module beside it (Vulkan:
/// Shader capability, the gpu.module's spirv.target_env), ready for
/// spirv::serialize (GPUToSPIRV/Pipeline.cpp). maxLoopIterations: the
/// device's loop budget per thread (TargetDescription::maxLoopIterations).
void buildGPUToSPIRVPipeline(OpPassManager &pm, uint64_t maxLoopIterations);
/// The same for TargetDescription::vulkan().
void buildGPUToSPIRVPipeline(OpPassManager &pm);

/// The limits of `target` as tg-gpu-check-limits options.
GPUCheckLimitsOptions limitsOf(const TargetDescription &target);

/// Registers `tg-gpu-workgroup-attributions`, `tg-gpu-check-limits` and the named pipelines
/// `tg-gpu-to-nvvm`, `tg-gpu-to-rocdl` and `tg-gpu-to-spirv`.
void registerGPUConversionPasses();
/// The dialects and interfaces the pipelines and their serialization need
/// in a context: gpu, nvvm, rocdl, llvm, the ConvertToLLVM interfaces of the
/// upstream dialects a kernel uses, and their LLVM IR translations.
void registerGPUConversionDependencies(DialectRegistry &registry);

} // namespace tinygrad
} // namespace mlir

#endif
