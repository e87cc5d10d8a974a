//===- HCQ.h - hardware command queue dialect -------------------*- C++ -*-===//
#ifndef TINYGRAD_DIALECT_HCQ_IR_HCQ_H
#define TINYGRAD_DIALECT_HCQ_IR_HCQ_H

#include "tinygrad/Dialect/TG/IR/TG.h"

#include "tinygrad/Dialect/HCQ/IR/HCQEnums.h.inc"

#include "tinygrad/Dialect/HCQ/IR/HCQDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tinygrad/Dialect/HCQ/IR/HCQTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tinygrad/Dialect/HCQ/IR/HCQAttrs.h.inc"

#define GET_OP_CLASSES
#include "tinygrad/Dialect/HCQ/IR/HCQOps.h.inc"

#endif
