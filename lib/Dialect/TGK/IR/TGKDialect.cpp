//===- TGKDialect.cpp - tinygrad tgk dialect ------------------------------===//
#include "tinygrad/Dialect/TGK/IR/TGK.h"

using namespace mlir;
using namespace mlir::tinygrad::tgk;

#include "tinygrad/Dialect/TGK/IR/TGKDialect.cpp.inc"

void TGKDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tinygrad/Dialect/TGK/IR/TGKOps.cpp.inc"
      >();
}
