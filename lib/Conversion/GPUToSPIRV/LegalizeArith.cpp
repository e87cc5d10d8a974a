//===- LegalizeArith.cpp - tg-gpu-legalize-arith-for-spirv -----------------===//
//
// Floor/ceil divisions expanded, signed remainders through the division,
// bool integer arithmetic computed in i32 (why: GPUPasses.td).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPULEGALIZEARITHFORSPIRV
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {

bool isBool(Type t) { return getElementTypeOrSelf(t).isInteger(1); }

/// Whether `op` reads its i1 operands as signed numbers (true = -1).
bool signedOp(Operation *op) {
  if (auto c = dyn_cast<arith::CmpIOp>(op)) {
    auto p = c.getPredicate();
    return p == arith::CmpIPredicate::slt || p == arith::CmpIPredicate::sle || p == arith::CmpIPredicate::sgt ||
           p == arith::CmpIPredicate::sge;
  }
  return isa<arith::DivSIOp, arith::RemSIOp, arith::MaxSIOp, arith::MinSIOp, arith::ShRSIOp>(op);
}

/// The integer ops on bools SPIR-V has no boolean form of.
bool needsWidening(Operation *op) {
  if (op->getNumOperands() != 2 || !llvm::all_of(op->getOperandTypes(), isBool))
    return false;
  if (isa<arith::CmpIOp>(op))
    return signedOp(op);
  return isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp, arith::DivSIOp, arith::RemUIOp,
             arith::RemSIOp, arith::MaxUIOp, arith::MinUIOp, arith::MaxSIOp, arith::MinSIOp, arith::ShLIOp,
             arith::ShRUIOp, arith::ShRSIOp>(op);
}

/// `op` on bools as the same op on i32 words, the result truncated back.
struct WidenBoolArith : RewritePattern {
  WidenBoolArith(MLIRContext *ctx) : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op, PatternRewriter &rw) const override {
    if (!needsWidening(op))
      return failure();
    Location loc = op->getLoc();
    Type wide = rw.getI32Type();
    if (auto vt = dyn_cast<VectorType>(op->getOperand(0).getType()))
      wide = vt.clone(wide);
    bool sgn = signedOp(op);
    SmallVector<Value, 2> operands;
    for (Value v : op->getOperands())
      operands.push_back(sgn ? arith::ExtSIOp::create(rw, loc, wide, v).getResult()
                             : arith::ExtUIOp::create(rw, loc, wide, v).getResult());
    OperationState st(loc, op->getName(), operands,
                      isa<arith::CmpIOp>(op) ? TypeRange(op->getResultTypes()) : TypeRange(ArrayRef<Type>(wide)),
                      op->getAttrs());
    Operation *w = rw.create(st);
    Value r = w->getResult(0);
    if (!isa<arith::CmpIOp>(op))
      r = arith::TruncIOp::create(rw, loc, op->getResult(0).getType(), r);
    rw.replaceOp(op, r);
    return success();
  }
};

/// A signed remainder as `a - (a / b) * b`. convert-arith-to-spirv emulates
/// arith.remsi as OpUMod of the operands' OpSAbs, negated unless `a ==
/// abs(a)`; abs(INT_MIN) is INT_MIN, so INT_MIN's remainder kept the wrong
/// sign (INT64_MIN % 7 was 1, its floor mod 1 for 6: random-kernels seed
/// 2213 #83 on lavapipe). The truncating division it has is right there,
/// and the product and difference wrap as the remainder needs.
struct RemSIByDivision : OpRewritePattern<arith::RemSIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::RemSIOp op, PatternRewriter &rw) const override {
    if (isBool(op.getType()))
      return failure(); // WidenBoolArith's first
    Location loc = op.getLoc();
    Value q = arith::DivSIOp::create(rw, loc, op.getLhs(), op.getRhs());
    rw.replaceOpWithNewOp<arith::SubIOp>(op, op.getLhs(), arith::MulIOp::create(rw, loc, q, op.getRhs()));
    return success();
  }
};

struct GPULegalizeArithForSPIRV
    : mlir::tinygrad::impl::GPULegalizeArithForSPIRVBase<GPULegalizeArithForSPIRV> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    patterns.add<WidenBoolArith, RemSIByDivision>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
