//===- CPUPipeline.cpp - kernel AST to a loadable CPU object ---------------===//
#include "tinygrad/Codegen/CPUPipeline.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Conversion/CPUPasses.h"
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

/// The host object and the back end's times into `out`.
static void setObject(CompiledKernel &out, cpu::ObjectOutput &&obj, double backendMs) {
  out.format = BinaryFormat::ELF;
  out.binary = std::move(obj.object);
  out.backendMs = backendMs;
  out.phases.add("llvm_opt", obj.optMs);
  out.phases.add("llvm_emit", obj.emitMs);
}

CPUCompiler::CPUCompiler(MLIRContext *ctx) : ctx(ctx) {}
CPUCompiler::~CPUCompiler() = default;

FailureOr<CompiledKernel> CPUCompiler::compile(Value root, const TargetDescription &target,
                                               const CompileOptions &opts) {
  assert(root.getContext() == ctx && "a CPUCompiler compiles kernels of its own context");
  if (target.isGPU())
    return mlir::emitError(root.getLoc(), "CPUCompiler: ") << target.name << " is not a CPU target";
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
  FailureOr<KernelSignature> sig =
      lowerKernelToStandard(*module, kernel, info->getName(), sinkOp->getLoc(), target, *info, opts.optMode);
  if (failed(sig))
    return failure();
  CompiledKernel out;
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
  if (needsInstrumentation(opts)) {
    instrumented = std::make_unique<PassManager>(ctx, "builtin.module");
    pm = instrumented.get();
    instrumentPassManager(*pm, opts);
    buildStandardToLLVMCPUPipeline(*pm);
  } else if (!pm) {
    toLLVM = std::make_unique<PassManager>(ctx, "builtin.module");
    pm = toLLVM.get();
    pm->enableVerifier(false);
    buildStandardToLLVMCPUPipeline(*pm);
  }
  if (failed(pm->run(*module)))
    return sinkOp->emitError("lowering to the llvm dialect failed");
  // Once, before translation (which assumes valid IR), instead of after
  // every pass.
  if (!opts.verifyEach && failed(verify(*module)))
    return sinkOp->emitError("the lowering to the llvm dialect produced invalid IR");
  out.codegenMs = msSince(t0);
  out.phases.add("codegen", out.codegenMs);

  auto t1 = std::chrono::steady_clock::now();
  FailureOr<cpu::ObjectOutput> obj = cpu::emitObject(*module, opts.keepDeviceIR, opts.keepAsm);
  if (failed(obj))
    return failure();
  out.deviceIR = std::move(obj->llvmIR);
  out.assembly = std::move(obj->assembly);
  setObject(out, std::move(*obj), msSince(t1));
  return out;
}

FailureOr<CompiledKernel> mlir::tinygrad::compileLoweredForCPU(ModuleOp module) {
  SmallVector<LLVM::LLVMFuncOp> kernels;
  module.walk([&](LLVM::LLVMFuncOp fn) {
    if (!fn.isExternal() && fn->hasAttr("tg.globals"))
      kernels.push_back(fn);
  });
  if (kernels.size() != 1)
    return module.emitError("a lowered kernel module holds one llvm.func with tg.globals, found ")
           << kernels.size();
  LLVM::LLVMFuncOp fn = kernels.front();
  CompiledKernel out;
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
  setObject(out, std::move(*obj), msSince(t0));
  return out;
}
