//===- DivAndMod.cpp - tinygrad's div_and_mod_symbolic --------------------===//
//
// Floor division and modulo folding (tinygrad/uop/divandmod.py): two fast
// rules that re-associate constants, then `fold_divmod_general`, which tries
// in order: a constant quotient, PARAM multiples, nested div, nested mod
// removal, remainder congruence, gcd with remainder, nest by factor, divide
// by a (symbolic) gcd and factor remainder.
//
// tinygrad memoizes fold_divmod_general with functools.cache; the function is
// pure in its node, so here the memo lives for one top-level call (it only
// matters for the nest_by_factor recursion). A division by a zero range is
// reported in ctx.errors and the rule gives up, where tinygrad raises.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

#include "llvm/ADT/DenseMap.h"
#include <vector>

namespace mlir::tinygrad::sym::rules {
namespace {

using py::ib;

/// Iteration order of a CPython set of non-negative ints (hash(n) == n)
/// built by adding `vals` in order to an empty set: open addressing with
/// CPython's probe sequence (9 linear probes when they fit, then the
/// perturbed step) and its resize policy.
std::vector<I> pySetOrder(llvm::ArrayRef<I> vals) {
  constexpr size_t kLinearProbes = 9, kPerturbShift = 5;
  std::vector<std::optional<I>> table(8);
  size_t used = 0;
  auto place = [&](std::vector<std::optional<I>> &tab, I v, bool checkDup) {
    size_t mask = tab.size() - 1;
    size_t h = static_cast<size_t>(v), perturb = h, i = h & mask;
    while (true) {
      size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (size_t j = 0; j <= probes; ++j) {
        auto &e = tab[i + j];
        if (!e) {
          e = v;
          return true;
        }
        if (checkDup && *e == v)
          return false;
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + perturb) & mask;
    }
  };
  for (I v : vals) {
    if (!place(table, v, true))
      continue;
    ++used;
    size_t mask = table.size() - 1;
    if (used * 5 < mask * 3)
      continue;
    size_t newSize = 8;
    while (newSize <= used * 4)
      newSize <<= 1;
    std::vector<std::optional<I>> fresh(newSize);
    for (auto &e : table)
      if (e)
        place(fresh, *e, false);
    table = std::move(fresh);
  }
  std::vector<I> out;
  for (auto &e : table)
    if (e)
      out.push_back(*e);
  return out;
}

bool ge0(const Scalar &s) { return compareScalar(s, Scalar::fromInt(0)) >= 0; }

/// fold_divmod_general, memoized per context as tinygrad's functools.cache
/// (a failed computation, e.g. division by zero, is not cached).
struct DivMod {
  static constexpr char kMemoKey = 0;
  explicit DivMod(Context &c) : ctx(c), memo(c.memo(&kMemoKey)) {}
  Context &ctx;
  llvm::DenseMap<UOpRef, UOpRef> &memo;
  bool failed = false;

  UOpRef fail(std::string msg) {
    ctx.errors.push_back(std::move(msg));
    failed = true;
    return nullptr;
  }

  UOpRef general(UOpRef d) {
    if (auto it = memo.find(d); it != memo.end())
      return it->second;
    UOpRef r = compute(d);
    if (failed)
      return nullptr;
    memo[d] = r; // `compute` may have grown the map: no iterator kept
    return r;
  }

  UOpRef compute(UOpRef d);
};

UOpRef DivMod::compute(UOpRef d) {
  const bool isDiv = d->op == Op::FLOORDIV;
  UOpRef x = d->src[0], y = d->src[1];
  const Scalar zero = Scalar::fromInt(0);
  if (py::eq(y->vmin(), zero) && py::eq(y->vmax(), zero))
    return fail(std::string(isDiv ? "Division" : "Mod") +
                " by zero trying to rewrite " + getOpName(d->op).str());

  // x//y is constant
  UOpRef xdiv = py::floordiv(ctx, x, y);
  if (py::eq(xdiv->vmin(), xdiv->vmax())) {
    if (!isDiv)
      return py::sub(ctx, x, py::rmul(ctx, ib(xdiv->vmin()), y));
    return ctx.constLike(xdiv, xdiv->vmin());
  }
  // PARAM // c is irreducible
  if (x->op == Op::PARAM && y->op == Op::CONST) {
    auto m = x->param().multipleOf;
    auto yv = cint(y);
    if (m && yv && *yv != 0 && floorMod(*m, *yv) == 0)
      return isDiv ? nullptr : ctx.constLike(d, 0);
  }

  auto [xPeeled, cst] = ctx.popConst(x);
  llvm::SmallVector<UOpRef> noConst;
  ctx.splitUOp(xPeeled, Op::ADD, noConst);

  // ** constant denominator rules (c > 0) **
  std::optional<I> yc = y->op == Op::CONST ? cint(y) : std::nullopt;
  if (yc && *yc > 0) {
    const I c = *yc;
    // nested_div: (x%(k*c))//c -> (x//c)%k for k > 0
    if (isDiv && x->op == Op::FLOORMOD) {
      if (UOpRef k = ctx.divides(x->src[1], c)) {
        // `k > 0` on a UOp evaluates through simplify()
        UOpRef test = simplify(ctx, py::lt(ctx, py::ic(ctx, 0), k));
        if (test->op != Op::CONST)
          return fail("eval failed to be a single number in nested_div");
        if (ib(test->val()) != 0)
          return py::mod(ctx, py::floordiv(ctx, x->src[0], y), k);
      }
    }
    // remove_nested_mod in a sum: (a%4 + b)%2 -> (a+b)%2
    if (!isDiv) {
      llvm::SmallVector<UOpRef> newXs;
      bool changed = false;
      for (UOpRef u : noConst) {
        if (u->op == Op::FLOORMOD && ctx.divides(u->src[1], c)) {
          u = u->src[0];
          changed = true;
        }
        newXs.push_back(u);
      }
      if (changed)
        return py::mod(ctx, py::add(ctx, py::usum(ctx, newXs), cst), y);
    }

    // decomposition u = f * term
    llvm::SmallVector<UOpRef> terms;
    llvm::SmallVector<I> factors;
    for (UOpRef u : noConst) {
      I f = ctx.constFactor(u);
      UOpRef t = f == 0 ? nullptr : ctx.divides(u, f);
      if (!t)
        return nullptr;
      terms.push_back(t);
      factors.push_back(f);
    }
    const size_t n = terms.size();

    // fold_divmod_congruence
    std::vector<llvm::SmallVector<I, 2>> choices;
    for (I f : factors) {
      I r = floorMod(f, c);
      if (r * 2 == c || n == 1) {
        choices.push_back({r, r - c});
      } else {
        I a = r < 0 ? -r : r, bb = (r - c) < 0 ? c - r : r - c;
        choices.push_back({bb < a ? r - c : r});
      }
    }
    std::vector<size_t> idx(n, 0);
    for (bool done = n == 0; !done;) {
      llvm::SmallVector<UOpRef> prods;
      for (size_t i = 0; i < n; ++i)
        prods.push_back(py::rmul(ctx, choices[i][idx[i]], terms[i]));
      UOpRef rem = py::add(ctx, py::pysum(ctx, prods), floorMod(cst, c));
      I lo = ib(rem->vmin()), hi = ib(rem->vmax());
      if (floorDiv(lo, c) == floorDiv(hi, c)) {
        if (!isDiv)
          return py::sub(ctx, rem, floorDiv(lo, c) * c);
        llvm::SmallVector<UOpRef> qs;
        for (size_t i = 0; i < n; ++i)
          qs.push_back(py::rmul(ctx, floorDiv(factors[i] - choices[i][idx[i]], c), terms[i]));
        UOpRef q = py::add(ctx, py::pysum(ctx, qs), floorDiv(cst, c));
        return py::add(ctx, q, floorDiv(lo, c));
      }
      // itertools.product order: the last position varies fastest
      for (size_t p = n;;) {
        if (p == 0) {
          done = true;
          break;
        }
        --p;
        if (++idx[p] < choices[p].size())
          break;
        idx[p] = 0;
      }
    }

    // gcd_with_remainder
    I g = c;
    for (I f : factors)
      g = gcd(g, f);
    if (g > 1) {
      UOpRef dv = ctx.divides(xPeeled, g);
      if (!dv)
        return fail("gcd_with_remainder: numerator does not divide");
      UOpRef newX = py::add(ctx, simplify(ctx, dv), floorMod(floorDiv(cst, g), c / g));
      if (ge0(newX->vmin())) {
        if (!isDiv)
          return py::add(ctx, py::mul(ctx, py::mod(ctx, newX, c / g), g), floorMod(cst, g));
        return py::add(ctx, py::floordiv(ctx, newX, c / g), floorDiv(cst, c));
      }
    }

    // nest_by_factor
    llvm::SmallVector<I> cand;
    for (size_t i = 0; i < n; ++i) {
      I f = factors[i], af = f < 0 ? -f : f;
      if (noConst[i]->op != Op::CONST && 1 < af && af < c && floorMod(c, f) == 0)
        cand.push_back(af);
    }
    std::optional<std::pair<size_t, UOpRef>> best;
    for (I div : pySetOrder(cand)) {
      UOpRef newxs = general(py::floordiv(ctx, x, div));
      if (failed)
        return nullptr;
      if (!newxs)
        continue;
      std::optional<std::pair<size_t, UOpRef>> res;
      if (isDiv) {
        res = {ctx.backwardSliceSize(newxs), py::floordiv(ctx, newxs, c / div)};
      } else if (ge0(x->vmin()) && ge0(newxs->vmin())) {
        llvm::SmallVector<UOpRef> bParts;
        for (size_t i = 0; i < n; ++i)
          if (I m = floorMod(factors[i], div))
            bParts.push_back(py::rmul(ctx, m, terms[i]));
        if (I m = floorMod(cst, div))
          bParts.push_back(ctx.constLike(x, m));
        UOpRef b = bParts.empty() ? ctx.constLike(x, 0) : py::usum(ctx, bParts);
        if (ge0(b->vmin()) && compareScalar(b->vmax(), Scalar::fromInt(div)) < 0) {
          UOpRef r = py::add(
              ctx, py::mul(ctx, py::mod(ctx, newxs, py::ic(ctx, c / div)), div), b);
          res = {ctx.backwardSliceSize(r), r};
        }
      }
      if (res && (!best || res->first < best->first))
        best = res;
    }
    if (best)
      return best->second;
  }

  // ** variable denominator / fallback rules **
  llvm::SmallVector<UOpRef> all;
  ctx.splitUOp(x, Op::ADD, all);

  // divide_by_gcd: x//y -> (x//gcd)//(y//gcd)
  llvm::SmallVector<UOpRef> gs(all.begin(), all.end());
  gs.push_back(y);
  UOpRef g = ctx.gcd(gs);
  if (!g)
    return nullptr;
  g = simplify(ctx, g);
  if (!(g->op == Op::CONST && isConstVal(g, 1))) {
    if (g->op == Op::CONST && isConstVal(g, 0))
      return nullptr;
    UOpRef xa = ctx.divideExact(x, g), ya = ctx.divideExact(y, g);
    if (!xa || !ya)
      return fail("divide_by_gcd: divide_exact failed");
    UOpRef ret = ctx.alu(d->op, {xa, ya});
    return isDiv ? ret : py::mul(ctx, ret, g);
  }

  // factor_remainder: (d*x+y)//d -> x+y//d
  if (!ge0(y->vmin()) || !ge0(x->vmin()))
    return nullptr;
  llvm::SmallVector<UOpRef> quo, rem;
  for (UOpRef u : all) {
    if (UOpRef q = ctx.divideExact(u, y)) {
      quo.push_back(q);
      continue;
    }
    if (yc) {
      I cf = ctx.constFactor(u);
      if (floorMod(cf, *yc) != cf) {
        UOpRef dv = ctx.divides(u, cf);
        if (!dv)
          return fail("factor_remainder: term does not divide");
        rem.push_back(py::mul(ctx, dv, floorMod(cf, *yc)));
        quo.push_back(isDiv ? py::mul(ctx, dv, floorDiv(cf, *yc)) : ctx.constLike(u, 0));
        continue;
      }
    }
    rem.push_back(u);
  }
  if (quo.empty())
    return nullptr;
  UOpRef newX = rem.empty() ? py::radd(ctx, 0, ctx.constLike(x, 0))
                            : py::add(ctx, py::pysum(ctx, rem), ctx.constLike(x, 0));
  if (!ge0(newX->vmin()))
    return nullptr;
  if (!isDiv)
    return py::mod(ctx, newX, y);
  return py::add(ctx, py::floordiv(ctx, newX, y), py::pysum(ctx, quo));
}

} // namespace

std::vector<pat::Rule> divAndModRules() {
  return {
      // ** 1. Fast Inline Rules **
      {"(x//c+a)//d -> (x+a*c)//(c*d)", fdiv(fdiv(var(n::x), cvar(n::c)) + cvar(n::a), cvar(n::d)),
       [](Match &m) -> UOpRef {
         UOpRef c = m[n::c], d = m[n::d];
         if (!(compareScalar(d->vmin(), Scalar::fromInt(0)) > 0))
           return nullptr;
         return py::floordiv(m.ctx, py::add(m.ctx, m[n::x], py::mul(m.ctx, m[n::a], c)),
                             py::mul(m.ctx, c, d));
       }},
      {"(x+c)//d -> (x+c%d)//d + c//d ; (x+c)%d -> (x+c%d)%d",
       up({Op::FLOORDIV, Op::FLOORMOD}, {var(n::x, DType::WeakInt) + cvar(n::c), cvar(n::d)}, n::n),
       [](Match &m) -> UOpRef {
         auto cv = cint(m[n::c]), dv = cint(m[n::d]);
         if (!cv || !dv || *dv == 0 || floorMod(*cv, *dv) == *cv)
           return nullptr;
         UOpRef nx = py::add(m.ctx, m[n::x], floorMod(*cv, *dv));
         if (m[n::n]->op == Op::FLOORDIV)
           return py::add(m.ctx, py::floordiv(m.ctx, nx, m[n::d]), floorDiv(*cv, *dv));
         return py::mod(m.ctx, nx, m[n::d]);
       }},
      // ** 2. Slow Rules **
      {"fold_divmod_general", op({Op::FLOORDIV, Op::FLOORMOD}, n::d, DType::WeakInt),
       [](Match &m) { return DivMod(m.ctx).general(m[n::d]); }},
  };
}

} // namespace mlir::tinygrad::sym::rules
