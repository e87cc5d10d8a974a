//===- CPUTarget.h - lowering kernels to host object code --------*- C++ -*-===//
//
// The CPU target's serialization, after the kernel is in the llvm dialect
// (lib/Conversion/StandardToLLVMCPU): translation to LLVM IR, LLVM's O3
// pipeline for the host CPU and an ELF relocatable object, all in-process. The object follows tinygrad's CPU ABI (one .text, kernel
// first, PIC, small code model), so it runs in our runtime and in
// tinygrad's own CPUProgram loader.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_CPU_CPUTARGET_H
#define TINYGRAD_TARGET_CPU_CPUTARGET_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include <string>

namespace mlir::tinygrad::cpu {

struct ObjectOutput {
  std::string object;   ///< ELF relocatable object
  std::string llvmIR;   ///< optimized LLVM IR, when requested
  std::string assembly; ///< assembly, when requested
  double optMs = 0;     ///< LLVM's O3 pipeline
  double emitMs = 0;    ///< instruction selection to the object (and assembly)
};

/// Translates an llvm-dialect module to LLVM IR, optimizes it for the host
/// CPU (O3; O2 for a scalarized small kernel; a lean pipeline for a large
/// one) and emits an object (and, on request, IR and assembly).
FailureOr<ObjectOutput> emitObject(ModuleOp module, bool wantIR = false, bool wantAsm = false);

/// The LLVM function attribute (an llvm.func `passthrough`) that makes
/// emitObject split the function's vectors into scalars before O3, so the
/// loop and SLP vectorizers choose the vectors instead.
inline constexpr const char *kScalarizeAttr = "tg-scalarize";
/// The attribute of a large kernel, whose loops, vectors and unrolling are
/// the ones its opts chose: emitObject gives it a lean middle end (no
/// unrolling or vectorizers; see keptLoopsPipeline) instead of O3.
inline constexpr const char *kKeepLoopsAttr = "tg-keep-loops";

/// The host CPU name and features the object is built for (key caches on it).
std::string hostCPUDescription();

} // namespace mlir::tinygrad::cpu

#endif
