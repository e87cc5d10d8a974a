//===- tinygrad-opt.cpp - mlir-opt for the tinygrad dialects --------------===//
//
// Registers our dialects, the upstream dialects we lower through and only
// the passes we use (no registerAllPasses: CIRCT-style selective set).
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/InitAllPasses.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tinygrad::registerAllDialects(registry);
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSymbolDCEPass();
  mlir::registerInlinerPass();
  mlir::registerSCCPPass();
  mlir::tinygrad::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "tinygrad optimizer driver\n", registry));
}
