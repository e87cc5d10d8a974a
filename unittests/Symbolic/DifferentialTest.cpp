//===- DifferentialTest.cpp - simplification preserves values -------------===//
//
// Builds random integer expressions over bounded variables, simplifies them
// with `sym`, and evaluates both at random points (always including the
// variables' bounds). Any difference is a wrong rewrite. Also checks that
// every evaluated value lies inside the expression's vmin/vmax.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/MLIRContext.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Symbolic/UOp.h"
#include "gtest/gtest.h"

#include <random>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;

namespace {

using Env = llvm::DenseMap<UOpRef, __int128>;

/// Evaluates with tinygrad's exec_alu; nullopt where tinygrad would raise.
std::optional<Scalar> eval(UOpRef u, const Env &env,
                           llvm::DenseMap<UOpRef, Scalar> &memo) {
  if (auto it = memo.find(u); it != memo.end())
    return it->second;
  std::optional<Scalar> r;
  if (u->op == Op::CONST) {
    r = u->val();
  } else if (u->op == Op::PARAM) {
    auto it = env.find(u);
    if (it == env.end())
      return std::nullopt;
    r = Scalar::fromInt(it->second);
  } else if (auto alu = getALUOp(u->op)) {
    llvm::SmallVector<Scalar, 3> args;
    for (UOpRef s : u->src) {
      auto v = eval(s, env, memo);
      if (!v)
        return std::nullopt;
      args.push_back(*v);
    }
    r = execALU(*alu, u->dtype, args, /*truncateOutput=*/false);
  } else if (u->op == Op::CAST) {
    auto v = eval(u->src[0], env, memo);
    if (!v)
      return std::nullopt;
    r = castScalar(*v, u->dtype);
  }
  if (r)
    memo[u] = *r;
  return r;
}

struct Gen {
  std::mt19937_64 rng;
  Context &ctx;
  llvm::SmallVector<UOpRef, 3> vars;
  Gen(Context &ctx, uint64_t seed) : rng(seed), ctx(ctx) {}
  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  UOpRef leaf() {
    if (uniform(0, 3) == 0)
      return ctx.constInt(uniform(-8, 16));
    return vars[uniform(0, vars.size() - 1)];
  }
  UOpRef nonzero() {
    int64_t c = uniform(1, 9) * (uniform(0, 5) == 0 ? -1 : 1);
    return ctx.constInt(c);
  }
  UOpRef expr(int depth) {
    if (depth == 0)
      return leaf();
    UOpRef a = expr(depth - 1);
    switch (uniform(0, 13)) {
    case 0: return ctx.add(a, expr(depth - 1));
    case 1: return ctx.mul(a, ctx.constInt(uniform(-4, 6)));
    case 2: return ctx.mul(a, expr(depth - 1));
    case 3: return ctx.floordiv(a, nonzero());
    case 4: return ctx.floormod(a, nonzero());
    case 5: return ctx.maximum(a, expr(depth - 1));
    case 6: return ctx.where(ctx.lt(a, ctx.constInt(uniform(-5, 12))),
                             expr(depth - 1), expr(depth - 1));
    case 7: return ctx.where(ctx.ne(a, expr(depth - 1)), a, leaf());
    case 8: return ctx.alu(Op::CDIV, {a, nonzero()});
    case 9: return ctx.alu(Op::CMOD, {a, nonzero()});
    case 10: return ctx.alu(Op::AND, {a, ctx.constInt(uniform(0, 15))});
    case 11: return ctx.alu(Op::SHR, {a, ctx.constInt(uniform(0, 3))});
    case 12: return ctx.alu(Op::SHL, {a, ctx.constInt(uniform(0, 3))});
    default: return ctx.add(a, ctx.constInt(uniform(-6, 6)));
    }
  }
};

TEST(SymbolicDifferential, RandomExpressionsKeepTheirValues) {
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext mlirCtx(registry);
  mlirCtx.loadAllAvailableDialects();
  constexpr int kExpressions = 100000;
  int mismatches = 0, outOfRange = 0, rewriteErrors = 0, rewritten = 0;
  for (int n = 0; n < kExpressions && mismatches + outOfRange < 5; ++n) {
    Context ctx(&mlirCtx);
    Gen g(ctx, 0x5eed0000 + n);
    for (const char *name : {"a", "b", "c"}) {
      int64_t lo = g.uniform(-10, 10);
      g.vars.push_back(ctx.variable(name, lo, lo + g.uniform(0, 20)));
    }
    UOpRef e = g.expr(g.uniform(1, 4));
    UOpRef s = graphRewrite(ctx, e, symCastWeak());
    if (!s || !ctx.errors.empty()) {
      ++rewriteErrors;
      continue;
    }
    rewritten += s != e;
    for (int p = 0; p < 8; ++p) {
      Env env;
      for (UOpRef v : g.vars) {
        ParamInfo info = v->param();
        __int128 lo = info.vminVmax->first.i, hi = info.vminVmax->second.i;
        env[v] = p == 0 ? lo : p == 1 ? hi : g.uniform(lo, hi);
      }
      llvm::DenseMap<UOpRef, Scalar> m1, m2;
      auto want = eval(e, env, m1);
      auto got = eval(s, env, m2);
      if (!want)
        continue;
      if (!got || compareScalar(*want, *got) != 0) {
        ++mismatches;
        ADD_FAILURE() << "expression #" << n << " point " << p << ": "
                      << want->str() << " became "
                      << (got ? got->str() : std::string("<error>"));
        break;
      }
      if (compareScalar(*want, e->vmin()) < 0 || compareScalar(e->vmax(), *want) < 0) {
        ++outOfRange;
        ADD_FAILURE() << "expression #" << n << ": value " << want->str()
                      << " outside [" << e->vmin().str() << ", "
                      << e->vmax().str() << "]";
        break;
      }
    }
  }
  // Guard against a vacuous run: most random expressions must simplify.
  EXPECT_GT(rewritten, kExpressions / 2) << "only " << rewritten << " rewritten";
  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(outOfRange, 0);
  EXPECT_EQ(rewriteErrors, 0);
}

} // namespace
