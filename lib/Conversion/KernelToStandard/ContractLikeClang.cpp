//===- ContractLikeClang.cpp - the FMAs clang forms in tinygrad's C ---------===//
//
// tinygrad's C is compiled with -ffp-contract=on: clang's front end fuses
// `a*b + c` into one fmuladd where the product is an operand of the sum in
// the same expression, the left operand first (`x*y + u*v` fuses x*y), and
// `a*b - c`, `c - a*b` likewise. The renderer inlines a value used once, so
// the emitter's single-use mulf feeding an addf or subf in the same block is
// exactly such an operand (or, as clang looks through it, the negation of
// one). Left to LLVM's instruction selection (which fuses
// the same pairs when both carry `contract`), the choice could be undone by
// the vectorizers: a product the SLP vectorizer packs into a vector while
// its sum stays scalar reaches the add through an extract and is no longer
// fused (log2 after an argmax's outputs became lanes: 1-2 ulp on 24 of 240
// values). Fusing here, before LLVM, makes it a property of the IR.
//
// A target whose fma rounds twice (TargetDescription::fusedFMA false:
// lavapipe computes GLSL.std.450 Fma as a multiply and an add, measured on
// matmul_64x64x64, 21 of 4096 values past 1e-5) gets an f32 fma as f64 ops:
// the product of two floats is exact in f64, the sum rounds there, then to
// f32 (a double rounding, which differs from one rounding only where the
// f64 sum lies exactly halfway between two floats).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

namespace mlir::tinygrad::kernel_emitter {

static bool contracts(Operation *op) {
  auto fm = op->getAttrOfType<arith::FastMathFlagsAttr>("fastmath");
  return fm && arith::bitEnumContainsAll(fm.getValue(), arith::FastMathFlags::contract);
}

/// A product clang would fuse into the sum `user` it is an operand of.
struct Fusable {
  arith::MulFOp mul;
  /// The negation clang looks through (`-(a*b) + c` is fmuladd(-a, b, c);
  /// tinygrad's C writes a negated unrolled sum `-(a*b)-(c*d)-...`).
  arith::NegFOp neg;
  /// The per-lane folds of padded lanes (Emitter::foldZeroLanes): select(M,
  /// K, a*b) or select(M, a*b, K), M and K constants. tinygrad's C writes
  /// each lane on its own: a kept lane's bare product is fused as anywhere,
  /// a folded lane is the constant (random-kernels seed 2174 #82: a padded
  /// sine's Cody-Waite terms and polynomial went unfused in our kept lanes).
  arith::SelectOp lanes;
  /// One lane of a product with lanes (an unrolled reduce's terms, added to
  /// the accumulator lane by lane): tinygrad's devectorized C writes each
  /// lane's product inline in its own sum, `acc + a0*b0 + a1*b1`, which
  /// clang fuses lane by lane (a half `h*a` over UNROLL 0 4: 320 of 1024
  /// sums 1 ulp off unfused).
  vector::ExtractOp lane;
  explicit operator bool() const { return bool(mul); }
};

static bool isConstant(Value v) { return matchPattern(v, m_Constant()); }

static Fusable fusableProduct(Value v, Operation *user) {
  Fusable f;
  if (auto sel = v.getDefiningOp<arith::SelectOp>()) {
    if (!sel->hasOneUse() || sel->getBlock() != user->getBlock() || !isConstant(sel.getCondition()))
      return {};
    Value x = isConstant(sel.getTrueValue()) ? sel.getFalseValue()
              : isConstant(sel.getFalseValue()) ? sel.getTrueValue()
                                                : Value();
    auto mul = x ? x.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
    if (!mul || !contracts(mul) || !mul->hasOneUse() || mul->getBlock() != user->getBlock())
      return {};
    f.mul = mul;
    f.lanes = sel;
    return f;
  }
  if (auto n = v.getDefiningOp<arith::NegFOp>()) {
    if (!n->hasOneUse() || n->getBlock() != user->getBlock())
      return {};
    auto mul = n.getOperand().getDefiningOp<arith::MulFOp>();
    if (!mul || !contracts(mul) || !mul->hasOneUse() || mul->getBlock() != user->getBlock())
      return {};
    f.mul = mul;
    f.neg = n;
    return f;
  }
  if (auto ex = v.getDefiningOp<vector::ExtractOp>()) {
    // Each lane of the product read once, by one extract each, and nothing
    // else reading it: a lane tinygrad's C keeps inline.
    auto mul = ex.getSource().getDefiningOp<arith::MulFOp>();
    if (!mul || !contracts(mul) || !ex->hasOneUse() || ex.hasDynamicPosition() || mul->getBlock() != user->getBlock() ||
        ex->getBlock() != user->getBlock() || isa<VectorType>(ex.getType()))
      return {};
    for (Operation *u : mul->getUsers()) {
      auto other = dyn_cast<vector::ExtractOp>(u);
      if (!other || other.hasDynamicPosition() || (other != ex && other.getStaticPosition() == ex.getStaticPosition()))
        return {};
    }
    f.mul = mul;
    f.lane = ex;
    return f;
  }
  auto mul = v.getDefiningOp<arith::MulFOp>();
  if (!mul || !contracts(mul) || !mul->hasOneUse() || mul->getBlock() != user->getBlock())
    return {};
  f.mul = mul;
  return f;
}

/// fma(a, b, c) for f32 operands through exact f64 products.
static Value fmaViaF64(OpBuilder &b, Location loc, Value a, Value m, Value c) {
  Type t = a.getType();
  if (!getElementTypeOrSelf(t).isF32())
    return math::FmaOp::create(b, loc, a, m, c);
  Type wide = b.getF64Type();
  if (auto vt = dyn_cast<VectorType>(t))
    wide = VectorType::get(vt.getShape(), wide);
  auto ext = [&](Value x) { return arith::ExtFOp::create(b, loc, wide, x).getResult(); };
  Value p = arith::MulFOp::create(b, loc, ext(a), ext(m));
  return arith::TruncFOp::create(b, loc, t, arith::AddFOp::create(b, loc, p, ext(c)));
}

void contractLikeClang(FunctionOpInterface fn, bool fusedFMA) {
  SmallVector<Operation *> sums;
  fn.walk([&](Operation *op) {
    if (isa<arith::AddFOp, arith::SubFOp>(op) && contracts(op))
      sums.push_back(op);
  });
  // In program order: a sum fused into an FMA is no product for the next.
  for (Operation *op : sums) {
    Value l = op->getOperand(0), r = op->getOperand(1);
    bool sub = isa<arith::SubFOp>(op);
    OpBuilder b(op);
    Location loc = op->getLoc();
    Fusable f = fusableProduct(l, op);
    bool left = bool(f);
    if (!f && !(f = fusableProduct(r, op)))
      continue;
    arith::MulFOp m = f.mul;
    bool neg = bool(f.neg);
    // The product's operands (of its lane).
    Value x = m.getLhs(), y = m.getRhs();
    if (f.lane) {
      x = vector::ExtractOp::create(b, loc, x, f.lane.getStaticPosition());
      y = vector::ExtractOp::create(b, loc, y, f.lane.getStaticPosition());
    }
    Value fma;
    if (left) {
      // a*b + c, a*b - c (-(a*b) + c: -a)
      Value c = sub ? arith::NegFOp::create(b, loc, r).getResult() : r;
      Value a = neg ? arith::NegFOp::create(b, loc, x).getResult() : x;
      fma = fusedFMA ? math::FmaOp::create(b, loc, a, y, c).getResult() : fmaViaF64(b, loc, a, y, c);
    } else {
      // c + a*b, c - a*b (c + -(a*b): -a, c - -(a*b): a)
      Value a = sub != neg ? arith::NegFOp::create(b, loc, x).getResult() : x;
      fma = fusedFMA ? math::FmaOp::create(b, loc, a, y, l).getResult() : fmaViaF64(b, loc, a, y, l);
    }
    if (f.lanes) {
      // The folded lanes: the sum of their constant, as before.
      arith::SelectOp sel = f.lanes;
      bool productIfTrue = sel.getTrueValue() == m.getResult();
      Value k = productIfTrue ? sel.getFalseValue() : sel.getTrueValue();
      Operation *folded = b.clone(*op);
      folded->setOperand(left ? 0 : 1, k);
      Value kept = fma, other = folded->getResult(0);
      fma = arith::SelectOp::create(b, loc, sel.getCondition(), productIfTrue ? kept : other,
                                    productIfTrue ? other : kept);
    }
    op->getResult(0).replaceAllUsesWith(fma);
    op->erase();
    if (f.neg)
      f.neg->erase();
    if (f.lanes)
      f.lanes->erase();
    if (f.lane)
      f.lane->erase();
    if (m->use_empty()) // (a product with lanes: once its last lane is fused)
      m->erase();
  }
}

} // namespace mlir::tinygrad::kernel_emitter
