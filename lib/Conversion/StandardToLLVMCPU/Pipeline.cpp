//===- Pipeline.cpp - tg-lower-to-llvm-cpu's passes, in order -------------===//
#include "tinygrad/Conversion/CPUPasses.h"

#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

void mlir::tinygrad::buildStandardToLLVMCPUPipeline(OpPassManager &pm) {
  pm.addPass(createApproximateMath());
  pm.addPass(createExpandBF16());
  // Bottom-up: the same fixed point (the asm of every test/Codegen input is
  // unchanged), but the default top-down walk spent 87 ms, 7.5 ms this way,
  // on a max-pool backward kernel of 576 scalar loads and 720 extracts
  // (mnist's r_3_3_512_64_6_6: its codegen phase 75 -> 39 ms).
  GreedyRewriteConfig bottomUp;
  bottomUp.setUseTopDownTraversal(false);
  pm.addPass(createCanonicalizerPass(bottomUp));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMCPU());
  pm.addPass(createReconcileUnrealizedCastsPass());
}
