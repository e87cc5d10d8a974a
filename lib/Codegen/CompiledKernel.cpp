//===- CompiledKernel.cpp - what every target's kernel compile shares -----===//
#include "tinygrad/Codegen/CompiledKernel.h"

#include "tinygrad/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tinygrad;

const char *mlir::tinygrad::formatName(BinaryFormat f) {
  switch (f) {
  case BinaryFormat::ELF: return "elf";
  case BinaryFormat::SPIRV: return "spirv";
  case BinaryFormat::CUBIN: return "cubin";
  case BinaryFormat::PTX: return "ptx";
  case BinaryFormat::HSACO: return "hsaco";
  }
  return "?";
}

FailureOr<tg::KernelInfoAttr> mlir::tinygrad::kernelInfoOf(Value root) {
  Operation *sinkOp = root.getDefiningOp();
  if (!sinkOp || !isa<tg::SinkOp>(sinkOp))
    return mlir::emitError(root.getLoc(), "a kernel AST is rooted at a SINK");
  auto info = dyn_cast_or_null<tg::KernelInfoAttr>(sinkOp->getAttr("arg"));
  if (!info)
    return sinkOp->emitError("a kernel SINK carries #tg.kernel_info");
  return info;
}

tg::KernelInfoAttr mlir::tinygrad::withOptsToApply(tg::KernelInfoAttr info, llvm::ArrayRef<opt::Opt> optsToApply) {
  MLIRContext *ctx = info.getContext();
  SmallVector<Attribute> list;
  for (const opt::Opt &o : optsToApply)
    list.push_back(tg::OptAttr::get(ctx, o.op, o.axis, IntegerAttr::get(IntegerType::get(ctx, 64), o.arg)));
  return tg::KernelInfoAttr::get(ctx, info.getName(), info.getAxisTypes(), info.getDontUseLocals(),
                                 info.getAppliedOpts(), ArrayAttr::get(ctx, list), info.getEstimates(),
                                 info.getBeam());
}

LogicalResult mlir::tinygrad::verifyKernelAST(ModuleOp module) {
  PassManager pm(module.getContext(), "builtin.module");
  VerifySpecOptions opts;
  opts.phase = "tensor";
  pm.addPass(createVerifySpec(opts));
  return pm.run(module);
}

namespace {
/// Forwards each pass's result module to CompileOptions::afterPass.
struct AfterPassHook : PassInstrumentation {
  explicit AfterPassHook(std::function<void(llvm::StringRef, ModuleOp)> fn) : fn(std::move(fn)) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    ModuleOp module = dyn_cast<ModuleOp>(op);
    if (!module)
      module = op->getParentOfType<ModuleOp>();
    llvm::StringRef name = pass->getArgument();
    fn(name.empty() ? pass->getName() : name, module);
  }
  std::function<void(llvm::StringRef, ModuleOp)> fn;
};
} // namespace

void mlir::tinygrad::instrumentPassManager(PassManager &pm, const CompileOptions &opts) {
  pm.enableVerifier(opts.verifyEach);
  if (opts.printIRAfterAll) {
    pm.getContext()->disableMultithreading();
    pm.enableIRPrinting([](Pass *, Operation *) { return false; }, [](Pass *, Operation *) { return true; },
                        /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
  }
  if (opts.afterPass)
    pm.addInstrumentation(std::make_unique<AfterPassHook>(opts.afterPass));
}
