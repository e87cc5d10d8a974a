//===- ExecError.h - errors of lib/Execution --------------------*- C++ -*-===//
#ifndef TINYGRAD_LIB_EXECUTION_EXECERROR_H
#define TINYGRAD_LIB_EXECUTION_EXECERROR_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace mlir::tinygrad::exec {
/// A string error: how every step of running a program reports failure.
inline llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}
} // namespace mlir::tinygrad::exec

#endif
