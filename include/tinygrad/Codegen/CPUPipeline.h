//===- CPUPipeline.h - kernel AST to a loadable CPU object -------*- C++ -*-===//
//
// What the library runs for one kernel: the AST (the SINK entering
// tinygrad's full_rewrite_to_sink) is interned, lowered to upstream
// dialects, then to an optimized ELF object for the host. The same steps
// are tinygrad-opt passes (`--tg-lower-kernel`, `--tg-lower-to-llvm-cpu`).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_CPUPIPELINE_H
#define TINYGRAD_CODEGEN_CPUPIPELINE_H

#include "tinygrad/Codegen/ProgramUOps.h"
#include "tinygrad/Conversion/KernelToStandard.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include <memory>
#include <optional>
#include <vector>
#include <functional>
#include <string>

namespace mlir::tinygrad {

struct CPUCompileOptions {
  bool keepMLIR = false; ///< fill CPUKernel::mlir (after tg-lower-kernel)
  bool keepLLVMIR = false;
  bool keepAsm = false;
  /// Cores for the thread split (0: the host's).
  unsigned maxThreads = 0;
  /// Whose heuristic picks the opts (default: TG_OPTS, else ours).
  opt::OptMode optMode = opt::optModeFromEnv();
  /// Overrides the kernel's opts_to_apply (a BEAM candidate, a search's
  /// result): applied exactly, no heuristic.
  std::optional<std::vector<opt::Opt>> optsToApply;
  /// Print the IR after every MLIR pass to stderr.
  bool printIRAfterAll = false;
  /// Run the MLIR verifier after every pass of the lowering to the llvm
  /// dialect (on by default in tinygrad-opt; here a debugging aid, it costs
  /// about a sixth of a compile).
  bool verifyEach = false;
  /// Called with the module after the kernel lowering (pass name
  /// "tg-lower-kernel") and after every pass of the lowering to the llvm
  /// dialect (embedders reading the IR per pass: the C API).
  std::function<void(llvm::StringRef passName, ModuleOp module)> afterPass;
};

struct CPUKernel {
  KernelSignature signature;
  /// The linearized UOps and Estimates tinygrad reads back (exported:
  /// the signature's nodes die with the compile's sym::Context).
  codegen::ProgramUOps uops;
  std::string object;
  std::string mlir, llvmIR, assembly;
  /// codegenMs: AST to the llvm dialect; llvmMs: LLVM IR, O3 and the object
  /// (llvmOptMs + llvmEmitMs of it).
  double codegenMs = 0, llvmMs = 0, llvmOptMs = 0, llvmEmitMs = 0;
};

/// The KernelInfo of the kernel SINK `root`, or a located error when it is
/// no SINK or carries none.
FailureOr<tg::KernelInfoAttr> kernelInfoOf(Value root);

/// tinygrad's spec_tensor on an imported kernel AST (what codegen accepts).
LogicalResult verifyKernelAST(ModuleOp module);

/// Compiles kernels of one MLIRContext, keeping what they can share: the
/// pass pipeline to the llvm dialect, whose pattern sets are built on its
/// first run. One thread at a time.
class CPUCompiler {
public:
  explicit CPUCompiler(MLIRContext *ctx);
  ~CPUCompiler();
  /// Compiles the kernel SINK `root` (a value in a module of tg/tgk ops of
  /// this compiler's context).
  FailureOr<CPUKernel> compile(Value root, const CPUCompileOptions &opts = {});

private:
  MLIRContext *ctx;
  std::unique_ptr<PassManager> toLLVM; // without instrumentation or verifier
};

/// One kernel, with a CPUCompiler of its own.
FailureOr<CPUKernel> compileKernelForCPU(Value root, const CPUCompileOptions &opts = {});

/// The object of a kernel already lowered to the llvm dialect outside the
/// library (tinygrad-opt's passes one by one, printed and parsed between
/// them): its one llvm.func carries the launch metadata tg-lower-kernel
/// attaches (`tg.globals`, `tg.outs`, `tg.ins`, `tg.vars`, `tg.threads`),
/// which becomes the signature. Fails with a located diagnostic.
FailureOr<CPUKernel> compileLoweredForCPU(ModuleOp module);

} // namespace mlir::tinygrad

#endif
