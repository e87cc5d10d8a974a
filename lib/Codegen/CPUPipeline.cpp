//===- CPUPipeline.cpp - kernel AST to a loadable CPU object ---------------===//
#include "tinygrad/Codegen/CPUPipeline.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Target/CPU/CPUTarget.h"
#include "tinygrad/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace mlir;
using namespace mlir::tinygrad;

static double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

namespace {
/// Forwards each pass's result module to CPUCompileOptions::afterPass.
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

FailureOr<tg::KernelInfoAttr> mlir::tinygrad::kernelInfoOf(Value root) {
  Operation *sinkOp = root.getDefiningOp();
  if (!sinkOp || !isa<tg::SinkOp>(sinkOp))
    return mlir::emitError(root.getLoc(), "a kernel AST is rooted at a SINK");
  auto info = dyn_cast_or_null<tg::KernelInfoAttr>(sinkOp->getAttr("arg"));
  if (!info)
    return sinkOp->emitError("a kernel SINK carries #tg.kernel_info");
  return info;
}

LogicalResult mlir::tinygrad::verifyKernelAST(ModuleOp module) {
  PassManager pm(module.getContext(), "builtin.module");
  VerifySpecOptions opts;
  opts.phase = "tensor";
  pm.addPass(createVerifySpec(opts));
  return pm.run(module);
}

/// `info` with `optsToApply` as its opts_to_apply.
static tg::KernelInfoAttr withOptsToApply(tg::KernelInfoAttr info, llvm::ArrayRef<opt::Opt> optsToApply) {
  MLIRContext *ctx = info.getContext();
  SmallVector<Attribute> list;
  for (const opt::Opt &o : optsToApply)
    list.push_back(tg::OptAttr::get(ctx, o.op, o.axis, IntegerAttr::get(IntegerType::get(ctx, 64), o.arg)));
  return tg::KernelInfoAttr::get(ctx, info.getName(), info.getAxisTypes(), info.getDontUseLocals(),
                                 info.getAppliedOpts(), ArrayAttr::get(ctx, list), info.getEstimates(),
                                 info.getBeam());
}

CPUCompiler::CPUCompiler(MLIRContext *ctx) : ctx(ctx) {}
CPUCompiler::~CPUCompiler() = default;

FailureOr<CPUKernel> mlir::tinygrad::compileKernelForCPU(Value root, const CPUCompileOptions &opts) {
  return CPUCompiler(root.getContext()).compile(root, opts);
}

FailureOr<CPUKernel> CPUCompiler::compile(Value root, const CPUCompileOptions &opts) {
  assert(root.getContext() == ctx && "a CPUCompiler compiles kernels of its own context");
  auto t0 = std::chrono::steady_clock::now();
  FailureOr<tg::KernelInfoAttr> info = kernelInfoOf(root);
  if (failed(info))
    return failure();
  Operation *sinkOp = root.getDefiningOp();
  // BEAM's candidates: the opts to apply instead of the kernel's own.
  if (opts.optsToApply)
    info = withOptsToApply(*info, *opts.optsToApply);

  sym::Context symCtx(ctx);
  sym::Importer importer(symCtx);
  sym::UOpRef kernel = importer.import(root);
  if (!kernel)
    return failure();

  OwningOpRef<ModuleOp> module = ModuleOp::create(sinkOp->getLoc());
  KernelLoweringOptions lowering;
  lowering.maxThreads = opts.maxThreads;
  lowering.info = *info;
  lowering.optMode = opts.optMode;
  FailureOr<KernelSignature> sig =
      lowerKernelToStandard(*module, kernel, info->getName(), sinkOp->getLoc(), lowering);
  if (failed(sig))
    return failure();
  CPUKernel out;
  FailureOr<codegen::ProgramUOps> uops = codegen::exportProgramUOps(ctx, sinkOp->getLoc(), *sig);
  if (failed(uops))
    return failure();
  out.uops = std::move(*uops);
  out.signature = *sig;
  // Its nodes belong to symCtx.
  out.signature.linear = out.signature.estOps = out.signature.estLds = out.signature.estMem = nullptr;
  if (opts.keepMLIR)
    llvm::raw_string_ostream(out.mlir) << *module;
  if (opts.afterPass)
    opts.afterPass("tg-lower-kernel", *module);

  // Printing, callbacks and verification are instrumentation a pass
  // manager keeps for life: a compile that asks for them gets its own.
  std::unique_ptr<PassManager> instrumented;
  PassManager *pm = toLLVM.get();
  if (opts.printIRAfterAll || opts.afterPass || opts.verifyEach) {
    instrumented = std::make_unique<PassManager>(ctx, "builtin.module");
    pm = instrumented.get();
    pm->enableVerifier(opts.verifyEach);
    if (opts.printIRAfterAll) {
      ctx->disableMultithreading();
      pm->enableIRPrinting([](Pass *, Operation *) { return false; },
                           [](Pass *, Operation *) { return true; },
                           /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
    }
    if (opts.afterPass)
      pm->addInstrumentation(std::make_unique<AfterPassHook>(opts.afterPass));
    cpu::buildStandardToLLVMPipeline(*pm);
  } else if (!pm) {
    toLLVM = std::make_unique<PassManager>(ctx, "builtin.module");
    pm = toLLVM.get();
    pm->enableVerifier(false);
    cpu::buildStandardToLLVMPipeline(*pm);
  }
  if (failed(pm->run(*module)))
    return sinkOp->emitError("lowering to the llvm dialect failed");
  // Once, before translation (which assumes valid IR), instead of after
  // every pass.
  if (!opts.verifyEach && failed(verify(*module)))
    return sinkOp->emitError("the lowering to the llvm dialect produced invalid IR");
  out.codegenMs = msSince(t0);

  auto t1 = std::chrono::steady_clock::now();
  FailureOr<cpu::ObjectOutput> obj = cpu::emitObject(*module, opts.keepLLVMIR, opts.keepAsm);
  if (failed(obj))
    return failure();
  out.object = std::move(obj->object);
  out.llvmIR = std::move(obj->llvmIR);
  out.assembly = std::move(obj->assembly);
  out.llvmMs = msSince(t1);
  out.llvmOptMs = obj->optMs;
  out.llvmEmitMs = obj->emitMs;
  return out;
}

FailureOr<CPUKernel> mlir::tinygrad::compileLoweredForCPU(ModuleOp module) {
  SmallVector<LLVM::LLVMFuncOp> kernels;
  module.walk([&](LLVM::LLVMFuncOp fn) {
    if (!fn.isExternal() && fn->hasAttr("tg.globals"))
      kernels.push_back(fn);
  });
  if (kernels.size() != 1)
    return module.emitError("a lowered kernel module holds one llvm.func with tg.globals, found ")
           << kernels.size();
  LLVM::LLVMFuncOp fn = kernels.front();
  CPUKernel out;
  KernelSignature &sig = out.signature;
  sig.name = fn.getSymName().str();
  auto ints = [&](StringRef name, std::vector<int64_t> &to) -> LogicalResult {
    auto arr = dyn_cast_or_null<ArrayAttr>(fn->getAttr(name));
    if (!arr)
      return fn.emitError("a lowered kernel needs the array attribute ") << name;
    for (Attribute a : arr) {
      auto i = dyn_cast<IntegerAttr>(a);
      if (!i)
        return fn.emitError() << name << " holds integers, got " << a;
      to.push_back(i.getInt());
    }
    return success();
  };
  if (failed(ints("tg.globals", sig.globals)) || failed(ints("tg.outs", sig.outs)) ||
      failed(ints("tg.ins", sig.ins)))
    return failure();
  auto vars = dyn_cast_or_null<ArrayAttr>(fn->getAttr("tg.vars"));
  auto threads = dyn_cast_or_null<IntegerAttr>(fn->getAttr("tg.threads"));
  if (!vars || !threads)
    return fn.emitError("a lowered kernel needs tg.vars and tg.threads");
  for (auto [i, v] : llvm::enumerate(vars)) {
    auto name = dyn_cast<StringAttr>(v);
    if (!name)
      return fn.emitError("tg.vars holds names, got ") << v;
    sig.vars.push_back(name.str());
    if (name.getValue() == "core_id")
      sig.coreIdArg = sig.globals.size() + i;
  }
  sig.threads = threads.getInt();
  if (failed(verify(module)))
    return failure();
  auto t0 = std::chrono::steady_clock::now();
  FailureOr<cpu::ObjectOutput> obj = cpu::emitObject(module);
  if (failed(obj))
    return failure();
  out.object = std::move(obj->object);
  out.llvmMs = msSince(t0);
  out.llvmOptMs = obj->optMs;
  out.llvmEmitMs = obj->emitMs;
  return out;
}
