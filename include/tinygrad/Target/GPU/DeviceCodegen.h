//===- DeviceCodegen.h - LLVM's GPU backends, in-process -----------*- C++ -*-===//
//
// What the NVVM and ROCDL targets share once a kernel's gpu.module is in the
// llvm dialect (plus nvvm/rocdl ops): translation to LLVM IR, linking the
// vendor's bitcode math library (only what is used), LLVM's optimization
// pipeline for the GPU's TargetMachine, and code generation to assembly
// or an object, all in this process (no mlir-translate/llc subprocesses).
// MLIR's own gpu-module-to-binary does the same but fixes choices we must
// make differently (libdevice found silently or not at all, nvvm-reflect's
// sqrt precision through a global LLVM option, a ROCm install directory
// required even without libraries, code object v6 by default), so the
// targets drive LLVM through these helpers instead.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_GPU_DEVICECODEGEN_H
#define TINYGRAD_TARGET_GPU_DEVICECODEGEN_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace mlir::tinygrad::gpu_codegen {

/// The one gpu.module of `module` (an error at `module` otherwise).
FailureOr<gpu::GPUModuleOp> findGPUModule(ModuleOp module);

/// An LLVM context whose errors (from linking and code generation) are kept
/// to be reported as MLIR diagnostics, never printed to stderr.
class Context {
public:
  Context();
  llvm::LLVMContext &llvm() { return ctx_; }
  /// `what` failed at `loc`, with LLVM's messages when it gave any.
  LogicalResult fail(Location loc, const Twine &what);
  /// Whether LLVM reported an error since the last fail().
  bool hasErrors() const { return !errors_.empty(); }

private:
  llvm::LLVMContext ctx_;
  std::string errors_;
};

/// LLVM IR of `gpuModule` (llvm/nvvm/rocdl ops), or an error at it.
std::unique_ptr<llvm::Module> translate(gpu::GPUModuleOp gpuModule, Context &ctx);

/// Keeps malloc's freed heap top mapped between compiles (M_TOP_PAD, 32 MiB
/// or TG_MALLOC_TOP_PAD bytes; HeapReserve.cpp says why), once per process;
/// the bytes set, 0 where nothing was (not glibc, or TG_MALLOC_TOP_PAD=0).
size_t reserveHeapForBackends();

/// The TargetMachine for `triple` and `chip` with `features`, with fused
/// multiply-add contraction allowed (as nvcc's -fmad=true and hipcc's
/// -ffp-contract=fast compile tinygrad's kernels), or an error at `loc`.
/// Made once per thread and (triple, chip, features, level) and kept: the
/// machine belongs to the calling thread, for its compiles.
FailureOr<llvm::TargetMachine *> getTargetMachine(Location loc, StringRef triple, StringRef chip,
                                                  StringRef features, unsigned optLevel);

/// Whether `module` declares (without defining) a function starting with
/// `prefix` ("__nv_", "__ocml_"): a call the math library must resolve.
bool needsLibrary(const llvm::Module &module, StringRef prefix);

/// Links the bitcode file `path` into `module`: only the definitions it uses,
/// with the library's triple and data layout replaced by the module's (the
/// vendor libraries are built by other LLVM versions). The file is read once
/// per process, and reduced once per set of names kernels ask for
/// (DeviceLibrary.cpp). An error naming the file at `loc` otherwise.
LogicalResult linkLibrary(Location loc, Context &ctx, llvm::Module &module, StringRef path);

/// Makes every function but the kernels (and every global) internal, so
/// the library code nothing calls goes, then runs LLVM's O`optLevel`
/// pipeline with `tm`'s target passes. False when LLVM aborted inside it
/// (GuardedLLVM.h): the module is then to be dropped.
bool optimize(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel);

/// An error at `loc` naming every function the optimized `module` still
/// calls without defining (a math call no library resolved): it would
/// otherwise fail only in ptxas, the CUDA driver or the HSA loader.
LogicalResult checkAllCallsDefined(Location loc, const llvm::Module &module);

/// Assembly (PTX, AMDGCN) or an ELF relocatable object of `module`.
FailureOr<std::string> emit(Location loc, Context &ctx, llvm::Module &module, llvm::TargetMachine &tm,
                            llvm::CodeGenFileType type);

/// A tinygrad-translate translation body: `emit` of the module, written
/// to `os` (binary or text as it is).
LogicalResult writeTranslation(Operation *op, raw_ostream &os,
                               function_ref<FailureOr<std::string>(ModuleOp)> emit);

} // namespace mlir::tinygrad::gpu_codegen

#endif
