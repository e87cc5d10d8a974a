//===- KernelCompiler.h - a kernel AST to a binary, any target ----*- C++ -*-===//
//
// The one entry the library's users call (the C API, TensorProgram, BEAM,
// the tools): the target description says which pipeline runs, the CPU's
// (CPUPipeline.h) or a GPU's (GPUPipeline.h); the options and the result are
// the same for both (CompiledKernel.h). A KernelCompiler keeps each
// pipeline's pass managers for the kernels of one MLIRContext.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_KERNELCOMPILER_H
#define TINYGRAD_CODEGEN_KERNELCOMPILER_H

#include "tinygrad/Codegen/CPUPipeline.h"
#include "tinygrad/Codegen/GPUPipeline.h"

namespace mlir::tinygrad {

/// One thread at a time (each pipeline keeps its pass managers).
class KernelCompiler {
public:
  explicit KernelCompiler(MLIRContext *ctx) : cpu(ctx), gpu(ctx) {}
  /// Compiles the kernel SINK `root` (in this compiler's context) for
  /// `target`. Errors are located diagnostics naming the target and the
  /// limit or dtype it lacks.
  FailureOr<CompiledKernel> compile(Value root, const TargetDescription &target, const CompileOptions &opts = {}) {
    return target.isGPU() ? gpu.compile(root, target, opts) : cpu.compile(root, target, opts);
  }

private:
  CPUCompiler cpu;
  GPUCompiler gpu;
};

/// One kernel, with a KernelCompiler of its own.
inline FailureOr<CompiledKernel> compileKernel(Value root, const TargetDescription &target,
                                               const CompileOptions &opts = {}) {
  return KernelCompiler(root.getContext()).compile(root, target, opts);
}

} // namespace mlir::tinygrad

#endif // TINYGRAD_CODEGEN_KERNELCOMPILER_H
