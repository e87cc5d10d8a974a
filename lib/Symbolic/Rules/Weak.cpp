//===- Weak.cpp - pm_cast_weak (tinygrad/uop/weak.py) ---------------------===//
//
// A concrete CAST over a weak node commits the weak sources at the width the
// CAST states (never narrower than the node's default dtype); a CAST of a weak
// CONST becomes a CONST of the CAST's dtype (`commit_weak`). pm_commit_weak's
// literal half: a weak CONST in a concrete node commits at the node's width.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {
namespace {

/// `default_dtype(u)`: default_float for weakfloat; long when the bounds
/// overflow int32, else int.
DType defaultDType(UOpRef u) {
  if (u->dtype == DType::WeakFloat)
    return DType::Float32;
  Scalar lo = Scalar::fromInt(*intMinValue(DType::Int32));
  Scalar hi = Scalar::fromInt(*intMaxValue(DType::Int32));
  bool overflows = compareScalar(u->vmin(), lo) < 0 || compareScalar(hi, u->vmax()) < 0;
  return overflows ? DType::Int64 : DType::Int32;
}

/// `commit_srcs_at(u, dt)`: weak sources commit at dt; the node re-derives
/// its dtype from the new sources.
UOpRef commitSrcsAt(Context &ctx, UOpRef u, DType dt, const char *rule) {
  llvm::SmallVector<UOpRef, 3> src;
  for (UOpRef s : u->src) {
    UOpRef c = isWeak(s->dtype) ? py::commitWeak(ctx, s, dt, rule) : s;
    if (!c)
      return nullptr;
    src.push_back(c);
  }
  return ctx.alu(u->op, src);
}

/// cast_weak_srcs(c, u).
UOpRef castWeakSrcs(pat::Match &m) {
  const char *R = "cast_weak_srcs";
  UOpRef c = m[n::c], u = m[n::u];
  if (isWeak(c->dtype) || weakDType(c->dtype) != u->dtype)
    return nullptr;
  auto dt = leastUpperDType({c->dtype, defaultDType(u)});
  if (!dt)
    return py::fail(m.ctx, R, "least_upper_dtype raised");
  UOpRef committed = commitSrcsAt(m.ctx, u, *dt, R);
  return committed ? py::cast(m.ctx, committed, c->dtype) : nullptr;
}

/// A source commit_weak_srcs commits here: a weak literal, or a weakfloat
/// expression (CAST to the node's float width, which the float cast_weak
/// below pushes into the expression). A weakint expression keeps its edge:
/// the index dtypes are the emitter's.
bool committedSource(UOpRef s) {
  if (s->op == Op::CONST)
    return isWeak(s->dtype) && !s->val().isInvalid();
  return s->dtype == DType::WeakFloat;
}

/// commit_weak_srcs(u): a literal in a concrete node takes the node's width
/// (a float64 op's 1/ln2 stays a double, a half op's 0.1 rounds to half)
/// instead of the default_float it would lower to, and a weakfloat
/// expression is cast to it, so that cast_weak computes it at that width,
/// never narrower than float32: a float64 max of tanh(int) computes the
/// tanh in double, as tinygrad's C does (computed at float32 and converted,
/// its low bits were zeros). A weakint expression keeps its edge.
UOpRef commitWeakConstSrcs(pat::Match &m) {
  const char *R = "commit_weak_srcs";
  UOpRef u = m[n::u];
  bool anyCommitted = false;
  llvm::SmallVector<DType, 3> dts;
  for (auto [i, s] : llvm::enumerate(u->src)) {
    anyCommitted |= committedSource(s) && !(u->op == Op::WHERE && i == 0);
    dts.push_back(s->dtype);
  }
  if (!anyCommitted)
    return nullptr;
  // WHERE's condition is no part of the width (bool joins nothing).
  if (u->op == Op::WHERE)
    dts.erase(dts.begin());
  auto dt = leastUpperDType(dts);
  if (!dt)
    return py::fail(m.ctx, R, "least_upper_dtype raised");
  if (isWeak(*dt))
    return nullptr;
  llvm::SmallVector<UOpRef, 3> src;
  for (auto [i, s] : llvm::enumerate(u->src)) {
    bool commit = committedSource(s) && !(u->op == Op::WHERE && i == 0) &&
                  (s->op == Op::CONST || isFloat(*dt));
    UOpRef c = commit ? py::commitWeak(m.ctx, s, *dt, R) : s;
    if (!c)
      return nullptr;
    src.push_back(c);
  }
  UOpRef r = m.ctx.alu(u->op, src);
  return r && r->dtype == u->dtype ? r : nullptr;
}

} // namespace

std::vector<pat::Rule> commitWeakRules() {
  return {
      {"commit_weak_srcs (CONST)", op(binaryOps() | ternaryOps(), n::u), commitWeakConstSrcs},
      // demand from the destination: a stored weak literal commits at the buffer's dtype
      {"STORE(idx, weak CONST) -> commit_weak",
       up(Op::STORE, {var(n::x), cvar(n::c, weakDTypes())}, n::u).allowAnyLen(),
       [](pat::Match &m) -> UOpRef {
         UOpRef u = m[n::u], x = m[n::x], c = m[n::c];
         if (isWeak(x->dtype) || c->val().isInvalid())
           return nullptr;
         UOpRef v = py::commitWeak(m.ctx, c, x->dtype, "pm_commit_weak");
         if (!v)
           return nullptr;
         llvm::SmallVector<UOpRef, 4> src(u->src.begin(), u->src.end());
         src[1] = v;
         return m.ctx.replaceSrc(u, src);
       }},
  };
}

std::vector<pat::Rule> castWeakFloatRules() {
  return {{"cast_weak_srcs (weakfloat)", up(Op::CAST, {op(aluOps(), n::u, {DType::WeakFloat})}, n::c), castWeakSrcs}};
}

std::vector<pat::Rule> castWeakRules() {
  return {
      {"cast_weak_srcs",
       up(Op::CAST, {op(aluOps(), n::u, weakDTypes())}, n::c), castWeakSrcs},
      {"CAST(weak CONST) -> commit_weak",
       up(Op::CAST, {cvar(n::u, weakDTypes())}, n::c),
       [](pat::Match &m) { return py::commitWeak(m.ctx, m[n::u], m[n::c]->dtype, "pm_cast_weak"); }},
  };
}

} // namespace mlir::tinygrad::sym::rules
