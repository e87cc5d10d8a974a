//===- ConcatLanes.h - vectors concatenated by same-typed shuffles -*- C++ -*-===//
//
// A 1-D vector.shuffle converts to one LLVM shufflevector only when its two
// operands have one type; otherwise VectorToLLVM moves every result lane by
// an extractelement and an insertelement. Concatenations are built here so
// that each shuffle's operands have one type.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CONVERSION_CONCATLANES_H
#define TINYGRAD_CONVERSION_CONCATLANES_H

#include "mlir/IR/Builders.h"

namespace mlir::tinygrad {

/// The 1-D vectors `parts` (one element type, at least one) end to end:
/// neighbours concatenated pairwise until one is left (a balanced tree),
/// the shorter of a pair first widened with poison lanes.
Value concatLanes(OpBuilder &b, Location loc, ArrayRef<Value> parts);

} // namespace mlir::tinygrad

#endif // TINYGRAD_CONVERSION_CONCATLANES_H
