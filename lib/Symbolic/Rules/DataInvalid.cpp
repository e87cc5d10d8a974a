//===- DataInvalid.cpp - pm_data_invalid (tinygrad/uop/symbolic.py) -------===//
//
// Invalid poisons the value: ops move inside the gate so the Invalid reaches
// the LOAD/STORE and folds there. This runs before symbolic so that
// 0*something_that_might_be_invalid does not become 0.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {
namespace {

const char *const R = "pm_data_invalid";

/// invalid_pat: UPat(Ops.CONST, arg=Invalid, name="i").
Pat invalidPat() { return cinvalid(n::i); }
/// invalid_gate: UPat.var("cond").where(UPat.var("x"), invalid_pat).
Pat invalidGate() { return var(n::cond).where(var(n::x), invalidPat()); }
/// GroupOp.Unary|{Ops.CAST, Ops.BITCAST}.
OpSet unaryOrCast() { return unaryOps() | OpSet{Op::CAST, Op::BITCAST}; }
/// GroupOp.Binary-GroupOp.Comparison.
OpSet binaryNoCmp() {
  OpSet s;
  for (Op o : binaryOps().ops())
    if (!comparisonOps().contains(o))
      s.insert(o);
  return s;
}
/// UPat(Ops.INDEX, src=(UPat(), invalid_pat), allow_any_len=True).or_casted().
Pat invalidIndexOrCasted() { return up(Op::INDEX, {var(), invalidPat()}).allowAnyLen().orCasted(); }

UOpRef gateUnary(Match &m) { // cond.where(op.replace(src=(x,)), i)
  UOpRef op = m[n::op];
  UOpRef inner = m.ctx.get(op->op, op->type, {m[n::x]}, op->arg);
  return py::where(m.ctx, m[n::cond], inner, m[n::i], R);
}
UOpRef gateBinaryL(Match &m) { // cond.where(x.alu(alu.op, y), i)
  return py::where(m.ctx, m[n::cond], py::alu(m.ctx, m[n::alu]->op, {m[n::x], m[n::y]}), m[n::i], R);
}
UOpRef gateBinaryR(Match &m) { // cond.where(y.alu(alu.op, x), i)
  return py::where(m.ctx, m[n::cond], py::alu(m.ctx, m[n::alu]->op, {m[n::y], m[n::x]}), m[n::i], R);
}
UOpRef gateWhereCond(Match &m) { // cond.where(x.where(a, b), i)
  return py::where(m.ctx, m[n::cond], py::where(m.ctx, m[n::x], m[n::a], m[n::b], R), m[n::i], R);
}
UOpRef normalizeWhere(Match &m) { // cond.logical_not().where(val, i) if not val.is_invalid else i
  if (m[n::val]->isInvalid())
    return m[n::i];
  return py::where(m.ctx, py::logicalNot(m.ctx, m[n::cond], R), m[n::val], m[n::i], R);
}
UOpRef liftGateTrue(Match &m) { // (a.logical_not()|cond).where(a.where(x, c), i)
  if (m[n::c]->isInvalid())
    return nullptr;
  Context &ctx = m.ctx;
  UOpRef a = m[n::a];
  return py::where(ctx, py::binop(ctx, Op::OR, py::logicalNot(ctx, a, R), m[n::cond], R),
                   py::where(ctx, a, m[n::x], m[n::c], R), m[n::i], R);
}
UOpRef liftGateFalse(Match &m) { // (a|cond).where(a.where(b, x), i)
  if (m[n::b]->isInvalid())
    return nullptr;
  Context &ctx = m.ctx;
  UOpRef a = m[n::a];
  return py::where(ctx, py::binop(ctx, Op::OR, a, m[n::cond], R),
                   py::where(ctx, a, m[n::b], m[n::x], R), m[n::i], R);
}
UOpRef foldGatedLoad(Match &m) { // x.src[1] if len(x.src) > 1 else x.const_like(0)
  UOpRef x = m[n::x];
  if (x->src.size() > 1)
    return x->src[1];
  return py::constLike(m.ctx, x, Scalar::fromInt(0), R);
}

} // namespace

std::vector<pat::Rule> dataInvalidRules() {
  return {
      {"invalid.broadcast() -> Invalid", invalidPat().broadcast(), to(n::i)},
      {"unary(Invalid) -> Invalid", up(unaryOrCast(), {invalidPat()}), to(n::i)},
      {"unary(gate) -> gate(unary)", up(unaryOrCast(), {invalidGate()}, n::op), gateUnary},
      // binary ops move inside the gate, with Invalid in the false branch
      {"binary(gate, y) -> gate(binary)", up(binaryOps(), {invalidGate(), var(n::y)}, n::alu),
       gateBinaryL},
      {"binary(y, gate) -> gate(binary)", up(binaryOps(), {var(n::y), invalidGate()}, n::alu),
       gateBinaryR},
      {"binary(Invalid, _) -> Invalid", upList(binaryNoCmp(), {invalidPat(), var()}), to(n::i)},
      // an Invalid condition poisons the whole where; a gated Invalid condition lifts the gate out
      {"Invalid.where(_, _) -> Invalid", invalidPat().where(var(), var()), to(n::i)},
      {"gate.where(a, b) -> lift gate", invalidGate().where(var(n::a), var(n::b)), gateWhereCond},
      // normalize where(cond, Invalid, val) -> where(~cond, val, Invalid)
      {"c.where(Invalid, v) -> (!c).where(v, Invalid)",
       var(n::cond).where(invalidPat(), var(n::val)), normalizeWhere},
      // lift Invalid out: a.where(cond.where(x, Invalid), c) -> (~a|cond).where(a.where(x, c), Invalid)
      {"a.where(gate, c) -> lift gate", var(n::a).where(invalidGate(), var(n::c)), liftGateTrue},
      {"a.where(b, gate) -> lift gate", var(n::a).where(var(n::b), invalidGate()), liftGateFalse},
      // fold gated LOAD/STORE
      {"STORE(INDEX(_, Invalid)) -> NOOP", up(Op::STORE, {invalidIndexOrCasted(), var()}),
       [](Match &m) { return m.ctx.get(Op::NOOP, m.ctx.typeFor(DType::Void), {}); }},
      {"LOAD(INDEX(_, Invalid)) -> alt", up(Op::LOAD, {invalidIndexOrCasted()}, n::x).allowAnyLen(),
       foldGatedLoad},
  };
}

} // namespace mlir::tinygrad::sym::rules
