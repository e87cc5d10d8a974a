//===- OpTable.h - tinygrad Ops member <-> MLIR op name ---------*- C++ -*-===//
//
// Every member of tinygrad's `Ops` enum has exactly one MLIR op. This table
// is the single place that records the correspondence: importers, exporters,
// the spec checker and the docs all read it.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_DIALECT_TG_IR_OPTABLE_H
#define TINYGRAD_DIALECT_TG_IR_OPTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tinygrad {

struct UOpName {
  llvm::StringLiteral tinygrad; ///< `Ops` member, e.g. "RESHAPE"
  llvm::StringLiteral mlir;     ///< op name, e.g. "tgt.reshape"
};

/// All (Ops member, MLIR op) pairs in tinygrad's enum order.
llvm::ArrayRef<UOpName> getUOpNames();
/// "tgt.reshape" -> "RESHAPE"; empty if the op is not a UOp.
llvm::StringRef getTinygradOpName(llvm::StringRef mlirName);
/// "RESHAPE" -> "tgt.reshape"; empty if unknown.
llvm::StringRef getMLIROpName(llvm::StringRef tinygradName);

} // namespace mlir::tinygrad

#endif
