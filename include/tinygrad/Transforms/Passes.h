//===- Passes.h - cross-dialect tinygrad passes ------------------*- C++ -*-===//
#ifndef TINYGRAD_TRANSFORMS_PASSES_H
#define TINYGRAD_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir::tinygrad {

#define GEN_PASS_DECL
#include "tinygrad/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tinygrad/Transforms/Passes.h.inc"

} // namespace mlir::tinygrad

#endif
