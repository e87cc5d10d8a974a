//===- KernelCompiler.h - a kernel AST to a binary, any target ----*- C++ -*-===//
//
// The one entry the library's users call (the C API, TensorProgram, BEAM,
// the tools): the target description says which pipeline runs, the CPU's
// (CPUPipeline.h) or a GPU's (GPUPipeline.h); the options and the result are
// the same for both (CompiledKernel.h). A KernelCompiler keeps each
// pipeline's pass managers for the kernels of one MLIRContext.
//
// A crash inside a compile (a bug of ours or of a library we call: a null
// dereference, a failed assertion, an abort) is that kernel's error, not
// the end of the process that embeds us: the compile runs under LLVM's
// crash recovery (GuardedLLVM.h) and what it worked on is dropped.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_KERNELCOMPILER_H
#define TINYGRAD_CODEGEN_KERNELCOMPILER_H

#include "tinygrad/Codegen/CPUPipeline.h"
#include "tinygrad/Codegen/GPUPipeline.h"

#include <memory>

namespace mlir::tinygrad {

/// One thread at a time (each pipeline keeps its pass managers).
class KernelCompiler {
public:
  explicit KernelCompiler(MLIRContext *ctx);
  ~KernelCompiler();
  /// Compiles the kernel SINK `root` (in this compiler's context) for
  /// `target`. Errors are located diagnostics naming the target and the
  /// limit or dtype it lacks; a crash inside is an error at the kernel too
  /// (unless TINYGRAD_MLIR_CRASH_RECOVERY=0, which lets it through for a
  /// debugger or a core dump).
  FailureOr<CompiledKernel> compile(Value root, const TargetDescription &target, const CompileOptions &opts = {});

private:
  MLIRContext *ctx;
  std::unique_ptr<CPUCompiler> cpu;
  std::unique_ptr<GPUCompiler> gpu;
};

/// Whether compiles recover from a crash inside them (TINYGRAD_MLIR_CRASH_RECOVERY,
/// read on each compile: on unless "0").
bool crashRecoveryEnabled();

/// One kernel, with a KernelCompiler of its own.
inline FailureOr<CompiledKernel> compileKernel(Value root, const TargetDescription &target,
                                               const CompileOptions &opts = {}) {
  return KernelCompiler(root.getContext()).compile(root, target, opts);
}

} // namespace mlir::tinygrad

#endif // TINYGRAD_CODEGEN_KERNELCOMPILER_H
