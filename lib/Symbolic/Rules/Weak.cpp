//===- Weak.cpp - pm_cast_weak (tinygrad/uop/weak.py) ---------------------===//
//
// A concrete CAST over a weak node commits the weak sources at the width the
// CAST states (never narrower than the node's default dtype); a CAST of a weak
// CONST becomes a CONST of the CAST's dtype (`commit_weak`).
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

} // namespace

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
