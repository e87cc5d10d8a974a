//===- Translations.cpp - tinygrad-translate --emit-ptx / --emit-cubin ----===//
#include "tinygrad/Target/NVVM/NVVMTarget.h"

#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {
struct Options {
  llvm::cl::opt<std::string> cudaPath{
      "cuda-path", llvm::cl::desc("--emit-ptx/--emit-cubin: the CUDA toolkit (libdevice, nvJitLink, "
                                  "ptxas); default CUDA_PATH, CUDA_HOME, else /usr/local/cuda"),
      llvm::cl::init("")};
  llvm::cl::opt<nvvm_target::CubinLinker> linker{
      "cubin-linker", llvm::cl::desc("--emit-cubin: how PTX becomes a cubin"),
      llvm::cl::values(clEnumValN(nvvm_target::CubinLinker::Auto, "auto", "nvJitLink, else ptxas"),
                       clEnumValN(nvvm_target::CubinLinker::NvJitLink, "nvjitlink", "nvJitLink, in-process"),
                       clEnumValN(nvvm_target::CubinLinker::Ptxas, "ptxas", "the ptxas executable")),
      llvm::cl::init(nvvm_target::CubinLinker::Auto)};
};
Options &getOptions() {
  static Options o;
  return o;
}
nvvm_target::Options targetOptions() {
  nvvm_target::Options o;
  o.cudaPath = getOptions().cudaPath;
  o.linker = getOptions().linker;
  return o;
}
} // namespace

void nvvm_target::registerTranslations() {
  getOptions();
  TranslateFromMLIRRegistration ptx(
      "emit-ptx", "PTX of a gpu.module converted by tg-gpu-to-nvvm",
      [](Operation *op, raw_ostream &os) {
        return gpu_codegen::writeTranslation(op, os, [](ModuleOp m) { return emitPTX(m, targetOptions()); });
      },
      registerGPUConversionDependencies);
  TranslateFromMLIRRegistration cubin(
      "emit-cubin", "A cubin of a gpu.module converted by tg-gpu-to-nvvm (nvJitLink or ptxas)",
      [](Operation *op, raw_ostream &os) {
        return gpu_codegen::writeTranslation(op, os, [](ModuleOp m) { return emitCubin(m, targetOptions()); });
      },
      registerGPUConversionDependencies);
}
