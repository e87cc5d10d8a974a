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

/// dtypes.sints, and weakint (index math before the emitter lowers it).
static DTypeSet signedOrIndex() {
  DTypeSet s = sintDTypes();
  s.bits |= DTypeSet(DType::WeakInt).bits;
  return s;
}

std::vector<sym::pat::Rule> lateRewriteRules() {
  return {
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
