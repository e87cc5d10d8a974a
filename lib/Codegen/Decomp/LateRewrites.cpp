//===- LateRewrites.cpp - get_late_rewrite_patterns for the CPU's ops -----===//
//
// tinygrad/codegen/decomp/op.py's late rewrites that change a value or the
// shape of an expression, for the ops tinygrad's Clang renderer has (FDIV,
// NEG, SUB, CMPEQ, CMPLT; no RECIPROCAL): `!(x != y)` is one `x == y`,
// `!(x < c)` one `c-1 < x`, `a*(1/b)` divides once instead of rounding the
// reciprocal, and `x + y*-1` becomes `x - y`, which is no ADD for the C's
// parenthesis stripping (CExpressions.h) to flatten and, on 8/16-bit ints,
// keeps C's borrow. Its other integer rewrites give the same values and
// stay out of the index math our lowering reads.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Decompositions.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Ranges.h"

namespace mlir::tinygrad::decomp {
using sym::Op;
using sym::UOpRef;
using namespace sym::pat;
namespace n = sym::pat::names;

/// A CONST that is -1 at x's width (tinygrad keeps a committed literal's
/// mathematical value, -1; ours wraps it to the dtype, 65535 for uint16).
static bool minusOneAt(UOpRef c, DType dt) {
  if (c->op != Op::CONST || !c->val().isInt())
    return false;
  __int128 v = c->val().i;
  if (v == -1)
    return true;
  auto hi = intMaxValue(dt);
  return isUnsigned(dt) && hi && v == *hi;
}

/// The lane ranges (UPCAST/UNROLL: the emitter's vector lanes) `x` reads,
/// as a mask of their axis ids, with kNotLaneStatic set where x also reads
/// anything a lane does not decide (a load, a loop range, a variable).
/// Memoized in the context: nodes are interned and immutable.
static constexpr uint64_t kNotLaneStatic = uint64_t(1) << 62; // a non-negative int64
static uint64_t laneAxes(sym::Context &ctx, UOpRef x) {
  static const char key = 0;
  llvm::DenseMap<UOpRef, UOpRef> &memo = ctx.memo(&key);
  auto known = [&](UOpRef u) -> std::optional<uint64_t> {
    auto it = memo.find(u);
    if (it == memo.end())
      return std::nullopt;
    return (uint64_t)it->second->val().i;
  };
  if (auto k = known(x))
    return *k;
  for (UOpRef u : sym::toposort(x, [&](UOpRef u) { return !known(u); })) {
    uint64_t mask = 0;
    if (u->op == Op::RANGE) {
      auto t = u->arg.attrs ? dyn_cast_or_null<tg::AxisTypeAttr>(u->arg.attrs.get("axis_type")) : nullptr;
      auto ids = u->arg.attrs ? dyn_cast_or_null<DenseI64ArrayAttr>(u->arg.attrs.get("ids")) : nullptr;
      bool lane = t && (t.getValue() == tg::AxisType::Upcast || t.getValue() == tg::AxisType::Unroll);
      mask = lane && ids && !ids.empty() && ids[0] >= 0 && ids[0] < 62 ? uint64_t(1) << ids[0] : kNotLaneStatic;
    } else if (u->op != Op::CONST && !aluOps().contains(u->op) && u->op != Op::CAST) {
      mask = kNotLaneStatic;
    }
    for (UOpRef s : u->src)
      mask |= *known(s);
    memo[u] = ctx.cnst(Scalar::fromInt((__int128)mask), DType::Int64);
  }
  return *known(x);
}

/// A condition the lanes alone decide (and that reads at least one).
static bool isLaneDecided(sym::Context &ctx, UOpRef c) {
  uint64_t m = laneAxes(ctx, c);
  return m && !(m & kNotLaneStatic);
}

/// Whether `v` does not vary along the lanes of `lanes`, or only through
/// lane-decided WHEREs whose branches do not (a `stack` of several pieces
/// nests one per piece), which the move then splits in turn.
static bool splitsToLaneFree(sym::Context &ctx, UOpRef v, uint64_t lanes, unsigned depth = 16) {
  if (!(laneAxes(ctx, v) & lanes & ~kNotLaneStatic))
    return true;
  return depth && v->op == Op::WHERE && isLaneDecided(ctx, v->src[0]) &&
         splitsToLaneFree(ctx, v->src[1], lanes, depth - 1) && splitsToLaneFree(ctx, v->src[2], lanes, depth - 1);
}

/// tinygrad evaluates a kernel's lanes one by one (the expander, then
/// devectorized ALUs), so a WHERE whose condition only the lanes decide
/// (`cat`/`stack` along an upcast axis) folds to one branch per lane before
/// the late rewrites, which then see each lane's own operands: `r*r` of a
/// sigmoid's `1/y` becomes `(1/y)/y`, `a*b + c` one FMA. Our lanes stay a
/// vector to the emitter, so an op of such a WHERE moves into its branches
/// first, where the branches and the op's other operands do not vary along
/// the condition's lanes but through such WHEREs (each branch is then
/// computed once, as tinygrad does per lane, not a vector per branch).
static UOpRef intoLaneDecidedWhere(sym::pat::Match &m) {
  UOpRef u = m[n::x];
  // Lane-decided WHEREs nested in each other stay as they are: the emitter
  // picks each lane's branch through them all. (The first version, which
  // also moved a WHERE into another's branches, looped on a kernel of
  // random-textual.test; no kernel found since loops without this check.)
  if (u->op == Op::WHERE && isLaneDecided(m.ctx, u->src[0]))
    return nullptr;
  UOpRef c = nullptr;
  for (UOpRef s : u->src)
    if (s->op == Op::WHERE && isLaneDecided(m.ctx, s->src[0])) {
      c = s->src[0];
      break;
    }
  if (!c)
    return nullptr;
  uint64_t cm = laneAxes(m.ctx, c);
  llvm::SmallVector<UOpRef, 3> t, f;
  for (UOpRef s : u->src) {
    bool split = s->op == Op::WHERE && s->src[0] == c;
    UOpRef st = split ? s->src[1] : s, sf = split ? s->src[2] : s;
    if (!splitsToLaneFree(m.ctx, st, cm) || !splitsToLaneFree(m.ctx, sf, cm))
      return nullptr;
    t.push_back(st);
    f.push_back(sf);
  }
  UOpRef ut = m.ctx.get(u->op, u->type, t, u->arg), uf = m.ctx.get(u->op, u->type, f, u->arg);
  return m.ctx.get(Op::WHERE, u->type, {c, ut, uf});
}

/// dtypes.sints, and weakint (index math before the emitter lowers it).
static DTypeSet signedOrIndex() {
  DTypeSet s = sintDTypes();
  s.bits |= DTypeSet(DType::WeakInt).bits;
  return s;
}

std::vector<sym::pat::Rule> lateRewriteRules() {
  return {
      {"op(lane-decided where) -> where(op(branch), op(branch))", op(aluOps() | OpSet{Op::CAST, Op::BITCAST}, n::x),
       intoLaneDecidedWhere},
      // The same for concrete integers: `x + y*-1` is `x - y` in the C, which
      // matters where C's int promotion keeps the borrow (uint16 (a-b)>>2).
      // Index math (weak ints) is left to our lowering's linear forms.
      {"int x*-1 -> NEG(x)", var(n::x, intDTypes()) * cvar(n::c),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x];
         return minusOneAt(m[n::c], x->dtype) ? m.ctx.alu(Op::NEG, {x}) : nullptr;
       }},
      {"int x+NEG(y) -> SUB(x, y)", var(n::x, intDTypes()) + up(Op::NEG, {var(n::y)}),
       [](Match &m) { return m.ctx.alu(Op::SUB, {m[n::x], m[n::y]}); }},
      {"x*-1 -> NEG(x)", var(n::x, floatDTypes()) * -1,
       [](Match &m) { return m.ctx.alu(Op::NEG, {m[n::x]}); }},
      {"x+NEG(y) -> SUB(x, y)", var(n::x, floatDTypes()) + up(Op::NEG, {var(n::y)}),
       [](Match &m) { return m.ctx.alu(Op::SUB, {m[n::x], m[n::y]}); }},
      // The literal is weak in tinygrad: it commits at the reciprocal's
      // float dtype (an int operand converts at the division, as in C).
      {"reciprocal(x) -> 1/x", up(Op::RECIPROCAL, {var(n::x)}, n::r),
       [](Match &m) -> UOpRef {
         UOpRef r = m[n::r];
         UOpRef d = m.ctx.alu(Op::FDIV, {m.ctx.cnst(Scalar::fromFloat(1.0), r->dtype), m[n::x]});
         return d && d->dtype == r->dtype ? d : nullptr;
       }},
      {"a*(1/b) -> a/b", var(n::a) * up(Op::FDIV, {cfloat(1.0), var(n::b)}, Name::None, floatDTypes()),
       [](Match &m) { return m.ctx.alu(Op::FDIV, {m[n::a], m[n::b]}); }},
      // "late because simplex expects equalities in a certain format": a
      // negated compare with a constant is one compare. tinygrad matches
      // dtypes.sints after lowering index math to int32/int64; ours is still
      // weakint here (the emitter picks its width), so that counts too.
      {"(x<c).logical_not() -> c-1<x", (var(n::x, signedOrIndex()) < cvar(n::c)).logicalNot(),
       [](Match &m) -> UOpRef {
         UOpRef c = m[n::c];
         return c->val().isInt() ? m.ctx.lt(m.ctx.cnst(Scalar::fromInt(c->val().i - 1), c->dtype), m[n::x]) : nullptr;
       }},
      {"(c<x).logical_not() -> x<c+1", (cvar(n::c) < var(n::x, signedOrIndex())).logicalNot(),
       [](Match &m) -> UOpRef {
         UOpRef c = m[n::c];
         return c->val().isInt() ? m.ctx.lt(m[n::x], m.ctx.cnst(Scalar::fromInt(c->val().i + 1), c->dtype)) : nullptr;
       }},
      // Clang renders CMPEQ (`==`): not-equal negated is one compare.
      {"x.ne(y).logical_not() -> CMPEQ(x, y)", var(n::x).ne(var(n::y)).logicalNot(),
       [](Match &m) { return m.ctx.alu(Op::CMPEQ, {m[n::x], m[n::y]}); }},
  };
}

} // namespace mlir::tinygrad::decomp
