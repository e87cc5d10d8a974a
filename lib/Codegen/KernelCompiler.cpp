//===- KernelCompiler.cpp - a kernel AST to a binary, guarded -------------===//
//
// A crash inside a compile runs LLVM's crash recovery (the signal handler
// jumps back to runGuardedLLVM), so the frames between are not unwound:
// nothing they held is released. What that leaves behind, and how each is
// handled:
//  - the compile's module, its UOp engine context and pass managers: in no
//    known state, never touched again (leaked): the pipelines are replaced
//    by fresh ones;
//  - diagnostic handlers registered inside (ScopedDiagnosticHandler on the
//    abandoned stack): erased, since the next diagnostic would call into a
//    dead frame. Handler ids only grow, so those registered during the
//    compile are the ids between two probes taken before and after;
//  - locks: the contexts we compile in have threading off (no uniquer
//    locks), and our own locks around foreign code are taken outside a
//    guard of their own (DeviceLibrary.cpp), so none stays held.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/KernelCompiler.h"

#include "tinygrad/Target/GuardedLLVM.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdlib>
#include <cstring>
#include <optional>

using namespace mlir;
using namespace mlir::tinygrad;

bool mlir::tinygrad::crashRecoveryEnabled() {
  const char *env = std::getenv("TINYGRAD_MLIR_CRASH_RECOVERY");
  return !(env && std::strcmp(env, "0") == 0);
}

KernelCompiler::KernelCompiler(MLIRContext *ctx)
    : ctx(ctx), cpu(std::make_unique<CPUCompiler>(ctx)), gpu(std::make_unique<GPUCompiler>(ctx)) {}
KernelCompiler::~KernelCompiler() = default;

/// The id the diagnostic engine gives the next handler.
static DiagnosticEngine::HandlerID nextHandlerId(DiagnosticEngine &engine) {
  DiagnosticEngine::HandlerID id = engine.registerHandler([](Diagnostic &) { return failure(); });
  engine.eraseHandler(id);
  return id + 1;
}

FailureOr<CompiledKernel> KernelCompiler::compile(Value root, const TargetDescription &target,
                                                  const CompileOptions &opts) {
  auto run = [&] { return target.isGPU() ? gpu->compile(root, target, opts) : cpu->compile(root, target, opts); };
  if (!crashRecoveryEnabled())
    return run();
  DiagnosticEngine &engine = ctx->getDiagEngine();
  DiagnosticEngine::HandlerID first = nextHandlerId(engine);
  std::optional<FailureOr<CompiledKernel>> out;
  if (runGuardedLLVM([&] { out.emplace(run()); }))
    return std::move(*out);
  for (DiagnosticEngine::HandlerID id = first, end = nextHandlerId(engine) - 1; id < end; ++id)
    engine.eraseHandler(id);
  // Leaked on purpose: their state is whatever the crash left.
  (void)cpu.release();
  (void)gpu.release();
  cpu = std::make_unique<CPUCompiler>(ctx);
  gpu = std::make_unique<GPUCompiler>(ctx);
  return emitError(root.getLoc(), "internal compiler error: compiling this kernel for ")
         << target.name
         << " crashed (a bug: the crash's message is on stderr; TINYGRAD_MLIR_CRASH_RECOVERY=0 lets it "
            "through to a debugger); the compile's state was dropped";
}
