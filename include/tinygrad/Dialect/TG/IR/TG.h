//===- TG.h - tinygrad core UOp dialect -------------------------*- C++ -*-===//
#ifndef TINYGRAD_DIALECT_TG_IR_TG_H
#define TINYGRAD_DIALECT_TG_IR_TG_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tinygrad/Support/DType.h"
#include "tinygrad/Support/ScalarALU.h"

#include "tinygrad/Dialect/TG/IR/TGEnums.h.inc"

#include "tinygrad/Dialect/TG/IR/TGDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tinygrad/Dialect/TG/IR/TGTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tinygrad/Dialect/TG/IR/TGAttrs.h.inc"

#include "tinygrad/Dialect/TG/IR/TGTraits.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"

#define GET_OP_CLASSES
#include "tinygrad/Dialect/TG/IR/TGOps.h.inc"

#endif
