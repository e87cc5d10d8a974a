//===- FuzzContext.h - MLIR context shared by the fuzz targets --*- C++ -*-===//
#ifndef TINYGRAD_FUZZ_FUZZCONTEXT_H
#define TINYGRAD_FUZZ_FUZZCONTEXT_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "tinygrad/InitAllDialects.h"

namespace tinygrad_fuzz {

/// A fresh single-threaded context per input (no state leaks between runs)
/// with every tinygrad dialect loaded and diagnostics swallowed: for a
/// fuzzer, a diagnostic is a correct outcome, only crashes are findings.
struct FuzzContext {
  mlir::MLIRContext ctx;
  FuzzContext() : ctx(registry(), mlir::MLIRContext::Threading::DISABLED) {
    ctx.loadAllAvailableDialects();
    ctx.getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
  }
  static const mlir::DialectRegistry &registry() {
    static const mlir::DialectRegistry *r = [] {
      auto *reg = new mlir::DialectRegistry();
      mlir::tinygrad::registerAllDialects(*reg);
      return reg;
    }();
    return *r;
  }
};

} // namespace tinygrad_fuzz

#endif
