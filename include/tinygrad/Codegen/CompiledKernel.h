//===- CompiledKernel.h - what a kernel compile takes and gives ----*- C++ -*-===//
//
// One options struct and one result for every target. What the kernel is
// compiled *for* (cores, launch limits, dtypes, the binary's form) is the
// TargetDescription; what the caller wants from one compile (whose opts,
// which texts to keep, debugging hooks) is CompileOptions; what comes back,
// whatever the target, is a CompiledKernel: the signature, the binary in the
// runtime's format, the texts asked for and where the time went.
// KernelCompiler.h compiles one for any target; CPUPipeline.h and
// GPUPipeline.h are its two halves.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_COMPILEDKERNEL_H
#define TINYGRAD_CODEGEN_COMPILEDKERNEL_H

#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Codegen/ProgramUOps.h"
#include "tinygrad/Conversion/KernelToStandard.h"
#include "tinygrad/Target/GPU/PhaseTimes.h"

#include "tinygrad/Dialect/TG/IR/TG.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tinygrad {

/// What a binary is; the values are the runtime's tgrt_program_format.
enum class BinaryFormat : unsigned { ELF = 1, SPIRV = 2, CUBIN = 3, PTX = 4, HSACO = 5 };
const char *formatName(BinaryFormat f);

struct CompileOptions {
  /// Whose heuristic picks the opts (default: TG_OPTS, else ours).
  opt::OptMode optMode = opt::optModeFromEnv();
  /// Overrides the kernel's opts_to_apply (a BEAM candidate, a search's
  /// result): applied exactly, no heuristic.
  std::optional<std::vector<opt::Opt>> optsToApply;
  /// cuda: stop at PTX instead of linking a cubin (the other targets have
  /// one binary form).
  bool ptx = false;

  /// The texts CompiledKernel keeps: the kernel in upstream dialects (after
  /// tg-lower-kernel), the device IR (the CPU's LLVM IR; a GPU's module
  /// after the target's lowering) and the CPU's assembly.
  bool keepMLIR = false;
  bool keepDeviceIR = false;
  bool keepAsm = false;

  /// Print the IR after every MLIR pass to stderr.
  bool printIRAfterAll = false;
  /// Run the MLIR verifier after every pass of the lowering (on by default
  /// in tinygrad-opt; here a debugging aid, about a sixth of a compile).
  bool verifyEach = false;
  /// Called with the module after the kernel lowering (pass name
  /// "tg-lower-kernel") and after every pass of the CPU's lowering to the
  /// llvm dialect (embedders reading the IR per pass: the C API).
  std::function<void(llvm::StringRef passName, ModuleOp module)> afterPass;

  /// Evaluate the launch's workgroup counts for these variable values
  /// (CompiledKernel::globalSizeFor); the binary does not depend on them.
  std::map<std::string, int64_t> varValues;
};

struct CompiledKernel {
  /// Its nodes are cleared (they die with the compile's context); the
  /// launch is in `uops` (exported) and `globalSizeFor`.
  KernelSignature signature;
  /// The linearized UOps and Estimates tinygrad reads back.
  codegen::ProgramUOps uops;
  BinaryFormat format = BinaryFormat::ELF;
  /// The ELF object, SPIR-V, cubin, PTX or HSACO.
  std::string binary;
  std::string mlir, deviceIR, assembly; ///< as CompileOptions::keep* asked
  /// Workgroups per dimension for CompileOptions::varValues (-1: it depends
  /// on a variable not given); {1, 1, 1} on the CPU, whose launch is
  /// `signature.threads` cores.
  std::array<int64_t, 3> globalSizeFor = {1, 1, 1};
  /// codegenMs: the AST to the module the back end takes (the CPU's llvm
  /// dialect, a GPU's gpu.module); backendMs: the rest (lowering,
  /// translation, LLVM, serialization). `phases` splits both finer:
  /// "codegen", then the target's (CPU: "llvm_opt", "llvm_emit"; GPUs:
  /// "lower", then the serialization's, PhaseTimes.h).
  double codegenMs = 0, backendMs = 0;
  PhaseTimes phases;
};

/// The KernelInfo of the kernel SINK `root`, or a located error when it is
/// no SINK or carries none.
FailureOr<tg::KernelInfoAttr> kernelInfoOf(Value root);

/// `info` with `optsToApply` as its opts_to_apply (CompileOptions::optsToApply).
tg::KernelInfoAttr withOptsToApply(tg::KernelInfoAttr info, llvm::ArrayRef<opt::Opt> optsToApply);

/// tinygrad's spec_tensor on an imported kernel AST (what codegen accepts).
LogicalResult verifyKernelAST(ModuleOp module);

/// Whether `opts` asks for IR printed after every pass, the verifier after
/// each or CompileOptions::afterPass: instrumentation a pass manager keeps
/// for life, so such a compile builds a pipeline of its own instead of the
/// cached one.
inline bool needsInstrumentation(const CompileOptions &opts) {
  return opts.printIRAfterAll || opts.afterPass || opts.verifyEach;
}
/// Adds to `pm` what needsInstrumentation(opts) found.
void instrumentPassManager(PassManager &pm, const CompileOptions &opts);

} // namespace mlir::tinygrad

#endif // TINYGRAD_CODEGEN_COMPILEDKERNEL_H
