//===- ExpandBF16.cpp - bf16 conversions as integer operations ------------===//
#include "tinygrad/Conversion/CPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_EXPANDBF16
#include "tinygrad/Conversion/CPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {
struct ExpandBF16Pass : tinygrad::impl::ExpandBF16Base<ExpandBF16Pass> {
  LogicalResult initialize(MLIRContext *ctx) override {
    RewritePatternSet set(ctx);
    arith::populateExpandBFloat16Patterns(set);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }
  void runOnOperation() override {
    auto isBF16 = [](Type t) { return isa<BFloat16Type>(getElementTypeOrSelf(t)); };
    bool any = getOperation()
                   ->walk([&](Operation *op) {
                     bool conv = isa<arith::ExtFOp, arith::TruncFOp>(op) &&
                                 (isBF16(op->getOperand(0).getType()) || isBF16(op->getResult(0).getType()));
                     return conv ? WalkResult::interrupt() : WalkResult::advance();
                   })
                   .wasInterrupted();
    if (any && failed(applyPatternsGreedily(getOperation(), patterns)))
      signalPassFailure();
  }
  FrozenRewritePatternSet patterns;
};
} // namespace
