//===- TGTDialect.cpp - tinygrad tgt dialect ------------------------------===//
#include "tinygrad/Dialect/TGT/IR/TGT.h"

using namespace mlir;
using namespace mlir::tinygrad::tgt;

#include "tinygrad/Dialect/TGT/IR/TGTDialect.cpp.inc"

void TGTDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tinygrad/Dialect/TGT/IR/TGTOps.cpp.inc"
      >();
}
