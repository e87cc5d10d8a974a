//===- Symbolic.cpp - tinygrad's `commutative` and phase-2 `symbolic` -----===//
//
// The rules tinygrad adds on top of symbolic_simple in uop/symbolic.py:
// commutative flipping of weakint ops, then boolean algebra, combining like
// terms, where folding, range folding, max folding, two-stage ALU folding,
// the lt rules, moving constants to the end, range mod/div, cast folding and
// AFTER/END cleanup. Rules are listed in tinygrad's order.
//
// The patterns use the UPat-style matcher in UPat.h.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"
#include "UPat.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <array>

namespace mlir::tinygrad::sym::rules {
namespace {
using namespace upat;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool sameVal(UOpRef a, UOpRef b) { return py::eq(a->val(), b->val()); }
int cmp(const Scalar &a, const Scalar &b) { return compareScalar(a, b); }
bool isIrreducibleOp(Op op) {
  return op == Op::SPECIAL || op == Op::PARAM || op == Op::GETADDR ||
         op == Op::RANGE || op == Op::CONST;
}

/// lt_folding: x < c with the terms that are multiples of a common d > 1 and
/// a non-multiple rest that fits in [0, d) becomes (terms/d) < c//d.
UOpRef ltFolding(Context &ctx, UOpRef x, I c) {
  llvm::SmallVector<UOpRef> parts, p, np;
  ctx.splitUOp(x, Op::ADD, parts);
  for (UOpRef u : parts)
    (ctx.constFactor(u) == 1 ? p : np).push_back(u);
  if (np.empty())
    return nullptr;
  I d = c;
  for (UOpRef u : np)
    d = gcd(d, ctx.constFactor(u));
  if (d <= 1)
    return nullptr;
  I lo = 0, hi = 0;
  for (UOpRef u : p) {
    lo += py::ib(u->vmin());
    hi += py::ib(u->vmax());
  }
  if (!(0 <= lo && hi < d))
    return nullptr;
  UOpRef q = ctx.divides(py::usum(ctx, np), d);
  if (!q) {
    ctx.errors.push_back("lt_folding: sum does not divide");
    return nullptr;
  }
  return py::lt(ctx, q, floorDiv(c, d));
}

/// canonicalize_simplex: sum a_i*x_i (a_i > 0, x_i irreducible >= 0) ->
/// sum x_i, or null when nothing changes or the form does not apply.
UOpRef canonicalizeSimplex(Context &ctx, UOpRef x) {
  llvm::SmallVector<UOpRef> parts, ret;
  ctx.splitUOp(x, Op::ADD, parts);
  bool changed = false;
  for (UOpRef u : parts) {
    if (u->op == Op::MUL && u->src[1]->op == Op::CONST &&
        !u->src[1]->isInvalid() && cmp(u->src[1]->val(), Scalar::fromInt(0)) > 0) {
      changed = true;
      u = u->src[0];
    }
    if (!(isIrreducibleOp(u->op) && cmp(u->vmin(), Scalar::fromInt(0)) >= 0))
      return nullptr;
    ret.push_back(u);
  }
  return changed ? py::usum(ctx, ret) : nullptr;
}

/// fold_where_closure: within t the condition is True, within f False.
UOpRef foldWhereClosure(Context &ctx, UOpRef cond, UOpRef t, UOpRef f) {
  // cond is bool, so `cond in x.bool_slice` is cond in x's backward slice.
  if (!ctx.inBackwardSlice(cond, t) && !ctx.inBackwardSlice(cond, f))
    return nullptr;
  for (UOpRef u : {cond, t, f})
    if (ctx.opInBackwardSlice(u, {Op::INDEX}))
      return nullptr;
  llvm::DenseMap<UOpRef, UOpRef> mt, mf;
  UOpRef tru = ctx.constLike(cond, Scalar::fromBool(true));
  UOpRef fls = ctx.constLike(cond, Scalar::fromBool(false));
  UOpRef nt = cond == tru ? t : (mt[cond] = tru, substitute(ctx, t, mt));
  UOpRef nf = cond == fls ? f : (mf[cond] = fls, substitute(ctx, f, mf));
  return py::where(ctx, cond, nt, nf);
}

constexpr std::initializer_list<DType> kIntsWeak = {
    DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64, DType::Int8,
    DType::Int16, DType::Int32,  DType::Int64,  DType::WeakInt};
constexpr std::initializer_list<DType> kSInts = {DType::Int8, DType::Int16,
                                                 DType::Int32, DType::Int64};

/// v.overflows(int32)
bool overflowsInt32(UOpRef v) {
  return cmp(v->vmin(), Scalar::fromInt(INT32_MIN)) < 0 ||
         cmp(Scalar::fromInt(INT32_MAX), v->vmax()) < 0;
}

std::vector<Op> allOps(bool (*pred)(Op)) {
  std::vector<Op> ops;
  for (unsigned i = 0; i < kNumOps; ++i)
    if (pred(static_cast<Op>(i)))
      ops.push_back(static_cast<Op>(i));
  return ops;
}

/// Two-stage ALU folding for one associative op: (x op c1) op c2 ->
/// x op (c1 op c2).
template <Op OP>
UOpRef twoStage(Context &ctx, UOpRef u) {
  static const P pat = alu(OP, {alu(OP, {var(kX), cvar(kC1)}), cvar(kC2)});
  return run(pat, u, [&](Binds &b) -> UOpRef {
    return ctx.alu(OP, {b[kX], ctx.alu(OP, {b[kC1], b[kC2]})});
  });
}

} // namespace

std::vector<LegacyRule> commutativeRules() {
  return {
      {"commutative flip (weakint)", allOps(isCommutative),
       [](Context &ctx, UOpRef x) -> UOpRef {
         if (x->dtype != DType::WeakInt || x->src.size() != 2)
           return nullptr;
         if (ctx.tuplizeLess(x->src[1], x->src[0]) &&
             !ctx.tuplizeLess(x->src[0], x->src[1]))
           return ctx.replaceSrc(x, {x->src[1], x->src[0]});
         return nullptr;
       }},
  };
}

std::vector<LegacyRule> symbolicRules() {
  std::vector<LegacyRule> rules = {
      // ** boolean algebra **
      {"x|!x -> True", {Op::OR},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = alu(Op::OR, {var(kX, {DType::Bool}),
                                           ne(var(kX, {DType::Bool}), cbool(true))});
         return run(pat, u, [&](Binds &b) {
           return ctx.constLike(b[kX], Scalar::fromBool(true));
         });
       }},
      // ** combine terms **
      {"x*c0+x*c1 -> x*(c0+c1)", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(mul(var(kX), cvar(kC0)), mul(var(kX), cvar(kC1)));
         return run(pat, u, [&](Binds &b) {
           return py::mul(ctx, b[kX], py::add(ctx, b[kC0], b[kC1]));
         });
       }},
      {"(y+x*c0)+x*c1 -> y+x*(c0+c1)", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(add(var(kY), mul(var(kX), cvar(kC0))),
                                  mul(var(kX), cvar(kC1)));
         return run(pat, u, [&](Binds &b) {
           return py::add(ctx, b[kY],
                          py::mul(ctx, b[kX], py::add(ctx, b[kC0], b[kC1])));
         });
       }},
      {"x+x*c -> x*(c+1)", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(var(kX), mul(var(kX), cvar(kC)));
         return run(pat, u, [&](Binds &b) {
           return py::mul(ctx, b[kX], py::add(ctx, b[kC], 1));
         });
       }},
      {"(y+x)+x*c -> y+x*(c+1)", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(add(var(kY), var(kX)), mul(var(kX), cvar(kC)));
         return run(pat, u, [&](Binds &b) {
           return py::add(ctx, b[kY], py::mul(ctx, b[kX], py::add(ctx, b[kC], 1)));
         });
       }},
      {"(y+x*c)+x -> y+x*(c+1)", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(add(var(kY), mul(var(kX), cvar(kC))), var(kX));
         return run(pat, u, [&](Binds &b) {
           return py::add(ctx, b[kY], py::mul(ctx, b[kX], py::add(ctx, b[kC], 1)));
         });
       }},
      {"x+x -> x*2", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(var(kX), var(kX));
         return run(pat, u, [&](Binds &b) { return py::mul(ctx, b[kX], 2); });
       }},
      {"(y+x)+x -> y+x*2", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(add(var(kY), var(kX)), var(kX));
         return run(pat, u, [&](Binds &b) {
           return py::add(ctx, b[kY], py::mul(ctx, b[kX], 2));
         });
       }},
      // (x/x2)/x3 -> x/(x2*x3); `a/b` is MUL(a, RECIPROCAL(b)) here
      {"(x/x2)/x3 -> x/(x2*x3)", {Op::MUL},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat =
             mul(mul(var(kX), up({Op::RECIPROCAL}, {var(kA)})), up({Op::RECIPROCAL}, {var(kB)}));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           if (b[kA] == b[kB])
             return nullptr;
           auto [x, y] = py::promote(ctx, b[kX], py::mul(ctx, b[kA], b[kB]));
           if (isInt(x->dtype) || x->dtype == DType::Bool)
             x = py::cast(ctx, x, DType::Float32);
           return ctx.alu(Op::MUL, {x, ctx.alu(Op::RECIPROCAL, {y})});
         });
       }},
      {"-(x+c) -> -x + -c", {Op::MUL},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = mul(cnum(-1), add(var(kX), cvar(kC)));
         return run(pat, u, [&](Binds &b) {
           return py::add(ctx, py::neg(ctx, b[kX]), py::neg(ctx, b[kC]));
         });
       }},
      {"y*(x+c) -> y*x + y*c (weakint)", {Op::MUL},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = mul(cvar(kY), add(var(kX, {DType::WeakInt}), cvar(kC)));
         return run(pat, u, [&](Binds &b) {
           return py::add(ctx, py::mul(ctx, b[kY], b[kX]), py::mul(ctx, b[kY], b[kC]));
         });
       }},
      // ** where folding **
      {"!cond.where(t,f) -> cond.where(f,t)", {Op::WHERE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat =
             where(ne(var(kCond, {DType::Bool}), cbool(true)), var(kT), var(kF));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           if (b[kF]->isInvalid())
             return nullptr;
           return py::where(ctx, b[kCond], b[kF], b[kT]);
         });
       }},
      {"fold_where_closure", {Op::WHERE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = where(var(kCond, {DType::Bool}), var(kT), var(kF));
         return run(pat, u, [&](Binds &b) {
           return foldWhereClosure(ctx, b[kCond], b[kT], b[kF]);
         });
       }},
      {"alu of two wheres with the same cond", allOps(isBinary),
       [](Context &ctx, UOpRef u) -> UOpRef {
         // any Binary op (the rule is indexed by op), src tuple
         static const P pat =
             up({}, {where(var(kC), var(kT), var(kF)), where(var(kC), var(kTT), var(kFF))});
         return run(pat, u, [&](Binds &b) -> UOpRef {
           bool tc = b[kT]->op == Op::CONST && b[kTT]->op == Op::CONST;
           bool fc = b[kF]->op == Op::CONST && b[kFF]->op == Op::CONST;
           if (!tc && !fc)
             return nullptr;
           return py::where(ctx, b[kC], ctx.alu(u->op, {b[kT], b[kTT]}),
                            ctx.alu(u->op, {b[kF], b[kFF]}));
         });
       }},
      {"(y+c.where(t,f))+c.where(tt,ff)", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(add(var(kY), where(var(kC), var(kT), var(kF))),
                                  where(var(kC), var(kTT), var(kFF)));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           bool tc = b[kT]->op == Op::CONST && b[kTT]->op == Op::CONST;
           bool fc = b[kF]->op == Op::CONST && b[kFF]->op == Op::CONST;
           if (!tc && !fc)
             return nullptr;
           return py::add(ctx, b[kY],
                          py::where(ctx, b[kC], py::add(ctx, b[kT], b[kTT]),
                                    py::add(ctx, b[kF], b[kFF])));
         });
       }},
      {"c.where(t,0)+c.where(0,f) -> c.where(t,f)", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(where(var(kC), var(kT), cnum(0)),
                                  where(var(kC), cnum(0), var(kF)));
         return run(pat, u, [&](Binds &b) {
           return py::where(ctx, b[kC], b[kT], b[kF]);
         });
       }},
      // ** ALU/variable min==max -> CONST **
      {"vmin==vmax -> CONST",
       {Op::CMPLT, Op::CMPNE, Op::FLOORDIV, Op::FLOORMOD, Op::PARAM, Op::AFTER, Op::SPECIAL},
       [](Context &ctx, UOpRef x) -> UOpRef {
         if (!py::eq(x->vmin(), x->vmax()))
           return nullptr;
         return ctx.constLike(x, x->vmin());
       }},
      {"RANGE(const) vmin==vmax -> CONST", {Op::RANGE},
       [](Context &ctx, UOpRef x) -> UOpRef {
         if (x->src.size() != 1 || x->src[0]->op != Op::CONST)
           return nullptr;
         if (!py::eq(x->vmin(), x->vmax()))
           return nullptr;
         return ctx.constLike(x, x->vmin());
       }},
      // ** max folding **
      {"(a<b).where(b,c) -> max(a,b)", {Op::WHERE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = where(lt(cvar(kA), var(kB)), var(kB), cvar(kC));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           return sameVal(b[kA], b[kC]) ? py::binop(ctx, Op::MAX, b[kA], b[kB]) : nullptr;
         });
       }},
      {"(a<b).where(c,a) -> max(a,b)", {Op::WHERE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = where(lt(var(kA), cvar(kB)), cvar(kC), var(kA));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           return sameVal(b[kB], b[kC]) ? py::binop(ctx, Op::MAX, b[kA], b[kB]) : nullptr;
         });
       }},
      {"max(x,y) with disjoint ranges", {Op::MAX},
       [](Context &, UOpRef u) -> UOpRef {
         static const P pat = alu(Op::MAX, {var(kX), var(kY)});
         return run(pat, u, [&](Binds &b) -> UOpRef {
           UOpRef x = b[kX], y = b[kY];
           if (cmp(x->vmin(), y->vmax()) >= 0)
             return x;
           if (cmp(x->vmax(), y->vmin()) <= 0)
             return y;
           return nullptr;
         });
       }},
      // ** two stage ALU folding **
      {"two-stage ADD", {Op::ADD}, twoStage<Op::ADD>},
      {"two-stage MUL", {Op::MUL}, twoStage<Op::MUL>},
      {"two-stage MAX", {Op::MAX}, twoStage<Op::MAX>},
      {"two-stage OR", {Op::OR}, twoStage<Op::OR>},
      {"two-stage AND", {Op::AND}, twoStage<Op::AND>},
      {"(x//c1)//c2 -> x//(c1*c2)", {Op::FLOORDIV},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat =
             alu(Op::FLOORDIV, {alu(Op::FLOORDIV, {var(kX), cvar(kC1)}), cvar(kC2)});
         return run(pat, u, [&](Binds &b) -> UOpRef {
           if (!(cmp(b[kC2]->vmin(), Scalar::fromInt(0)) > 0))
             return nullptr;
           return py::floordiv(ctx, b[kX], py::mul(ctx, b[kC1], b[kC2]));
         });
       }},
      // ** lt **
      {"c0+x<c1 -> x<c1-c0", {Op::CMPLT},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = lt(add(cvar(kC0), var(kX, kIntsWeak)), cvar(kC1));
         return run(pat, u, [&](Binds &b) {
           return py::lt(ctx, b[kX], py::sub(ctx, b[kC1], b[kC0]));
         });
       }},
      {"c0*x<c1 -> sign(c0)*x < ceil(c1/|c0|)", {Op::CMPLT},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = lt(mul(cvar(kC0), var(kX, {DType::WeakInt})), cvar(kC1));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           auto c0 = cint(b[kC0]), c1 = cint(b[kC1]);
           if (!c0 || !c1)
             return nullptr;
           I a0 = *c0 < 0 ? -*c0 : *c0;
           if (!(a0 > 1))
             return nullptr;
           UOpRef x = *c0 > 0 ? b[kX] : py::neg(ctx, b[kX]);
           return py::lt(ctx, x, -floorDiv(-*c1, a0));
         });
       }},
      {"x//d<c -> x<c*d", {Op::CMPLT},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat =
             lt(alu(Op::FLOORDIV, {var(kX, {DType::WeakInt}), cvar(kD)}), cvar(kC));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           auto d = cint(b[kD]), c = cint(b[kC]);
           if (!d || !c)
             return nullptr;
           if (*d > 0)
             return py::lt(ctx, b[kX], *c * *d);
           if (*d < 0)
             return py::gt(ctx, b[kX], *c * *d);
           return nullptr;
         });
       }},
      // ** move add/mul consts to end **
      {"(x+c1)+y -> (x+y)+c1", {Op::ADD},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = add(add(var(kX), cvar(kC1)), var(kY));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           if (b[kY]->op == Op::CONST)
             return nullptr;
           return py::add(ctx, py::add(ctx, b[kX], b[kY]), b[kC1]);
         });
       }},
      {"(x*c1)*y -> (x*y)*c1", {Op::MUL},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = mul(mul(var(kX), cvar(kC1)), var(kY));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           if (b[kY]->op == Op::CONST)
             return nullptr;
           return py::mul(ctx, py::mul(ctx, b[kX], b[kY]), b[kC1]);
         });
       }},
      // ** generic lt folding **
      {"lt_folding", {Op::CMPLT},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = lt(var(kX, {DType::WeakInt}), cvar(kC));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           auto c = cint(b[kC]);
           if (!c || !(0 < *c))
             return nullptr;
           return ltFolding(ctx, b[kX], *c);
         });
       }},
      {"x*-1 < y*-1 -> y<x", {Op::CMPLT},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = lt(mul(var(kX, {DType::WeakInt}), cnum(-1)), mul(var(kY), cnum(-1)));
         return run(pat, u, [&](Binds &b) { return py::lt(ctx, b[kY], b[kX]); });
       }},
      {"canonicalize_simplex", {Op::CMPNE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = ne(lt(var(kX, {DType::WeakInt}), cnum(1)), cbool(true));
         return run(pat, u, [&](Binds &b) -> UOpRef {
           UOpRef nx = canonicalizeSimplex(ctx, b[kX]);
           if (!nx)
             return nullptr;
           return py::ne(ctx, py::lt(ctx, nx, 1), ctx.constBool(true));
         });
       }},
      // ** a range mod/div its own upper bound **
      {"RANGE % end -> RANGE", {Op::FLOORMOD},
       [](Context &, UOpRef u) -> UOpRef {
         static const P pat = [] {
           P r;
           r.ops = {Op::RANGE};
           r.name = kR;
           r.kind = P::Repeat;
           r.src = {var(kEnd)};
           return alu(Op::FLOORMOD, {r, var(kEnd)});
         }();
         return run(pat, u, [&](Binds &b) { return b[kR]; });
       }},
      {"RANGE // end -> 0", {Op::FLOORDIV},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = [] {
           P r;
           r.ops = {Op::RANGE};
           r.name = kR;
           r.kind = P::Repeat;
           r.src = {var(kEnd)};
           return alu(Op::FLOORDIV, {r, var(kEnd)});
         }();
         return run(pat, u, [&](Binds &b) { return ctx.constLike(b[kR], 0); });
       }},
      // ** cast/long folding **
      {"x.cast(a).cast(b) -> x.cast(b) (lossless a)", {Op::CAST},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = castOf(castOf(var(kX), kCastA), kCastB);
         return run(pat, u, [&](Binds &b) -> UOpRef {
           if (!canLosslessCast(b[kX]->dtype, b[kCastA]->dtype))
             return nullptr;
           return py::cast(ctx, b[kX], b[kCastB]->dtype);
         });
       }},
      {"int x.cast(int a).cast(b) -> x.cast(b) when x fits a", {Op::CAST},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = castOf(castOf(var(kX, kIntsWeak), kCastA, kIntsWeak), kCastB);
         return run(pat, u, [&](Binds &b) -> UOpRef {
           DType adt = b[kCastA]->dtype;
           UOpRef x = b[kX];
           auto lo = intMinValue(adt), hi = intMaxValue(adt);
           bool okLo = !lo || cmp(Scalar::fromInt(*lo), x->vmin()) <= 0;
           bool okHi = !hi || cmp(x->vmax(), Scalar::fromInt(*hi)) <= 0;
           if (!(okLo && okHi))
             return nullptr;
           return py::cast(ctx, x, b[kCastB]->dtype);
         });
       }},
      {"long math in int", allOps(isBinary),
       [](Context &ctx, UOpRef u) -> UOpRef {
         if (u->src.size() != 2)
           return nullptr;
         UOpRef x = u->src[0], y = u->src[1];
         auto ok = [](UOpRef v) { return v->dtype == DType::Int64 || v->dtype == DType::WeakInt; };
         if (!ok(x) || !ok(y))
           return nullptr;
         if (x->dtype != DType::Int64 && y->dtype != DType::Int64)
           return nullptr;
         for (UOpRef v : {u, x, y})
           if (overflowsInt32(v))
             return nullptr;
         auto conv = [&](UOpRef v) {
           return v->op == Op::CONST ? ctx.cnst(v->val(), DType::WeakInt)
                                     : py::cast(ctx, v, DType::Int32);
         };
         UOpRef r = ctx.alu(u->op, {conv(x), conv(y)});
         return py::cast(ctx, r, u->dtype);
       }},
      {"(x+c).cast(sint) -> x.cast + c", {Op::CAST},
       [](Context &ctx, UOpRef u) -> UOpRef {
         static const P pat = castOf(add(var(kX, {DType::WeakInt}), cvar(kC)), kCastA, kSInts);
         return run(pat, u, [&](Binds &b) {
           UOpRef cst = b[kCastA];
           return py::add(ctx, py::cast(ctx, b[kX], cst->dtype),
                          ctx.constLike(cst, b[kC]->val()));
         });
       }},
      // ** AFTER / END **
      {"AFTER keeps side-effecting deps", {Op::AFTER},
       [](Context &ctx, UOpRef x) -> UOpRef {
         if (x->src.empty())
           return nullptr;
         llvm::SmallVector<UOpRef> src{x->src[0]};
         auto push = [&](UOpRef s) {
           if (!llvm::is_contained(llvm::ArrayRef(src).drop_front(), s))
             src.push_back(s);
         };
         for (UOpRef y : x->src.drop_front()) {
           switch (y->op) {
           case Op::RANGE: case Op::STORE: case Op::CALL: case Op::FUNCTION:
           case Op::BARRIER: case Op::END: case Op::LINEAR: case Op::STAGE:
             push(y);
             break;
           default:
             for (UOpRef s : y->src)
               push(s);
           }
         }
         return ctx.replaceSrc(x, src);
       }},
      {"AFTER/END with one src", {Op::AFTER, Op::END},
       [](Context &, UOpRef x) -> UOpRef {
         return x->src.size() == 1 ? x->src[0] : nullptr;
       }},
  };
  return rules;
}

} // namespace mlir::tinygrad::sym::rules
