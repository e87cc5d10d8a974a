//===- GPUPipeline.cpp - kernel AST to a GPU binary ------------------------===//
#include "tinygrad/Codegen/GPUPipeline.h"

#include "tinygrad/Codegen/CPUPipeline.h"

#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Target/NVVM/NVVMTarget.h"
#include "tinygrad/Target/ROCDL/ROCDLTarget.h"
#include "tinygrad/Target/SPIRV/SPIRVTarget.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace mlir;
using namespace mlir::tinygrad;

static double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// `x` with the kernel's variables bound to `vals`, if that makes it an
/// integer constant.
static int64_t evaluate(sym::Context &ctx, sym::UOpRef x, const std::map<std::string, int64_t> &vals) {
  if (!x)
    return 1;
  llvm::DenseMap<sym::UOpRef, sym::UOpRef> subs;
  for (sym::UOpRef u : sym::toposort(x))
    if (u->op == sym::Op::PARAM && u->param().isALU) {
      auto it = vals.find(u->param().name.str());
      if (it == vals.end())
        return -1;
      subs[u] = ctx.cnst(Scalar::fromInt(it->second), u->dtype);
    }
  sym::UOpRef v = sym::simplify(ctx, subs.empty() ? x : sym::substitute(ctx, x, subs));
  auto i = v->intVal();
  return i ? (int64_t)*i : -1;
}

GPUCompiler::GPUCompiler(MLIRContext *ctx) : ctx(ctx) {}
GPUCompiler::~GPUCompiler() = default;

FailureOr<CompiledKernel> GPUCompiler::compile(Value root, const TargetDescription &target,
                                               const CompileOptions &opts) {
  assert(root.getContext() == ctx && "the kernel belongs to another context");
  auto t0 = std::chrono::steady_clock::now();
  FailureOr<tg::KernelInfoAttr> info = kernelInfoOf(root);
  if (failed(info))
    return failure();
  Operation *sinkOp = root.getDefiningOp();
  if (!target.hasLocal)
    return sinkOp->emitError("GPUCompiler: ") << target.name << " is not a GPU target";
  Location loc = sinkOp->getLoc();

  sym::Context symCtx(ctx);
  sym::Importer importer(symCtx);
  sym::UOpRef kernel = importer.import(root);
  if (!kernel)
    return failure();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  // BEAM's candidates: the opts to apply instead of the kernel's own.
  if (opts.optsToApply)
    info = withOptsToApply(*info, *opts.optsToApply);
  FailureOr<KernelSignature> sig =
      lowerKernelToStandard(*module, kernel, info->getName(), loc, target, *info, opts.optMode);
  if (failed(sig))
    return failure();
  CompiledKernel out;
  FailureOr<codegen::ProgramUOps> uops = codegen::exportProgramUOps(ctx, loc, *sig);
  if (failed(uops))
    return failure();
  out.uops = std::move(*uops);
  for (int d = 0; d < 3; ++d)
    out.globalSizeFor[d] = evaluate(symCtx, sig->globalSize[d], opts.varValues);
  out.signature = *sig;
  // Its nodes belong to symCtx.
  out.signature.linear = out.signature.estOps = out.signature.estLds = out.signature.estMem = nullptr;
  out.signature.globalSize = {nullptr, nullptr, nullptr};
  if (opts.keepMLIR)
    llvm::raw_string_ostream(out.mlir) << *module;
  if (opts.afterPass)
    opts.afterPass("tg-lower-kernel", *module);
  out.codegenMs = msSince(t0);
  out.phases.add("codegen", out.codegenMs);

  auto t1 = std::chrono::steady_clock::now();
  // The conversions' dialects and ConvertToLLVM / LLVM IR translation
  // interfaces, whatever the caller's context was created with.
  DialectRegistry registry;
  registerGPUConversionDependencies(registry);
  ctx->appendDialectRegistry(registry);
  switch (target.kind) {
  case TargetKind::Vulkan: out.format = BinaryFormat::SPIRV; break;
  case TargetKind::CUDA: out.format = opts.ptx ? BinaryFormat::PTX : BinaryFormat::CUBIN; break;
  case TargetKind::AMD: out.format = BinaryFormat::HSACO; break;
  case TargetKind::CPU: return sinkOp->emitError("GPUCompiler: the CPU is not a GPU target");
  }
  auto build = [&](PassManager &pm) {
    if (target.kind == TargetKind::Vulkan)
      buildGPUToSPIRVPipeline(pm, target.maxLoopIterations);
    else if (target.kind == TargetKind::CUDA)
      buildGPUToNVVMPipeline(pm, GPUToNVVMOptions::forTarget(target));
    else
      buildGPUToROCDLPipeline(pm, GPUToROCDLOptions::forTarget(target));
  };
  // Printing, callbacks and verification are instrumentation a pass
  // manager keeps for life: a compile that asks for them gets its own.
  std::unique_ptr<PassManager> instrumented;
  PassManager *pm;
  if (needsInstrumentation(opts)) {
    instrumented = std::make_unique<PassManager>(ctx, "builtin.module");
    pm = instrumented.get();
    instrumentPassManager(*pm, opts);
    build(*pm);
  } else {
    // Built each time (cheap), kept by its text (the passes with their
    // options): what costs is the first run's initialization.
    auto fresh = std::make_unique<PassManager>(ctx, "builtin.module");
    fresh->enableVerifier(false);
    build(*fresh);
    std::string key;
    llvm::raw_string_ostream os(key);
    fresh->printAsTextualPipeline(os);
    std::unique_ptr<PassManager> &cached = lowerings[key];
    if (!cached)
      cached = std::move(fresh);
    pm = cached.get();
  }
  if (failed(pm->run(*module)))
    return sinkOp->emitError("lowering the kernel for ") << target.name << " failed";
  if (failed(verify(*module)))
    return sinkOp->emitError("the lowering for ") << target.name << " produced invalid IR";
  if (opts.keepDeviceIR)
    llvm::raw_string_ostream(out.deviceIR) << *module;
  out.phases.add("lower", msSince(t1));

  FailureOr<std::string> bin = failure();
  nvvm_target::Options nvvm;
  nvvm.phases = &out.phases;
  rocdl_target::Options rocdl;
  rocdl.phases = &out.phases;
  switch (out.format) {
  case BinaryFormat::SPIRV: {
    PhaseTimes::Scope phase(&out.phases, "serialize");
    bin = spirv_target::serialize(*module);
    break;
  }
  case BinaryFormat::PTX: bin = nvvm_target::emitPTX(*module, nvvm); break;
  case BinaryFormat::CUBIN: bin = nvvm_target::emitCubin(*module, nvvm); break;
  case BinaryFormat::HSACO: bin = rocdl_target::emitHsaco(*module, rocdl); break;
  case BinaryFormat::ELF: break;
  }
  if (failed(bin))
    return failure();
  out.binary = std::move(*bin);
  out.backendMs = msSince(t1);
  return out;
}
