//===- Registration.cpp - the NVVM/ROCDL pipelines and what they need -----===//
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

struct NVVMPipelineOptions : PassPipelineOptions<NVVMPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("NVIDIA arch (sm_80, sm_90, ...)"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("LLVM target features (\"\": the chip's minimum PTX version)"),
                               llvm::cl::init("")};
  Option<unsigned> indexBitwidth{*this, "index-bitwidth", llvm::cl::desc("bits of index values"),
                                 llvm::cl::init(32)};
};

struct ROCDLPipelineOptions : PassPipelineOptions<ROCDLPipelineOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("AMD chip (gfx90a, gfx942, gfx1100, ...)"),
                           llvm::cl::init("gfx942")};
  Option<std::string> abi{*this, "abi", llvm::cl::desc("code object version x100"), llvm::cl::init("500")};
  Option<bool> wave64{*this, "wave64", llvm::cl::desc("64-wide waves (CDNA); false: 32 (RDNA)"),
                      llvm::cl::init(true)};
  Option<unsigned> indexBitwidth{*this, "index-bitwidth", llvm::cl::desc("bits of index values"),
                                 llvm::cl::init(32)};
};

} // namespace

void mlir::tinygrad::registerGPUConversionPasses() {
  registerTinygradGPUConversionPasses();
  PassPipelineRegistration<NVVMPipelineOptions>(
      "tg-gpu-to-nvvm", "A kernel's gpu.module in upstream dialects to NVVM + llvm (#nvvm.target)",
      [](OpPassManager &pm, const NVVMPipelineOptions &o) {
        GPUToNVVMOptions options;
        std::string error;
        if (auto target = TargetDescription::cuda(o.chip.getValue(), &error))
          options.limits = limitsOf(*target);
        options.chip = o.chip;
        options.features = o.features;
        options.indexBitwidth = o.indexBitwidth;
        buildGPUToNVVMPipeline(pm, options);
      });
  PassPipelineRegistration<ROCDLPipelineOptions>(
      "tg-gpu-to-rocdl", "A kernel's gpu.module in upstream dialects to ROCDL + llvm (#rocdl.target)",
      [](OpPassManager &pm, const ROCDLPipelineOptions &o) {
        GPUToROCDLOptions options;
        std::string error;
        if (auto target = TargetDescription::amd(o.chip.getValue(), &error))
          options.limits = limitsOf(*target);
        options.chip = o.chip;
        options.abi = o.abi;
        options.wave64 = o.wave64;
        options.indexBitwidth = o.indexBitwidth;
        buildGPUToROCDLPipeline(pm, options);
      });
  PassPipelineRegistration<>("tg-gpu-to-spirv",
                             "A kernel's gpu.module in upstream dialects to a spirv.module for Vulkan",
                             [](OpPassManager &pm) { buildGPUToSPIRVPipeline(pm); });
}

void mlir::tinygrad::registerGPUConversionDependencies(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect, gpu::GPUDialect,
                  index::IndexDialect, LLVM::LLVMDialect, math::MathDialect, memref::MemRefDialect,
                  NVVM::NVVMDialect, ROCDL::ROCDLDialect, scf::SCFDialect, spirv::SPIRVDialect,
                  ub::UBDialect, vector::VectorDialect>();
  // convert-gpu-to-nvvm/rocdl lower every other dialect through its
  // ConvertToLLVMPatternInterface: without these, arith or memref ops stay.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  // (convert-gpu-to-nvvm skips math for its libdevice lowering; ROCDL lowers
  // what has no __ocml_ call, math.sqrt, through it.)
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  NVVM::registerConvertGpuToNVVMInterface(registry);
}
