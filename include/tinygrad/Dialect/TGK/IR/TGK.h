//===- TGK.h - tinygrad tgk dialect ------------------------------*- C++ -*-===//
#ifndef TINYGRAD_DIALECT_TGK_IR_TGK_H
#define TINYGRAD_DIALECT_TGK_IR_TGK_H

#include "tinygrad/Dialect/TG/IR/TG.h"

#include "tinygrad/Dialect/TGK/IR/TGKDialect.h.inc"

#define GET_OP_CLASSES
#include "tinygrad/Dialect/TGK/IR/TGKOps.h.inc"

#endif
