//===- PatternTest.cpp - UPat semantics of the pattern language -----------===//
//
// tinygrad's test_pattern_matcher properties: op/dtype sets, Python-equal
// args, identity-bound names, list permutations in itertools order, repeat
// and any-length sources, alternatives, tags, early reject, first result
// wins, and rules that need no C++.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/MLIRContext.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Pattern.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

namespace {

struct PatternTest : ::testing::Test {
  PatternTest() : ctx(&mlir) {
    DialectRegistry registry;
    registerAllDialects(registry);
    mlir.appendDialectRegistry(registry);
    mlir.loadAllAvailableDialects();
  }
  /// Every binding of `p` on `u`, as the list of names bound to `name`.
  std::vector<UOpRef> bindings(const Pat &p, UOpRef u, Name name) {
    Program prog = Program::compile(p);
    Bindings binds;
    std::vector<UOpRef> out;
    prog.match(u, binds, [&] {
      out.push_back(binds.get(name));
      return false;
    });
    return out;
  }
  bool matchesAny(const Pat &p, UOpRef u) {
    Program prog = Program::compile(p);
    Bindings binds;
    return prog.match(u, binds, [] { return true; });
  }
  MLIRContext mlir;
  Context ctx;
};

TEST_F(PatternTest, OpAndDTypeSets) {
  UOpRef a = ctx.variable("a", 0, 8);
  UOpRef f = ctx.cnst(Scalar::fromFloat(1.5), DType::Float32);
  EXPECT_TRUE(matchesAny(op({Op::PARAM, Op::CONST}), a));
  EXPECT_FALSE(matchesAny(op(Op::CONST), a));
  EXPECT_TRUE(matchesAny(var(n::x, floatDTypes()), f));
  EXPECT_FALSE(matchesAny(var(n::x, intDTypes()), f));
  EXPECT_TRUE(matchesAny(var(n::x, DType::WeakInt), a));
}

TEST_F(PatternTest, ArgIsPythonEquality) {
  // arg=0 matches 0, 0.0 and False.
  EXPECT_TRUE(matchesAny(cnum(0), ctx.constInt(0)));
  EXPECT_TRUE(matchesAny(cnum(0), ctx.cnst(Scalar::fromFloat(0.0), DType::Float32)));
  EXPECT_TRUE(matchesAny(cnum(0), ctx.cnst(Scalar::fromFloat(-0.0), DType::Float32)));
  EXPECT_TRUE(matchesAny(cnum(0), ctx.constBool(false)));
  EXPECT_FALSE(matchesAny(cnum(0), ctx.constInt(1)));
  EXPECT_FALSE(matchesAny(cnum(1), ctx.cnst(Scalar::fromFloat(1.5), DType::Float32)));
  EXPECT_TRUE(matchesAny(cinvalid(), ctx.cnst(Scalar::invalid(), DType::Bool)));
}

TEST_F(PatternTest, RepeatedNameBindsTheSameNode) {
  UOpRef a = ctx.variable("a", 0, 8), b = ctx.variable("b", 0, 8);
  Pat xx = var(n::x) + var(n::x);
  EXPECT_TRUE(matchesAny(xx, ctx.add(a, a)));
  EXPECT_FALSE(matchesAny(xx, ctx.add(a, b)));
  // (x^y)^y needs the identical y.
  Pat xor3 = (var(n::x) ^ var(n::y)) ^ var(n::y);
  EXPECT_TRUE(matchesAny(xor3, ctx.alu(Op::XOR, {ctx.alu(Op::XOR, {a, b}), b})));
  // (a^b)^a matches too, through the inner permutation: x=b, y=a.
  std::vector<UOpRef> xs = bindings(xor3, ctx.alu(Op::XOR, {ctx.alu(Op::XOR, {a, b}), a}), n::x);
  ASSERT_FALSE(xs.empty());
  EXPECT_EQ(xs[0], b);
  EXPECT_FALSE(matchesAny(xor3, ctx.alu(Op::XOR, {ctx.alu(Op::XOR, {a, b}), ctx.variable("c", 0, 8)})));
}

TEST_F(PatternTest, ListTriesPermutationsInItertoolsOrder) {
  UOpRef a = ctx.variable("a", 0, 8), b = ctx.variable("b", 0, 8);
  UOpRef s = ctx.add(a, b);
  // x + y on a+b binds x=a first, then x=b.
  std::vector<UOpRef> xs = bindings(var(n::x) + var(n::y), s, n::x);
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_EQ(xs[0], s->src[0]);
  EXPECT_EQ(xs[1], s->src[1]);
  // A tuple tries one order only.
  EXPECT_EQ(bindings(up(Op::ADD, {var(n::x), var(n::y)}), s, n::x).size(), 1u);
  // A const on either side matches a commutative pattern.
  EXPECT_TRUE(matchesAny(var(n::x) + 3, ctx.add(ctx.constInt(3), a)));
  // Non-commutative ops build tuples: 3 < x does not match x < 3.
  EXPECT_FALSE(matchesAny(var(n::x) < 3, ctx.lt(ctx.constInt(3), a)));
}

TEST_F(PatternTest, RepeatAnyLenAndAlternatives) {
  UOpRef a = ctx.variable("a", 0, 8);
  UOpRef c = ctx.constInt(1);
  UOpRef st = ctx.stack({c, c, c});
  EXPECT_TRUE(matchesAny(upRepeat(Op::STACK, cvar()), st));
  EXPECT_FALSE(matchesAny(upRepeat(Op::STACK, cvar()), ctx.stack({c, a})));
  EXPECT_TRUE(matchesAny(up(Op::STACK, {cvar()}).allowAnyLen(), st));
  EXPECT_FALSE(matchesAny(up(Op::STACK, {cvar()}), st));
  Pat alt = any({cvar(n::x), var(n::x, DType::WeakInt)});
  EXPECT_EQ(bindings(alt, c, n::x).size(), 2u); // both alternatives match a weakint CONST
  EXPECT_EQ(bindings(alt, a, n::x).size(), 1u);
  // or_casted: the pattern or a CAST of it.
  UOpRef ca = ctx.cast(a, DType::Int32);
  EXPECT_TRUE(matchesAny(var(n::y, DType::WeakInt).orCasted(n::x), ca));
}

TEST_F(PatternTest, EarlyRejectIsTheOpsOfSingleOpSources) {
  Program p = Program::compile(up(Op::ADD, {op(Op::MUL), cvar()}));
  EXPECT_TRUE(p.required.contains(Op::MUL));
  EXPECT_TRUE(p.required.contains(Op::CONST));
  EXPECT_FALSE(p.required.contains(Op::ADD));
  Program q = Program::compile(up(Op::ADD, {var(), op({Op::MUL, Op::SHL})}));
  EXPECT_TRUE(q.required.empty());
}

TEST_F(PatternTest, RulesFirstNonNullResultWinsAndNeedNoCxx) {
  UOpRef a = ctx.variable("a", 0, 8);
  PatternMatcher pm = {
      {"x+0 -> x", var(n::x) + 0, to(n::x)},
      {"declines", var(n::x) * 2, [](Match &) -> UOpRef { return nullptr; }},
      {"x*2 -> x+x", var(n::x) * 2, [](Match &m) { return m.ctx.add(m[n::x], m[n::x]); }},
  };
  EXPECT_EQ(pm.rewrite(ctx, ctx.add(a, ctx.constInt(0))), a);
  EXPECT_EQ(pm.rewrite(ctx, ctx.add(ctx.constInt(0), a)), a);
  EXPECT_EQ(pm.rewrite(ctx, ctx.mul(a, 2)), ctx.add(a, a));
  EXPECT_EQ(pm.rewrite(ctx, ctx.mul(a, 3)), nullptr);
  // Composition keeps the left list's priority.
  PatternMatcher first = {{"x*2 -> 0", var(n::x) * 2, [](Match &m) { return m.ctx.constInt(0); }}};
  EXPECT_EQ((first + pm).rewrite(ctx, ctx.mul(a, 2)), ctx.constInt(0));
  EXPECT_EQ((pm + first).rewrite(ctx, ctx.mul(a, 2)), ctx.add(a, a));
  EXPECT_EQ(pm.ruleNames().size(), 3u);
}

TEST_F(PatternTest, UserStateReachesBuilders) {
  int calls = 0;
  PatternMatcher pm = {{"count", op(Op::CONST, n::x), [](Match &m) -> UOpRef {
                          ++m.state<int>();
                          return nullptr;
                        }}};
  pm.rewrite(ctx, ctx.constInt(5), &calls);
  EXPECT_EQ(calls, 1);
}

TEST_F(PatternTest, PatternsRenderLikeUPat) {
  EXPECT_EQ((var(n::x) + 0).str(),
            "UPat(Ops.ADD, src=[UPat(name=\"x\"), UPat(Ops.CONST, arg=0)])");
}

} // namespace
