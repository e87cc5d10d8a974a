//===- Translations.cpp - tinygrad-translate --emit-amdgcn / --emit-hsaco -===//
#include "tinygrad/Target/ROCDL/ROCDLTarget.h"

#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {
struct Options {
  llvm::cl::opt<std::string> deviceLibs{
      "rocm-device-libs",
      llvm::cl::desc("--emit-amdgcn/--emit-hsaco: the folder of ROCm's ocml.bc/ockl.bc (default "
                     "TG_ROCM_DEVICE_LIBS, else Debian's rocm-device-libs)"),
      llvm::cl::init("")};
  llvm::cl::opt<rocdl_target::HsacoLinker> linker{
      "hsaco-linker", llvm::cl::desc("--emit-hsaco: how the object becomes an HSACO"),
      llvm::cl::values(
          clEnumValN(rocdl_target::HsacoLinker::Auto, "auto", "lld in-process if built with it, else ld.lld"),
          clEnumValN(rocdl_target::HsacoLinker::Lld, "lld", "lld in-process (liblld)"),
          clEnumValN(rocdl_target::HsacoLinker::LdLld, "ld.lld", "the ld.lld executable"),
          clEnumValN(rocdl_target::HsacoLinker::Comgr, "comgr", "ROCm's comgr (gfx90a and older)")),
      llvm::cl::init(rocdl_target::HsacoLinker::Auto)};
};
Options &getOptions() {
  static Options o;
  return o;
}
rocdl_target::Options targetOptions() {
  rocdl_target::Options o;
  o.deviceLibs = getOptions().deviceLibs;
  o.linker = getOptions().linker;
  return o;
}
} // namespace

void rocdl_target::registerTranslations() {
  getOptions();
  TranslateFromMLIRRegistration amdgcn(
      "emit-amdgcn", "AMDGCN assembly of a gpu.module converted by tg-gpu-to-rocdl",
      [](Operation *op, raw_ostream &os) {
        return gpu_codegen::writeTranslation(op, os, [](ModuleOp m) { return emitAssembly(m, targetOptions()); });
      },
      registerGPUConversionDependencies);
  TranslateFromMLIRRegistration hsaco(
      "emit-hsaco", "An HSACO (code object) of a gpu.module converted by tg-gpu-to-rocdl",
      [](Operation *op, raw_ostream &os) {
        return gpu_codegen::writeTranslation(op, os, [](ModuleOp m) { return emitHsaco(m, targetOptions()); });
      },
      registerGPUConversionDependencies);
}
