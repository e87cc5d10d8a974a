//===- DeviceCodegen.cpp - LLVM's GPU backends, in-process -----------------===//
#include "tinygrad/Target/GPU/DeviceCodegen.h"
#include "tinygrad/Target/GuardedLLVM.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>

using namespace mlir;
using namespace mlir::tinygrad;

// LLVM's per-target initializers (exported by libLLVM; declared here so
// only the two GPU backends are initialized, not every target).
extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
}

FailureOr<gpu::GPUModuleOp> gpu_codegen::findGPUModule(ModuleOp module) {
  SmallVector<gpu::GPUModuleOp, 1> found;
  module.walk([&](gpu::GPUModuleOp m) { found.push_back(m); });
  if (found.size() != 1)
    return emitError(module.getLoc(), "GPU serialization expects one gpu.module, found ") << found.size();
  return found.front();
}

gpu_codegen::Context::Context() {
  ctx_.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *info, void *errors) {
        if (info->getSeverity() != llvm::DS_Error)
          return; // warnings and remarks are not ours to print
        llvm::raw_string_ostream os(*static_cast<std::string *>(errors));
        llvm::DiagnosticPrinterRawOStream printer(os);
        os << "\n  ";
        info->print(printer);
      },
      &errors_);
}

LogicalResult gpu_codegen::Context::fail(Location loc, const Twine &what) {
  InFlightDiagnostic d = emitError(loc) << what;
  if (!errors_.empty())
    d << ":" << errors_;
  errors_.clear();
  return failure();
}

std::unique_ptr<llvm::Module> gpu_codegen::translate(gpu::GPUModuleOp gpuModule, Context &ctx) {
  // Registered here (idempotent) so that every caller's context can translate.
  MLIRContext *mctx = gpuModule->getContext();
  registerBuiltinDialectTranslation(*mctx);
  registerLLVMDialectTranslation(*mctx);
  registerGPUDialectTranslation(*mctx);
  registerNVVMDialectTranslation(*mctx);
  registerROCDLDialectTranslation(*mctx);
  std::unique_ptr<llvm::Module> m =
      translateModuleToLLVMIR(gpuModule, ctx.llvm(), gpuModule.getName());
  if (!m)
    emitError(gpuModule.getLoc(), "the gpu.module did not translate to LLVM IR (is it in the llvm dialect?)");
  return m;
}

FailureOr<llvm::TargetMachine *> gpu_codegen::getTargetMachine(Location loc, StringRef triple, StringRef chip,
                                                              StringRef features, unsigned optLevel) {
  static std::once_flag once;
  std::call_once(once, [] {
    reserveHeapForBackends();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
  });
  // Made once per thread and target: its subtarget (register classes,
  // lowering tables) is then built once, not for every kernel.
  static thread_local llvm::StringMap<std::unique_ptr<llvm::TargetMachine>> machines;
  std::string key = (triple + "\n" + chip + "\n" + features + "\n" + Twine(optLevel)).str();
  if (auto it = machines.find(key); it != machines.end())
    return it->second.get();
  llvm::Triple t(triple);
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(t, error);
  if (!target)
    return emitError(loc) << "LLVM has no backend for " << triple << ": " << error;
  // An unknown chip only warns inside LLVM (on stderr) and generates for a
  // generic one: check it first, so that a typo is an error naming it.
  std::unique_ptr<llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(t, "", ""));
  if (!sti || !sti->isCPUStringValid(chip))
    return emitError(loc) << "LLVM's " << target->getName() << " backend does not know the chip '"
                          << chip << "'";
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  auto level = optLevel >= 3 ? llvm::CodeGenOptLevel::Aggressive
               : optLevel == 2 ? llvm::CodeGenOptLevel::Default
               : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                               : llvm::CodeGenOptLevel::None;
  std::unique_ptr<llvm::TargetMachine> tm(
      target->createTargetMachine(t, chip, features, options, std::nullopt, std::nullopt, level));
  if (!tm)
    return emitError(loc) << "LLVM cannot target " << triple << " " << chip;
  return (machines[key] = std::move(tm)).get();
}

bool gpu_codegen::needsLibrary(const llvm::Module &module, StringRef prefix) {
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && !f.isIntrinsic() && f.getName().starts_with(prefix))
      return true;
  return false;
}

bool gpu_codegen::optimize(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel) {
  llvm::internalizeModule(module, [](const llvm::GlobalValue &gv) {
    const auto *f = llvm::dyn_cast<llvm::Function>(&gv);
    return f && !f->isDeclaration() &&
           (f->getCallingConv() == llvm::CallingConv::PTX_Kernel ||
            f->getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL);
  });
  // On the heap: after an abort inside the pipeline (runGuardedLLVM) they
  // hold analyses of a half-done run, and are let go rather than destroyed.
  struct Pipeline {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::ModulePassManager mpm;
  };
  auto p = std::make_unique<Pipeline>();
  llvm::PassBuilder pb(&tm); // registers the target's own passes (NVVMReflect, AMDGPU's)
  pb.registerModuleAnalyses(p->mam);
  pb.registerCGSCCAnalyses(p->cgam);
  pb.registerFunctionAnalyses(p->fam);
  pb.registerLoopAnalyses(p->lam);
  pb.crossRegisterProxies(p->lam, p->fam, p->cgam, p->mam);
  llvm::OptimizationLevel level = optLevel >= 3 ? llvm::OptimizationLevel::O3
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                                  : llvm::OptimizationLevel::O0;
  p->mpm = level == llvm::OptimizationLevel::O0 ? pb.buildO0DefaultPipeline(level)
                                                : pb.buildPerModuleDefaultPipeline(level);
  if (!runGuardedLLVM([&] { p->mpm.run(module, p->mam); })) {
    (void)p.release();
    return false;
  }
  return true;
}

LogicalResult gpu_codegen::checkAllCallsDefined(Location loc, const llvm::Module &module) {
  SmallVector<StringRef> undefined;
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && !f.isIntrinsic() && !f.use_empty())
      undefined.push_back(f.getName());
  if (undefined.empty())
    return success();
  InFlightDiagnostic d = emitError(loc) << "the kernel calls functions nothing defines:";
  for (StringRef name : undefined)
    d << " " << name;
  return d;
}

LogicalResult gpu_codegen::writeTranslation(Operation *op, raw_ostream &os,
                                            function_ref<FailureOr<std::string>(ModuleOp)> emit) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->emitError("expected a builtin.module holding one gpu.module");
  FailureOr<std::string> out = emit(module);
  if (failed(out))
    return failure();
  os << *out;
  return success();
}

FailureOr<std::string> gpu_codegen::emit(Location loc, Context &ctx, llvm::Module &module,
                                         llvm::TargetMachine &tm, llvm::CodeGenFileType type) {
  std::string out;
  {
    llvm::raw_string_ostream os(out);
    llvm::buffer_ostream bos(os);
    auto pm = std::make_unique<llvm::legacy::PassManager>();
    if (tm.addPassesToEmitFile(*pm, bos, nullptr, type))
      return emitError(loc) << "LLVM cannot emit this file type for " << tm.getTargetTriple().str();
    if (!runGuardedLLVM([&] { pm->run(module); })) {
      (void)pm.release(); // mid-run: let go, not destroyed
      return emitError(loc) << "LLVM's " << tm.getTargetTriple().getArchName()
                            << " code generation aborted on this kernel (an LLVM bug; its message is on stderr)";
    }
  }
  if (ctx.hasErrors())
    return ctx.fail(loc, "LLVM's code generation failed");
  return out;
}
