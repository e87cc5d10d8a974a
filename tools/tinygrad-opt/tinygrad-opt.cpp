//===- tinygrad-opt.cpp - mlir-opt for the tinygrad dialects --------------===//
//
// Registers our dialects, the upstream dialects we lower through and only
// the passes we use (no registerAllPasses: CIRCT-style selective set).
//
//===----------------------------------------------------------------------===//
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Conversion/HCQToRuntime.h"
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
  // The upstream steps of tg-lower-to-llvm-cpu, to run them one by one.
  mlir::registerPass([] { return mlir::createSCFToControlFlowPass(); });
  mlir::registerPass([] { return mlir::createReconcileUnrealizedCastsPass(); });
  mlir::tinygrad::registerAllPasses();
  // The NVVM/ROCDL conversions (tg-gpu-to-nvvm, tg-gpu-to-rocdl).
  mlir::tinygrad::registerGPUConversionPasses();
  mlir::tinygrad::registerGPUConversionDependencies(registry);
  // convert-hcq-to-runtime (schedules as runtime calls).
  mlir::tinygrad::registerTinygradHCQConversionPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "tinygrad optimizer driver\n", registry));
}
