//===- NVVMTarget.cpp - PTX from the NVVM dialect, in-process -------------===//
//
// gpu-lowering.md §2's traps, handled here: libdevice is linked from the
// toolkit when the kernel calls __nv_* (missing: an error, not PTX with
// `.extern .func __nv_expf` that ptxas rejects later), and libdevice's
// __nvvm_reflect queries are answered before optimization as nvcc answers
// them by default, so __nv_sqrtf is sqrt.rn.f32 (IEEE) rather than
// sqrt.approx.f32 (what NVVMReflect's default of 0 gives). LLVM picks the
// lowest PTX version the chip allows (.version 7.8 for sm_90) unless the
// #nvvm.target's features name one (+ptx80).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/NVVM/NVVMTarget.h"

#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

/// The string a __nvvm_reflect call asks about ("__CUDA_FTZ"), or "".
StringRef reflectQuery(llvm::CallInst *call) {
  llvm::Value *arg = call->getArgOperand(0)->stripPointerCasts();
  auto *global = llvm::dyn_cast<llvm::GlobalVariable>(arg);
  if (!global || !global->hasInitializer())
    return "";
  auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  return data && data->isString() ? data->getAsString().rtrim('\0') : "";
}

/// Replaces libdevice's __nvvm_reflect("__CUDA_FTZ" | "__CUDA_PREC_SQRT" |
/// "__CUDA_ARCH") calls by nvcc's default answers for `sm`.
void answerReflect(llvm::Module &module, unsigned sm, bool ftz, bool fast) {
  for (StringRef name : {"__nvvm_reflect", "llvm.nvvm.reflect"}) {
    llvm::Function *reflect = module.getFunction(name);
    if (!reflect)
      continue;
    SmallVector<llvm::CallInst *> calls;
    for (llvm::User *user : reflect->users())
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
        calls.push_back(call);
    for (llvm::CallInst *call : calls) {
      StringRef q = reflectQuery(call);
      int value = q == "__CUDA_FTZ" ? ftz : q == "__CUDA_PREC_SQRT" ? !fast : q == "__CUDA_ARCH" ? sm * 10 : 0;
      call->replaceAllUsesWith(llvm::ConstantInt::get(call->getType(), value));
      call->eraseFromParent();
    }
  }
  // NVVMReflect (in the NVPTX pipeline) reads this flag for calls it meets.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", ftz);
}

} // namespace

std::string nvvm_target::cudaToolkit(const Options &options) {
  if (!options.cudaPath.empty())
    return options.cudaPath;
  for (const char *env : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *v = std::getenv(env); v && *v)
      return v;
  return "/usr/local/cuda";
}

FailureOr<std::string> nvvm_target::emitPTX(ModuleOp module, const Options &options) {
  FailureOr<gpu::GPUModuleOp> gm = gpu_codegen::findGPUModule(module);
  if (failed(gm))
    return failure();
  NVVM::NVVMTargetAttr target;
  if (ArrayAttr targets = gm->getTargetsAttr())
    for (Attribute a : targets)
      if ((target = dyn_cast<NVVM::NVVMTargetAttr>(a)))
        break;
  if (!target)
    return emitError(gm->getLoc(), "the gpu.module has no #nvvm.target (run tg-gpu-to-nvvm first)");
  StringRef chip = target.getChip();
  unsigned sm = 0;
  if (!chip.starts_with("sm_") || chip.drop_front(3).consumeInteger(10, sm))
    return emitError(gm->getLoc(), "the #nvvm.target chip '") << chip << "' is not sm_<N>";
  Location loc = gm->getLoc();

  gpu_codegen::Context ctx;
  std::unique_ptr<llvm::Module> llvmModule;
  {
    PhaseTimes::Scope phase(options.phases, "translate");
    llvmModule = gpu_codegen::translate(*gm, ctx);
  }
  if (!llvmModule)
    return failure();
  auto tm = [&] {
    PhaseTimes::Scope phase(options.phases, "target_machine");
    return gpu_codegen::getTargetMachine(loc, target.getTriple(), chip, target.getFeatures(), target.getO());
  }();
  if (failed(tm))
    return failure();
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  llvmModule->setDataLayout((*tm)->createDataLayout());

  if (gpu_codegen::needsLibrary(*llvmModule, "__nv_")) {
    std::string toolkit = cudaToolkit(options);
    llvm::SmallString<256> libdevice(toolkit);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    if (!llvm::sys::fs::exists(libdevice))
      return emitError(loc) << "the kernel calls CUDA math (__nv_*) but there is no libdevice at "
                            << libdevice << " (set CUDA_PATH, or --cuda-path, to a CUDA toolkit)";
    PhaseTimes::Scope phase(options.phases, "link_library");
    if (failed(gpu_codegen::linkLibrary(loc, ctx, *llvmModule, libdevice)))
      return failure();
  }
  {
    PhaseTimes::Scope phase(options.phases, "optimize");
    bool ftz = target.hasFtz(), fast = target.hasFastMath();
    answerReflect(*llvmModule, sm, ftz, fast);
    if (!gpu_codegen::optimize(*llvmModule, **tm, target.getO()))
      return emitError(loc) << "LLVM's optimizer aborted on this kernel (an LLVM bug; its message is on stderr)";
  }
  if (failed(gpu_codegen::checkAllCallsDefined(loc, *llvmModule)))
    return failure();
  PhaseTimes::Scope phase(options.phases, "llvm_codegen");
  return gpu_codegen::emit(loc, ctx, *llvmModule, **tm, llvm::CodeGenFileType::AssemblyFile);
}

FailureOr<std::string> nvvm_target::emitCubin(ModuleOp module, const Options &options) {
  FailureOr<std::string> ptx = emitPTX(module, options);
  if (failed(ptx))
    return failure();
  gpu::GPUModuleOp gm = *gpu_codegen::findGPUModule(module);
  StringRef chip;
  for (Attribute a : gm.getTargetsAttr())
    if (auto t = dyn_cast<NVVM::NVVMTargetAttr>(a)) {
      chip = t.getChip();
      break;
    }
  PhaseTimes::Scope phase(options.phases, "link_binary");
  return linkCubin(gm.getLoc(), *ptx, chip, options);
}
