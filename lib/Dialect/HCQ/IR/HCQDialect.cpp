//===- HCQDialect.cpp - hardware command queue dialect --------------------===//
#include "tinygrad/Dialect/HCQ/IR/HCQ.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tinygrad::hcq;

#include "tinygrad/Dialect/HCQ/IR/HCQDialect.cpp.inc"
#include "tinygrad/Dialect/HCQ/IR/HCQEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tinygrad/Dialect/HCQ/IR/HCQTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tinygrad/Dialect/HCQ/IR/HCQAttrs.cpp.inc"

void HCQDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tinygrad/Dialect/HCQ/IR/HCQOps.cpp.inc"
      >();
}

void HCQDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tinygrad/Dialect/HCQ/IR/HCQTypes.cpp.inc"
      >();
}

void HCQDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tinygrad/Dialect/HCQ/IR/HCQAttrs.cpp.inc"
      >();
}
