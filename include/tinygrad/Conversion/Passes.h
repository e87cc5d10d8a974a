//===- Passes.h - lowering passes --------------------------------*- C++ -*-===//
#ifndef TINYGRAD_CONVERSION_PASSES_H
#define TINYGRAD_CONVERSION_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tinygrad {

#define GEN_PASS_DECL
#include "tinygrad/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tinygrad/Conversion/Passes.h.inc"

/// tg-lower-kernel on a module (what the pass runs).
LogicalResult lowerKernelsInModule(ModuleOp module, unsigned threads = 0, llvm::StringRef target = "cpu");
/// `tg-lower-to-llvm-cpu` and the CPU target's passes.
void registerConversionPipelines();

} // namespace mlir::tinygrad

#endif
