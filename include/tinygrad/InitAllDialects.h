//===- InitAllDialects.h - every dialect a tinygrad tool needs --*- C++ -*-===//
#ifndef TINYGRAD_INITALLDIALECTS_H
#define TINYGRAD_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::tinygrad {
/// Our four dialects plus the upstream dialects we lower through, and the
/// external interface models of our ops (InferIntRangeInterface).
void registerAllDialects(DialectRegistry &registry);
} // namespace mlir::tinygrad

#endif
