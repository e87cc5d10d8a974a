//===- IntRangesTest.cpp - InferIntRangeInterface on tinygrad ops ---------===//
//
// Calls the interface directly (no dataflow) with ranges the lit test cannot
// spell: weak ints past 64 bits, uint64 bounds past INT64_MAX, unknown
// operands.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "mlir/Parser/Parser.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/IntRanges.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

class IntRangesTest : public ::testing::Test {
protected:
  IntRangesTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  /// The last op of `src`, parsed as a module body.
  Operation *parseLast(StringRef src) {
    module = parseSourceString<ModuleOp>(src, &ctx);
    EXPECT_TRUE(module);
    return &module->getBody()->back();
  }

  /// The result range of `op` given `args` (nullopt: none was set).
  std::optional<ConstantIntRanges> infer(Operation *op,
                                         ArrayRef<ConstantIntRanges> args) {
    std::optional<ConstantIntRanges> out;
    cast<InferIntRangeInterface>(op).inferResultRanges(
        args, [&](Value, const ConstantIntRanges &r) { out = r; });
    return out;
  }

  static APInt i128(int64_t hi, uint64_t lo) {
    uint64_t words[2] = {lo, static_cast<uint64_t>(hi)};
    return APInt(128, words);
  }

  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
};

TEST_F(IntRangesTest, WeakIntPast64Bits) {
  Operation *op = parseLast(R"(
    %a = tg.noop : () -> !tg.weakint
    %b = tg.noop : () -> !tg.weakint
    %s = tg.add %a, %b : !tg.weakint, !tg.weakint
  )");
  // [2**70, 2**70 + 5] + [1, 1]
  APInt lo = i128(64, 0), hi = i128(64, 5);
  auto r = infer(op, {ConstantIntRanges::fromSigned(lo, hi),
                      ConstantIntRanges::constant(APInt(128, 1))});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->smin(), lo + 1);
  EXPECT_EQ(r->smax(), hi + 1);
  EXPECT_EQ(r->smin().getBitWidth(), 128u);
}

TEST_F(IntRangesTest, UInt64PastInt64Max) {
  Operation *op = parseLast(R"(
    %a = tg.noop : () -> ui64
    %b = tg.noop : () -> ui64
    %s = tg.add %a, %b : ui64, ui64
  )");
  // [2**63, 2**64 - 2] + 1 = [2**63 + 1, 2**64 - 1]
  auto r = infer(op, {ConstantIntRanges::fromUnsigned(
                          APInt::getSignedMinValue(64),
                          APInt::getMaxValue(64) - 1),
                      ConstantIntRanges::constant(APInt(64, 1))});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->umin(), APInt::getSignedMinValue(64) + 1);
  EXPECT_EQ(r->umax(), APInt::getMaxValue(64));
  // One more would wrap: the full range.
  r = infer(op, {ConstantIntRanges::fromUnsigned(APInt::getSignedMinValue(64),
                                                 APInt::getMaxValue(64)),
                 ConstantIntRanges::constant(APInt(64, 1))});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, ConstantIntRanges::maxRange(64));
}

TEST_F(IntRangesTest, BoolIsOneBit) {
  Operation *op = parseLast(R"(
    %a = tg.noop : () -> si8
    %b = tg.noop : () -> si8
    %s = tg.cmplt %a, %b : si8, si8
  )");
  auto r = infer(op, {ConstantIntRanges::fromSigned(APInt(8, -4, true),
                                                    APInt(8, -1, true)),
                      ConstantIntRanges::fromSigned(APInt(8, 0), APInt(8, 3))});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, ConstantIntRanges::constant(APInt(1, 1)));
  r = infer(op, {ConstantIntRanges::maxRange(8), ConstantIntRanges::maxRange(8)});
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, ConstantIntRanges::maxRange(1));
}

TEST_F(IntRangesTest, FloatResultsGetNoRange) {
  Operation *op = parseLast(R"(
    %a = tg.noop : () -> f32
    %s = tg.add %a, %a : f32, f32
  )");
  EXPECT_FALSE(infer(op, {ConstantIntRanges::maxRange(32),
                          ConstantIntRanges::maxRange(32)}));
}

} // namespace
