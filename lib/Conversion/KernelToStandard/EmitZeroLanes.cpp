//===- EmitZeroLanes.cpp - lanes tinygrad folds to the constant 0 -----------===//
//
// tinygrad's devectorizer makes every lane its own scalar expression, and
// its symbolic then folds each one: a padded convolution's border lane
// loads its alternative 0, `x*0` becomes 0 and `acc + 0` drops the term;
// an op whose operands are constants in a lane is that lane's constant
// (`clip(0, -1.1, 1.1)` of a border lane is 0 again, so a product over it
// is 0).
// Those folds are not IEEE: `x*0` is +0.0 there for a loaded x (a constant
// x is folded first: `-1.5*0` is -0.0), and a sum of -0.0
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
  return lanesTo(m, from, to, extra);
}

static bool isZeroConstant(UOpRef u) {
  if (!u || u->op != K::CONST)
    return false;
  const Scalar &v = u->val();
  return (v.isInt() && v.i == 0) || (v.isBool() && !v.b) || (v.kind == Scalar::Float && v.f == 0.0);
}

static bool isNonFinite(UOpRef x) {
  return x && x->op == K::CONST && x->val().kind == Scalar::Float && !std::isfinite(x->val().f);
}

Emitter::LaneConsts Emitter::constLanes(UOpRef u) {
  auto it = constMasks.find(u);
  if (it != constMasks.end())
    return it->second;
  sym::Context &ctx = u->ctx();
  SmallVector<UOpRef, 2> shape = laneShape(u);
  unsigned n = numLanes(shape);
  auto from = [&](UOpRef s) { return lanesTo(constLanes(s), laneShape(s), shape, nullptr); };
  LaneConsts m;
  if (u->op == K::CONST) {
    m.assign(n, u);
  } else if (u->op == K::RANGE) {
    // A lane range's lane i is the constant i.
    if (isLaneRange(u) && shape.size() == 1 && shape[0] == u)
      for (unsigned l = 0; l < n; ++l)
        m.push_back(ctx.constInt(l, u->dtype));
  } else if (u->op == K::INDEX || u->op == K::LOAD) {
    m = loadConstLanes.lookup(u);
  } else if (u->op == K::REDUCE) {
    m = reduceZeroLanes(u);
  } else if (u->op == K::CAST || u->op == K::BITCAST || sym::isALU(u->op)) {
    SmallVector<LaneConsts, 3> srcs;
    bool any = false;
    for (UOpRef s : u->src) {
      srcs.push_back(from(s));
      any |= !srcs.back().empty();
    }
    if (any) {
      m.assign(n, nullptr);
      auto at = [&](unsigned k, unsigned l) -> UOpRef { return srcs[k].empty() ? nullptr : srcs[k][l]; };
      for (unsigned l = 0; l < n; ++l) {
        SmallVector<UOpRef, 3> c;
        for (unsigned k = 0; k < u->src.size(); ++k)
          c.push_back(at(k, l));
        if (llvm::all_of(c, [](UOpRef x) { return x != nullptr; })) {
          // Every operand a constant: tinygrad's symbolic folds the lane.
          UOpRef folded = sym::graphRewrite(ctx, ctx.get(u->op, u->type, c, u->arg), sym::symbolic());
          m[l] = folded && folded->op == K::CONST ? folded : nullptr;
        } else if (u->op == K::MUL) {
          // x*0 -> 0 (a constant inf or nan times 0 has both operands known).
          if (isZeroConstant(c[0]) || isZeroConstant(c[1]))
            m[l] = ctx.cnst(Scalar::fromInt(0), u->dtype);
        } else if (u->op == K::FDIV) {
          // tinygrad's a*(1/b), made one FDIV by the late rewrites after
          // its per-lane symbolic folded a lane's 0*(1/b) to 0.
          if (isZeroConstant(c[0]))
            m[l] = ctx.cnst(Scalar::fromInt(0), u->dtype);
        } else if (u->op == K::WHERE && c[0] && c[0]->val().isBool()) {
          m[l] = c[0]->val().b ? c[1] : c[2];
        } else if (u->op == K::WHERE && c[1] && c[1] == c[2]) {
          m[l] = c[1]; // c.where(x, x) -> x
        } else if ((u->op == K::AND || u->op == K::OR) && u->dtype == DType::Bool) {
          // x & False -> False, x | True -> True
          bool absorbing = u->op == K::OR;
          for (UOpRef x : c)
            if (x && x->val().isBool() && x->val().b == absorbing)
              m[l] = x;
        }
      }
    }
  }
  if (llvm::none_of(m, [](UOpRef c) { return c != nullptr; }))
    m.clear();
  return constMasks[u] = m;
}

Emitter::LaneConsts Emitter::reduceZeroLanes(UOpRef u) {
  // A horizontal float sum (no loop: tinygrad's chain of ALUs over the
  // unrolled terms) whose every term in a lane is the constant 0 is that
  // lane's folded constant 0, as is a product with one such term (`x*0`):
  // EmitReduce gives those lanes +0.0, and what uses them folds on (a
  // padded border's `sin(0)*x` is 0 for any x, inf included: random-kernels
  // seed 1855 #93). An accumulator's `acc + 0` leaves the accumulator.
  auto kind = u->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(u->arg.attrs.get("kind")) : tg::ReduceKindAttr();
  if (!kind || (kind.getValue() != tg::ReduceKind::Add && kind.getValue() != tg::ReduceKind::Mul) ||
      !isa_and_nonnull<FloatType>(ty(u->dtype)))
    return {};
  bool sum = kind.getValue() == tg::ReduceKind::Add;
  SmallVector<UOpRef, 4> folded;
  for (UOpRef r : closedRanges(u)) {
    if (r->op != K::RANGE || !isLaneRange(r))
      return {};
    folded.push_back(r);
  }
  UOpRef src = u->src[0];
  LaneMask z = zeroLanes(src);
  if (folded.empty() || z.empty())
    return {};
  SmallVector<UOpRef, 2> shape = laneShape(u), srcShape = laneShape(src);
  unsigned n = numLanes(shape);
  LaneMask zero(n, sum);
  for (unsigned c = 0, nFold = numLanes(folded); c < nFold; ++c) {
    LaneVals vals = laneVals(folded, c);
    LaneMask zc = maskTo(z, srcShape, shape, &vals);
    for (unsigned o = 0; o < n; ++o)
      zero[o] = sum ? zero[o] && zc[o] : zero[o] || zc[o];
  }
  LaneConsts m(n, nullptr);
  for (unsigned o = 0; o < n; ++o)
    if (zero[o])
      m[o] = u->ctx().cnst(Scalar::fromInt(0), u->dtype);
  return m;
}

Emitter::LaneMask Emitter::zeroLanes(UOpRef u) {
  LaneConsts c = constLanes(u);
  LaneMask m;
  for (UOpRef x : c)
    m.push_back(isZeroConstant(x));
  if (llvm::none_of(m, [](bool z) { return z; }))
    m.clear();
  return m;
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
  if (!r || !isa<FloatType>(getElementTypeOrSelf(r.getType())) ||
      (u->op != K::MUL && u->op != K::ADD && u->op != K::FDIV))
    return r;
  SmallVector<UOpRef, 2> shape = laneShape(u);
  LaneMask za = maskTo(zeroLanes(u->src[0]), laneShape(u->src[0]), shape);
  LaneMask zb = maskTo(zeroLanes(u->src[1]), laneShape(u->src[1]), shape);
  if (za.empty() && zb.empty())
    return r;
  unsigned n = numLanes(shape);
  za.resize(n, false);
  zb.resize(n, false);
  if (u->op == K::FDIV) {
    // a*(1/b) with a lane's a the constant 0 and b no constant: tinygrad's
    // per-lane symbolic made it +0.0 (x*0) before the late rewrite made it
    // a division, which gives -0.0 for a negative b (random-kernels seed
    // 1925 #83). A constant b was folded with a first: the IEEE value.
    LaneConsts divisor = lanesTo(constLanes(u->src[1]), laneShape(u->src[1]), shape, nullptr);
    LaneMask z(n);
    for (unsigned l = 0; l < n; ++l)
      z[l] = za[l] && (divisor.empty() || !divisor[l]);
    return selectLanes(z, zeroLike(r), r);
  }
  if (u->op == K::MUL) {
    // x*0 -> 0, unless x is a constant inf or nan (then tinygrad keeps nan).
    // A lane whose other operand is a constant too is constant-folded
    // first (fold_const_alu precedes x*0): `0*-1.5` is -0.0 there, the
    // value constLanes holds for that lane.
    LaneConsts folded = constLanes(u);
    auto ft = cast<FloatType>(getElementTypeOrSelf(r.getType()));
    LaneMask z(n);
    SmallVector<APFloat, 8> vals;
    bool allPositiveZero = true;
    for (unsigned l = 0; l < n; ++l) {
      z[l] = (za[l] && !isNonFinite(u->src[1])) || (zb[l] && !isNonFinite(u->src[0]));
      UOpRef c = z[l] && l < folded.size() ? folded[l] : nullptr;
      APFloat v(c && c->val().kind == Scalar::Float ? c->val().f : 0.0);
      bool lost = false;
      v.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      allPositiveZero &= v.isPosZero();
      vals.push_back(v);
    }
    if (allPositiveZero)
      return selectLanes(z, zeroLike(r), r);
    Value k = isa<VectorType>(r.getType())
                  ? arith::ConstantOp::create(b, loc, DenseElementsAttr::get(cast<VectorType>(r.getType()), vals))
                  : arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, vals[0]));
    return selectLanes(z, k, r);
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
