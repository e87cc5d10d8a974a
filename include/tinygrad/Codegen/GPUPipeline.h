//===- GPUPipeline.h - kernel AST to a GPU binary ------------------*- C++ -*-===//
//
// What the library runs for one kernel on a GPU target (TargetDescription
// with hasLocal): the AST is interned, the codegen steps for the target run
// (lib/Codegen/Steps: gpudims, local buffers, barriers), the emitter gives
// a gpu.module in upstream dialects (lib/Conversion/KernelToStandard), the
// target's conversion pipeline lowers it (tg-gpu-to-spirv, -nvvm, -rocdl)
// and lib/Target serializes it: SPIR-V for Vulkan, PTX or a cubin for
// cuda:sm_N, an HSACO for amd:gfxN. The CPU's counterpart is
// CPUPipeline.h; compileKernelForTarget picks between them.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_GPUPIPELINE_H
#define TINYGRAD_CODEGEN_GPUPIPELINE_H

#include "tinygrad/Codegen/ProgramUOps.h"
#include "tinygrad/Conversion/KernelToStandard.h"
#include "tinygrad/Target/GPU/PhaseTimes.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include <array>
#include <map>
#include <string>

namespace mlir::tinygrad {

/// What a binary is; the values are the runtime's tgrt_program_format.
enum class BinaryFormat : unsigned { ELF = 1, SPIRV = 2, CUBIN = 3, PTX = 4, HSACO = 5 };
const char *formatName(BinaryFormat f);

struct GPUCompileOptions {
  opt::OptMode optMode = opt::optModeFromEnv();
  /// cuda: PTX instead of a cubin (the other targets have one format).
  bool ptx = false;
  bool keepMLIR = false;     ///< fill GPUKernel::mlir (the emitted gpu.module)
  bool keepDeviceIR = false; ///< fill GPUKernel::deviceIR (after the target's pipeline)
  bool printIRAfterAll = false;
  /// Evaluate the launch's workgroup counts for these variable values
  /// (GPUKernel::globalSizeFor); the binary does not depend on them.
  std::map<std::string, int64_t> varValues;
};

struct GPUKernel {
  /// Its nodes are cleared (they die with the compile's context); the
  /// launch is in `uops` (exported) and `globalSizeFor`.
  KernelSignature signature;
  codegen::ProgramUOps uops;
  BinaryFormat format = BinaryFormat::SPIRV;
  std::string binary;
  std::string mlir, deviceIR;
  /// Workgroups per dimension for GPUCompileOptions::varValues (-1: it
  /// depends on a variable not given).
  std::array<int64_t, 3> globalSizeFor = {1, 1, 1};
  /// codegenMs: AST to the emitted gpu.module; lowerMs: the target's
  /// pipeline; serializeMs: its serialization.
  double codegenMs = 0, lowerMs = 0, serializeMs = 0;
  /// The same split finer: "codegen", "lower", then the serialization's
  /// phases (PhaseTimes.h; "serialize" for SPIR-V).
  PhaseTimes phases;
};

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
  FailureOr<GPUKernel> compile(Value root, const TargetDescription &target, const GPUCompileOptions &opts = {});

private:
  MLIRContext *ctx;
  /// A lowering's textual pipeline -> it (without instrumentation or verifier).
  llvm::StringMap<std::unique_ptr<PassManager>> lowerings;
};

/// One kernel, with a GPUCompiler of its own.
FailureOr<GPUKernel> compileKernelForGPU(Value root, const TargetDescription &target,
                                         const GPUCompileOptions &opts = {});

} // namespace mlir::tinygrad

#endif
