//===- ReduceCollapse.cpp - pm_reduce_simplify (codegen/simplify.py) ------===//
//
// A REDUCE(ADD) whose source is a closed-form function of its range (the
// arange / one-hot / cumsum patterns) collapses to that closed form: the
// range's subexpressions that do not depend on it become variables, the
// reduce is rewritten with pm_reduce_collapse, and if no range is left the
// variables are substituted back. Reduces over ranges their source does not
// use collapse to a multiply (pm_reduce_unparented).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"
#include "tinygrad/Schedule/LoadCollapse.h"

#include "../Symbolic/Rules/Rules.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;
namespace py = mlir::tinygrad::sym::rules::py;

namespace {

tg::ReduceKind reduceKind(UOpRef red) {
  auto k = red->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(red->arg.attrs.get("kind"))
                          : tg::ReduceKindAttr();
  return k ? k.getValue() : tg::ReduceKind::Add;
}
/// arg == (Ops.ADD, 0): a ranged ADD reduce.
bool isAddReduce(UOpRef u) {
  if (!u->arg.attrs)
    return false;
  auto k = dyn_cast_or_null<tg::ReduceKindAttr>(u->arg.attrs.get("kind"));
  auto nn = dyn_cast_or_null<IntegerAttr>(u->arg.attrs.get("n"));
  return k && k.getValue() == tg::ReduceKind::Add && nn && nn.getInt() == 0;
}
/// `.reduce(..., arg=Ops.ADD)` as a pattern (the ranged form).
Pat addReduce(Pat src, std::vector<Pat> rngs, Name name = Name::None) {
  std::vector<Pat> all{std::move(src)};
  for (Pat &p : rngs)
    all.push_back(std::move(p));
  return up(sym::Op::REDUCE, all, name).withArgIf(isAddReduce);
}

bool noRange(UOpRef u) {
  for (UOpRef x : toposort(u))
    if (x->op == sym::Op::RANGE)
      return false;
  return true;
}

UOpRef reduceAdd(Context &ctx, UOpRef x, llvm::ArrayRef<UOpRef> rngs) {
  return reduceRanged(ctx, x, rngs, tg::ReduceKind::Add);
}

/// The mixin's `t.minimum(x)`: MAX of negations for floats, of `^k` for ints.
UOpRef minimum(Context &ctx, UOpRef t, UOpRef x) {
  auto [a, b] = py::promote(ctx, t, x);
  if (isFloat(a->dtype))
    return py::neg(ctx, ctx.alu(sym::Op::MAX, {py::neg(ctx, a), py::neg(ctx, b)}));
  // k = dt.min + dt.max: -1 for signed ints, dt.max for unsigned
  __int128 k = -1;
  if (isUnsigned(a->dtype))
    k = getInfo(a->dtype).bitsize >= 64 ? (__int128)UINT64_MAX
                                         : (((__int128)1 << getInfo(a->dtype).bitsize) - 1);
  UOpRef ka = py::binopI(ctx, sym::Op::XOR, a, k), kb = py::binopI(ctx, sym::Op::XOR, b, k);
  return py::binopI(ctx, sym::Op::XOR, ctx.alu(sym::Op::MAX, {ka, kb}), k);
}
UOpRef maximum(Context &ctx, UOpRef a, UOpRef b) { return py::binop(ctx, sym::Op::MAX, a, b); }
UOpRef maximumI(Context &ctx, UOpRef a, __int128 c) { return maximum(ctx, a, py::ic(ctx, c)); }

/// sum over r in [0,N) of [lower<=r<upper]*val -> clamp(min(upper,N) - max(lower,0), 0, N) * val
UOpRef sumOfInterval(Match &m) {
  UOpRef r = m[n::r], val = m[n::val], lower = m[n::lower], upper = m[n::upper];
  if (!noRange(val))
    return nullptr;
  Context &ctx = m.ctx;
  UOpRef hi = upper ? minimum(ctx, upper, r->src[0]) : r->src[0];
  UOpRef lo = lower ? maximumI(ctx, lower, 0) : ctx.constLike(r, 0);
  UOpRef len = minimum(ctx, maximumI(ctx, py::sub(ctx, hi, lo), 0), r->src[0]);
  return py::mul(ctx, len, val);
}

const sym::PatternMatcher &pmReduceCollapse() {
  static const sym::PatternMatcher pm = [] {
    sym::PatternMatcher m;
    m.add({
        {"reduce_unparented", op(sym::Op::REDUCE, n::red), [](Match &m) -> UOpRef {
           return sym::reduceUnparented(m.ctx, m[n::red], rangeCache());
         }},
        {"lift x+y out of reduce on lt", (var(n::x) + var(n::y)).orCasted() < var(n::c),
         [](Match &m) -> UOpRef {
           if (!noRange(m[n::y]) || !noRange(m[n::c]))
             return nullptr;
           return py::lt(m.ctx, m[n::x], py::sub(m.ctx, m[n::c], m[n::y]));
         }},
        {"lift x*y out of reduce", (var(n::x) * var(n::y)) < var(n::c), [](Match &m) -> UOpRef {
           UOpRef y = m[n::y], c = m[n::c];
           if (!noRange(y) || !noRange(c) || !isInt(y->dtype) || !y->vmin().isInt() || y->vmin().i <= 0)
             return nullptr;
           UOpRef q = py::floordiv(m.ctx, py::sub(m.ctx, py::add(m.ctx, c, y), 1), y);
           return py::lt(m.ctx, m[n::x], q);
         }},
        {"sum of an interval",
         addReduce(any({(op(sym::Op::RANGE, n::r) < var(n::upper)).where(var(n::val), cnum(0)),
                        (op(sym::Op::RANGE, n::r) < var(n::lower)).where(cnum(0), var(n::val)),
                        ((var(n::r) < var(n::lower)).logicalNot() & (op(sym::Op::RANGE, n::r) < var(n::upper)))
                            .where(var(n::val), cnum(0))}),
                   {var(n::r)}),
         sumOfInterval},
        {"reduce of a gated value",
         addReduce(var(n::cond).where(var(n::x), cinvalid(n::i)), {}, n::r).allowAnyLen(),
         [](Match &m) -> UOpRef {
           if (!noRange(m[n::cond]))
             return nullptr;
           return py::where(m.ctx, m[n::cond], reduceAdd(m.ctx, m[n::x], m[n::r]->src.drop_front()), m[n::i]);
         }},
        {"reduce of a sum", addReduce(var(n::x) + var(n::y), {}, n::r).allowAnyLen(),
         [](Match &m) -> UOpRef {
           auto rr = m[n::r]->src.drop_front();
           return py::add(m.ctx, reduceAdd(m.ctx, m[n::x], rr), reduceAdd(m.ctx, m[n::y], rr));
         }},
        {"AND on WHERE",
         addReduce((op(sym::Op::PARAM, n::x) & var(n::y)).where(var(n::c), cnum(0)), {}, n::r).allowAnyLen(),
         [](Match &m) -> UOpRef {
           UOpRef w = py::where(m.ctx, m[n::y], m[n::c], py::ic(m.ctx, 0));
           return py::mul(m.ctx, reduceAdd(m.ctx, w, m[n::r]->src.drop_front()), m[n::x]);
         }},
        {"MUL casted bool", var(n::x) * var(n::gate, DType::Bool).cast(), [](Match &m) -> UOpRef {
           return py::where(m.ctx, m[n::gate], m[n::x], py::ic(m.ctx, 0));
         }},
    });
    m += sym::symbolic();
    return m;
  }();
  return pm;
}

/// reduce_collapse(red, u, pm).
UOpRef reduceCollapseWith(Match &m, const sym::PatternMatcher &pm) {
  Context &ctx = m.ctx;
  UOpRef red = m[n::red], u = m[n::u];
  RangeCache &rc = rangeCache();
  for (UOpRef r : red->src.drop_front()) {
    std::vector<UOpRef> included = toposort(u, [&](UOpRef x) { return rc.inRanges(r, x); });
    llvm::DenseSet<UOpRef> inc(included.begin(), included.end());
    for (UOpRef x : included)
      if (x->op == sym::Op::STORE || x->op == sym::Op::REDUCE)
        return nullptr;
    llvm::MapVector<UOpRef, UOpRef> replaces;
    for (UOpRef x : included)
      for (UOpRef s : x->src) {
        if (inc.count(s) || replaces.count(s) || s->op == sym::Op::CONST ||
            s->op == sym::Op::PARAM || s->op == sym::Op::BUFFER)
          continue;
        // UOp.variable(f'in{n}', s.vmin, s.vmax, s.dtype, param=True)
        MLIRContext *mc = ctx.getMLIRContext();
        auto vmm = ArrayAttr::get(mc, {tg::getScalarAttr(mc, s->vmin()), tg::getScalarAttr(mc, s->vmax())});
        auto pa = tg::ParamAttr::get(mc, -1, ctx.typeFor(s->dtype), vmm, int64_t(1),
                                     StringAttr::get(mc, "in" + std::to_string(replaces.size())),
                                     tg::AddrSpace::ALU, std::nullopt, {}, false, std::nullopt);
        replaces[s] = ctx.get(sym::Op::PARAM, ctx.typeFor(s->dtype), {ctx.stack({})},
                              sym::Arg{Scalar(), attrs(ctx, {NamedAttribute(StringAttr::get(mc, "arg"), pa)})});
      }
    llvm::DenseMap<UOpRef, UOpRef> fwd, back;
    for (auto &kv : replaces) {
      fwd[kv.first] = kv.second;
      back[kv.second] = kv.first;
    }
    UOpRef fn = reduceAdd(ctx, sym::substitute(ctx, u, fwd), {r});
    UOpRef s = sym::graphRewrite(ctx, fn, pm);
    if (!s || !noRange(s))
      return nullptr;
    u = sym::substitute(ctx, s, back);
  }
  return u;
}
UOpRef reduceCollapse(Match &m) { return reduceCollapseWith(m, pmReduceCollapse()); }

bool noLoad(UOpRef u) {
  for (UOpRef x : toposort(u))
    if (x->op == sym::Op::INDEX)
      return false;
  return true;
}

/// pm_reduce_load_collapse: pm_reduce_collapse and two rules for a REDUCE
/// that only picks one element of a loaded index (indexing by a tensor).
const sym::PatternMatcher &pmReduceLoadCollapse() {
  static const sym::PatternMatcher pm = pmReduceCollapse() + sym::PatternMatcher({
      {"lift x+y out of reduce on ne", (var(n::x) + var(n::y)).orCasted().ne(var(n::c)),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x], y = m[n::y], c = m[n::c];
         if (!noRange(y) || !noRange(c))
           return nullptr;
         return py::ne(m.ctx, x, py::sub(m.ctx, py::cast(m.ctx, c, y->dtype), y));
       }},
      {"reduce on a gated load substitutes the range",
       addReduce(var(n::idx).ne(op(sym::Op::RANGE, n::r).orCasted()).where(cnum(0), var(n::expr)),
                 {var(n::r)}),
       [](Match &m) -> UOpRef {
         Context &ctx = m.ctx;
         UOpRef r = m[n::r], expr = m[n::expr];
         UOpRef i = py::cast(ctx, m[n::idx], r->dtype);
         UOpRef v = py::binop(ctx, sym::Op::AND, py::logicalNot(ctx, py::lt(ctx, i, py::I(0)), "reduce_load_collapse"),
                              py::lt(ctx, i, r->src[0]));
         if (!v)
           return nullptr;
         llvm::DenseMap<UOpRef, UOpRef> map{{r, py::valid(ctx, i, v)}};
         return py::where(ctx, v, sym::substitute(ctx, expr, map), py::ic(ctx, 0));
       }},
  });
  return pm;
}
} // namespace

const sym::PatternMatcher &sched::pmLoadCollapse() {
  static const sym::PatternMatcher pm({
      {"reduce_load_collapse", addReduce(var(n::u), {sym::pat::var()}, n::red),
       [](Match &m) { return reduceCollapseWith(m, pmReduceLoadCollapse()); }},
      // no math on a loaded index (overflow): undoes the rule above
      {"x+y < c on a loaded x", (var(n::x, DType::WeakInt) + var(n::y)) < var(n::c),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x], y = m[n::y], c = m[n::c];
         if (!noLoad(y) || !noLoad(c) || noLoad(x))
           return nullptr;
         return py::lt(m.ctx, x, py::sub(m.ctx, c, y));
       }},
  });
  return pm;
}

UOpRef sched::loadCollapse(Context &ctx, UOpRef sink) {
  ScopedRangeCache cache;
  return sym::graphRewrite(ctx, sink, pmLoadCollapse());
}

const sym::PatternMatcher &sched::pmReduceSimplify() {
  static const sym::PatternMatcher pm({
      {"reduce_collapse", addReduce(var(n::u), {}, n::red).allowAnyLen(), reduceCollapse},
  });
  return pm;
}
