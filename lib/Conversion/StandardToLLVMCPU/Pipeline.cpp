//===- Pipeline.cpp - tg-lower-to-llvm-cpu's passes, in order -------------===//
#include "tinygrad/Conversion/CPUPasses.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Transforms/Passes.h"

void mlir::tinygrad::buildStandardToLLVMCPUPipeline(OpPassManager &pm) {
  pm.addPass(createApproximateMath());
  pm.addPass(createExpandBF16());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMCPU());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
