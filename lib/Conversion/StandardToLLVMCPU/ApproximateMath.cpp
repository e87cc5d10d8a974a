//===- ApproximateMath.cpp - math ops as polynomial approximations --------===//
#include "tinygrad/Conversion/CPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_APPROXIMATEMATH
#include "tinygrad/Conversion/CPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {
struct ApproximateMathPass : tinygrad::impl::ApproximateMathBase<ApproximateMathPass> {
  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet set(ctx);
    math::populateExpansionPatterns(set, {"exp2"});
    populateMathPolynomialApproximationPatterns(set, MathPolynomialApproximationOptions{});
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }
  void runOnOperation() override {
    // Most kernels have no transcendental: a walk is cheaper than the
    // greedy driver's worklist over the whole module.
    bool any = getOperation()
                   ->walk([](Operation *op) {
                     return isa<math::MathDialect>(op->getDialect()) ? WalkResult::interrupt()
                                                                     : WalkResult::advance();
                   })
                   .wasInterrupted();
    if (any && failed(applyPatternsGreedily(getOperation(), patterns)))
      signalPassFailure();
  }
  FrozenRewritePatternSet patterns;
};
} // namespace
