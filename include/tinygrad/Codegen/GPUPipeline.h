//===- GPUPipeline.h - kernel AST to a GPU binary ------------------*- C++ -*-===//
//
// What the library runs for one kernel on a GPU target (TargetDescription
// with hasLocal): the AST is interned, the codegen steps for the target run
// (lib/Codegen/Steps: gpudims, local buffers, barriers), the emitter gives
// a gpu.module in upstream dialects (lib/Conversion/KernelToStandard), the
// target's conversion pipeline lowers it (tg-gpu-to-spirv, -nvvm, -rocdl)
// and lib/Target serializes it: SPIR-V for Vulkan, PTX or a cubin for
// cuda:sm_N, an HSACO for amd:gfxN. The CPU's counterpart is
// CPUPipeline.h; KernelCompiler.h picks between them.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_GPUPIPELINE_H
#define TINYGRAD_CODEGEN_GPUPIPELINE_H

#include "tinygrad/Codegen/CompiledKernel.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include <array>
#include <map>
#include <string>

namespace mlir::tinygrad {

/// Compiles kernels of one context for GPU targets, keeping each target's
/// lowering pipeline: a PassManager initializes its passes (canonicalize's
/// pattern set, the conversions') on its first run only, so the kernels
/// after the first skip that (CPUCompiler's counterpart).
class GPUCompiler {
public:
  explicit GPUCompiler(MLIRContext *ctx);
  ~GPUCompiler();
  /// Compiles the kernel SINK `root` (in this compiler's context) for
  /// `target` (a GPU target). Errors are located diagnostics: a kernel over
  /// the target's threads or workgroup memory or with a dtype it lacks names
  /// the target and the limit.
  FailureOr<CompiledKernel> compile(Value root, const TargetDescription &target, const CompileOptions &opts = {});

private:
  MLIRContext *ctx;
  /// A lowering's textual pipeline -> it (without instrumentation or verifier).
  llvm::StringMap<std::unique_ptr<PassManager>> lowerings;
};

} // namespace mlir::tinygrad

#endif
