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

#include "tinygrad/Codegen/CompiledKernel.h"
#include "tinygrad/Target/TargetDescription.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include <memory>
#include <optional>
#include <vector>
#include <functional>
#include <string>

namespace mlir::tinygrad {

/// Compiles kernels of one MLIRContext, keeping what they can share: the
/// pass pipeline to the llvm dialect, whose pattern sets are built on its
/// first run. One thread at a time.
class CPUCompiler {
public:
  explicit CPUCompiler(MLIRContext *ctx);
  ~CPUCompiler();
  /// Compiles the kernel SINK `root` (a value in a module of tg/tgk ops of
  /// this compiler's context) for `target`, a CPU (TargetDescription::host:
  /// its globalMax[0] is the cores the THREAD opt may split over).
  FailureOr<CompiledKernel> compile(Value root, const TargetDescription &target, const CompileOptions &opts = {});

private:
  MLIRContext *ctx;
  std::unique_ptr<PassManager> toLLVM; // without instrumentation or verifier
};

/// The object of a kernel already lowered to the llvm dialect outside the
/// library (tinygrad-opt's passes one by one, printed and parsed between
/// them): its one llvm.func carries the launch metadata tg-lower-kernel
/// attaches (`tg.globals`, `tg.outs`, `tg.ins`, `tg.vars`, `tg.threads`),
/// which becomes the signature. Fails with a located diagnostic.
FailureOr<CompiledKernel> compileLoweredForCPU(ModuleOp module);

} // namespace mlir::tinygrad

#endif
