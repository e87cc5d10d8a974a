//===- ConvertToLLVMCPU.cpp - one conversion of a kernel to the llvm dialect -===//
//
// What upstream's six *-to-llvm passes do, as one pass whose pattern sets
// are built once in initialize(): a PassManager that is kept across
// kernels (CPUCompiler) then pays for the patterns once per context, and
// each kernel's IR is walked by one conversion instead of six. The
// patterns are upstream's; only their grouping is ours.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/CPUPasses.h"
#include "tinygrad/Conversion/ConcatLanes.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_CONVERTTOLLVMCPU
#include "tinygrad/Conversion/CPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {

/// A vector built lane by lane (vector.from_elements: a gather's loads) of
/// more than kWideLanes lanes, as pieces of kPieceLanes lanes concatenated
/// by a balanced tree of shuffles. Lowered whole, it is one insertelement
/// chain as long as the vector, which InstCombine walks again from each
/// link, with lane masks wider than 64 bits: a 324-lane gather (mnist's
/// strided convolution backward) was 80% of its 0.5 s compile.
struct SplitWideFromElements : OpRewritePattern<vector::FromElementsOp> {
  static constexpr int64_t kWideLanes = 64, kPieceLanes = 16;
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::FromElementsOp op, PatternRewriter &rw) const override {
    VectorType vt = op.getType();
    if (vt.getRank() != 1 || vt.isScalable() || vt.getNumElements() <= kWideLanes)
      return failure();
    Location loc = op.getLoc();
    ValueRange elems = op.getElements();
    SmallVector<Value> parts;
    for (int64_t i = 0, n = elems.size(); i < n; i += kPieceLanes) {
      int64_t m = std::min(kPieceLanes, n - i);
      parts.push_back(vector::FromElementsOp::create(rw, loc, VectorType::get({m}, vt.getElementType()),
                                                     elems.slice(i, m)));
    }
    // Pairs of neighbours concatenated until one is left.
    rw.replaceOp(op, tinygrad::concatLanes(rw, loc, parts));
    return success();
  }
};

struct ConvertToLLVMCPUPass : tinygrad::impl::ConvertToLLVMCPUBase<ConvertToLLVMCPUPass> {
  ConvertToLLVMCPUPass() = default;
  // A clone builds its pattern sets again in initialize().
  ConvertToLLVMCPUPass(const ConvertToLLVMCPUPass &other) : ConvertToLLVMCPUBase(other) {}

  LogicalResult initialize(MLIRContext *ctx) override {
    // n-D and composite vector ops to the 1-D forms the conversion patterns
    // take: the set upstream's convert-vector-to-llvm applies first.
    RewritePatternSet vectorPrep(ctx);
    vector::populateVectorToVectorCanonicalizationPatterns(vectorPrep);
    vector::populateVectorBitCastLoweringPatterns(vectorPrep);
    vector::populateVectorBroadcastLoweringPatterns(vectorPrep);
    vector::populateVectorMaskOpLoweringPatterns(vectorPrep);
    vector::populateVectorShapeCastLoweringPatterns(vectorPrep);
    vector::populateVectorInterleaveLoweringPatterns(vectorPrep);
    vector::populateVectorTransferLoweringPatterns(vectorPrep, /*maxTransferRank=*/1);
    vector::populateVectorMaskMaterializationPatterns(vectorPrep, /*force32BitVectorIndices=*/false);
    vector::populateVectorInsertExtractStridedSliceTransforms(vectorPrep);
    vector::populateVectorStepLoweringPatterns(vectorPrep);
    vector::populateVectorRankReducingFMAPattern(vectorPrep);
    vector::populateVectorGatherLoweringPatterns(vectorPrep);
    // As upstream's arith-to-llvm: the signed ceil/floor divisions have no
    // llvm op and expand to arith first.
    arith::populateCeilFloorDivExpandOpsPatterns(vectorPrep);
    vectorPrep.add<SplitWideFromElements>(ctx);
    prep = FrozenRewritePatternSet(std::move(vectorPrep));

    LowerToLLVMOptions options(ctx);
    // Kernel arguments are plain pointers (tinygrad's CPU ABI), not memref
    // descriptors.
    options.useBarePtrCallConv = true;
    converter = std::make_shared<LLVMTypeConverter>(ctx, options);
    RewritePatternSet patterns(ctx);
    vector::populateVectorTransferLoweringPatterns(patterns);
    populateVectorToLLVMConversionPatterns(*converter, patterns);
    populateMathToLLVMConversionPatterns(*converter, patterns);
    arith::populateArithToLLVMConversionPatterns(*converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(*converter, patterns);
    populateFuncToLLVMConversionPatterns(*converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(*converter, patterns);
    ub::populateUBToLLVMConversionPatterns(*converter, patterns);
    toLLVM = FrozenRewritePatternSet(std::move(patterns));
    return success();
  }

  void runOnOperation() override {
    (void)applyPatternsGreedily(getOperation(), prep);
    LLVMConversionTarget target(getContext());
    target.addLegalOp<ModuleOp>();
    // Casts between converted and not yet converted values are reconciled
    // by the pass after this one.
    target.addLegalOp<UnrealizedConversionCastOp>();
    if (failed(applyPartialConversion(getOperation(), target, toLLVM)))
      signalPassFailure();
  }

  FrozenRewritePatternSet prep, toLLVM;
  // The conversion patterns keep a reference to the converter.
  std::shared_ptr<LLVMTypeConverter> converter;
};

} // namespace
