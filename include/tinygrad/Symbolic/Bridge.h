//===- Bridge.h - MLIR values <-> interned UOps ----------------*- C++ -*-===//
#ifndef TINYGRAD_SYMBOLIC_BRIDGE_H
#define TINYGRAD_SYMBOLIC_BRIDGE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "tinygrad/Symbolic/UOp.h"

namespace mlir::tinygrad::sym {

/// Converts MLIR UOp ops to interned nodes, memoized per value.
class Importer {
public:
  explicit Importer(Context &ctx) : ctx(ctx) {}
  /// The node for `v`; null (with a diagnostic on the op) if `v` is not
  /// produced by a UOp op.
  UOpRef import(Value v);

private:
  Context &ctx;
  llvm::DenseMap<Value, UOpRef> memo;
};

/// Materializes nodes as MLIR ops at the builder's insertion point,
/// memoized so shared nodes stay one value.
class Materializer {
public:
  Materializer(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}
  Value materialize(UOpRef u);

private:
  OpBuilder &builder;
  Location loc;
  llvm::DenseMap<UOpRef, Value> memo;
};

} // namespace mlir::tinygrad::sym

#endif
