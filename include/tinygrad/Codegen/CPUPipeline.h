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

#include "tinygrad/Conversion/KernelToStandard.h"
#include "mlir/IR/BuiltinOps.h"
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
  /// Print the IR after every MLIR pass to stderr.
  bool printIRAfterAll = false;
  /// Called with the module after the kernel lowering (pass name
  /// "tg-lower-kernel") and after every pass of the lowering to the llvm
  /// dialect (embedders reading the IR per pass: the C API).
  std::function<void(llvm::StringRef passName, ModuleOp module)> afterPass;
};

struct CPUKernel {
  KernelSignature signature;
  std::string object;
  std::string mlir, llvmIR, assembly;
  double codegenMs = 0, llvmMs = 0;
};

/// tinygrad's spec_tensor on an imported kernel AST (what codegen accepts).
LogicalResult verifyKernelAST(ModuleOp module);

/// Compiles the kernel SINK `root` (a value in a module of tg/tgk ops).
FailureOr<CPUKernel> compileKernelForCPU(Value root, const CPUCompileOptions &opts = {});

} // namespace mlir::tinygrad

#endif
