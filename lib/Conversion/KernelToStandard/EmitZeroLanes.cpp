//===- EmitZeroLanes.cpp - lanes tinygrad folds to the constant 0 -----------===//
//
// tinygrad's devectorizer makes every lane its own scalar expression, and
// its symbolic then folds each one: a padded convolution's border lane
// loads its alternative 0, `x*0` becomes 0 and `acc + 0` drops the term.
// Those folds are not IEEE: `-1.5*0` is +0.0 there, and a sum of -0.0
// products keeps its sign because the border's +0.0 terms are gone. The
// emitter keeps the lanes in one vector, so it tracks which lanes are
// statically zero and gives them the folded value (a select on a constant
// mask, which LLVM turns into a blend).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

namespace mlir::tinygrad::kernel_emitter {

Emitter::LaneMask Emitter::maskTo(const LaneMask &m, ArrayRef<UOpRef> from, ArrayRef<UOpRef> to,
                                  const LaneVals *extra) {
  if (m.empty())
    return {};
  LaneMask out;
  for (unsigned l = 0, n = numLanes(to); l < n; ++l)
    out.push_back(m[numLanes(from) <= 1 ? 0 : laneIndex(from, to, l, extra)]);
  return out;
}

static bool isZeroConstant(UOpRef u) {
  if (u->op != K::CONST)
    return false;
  const Scalar &v = u->val();
  return (v.isInt() && v.i == 0) || (v.isBool() && !v.b) || (v.kind == Scalar::Float && v.f == 0.0);
}

Emitter::LaneMask Emitter::zeroLanes(UOpRef u) {
  auto it = zeroMasks.find(u);
  if (it != zeroMasks.end())
    return it->second;
  SmallVector<UOpRef, 2> shape = laneShape(u);
  auto from = [&](UOpRef s) { return maskTo(zeroLanes(s), laneShape(s), shape); };
  LaneMask m;
  switch (u->op) {
  case K::CONST:
    if (isZeroConstant(u))
      m.assign(numLanes(shape), true);
    break;
  case K::RANGE:
    // A lane range's lane 0 is the constant 0.
    if (isLaneRange(u) && shape.size() == 1 && shape[0] == u) {
      m.assign(numLanes(shape), false);
      m[0] = true;
    }
    break;
  case K::INDEX:
  case K::LOAD:
    m = loadZeroLanes.lookup(u);
    break;
  case K::CAST:
    m = from(u->src[0]); // a numeric cast of 0 is 0 (false for a bool)
    break;
  case K::MUL:
  case K::ADD:
  case K::WHERE: {
    bool mul = u->op == K::MUL;
    LaneMask x = from(u->src[mul ? 0 : u->src.size() - 2]), y = from(u->src.back());
    if (mul ? x.empty() && y.empty() : x.empty() || y.empty())
      break;
    if (x.empty() || y.empty()) {
      m = x.empty() ? y : x;
      break;
    }
    m.resize(x.size());
    for (size_t l = 0; l < x.size(); ++l)
      m[l] = mul ? x[l] || y[l] : x[l] && y[l];
    break;
  }
  default:
    break;
  }
  if (llvm::none_of(m, [](bool z) { return z; }))
    m.clear();
  return zeroMasks[u] = m;
}

Value Emitter::maskConstant(ArrayRef<bool> m) {
  if (m.size() == 1)
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(m[0]));
  auto vt = VectorType::get({(int64_t)m.size()}, b.getI1Type());
  return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, m));
}

Value Emitter::selectLanes(ArrayRef<bool> m, Value ifSet, Value otherwise) {
  if (llvm::all_of(m, [](bool z) { return z; }))
    return ifSet;
  if (llvm::none_of(m, [](bool z) { return z; }))
    return otherwise;
  return arith::SelectOp::create(b, loc, maskConstant(m), ifSet, otherwise);
}

Value Emitter::foldZeroLanes(UOpRef u, ArrayRef<Value> v, Value r) {
  if (!r || !isa<FloatType>(getElementTypeOrSelf(r.getType())) || (u->op != K::MUL && u->op != K::ADD))
    return r;
  SmallVector<UOpRef, 2> shape = laneShape(u);
  LaneMask za = maskTo(zeroLanes(u->src[0]), laneShape(u->src[0]), shape);
  LaneMask zb = maskTo(zeroLanes(u->src[1]), laneShape(u->src[1]), shape);
  if (za.empty() && zb.empty())
    return r;
  unsigned n = numLanes(shape);
  za.resize(n, false);
  zb.resize(n, false);
  if (u->op == K::MUL) {
    // x*0 -> 0, unless x is a constant inf or nan (then tinygrad keeps nan).
    auto nonFinite = [](UOpRef x) {
      return x->op == K::CONST && x->val().kind == Scalar::Float && !std::isfinite(x->val().f);
    };
    LaneMask z(n);
    for (unsigned l = 0; l < n; ++l)
      z[l] = (za[l] && !nonFinite(u->src[1])) || (zb[l] && !nonFinite(u->src[0]));
    return selectLanes(z, zeroLike(r), r);
  }
  // x+0 -> x: where one side is zero the sum is the other side (both zero:
  // the constant fold, which is the IEEE sum).
  LaneMask onlyA(n), onlyB(n);
  for (unsigned l = 0; l < n; ++l) {
    onlyA[l] = za[l] && !zb[l];
    onlyB[l] = zb[l] && !za[l];
  }
  return selectLanes(onlyB, v[0], selectLanes(onlyA, v[1], r));
}

} // namespace mlir::tinygrad::kernel_emitter
