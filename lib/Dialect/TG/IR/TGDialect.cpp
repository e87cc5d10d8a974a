//===- TGDialect.cpp - tinygrad core UOp dialect --------------------------===//
#include "tinygrad/Dialect/TG/IR/TG.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;

#include "tinygrad/Dialect/TG/IR/TGDialect.cpp.inc"
#include "tinygrad/Dialect/TG/IR/TGEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tinygrad/Dialect/TG/IR/TGTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tinygrad/Dialect/TG/IR/TGAttrs.cpp.inc"

void TGDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tinygrad/Dialect/TG/IR/TGOps.cpp.inc"
      >();
}

void TGDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tinygrad/Dialect/TG/IR/TGTypes.cpp.inc"
      >();
}

void TGDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tinygrad/Dialect/TG/IR/TGAttrs.cpp.inc"
      >();
}

Operation *TGDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                         Type type, Location loc) {
  if (!getScalar(value))
    return nullptr;
  return ConstOp::create(builder, loc, type, value);
}
