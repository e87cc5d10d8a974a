//===- SimplifyValid.cpp - pm_simplify_valid (tinygrad/uop/symbolic.py) --===//
//
// Simplify an AND of index conditions clause by clause (each clause under the
// ones before it), and a gated index `cond.where(x, Invalid)` under `cond`.
// Both rest on uop_given_valid, which turns every parsable clause into a bound
// on an expression, swaps the expression for a fresh bounded variable,
// simplifies, and swaps back.
//
//===----------------------------------------------------------------------===//
#include "Valid.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace mlir::tinygrad::sym::rules {

llvm::SmallVector<UOpRef, 8> split(Context &ctx, UOpRef x, Op sep) {
  llvm::SmallVector<UOpRef, 8> out;
  ctx.splitUOp(x, sep, out);
  return out;
}

UOpRef simplifyU(Context &ctx, UOpRef x) {
  if (x->op == Op::CONST)
    return x;
  if (x->op == Op::SINK &&
      llvm::all_of(x->src, [](UOpRef s) {
        return s->op == Op::CONST || (s->op == Op::STACK && s->src.empty());
      }))
    return x;
  return simplify(ctx, x);
}

UOpRef substituteU(Context &ctx, UOpRef x, llvm::ArrayRef<std::pair<UOpRef, UOpRef>> pairs) {
  llvm::DenseMap<UOpRef, UOpRef> map;
  for (auto &[k, v] : pairs)
    if (k != v)
      map.insert({k, v});
  if (map.empty())
    return x;
  return substitute(ctx, x, map);
}

/// ParamArg bounds are stored as 64-bit attributes: bounds beyond are clamped.
UOpRef fakeVar(Context &ctx, unsigned i, I lo, I hi, DType dt) {
  constexpr I kLo = std::numeric_limits<int64_t>::min();
  constexpr I kHi = std::numeric_limits<int64_t>::max();
  lo = std::clamp(lo, kLo, kHi);
  hi = std::clamp(hi, kLo, kHi);
  return ctx.variable(("fake" + std::to_string(i)), lo, hi, dt);
}

static int imageEnv() {
  static int v = [] {
    const char *e = std::getenv("IMAGE");
    return e ? std::atoi(e) : 0;
  }();
  return v;
}

//===----------------------------------------------------------------------===//
// parse_valid / uop_given_valid / simplify_valid
//===----------------------------------------------------------------------===//

std::optional<ParsedValid> parseValid(UOpRef v) {
  // (X < c).ne(True) -> X >= c
  if (v->op == Op::CMPNE && v->src.size() == 2 && v->src[1]->op == Op::CONST &&
      isConstVal(v->src[1], 1) && v->src[0]->op == Op::CMPLT &&
      isInt(v->src[0]->src[0]->dtype)) {
    UOpRef s0 = v->src[0];
    return ParsedValid{s0->src[0], false, py::ib(s0->src[1]->vmin())};
  }
  if (v->op == Op::CMPLT && isInt(v->src[0]->dtype)) {
    // c < X -> X >= c+1
    if (v->src[0]->op == Op::CONST)
      return ParsedValid{v->src[1], false, py::ib(v->src[0]->val()) + 1};
    // X < c -> X <= c-1
    return ParsedValid{v->src[0], true, py::ib(v->src[1]->vmax()) - 1};
  }
  return std::nullopt;
}

UOpRef uopGivenValid(Context &ctx, UOpRef valid, UOpRef uop, bool trySimplex) {
  // {expr: [lower, upper]} in first-seen order
  struct Bound {
    UOpRef expr;
    std::optional<I> b[2];
  };
  llvm::SmallVector<Bound, 4> bounds;
  for (UOpRef stmt : split(ctx, valid, Op::AND)) {
    auto res = parseValid(stmt);
    if (!res)
      continue;
    auto it = llvm::find_if(bounds, [&](const Bound &b) { return b.expr == res->expr; });
    if (it == bounds.end()) {
      bounds.push_back({res->expr, {}});
      it = std::prev(bounds.end());
    }
    it->b[res->isUpper ? 1 : 0] = res->c;
  }

  using Cand = std::pair<UOpRef, UOpRef>;
  llvm::SmallVector<Cand, 4> allCandidates;
  for (unsigned i = 0; i < bounds.size(); ++i) {
    UOpRef expr = bounds[i].expr;
    I v0 = bounds[i].b[0] ? *bounds[i].b[0] : py::ib(expr->vmin());
    I v1 = bounds[i].b[1] ? *bounds[i].b[1] : py::ib(expr->vmax());
    allCandidates.push_back({expr, fakeVar(ctx, i, v0, v1, expr->dtype)});
    if (!trySimplex)
      continue;
    llvm::SmallVector<llvm::SmallVector<Cand, 4>, 2> candidates;
    candidates.push_back({allCandidates.back()});
    if (expr->op == Op::ADD && v0 == 1) {
      auto terms = split(ctx, expr, Op::ADD);
      if (llvm::all_of(terms, [](UOpRef u) { return isIrreducible(u->op); })) {
        llvm::SmallVector<Cand, 4> c;
        for (UOpRef xi : terms)
          c.push_back({xi, fakeVar(ctx, i, 1, py::ib(xi->vmax()), xi->dtype)});
        candidates.push_back(c);
      }
    }
    for (auto &candidate : candidates) {
      if (llvm::any_of(candidate, [&](const Cand &c) { return !ctx.inBackwardSlice(c.first, uop); }))
        continue;
      llvm::SmallVector<UOpRef, 4> newuops;
      for (auto &[X, newX] : candidate) {
        UOpRef a = simplifyU(ctx, substituteU(ctx, uop, {{X, newX}}));
        newuops.push_back(simplifyU(ctx, substituteU(ctx, a, {{newX, X}})));
      }
      if (llvm::all_equal(newuops)) {
        uop = newuops[0];
      } else if (uop->op == Op::STACK && uop->src.size() == 2) {
        bool shaped = llvm::all_of(newuops, [](UOpRef u) { return u->src.size() >= 2; });
        if (!shaped)
          continue;
        if (llvm::all_of(newuops, [&](UOpRef u) { return u->src[0] == newuops[0]->src[0]; }))
          uop = ctx.replaceSrc(uop, {newuops[0]->src[0], uop->src[1]});
        if (llvm::all_of(newuops, [&](UOpRef u) { return u->src[1] == newuops[0]->src[1]; }))
          uop = ctx.replaceSrc(uop, {uop->src[0], newuops[0]->src[1]});
      }
    }
  }

  // try all the valids together (but only the whole expressions)
  UOpRef sUop = substituteU(ctx, uop, allCandidates);
  if (sUop != uop) {
    llvm::SmallVector<Cand, 4> back;
    for (auto &[X, newX] : allCandidates)
      back.push_back({newX, X});
    uop = simplifyU(ctx, substituteU(ctx, simplifyU(ctx, sUop), back));
  }
  return uop;
}

static int validPriority(Context &ctx, UOpRef v, llvm::ArrayRef<UOpRef> valids) {
  auto res = parseValid(v);
  if (!res)
    return 0;
  int p = 0;
  for (UOpRef other : valids)
    if (ctx.inBackwardSlice(res->expr, other))
      --p;
  return p;
}

/// simplify_valid(valid).
static UOpRef simplifyValid(Context &ctx, UOpRef valid) {
  if (ctx.opInBackwardSlice(valid, {Op::INDEX}))
    return nullptr;
  auto valids = split(ctx, valid, Op::AND);
  // Python's sorted() is stable: ties keep their original order, which the
  // position tie-breaker reproduces with a plain sort.
  llvm::SmallVector<std::tuple<int, unsigned, UOpRef>, 8> keyed;
  for (auto [i, v] : llvm::enumerate(valids))
    keyed.push_back({validPriority(ctx, v, valids), (unsigned)i, v});
  llvm::sort(keyed, [](auto &a, auto &b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) <
           std::tie(std::get<0>(b), std::get<1>(b));
  });
  llvm::SmallVector<UOpRef, 8> sorted;
  for (auto &k : keyed)
    sorted.push_back(std::get<2>(k));
  llvm::SmallVector<UOpRef, 8> ret;
  llvm::SmallPtrSet<UOpRef, 8> seen;
  for (UOpRef stmt : sorted) {
    if (!seen.insert(stmt).second)
      continue;
    if (!ret.empty())
      stmt = uopGivenValid(ctx, py::uprod(ctx, ret), stmt);
    ret.push_back(stmt);
  }
  if (llvm::equal(ret, sorted))
    return nullptr;
  return py::uprod(ctx, ret);
}

/// gated_given_valid(cond, x, i).
static UOpRef gatedGivenValid(pat::Match &m) {
  Context &ctx = m.ctx;
  UOpRef cond = m[n::cond], x = m[n::x];
  // pure index math only: a LOAD in x executes even where cond is false
  if (x->dtype != DType::WeakInt || ctx.opInBackwardSlice(x, {Op::INDEX}))
    return nullptr;
  // image index (IMAGE mode) with DIV/MOD: skip
  if (imageEnv() > 0 &&
      ctx.opInBackwardSlice(x, {Op::CDIV, Op::CMOD, Op::FLOORDIV, Op::FLOORMOD}))
    return nullptr;
  return py::where(ctx, cond, uopGivenValid(ctx, cond, x, /*trySimplex=*/false), m[n::i]);
}

std::vector<pat::Rule> simplifyValidRules() {
  return {
      // simplify valid
      {"simplify_valid", op(Op::AND, n::valid),
       [](pat::Match &m) { return simplifyValid(m.ctx, m[n::valid]); }},
      {"gated_given_valid", invalidGatePat(), gatedGivenValid},
  };
}

} // namespace mlir::tinygrad::sym::rules
