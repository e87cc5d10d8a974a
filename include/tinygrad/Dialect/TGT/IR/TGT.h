//===- TGT.h - tinygrad tgt dialect ------------------------------*- C++ -*-===//
#ifndef TINYGRAD_DIALECT_TGT_IR_TGT_H
#define TINYGRAD_DIALECT_TGT_IR_TGT_H

#include "tinygrad/Dialect/TG/IR/TG.h"

#include "tinygrad/Dialect/TGT/IR/TGTDialect.h.inc"

#define GET_OP_CLASSES
#include "tinygrad/Dialect/TGT/IR/TGTOps.h.inc"

#endif
