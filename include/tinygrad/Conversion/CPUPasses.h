//===- CPUPasses.h - a CPU kernel to the llvm dialect -------------*- C++ -*-===//
//
// A CPU kernel in upstream dialects (func, scf, arith, math, memref,
// vector) goes to the llvm dialect through `tg-lower-to-llvm-cpu`: these
// passes plus upstream's; lib/Target/CPU then translates, optimizes and
// emits the object.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CONVERSION_CPUPASSES_H
#define TINYGRAD_CONVERSION_CPUPASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::tinygrad {

#define GEN_PASS_DECL
#include "tinygrad/Conversion/CPUPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tinygrad/Conversion/CPUPasses.h.inc"

/// func/scf/arith/math/memref/vector -> llvm dialect (the
/// `tg-lower-to-llvm-cpu` pipeline after the kernel lowering).
void buildStandardToLLVMCPUPipeline(OpPassManager &pm);

} // namespace mlir::tinygrad

#endif
