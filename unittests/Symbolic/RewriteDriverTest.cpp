//===- RewriteDriverTest.cpp - graph_rewrite semantics --------------------===//
//
// The properties of tinygrad's graph_rewrite the rule ports rely on:
// interning, children-first rewriting to a fixed point, one rewrite per
// shared node, pre-order firing for bottom_up, and loud failure on cycles.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/MLIRContext.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Symbolic/UOp.h"
#include "gtest/gtest.h"
#include <vector>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;

namespace {

struct DriverTest : ::testing::Test {
  DriverTest() : ctx(&mlir) {
    DialectRegistry registry;
    registerAllDialects(registry);
    mlir.appendDialectRegistry(registry);
    mlir.loadAllAvailableDialects();
  }
  MLIRContext mlir;
  Context ctx;
};

unsigned visits = 0;
/// CONST 3 -> CONST 4 -> CONST 5: a chain that must reach its fixed point.
UOpRef bumpToFive(pat::Match &m) {
  ++visits;
  auto v = m.root->intVal();
  return v && (*v == 3 || *v == 4) ? m.ctx.constInt(*v + 1) : nullptr;
}
/// CONST 7 <-> CONST 8: a rule cycle.
UOpRef flip(pat::Match &m) {
  auto v = m.root->intVal();
  return v && (*v == 7 || *v == 8) ? m.ctx.constInt(*v == 7 ? 8 : 7) : nullptr;
}

TEST_F(DriverTest, InterningMakesEqualStructureOneNode) {
  UOpRef a = ctx.variable("a", 0, 8);
  EXPECT_EQ(ctx.add(a, 2), ctx.add(a, ctx.constInt(2)));
  EXPECT_NE(ctx.add(a, 2), ctx.add(a, 3));
  EXPECT_EQ(ctx.cnst(Scalar::fromFloat(NAN), DType::Float32),
            ctx.cnst(Scalar::fromFloat(NAN), DType::Float32));
  EXPECT_NE(ctx.cnst(Scalar::fromFloat(0.0), DType::Float32),
            ctx.cnst(Scalar::fromFloat(-0.0), DType::Float32));
}

TEST_F(DriverTest, RewritesToAFixedPointAndRebuildsUsers) {
  PatternMatcher pm = {{"bump", pat::op(Op::CONST), bumpToFive}};
  UOpRef a = ctx.variable("a", 0, 8);
  UOpRef e = ctx.add(a, 3);
  UOpRef r = graphRewrite(ctx, e, pm);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r, ctx.add(a, 5));
}

TEST_F(DriverTest, SharedNodesAreRewrittenOnce) {
  PatternMatcher pm = {{"bump", pat::op(Op::CONST), bumpToFive}};
  UOpRef a = ctx.variable("a", 0, 8);
  UOpRef three = ctx.constInt(3);
  UOpRef e = ctx.add(ctx.mul(a, three), ctx.add(a, three));
  visits = 0;
  ASSERT_NE(graphRewrite(ctx, e, pm), nullptr);
  // 3 -> 4 -> 5 -> (no rule): three visits of the chain, however many users.
  EXPECT_EQ(visits, 3u);
}

TEST_F(DriverTest, RuleCyclesAreReportedNotLoopedOn) {
  PatternMatcher pm = {{"flip", pat::op(Op::CONST), flip}};
  UOpRef e = ctx.add(ctx.variable("a", 0, 8), 7);
  EXPECT_EQ(graphRewrite(ctx, e, pm), nullptr);
  ASSERT_FALSE(ctx.errors.empty());
  EXPECT_NE(ctx.errors.front().find("graph_rewrite"), std::string::npos);
}

/// Records the PARAMs in the order the bottom-up walk meets them.
UOpRef recordParam(pat::Match &m) {
  m.state<std::vector<UOpRef>>().push_back(m.root);
  return nullptr;
}

TEST_F(DriverTest, BottomUpVisitsInTinygradsStackOrder) {
  // tinygrad's unified_rewrite does not push a node that is already on the
  // stack: in (a*2 + b) + a the root's `a` stays below, so `b` is met first.
  // Stateful rules (the kernel split numbers buffers and ranges as it meets
  // them) depend on this order.
  PatternMatcher pm = {{"record", pat::op(Op::PARAM), recordParam}};
  UOpRef a = ctx.variable("a", 0, 8), b = ctx.variable("b", 0, 8);
  UOpRef e = ctx.add(ctx.add(ctx.mul(a, 2), b), a);
  std::vector<UOpRef> order;
  ASSERT_NE(graphRewriteBottomUp(ctx, e, pm, &order), nullptr);
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0], b);
  EXPECT_EQ(order[1], a);
}

TEST_F(DriverTest, DivisionByZeroIsAnErrorNotACrash) {
  UOpRef e = ctx.floordiv(ctx.variable("a", 0, 8), ctx.constInt(0));
  // The rule declines and records the error; callers (the passes) fail on
  // a non-empty error list.
  graphRewrite(ctx, e, symCastWeak());
  ASSERT_FALSE(ctx.errors.empty());
  EXPECT_NE(ctx.errors.front().find("by zero"), std::string::npos);
}

TEST_F(DriverTest, SubstituteReplacesAndRebuilds) {
  UOpRef a = ctx.variable("a", 0, 8), b = ctx.variable("b", 0, 3);
  UOpRef e = ctx.mul(ctx.add(a, 1), a);
  llvm::DenseMap<UOpRef, UOpRef> map{{a, b}};
  EXPECT_EQ(substitute(ctx, e, map), ctx.mul(ctx.add(b, 1), b));
}

TEST_F(DriverTest, SimplifyMatchesTinygradOnAWorkedExample) {
  // tinygrad: ((a+2)//4) with a in [0, 8] stays, bounds [0, 2];
  // (a*4+3)//4 -> a.
  UOpRef a = ctx.variable("a", 0, 8);
  UOpRef e = ctx.floordiv(ctx.add(ctx.mul(a, 4), 3), 4);
  EXPECT_EQ(simplify(ctx, e), a);
  UOpRef f = ctx.floordiv(ctx.add(a, 2), 4);
  EXPECT_EQ(f->vmin().i, 0);
  EXPECT_EQ(f->vmax().i, 2);
}

} // namespace
