//===- Symbolic.cpp - tinygrad's phase-2 `symbolic` (uop/symbolic.py) -----===//
//
// The rules tinygrad adds on top of symbolic_simple + commutative: boolean
// algebra, combining like terms, where folding, min==max folding, max
// folding, two-stage ALU folding, the lt rules, moving constants to the end,
// range mod/div, cast/long folding and AFTER/END cleanup, in tinygrad's
// order. lt_folding, canonicalize_simplex and fold_where_closure stay
// functions, as in tinygrad.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

#include "llvm/ADT/STLExtras.h"

namespace mlir::tinygrad::sym::rules {
namespace {

int cmp(const Scalar &a, const Scalar &b) { return compareScalar(a, b); }

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
    // assumed the const is the last src of MUL
    if (u->op == Op::MUL && u->src[1]->op == Op::CONST &&
        !u->src[1]->isInvalid() && cmp(u->src[1]->val(), Scalar::fromInt(0)) > 0) {
      changed = true;
      u = u->src[0];
    }
    if (!(isIrreducible(u->op) && cmp(u->vmin(), Scalar::fromInt(0)) >= 0))
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
  // INDEX gates are owned by the valid/store-coalescing machinery
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

/// `x.const_like(x.vmin) if x.vmin == x.vmax else None`
UOpRef constIfSingleValue(Match &m) {
  UOpRef x = m[n::x];
  return py::eq(x->vmin(), x->vmax()) ? m.ctx.constLike(x, x->vmin()) : nullptr;
}

/// `t.op == tt.op == Ops.CONST or f.op == ff.op == Ops.CONST`
bool constBranches(Match &m) {
  return (m[n::t]->op == Op::CONST && m[n::tt]->op == Op::CONST) ||
         (m[n::f]->op == Op::CONST && m[n::ff]->op == Op::CONST);
}

/// v.overflows(dtypes.int)
bool overflowsInt32(UOpRef v) {
  return cmp(v->vmin(), Scalar::fromInt(INT32_MIN)) < 0 ||
         cmp(Scalar::fromInt(INT32_MAX), v->vmax()) < 0;
}

/// "try to do math in int instead of long, keep weak const weak".
UOpRef longMathInInt(Match &m) {
  UOpRef u = m[n::u], x = m[n::x], y = m[n::y];
  if (x->dtype != DType::Int64 && y->dtype != DType::Int64)
    return nullptr;
  for (UOpRef v : {u, x, y})
    if (overflowsInt32(v))
      return nullptr;
  auto conv = [&](UOpRef v) {
    return v->op == Op::CONST ? m.ctx.cnst(v->val(), DType::WeakInt)
                              : py::cast(m.ctx, v, DType::Int32);
  };
  return py::cast(m.ctx, m.ctx.alu(u->op, {conv(x), conv(y)}), u->dtype);
}

/// "only RANGE/IF/STORE/KERNEL have side effects": AFTER keeps src[0] and
/// the side-effecting deps (dedup'd), other deps are replaced by their srcs.
UOpRef afterSideEffects(Match &m) {
  UOpRef x = m[n::x];
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
  return m.ctx.replaceSrc(x, src);
}

} // namespace

std::vector<pat::Rule> symbolicRules() {
  const DTypeSet intsW = intDTypes() | DTypeSet(DType::WeakInt);
  const DTypeSet longW = {DType::Int64, DType::WeakInt};
  std::vector<pat::Rule> rules = {
      // ** boolean algebra **
      {"x|!x -> True", var(n::x, DType::Bool) | var(n::x, DType::Bool).logicalNot(),
       [](Match &m) { return m.ctx.constLike(m[n::x], Scalar::fromBool(true)); }},
      // ** combine terms **
      {"(x*c0)+(x*c1) -> x*(c0+c1)", var(n::x) * cvar(n::c0) + var(n::x) * cvar(n::c1),
       [](Match &m) { return py::mul(m.ctx, m[n::x], py::add(m.ctx, m[n::c0], m[n::c1])); }},
      {"(y+x*c0)+x*c1 -> y+x*(c0+c1)",
       (var(n::y) + var(n::x) * cvar(n::c0)) + var(n::x) * cvar(n::c1),
       [](Match &m) {
         return py::add(m.ctx, m[n::y],
                        py::mul(m.ctx, m[n::x], py::add(m.ctx, m[n::c0], m[n::c1])));
       }},
      {"(x+x*c)-> x*(c+1)", var(n::x) + var(n::x) * cvar(n::c),
       [](Match &m) { return py::mul(m.ctx, m[n::x], py::add(m.ctx, m[n::c], 1)); }},
      {"(y+x)+x*c -> y+x*(c+1)", (var(n::y) + var(n::x)) + var(n::x) * cvar(n::c),
       [](Match &m) {
         return py::add(m.ctx, m[n::y], py::mul(m.ctx, m[n::x], py::add(m.ctx, m[n::c], 1)));
       }},
      {"(y+x*c)+x -> y+x*(c+1)", (var(n::y) + var(n::x) * cvar(n::c)) + var(n::x),
       [](Match &m) {
         return py::add(m.ctx, m[n::y], py::mul(m.ctx, m[n::x], py::add(m.ctx, m[n::c], 1)));
       }},
      {"(x+x)-> x*2", var(n::x) + var(n::x),
       [](Match &m) { return py::mul(m.ctx, m[n::x], 2); }},
      {"(y+x)+x -> y+x*2", (var(n::y) + var(n::x)) + var(n::x),
       [](Match &m) { return py::add(m.ctx, m[n::y], py::mul(m.ctx, m[n::x], 2)); }},
      // `a/b` is MUL(a, RECIPROCAL(b))
      {"(x/x2)/x3 -> x/(x2*x3)",
       (var(n::x) * var(n::x2).f(Op::RECIPROCAL)) * var(n::x3).f(Op::RECIPROCAL),
       [](Match &m) -> UOpRef {
         if (m[n::x2] == m[n::x3])
           return nullptr;
         auto [x, y] = py::promote(m.ctx, m[n::x], py::mul(m.ctx, m[n::x2], m[n::x3]));
         if (isInt(x->dtype) || x->dtype == DType::Bool)
           x = py::cast(m.ctx, x, DType::Float32);
         return m.ctx.alu(Op::MUL, {x, m.ctx.alu(Op::RECIPROCAL, {y})});
       }},
      {"-(x+c) -> -x + -c", cnum(-1) * (var(n::x) + cvar(n::c)),
       [](Match &m) {
         return py::add(m.ctx, py::neg(m.ctx, m[n::x]), py::neg(m.ctx, m[n::c]));
       }},
      {"y*(x+c) -> y*x + y*c", cvar(n::y) * (var(n::x, DType::WeakInt) + cvar(n::c)),
       [](Match &m) {
         return py::add(m.ctx, py::mul(m.ctx, m[n::y], m[n::x]), py::mul(m.ctx, m[n::y], m[n::c]));
       }},
      // ** where folding **
      {"!cond.where(t,f) -> cond.where(f,t)",
       var(n::cond, DType::Bool).logicalNot().where(var(n::t), var(n::f)),
       [](Match &m) -> UOpRef {
         return m[n::f]->isInvalid() ? nullptr : py::where(m.ctx, m[n::cond], m[n::f], m[n::t]);
       }},
      {"fold_where_closure", var(n::cond, DType::Bool).where(var(n::t), var(n::f)),
       [](Match &m) { return foldWhereClosure(m.ctx, m[n::cond], m[n::t], m[n::f]); }},
      {"alu of two where with same conds",
       up(binaryOps(),
          {var(n::c).where(var(n::t), var(n::f)), var(n::c).where(var(n::tt), var(n::ff))},
          n::alu),
       [](Match &m) -> UOpRef {
         if (!constBranches(m))
           return nullptr;
         Op o = m[n::alu]->op;
         return py::where(m.ctx, m[n::c], m.ctx.alu(o, {m[n::t], m[n::tt]}),
                          m.ctx.alu(o, {m[n::f], m[n::ff]}));
       }},
      {"plus: the associative variation",
       (var(n::y) + var(n::c).where(var(n::t), var(n::f))) +
           var(n::c).where(var(n::tt), var(n::ff)),
       [](Match &m) -> UOpRef {
         if (!constBranches(m))
           return nullptr;
         return py::add(m.ctx, m[n::y],
                        py::where(m.ctx, m[n::c], py::add(m.ctx, m[n::t], m[n::tt]),
                                  py::add(m.ctx, m[n::f], m[n::ff])));
       }},
      {"complementary zero branches under the same condition",
       var(n::c).where(var(n::t), cnum(0)) + var(n::c).where(cnum(0), var(n::f)),
       [](Match &m) { return py::where(m.ctx, m[n::c], m[n::t], m[n::f]); }},
      // ALU/variable min==max -> CONST
      {"ALU/variable min==max -> CONST",
       op({Op::CMPLT, Op::CMPNE, Op::FLOORDIV, Op::FLOORMOD, Op::PARAM, Op::AFTER, Op::SPECIAL},
          n::x),
       constIfSingleValue},
      {"RANGE(CONST) min==max -> CONST", upRepeat(Op::RANGE, op(Op::CONST), n::x),
       constIfSingleValue},
      // max folding
      {"(a<b).where(b,c) -> max(a,b)", (cvar(n::a) < var(n::b)).where(var(n::b), cvar(n::c)),
       [](Match &m) -> UOpRef {
         if (!py::eq(m[n::a]->val(), m[n::c]->val()))
           return nullptr;
         return py::binop(m.ctx, Op::MAX, m[n::a], m[n::b]);
       }},
      {"(a<b).where(c,a) -> max(a,b)", (var(n::a) < cvar(n::b)).where(cvar(n::c), var(n::a)),
       [](Match &m) -> UOpRef {
         if (!py::eq(m[n::b]->val(), m[n::c]->val()))
           return nullptr;
         return py::binop(m.ctx, Op::MAX, m[n::a], m[n::b]);
       }},
      {"max(x,y) with disjoint ranges", maximum(var(n::x), var(n::y)),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x], y = m[n::y];
         if (cmp(x->vmin(), y->vmax()) >= 0)
           return x;
         return cmp(x->vmax(), y->vmin()) <= 0 ? y : nullptr;
       }},
  };
  // ** two stage ALU folding **
  for (Op o : associativeOps().ops())
    rules.push_back(
        {"two stage ALU folding",
         var(n::x).alu(o, {cvar(n::c1)}).alu(o, {cvar(n::c2)}).named(n::f), [](Match &m) {
           Op fo = m[n::f]->op;
           return m.ctx.alu(fo, {m[n::x], m.ctx.alu(fo, {m[n::c1], m[n::c2]})});
         }});
  std::vector<pat::Rule> rest = {
      {"(x//c1)//c2 -> x//(c1*c2)", fdiv(fdiv(var(n::x), cvar(n::c1)), cvar(n::c2)),
       [](Match &m) -> UOpRef {
         if (!(cmp(m[n::c2]->vmin(), Scalar::fromInt(0)) > 0))
           return nullptr;
         return py::floordiv(m.ctx, m[n::x], py::mul(m.ctx, m[n::c1], m[n::c2]));
       }},
      // ** lt **
      {"c0+x<c1 -> x < c1-c0", (cvar(n::c0) + var(n::x, intsW)) < cvar(n::c1),
       [](Match &m) { return py::lt(m.ctx, m[n::x], py::sub(m.ctx, m[n::c1], m[n::c0])); }},
      {"c0*x<c1 -> sign(c0)*x < ceil(c1/abs(c0))",
       (cvar(n::c0) * var(n::x, DType::WeakInt)) < cvar(n::c1),
       [](Match &m) -> UOpRef {
         auto c0 = cint(m[n::c0]), c1 = cint(m[n::c1]);
         if (!c0 || !c1)
           return nullptr;
         I a0 = *c0 < 0 ? -*c0 : *c0;
         if (!(a0 > 1))
           return nullptr;
         UOpRef x = *c0 > 0 ? m[n::x] : py::neg(m.ctx, m[n::x]);
         return py::lt(m.ctx, x, -floorDiv(-*c1, a0));
       }},
      {"x//d<c -> x<c*d for d>0, c*d<x for d<0",
       fdiv(var(n::x, DType::WeakInt), cvar(n::d)) < cvar(n::c),
       [](Match &m) -> UOpRef {
         auto d = cint(m[n::d]), c = cint(m[n::c]);
         if (!d || !c || *d == 0)
           return nullptr;
         return *d > 0 ? py::lt(m.ctx, m[n::x], *c * *d) : py::gt(m.ctx, m[n::x], *c * *d);
       }},
      // ** move add/mul consts to end **
      {"move add consts to end", (var(n::x) + cvar(n::c1)) + var(n::y),
       [](Match &m) -> UOpRef {
         if (m[n::y]->op == Op::CONST)
           return nullptr;
         return py::add(m.ctx, py::add(m.ctx, m[n::x], m[n::y]), m[n::c1]);
       }},
      {"move mul consts to end", (var(n::x) * cvar(n::c1)) * var(n::y),
       [](Match &m) -> UOpRef {
         if (m[n::y]->op == Op::CONST)
           return nullptr;
         return py::mul(m.ctx, py::mul(m.ctx, m[n::x], m[n::y]), m[n::c1]);
       }},
      // *** rules from symbolic ***
      {"generic lt folding", var(n::x, DType::WeakInt) < cvar(n::c),
       [](Match &m) -> UOpRef {
         auto c = cint(m[n::c]);
         return c && 0 < *c ? ltFolding(m.ctx, m[n::x], *c) : nullptr;
       }},
      {"x*-1 < y*-1 -> y<x", var(n::x, DType::WeakInt) * -1 < var(n::y) * -1,
       [](Match &m) { return py::lt(m.ctx, m[n::y], m[n::x]); }},
      {"canonicalize_simplex", (var(n::x, DType::WeakInt) < 1).ne(cbool(true)),
       [](Match &m) -> UOpRef {
         UOpRef nx = canonicalizeSimplex(m.ctx, m[n::x]);
         if (!nx)
           return nullptr;
         return py::ne(m.ctx, py::lt(m.ctx, nx, 1), m.ctx.constBool(true));
       }},
      {"a range mod its own upper bound is just the range",
       mod(upRepeat(Op::RANGE, var(n::end), n::r), var(n::end)), to(n::r)},
      {"RANGE // its upper bound -> 0", fdiv(upRepeat(Op::RANGE, var(n::end), n::r), var(n::end)),
       [](Match &m) { return m.ctx.constLike(m[n::r], 0); }},
      // cast/long folding
      {"if the intermediate cast doesnt narrow we can do it in one cast",
       var(n::x).cast({}, n::a).cast({}, n::b),
       [](Match &m) -> UOpRef {
         if (!canLosslessCast(m[n::x]->dtype, m[n::a]->dtype))
           return nullptr;
         return py::cast(m.ctx, m[n::x], m[n::b]->dtype);
       }},
      {"int x.cast(a).cast(b) -> x.cast(b) when x fits a",
       var(n::x, intsW).cast(intsW, n::a).cast({}, n::b),
       [](Match &m) -> UOpRef {
         DType adt = m[n::a]->dtype;
         UOpRef x = m[n::x];
         auto lo = intMinValue(adt), hi = intMaxValue(adt);
         bool okLo = !lo || cmp(Scalar::fromInt(*lo), x->vmin()) <= 0;
         bool okHi = !hi || cmp(x->vmax(), Scalar::fromInt(*hi)) <= 0;
         if (!(okLo && okHi))
           return nullptr;
         return py::cast(m.ctx, x, m[n::b]->dtype);
       }},
      {"try to do math in int instead of long",
       up(binaryOps(), {var(n::x, longW), var(n::y, longW)}, n::u), longMathInInt},
      {"(x+c).cast(sint) -> x.cast + c",
       (var(n::x, DType::WeakInt) + cvar(n::c)).cast(sintDTypes(), n::cast),
       [](Match &m) {
         UOpRef cst = m[n::cast];
         return py::add(m.ctx, py::cast(m.ctx, m[n::x], cst->dtype),
                        m.ctx.constLike(cst, m[n::c]->val()));
       }},
      {"only RANGE/IF/STORE/KERNEL have side effects", op(Op::AFTER, n::x), afterSideEffects},
      {"after/end with 1 src is just src[0]", up({Op::AFTER, Op::END}, {var(n::s)}), to(n::s)},
  };
  std::move(rest.begin(), rest.end(), std::back_inserter(rules));
  return rules;
}

} // namespace mlir::tinygrad::sym::rules
