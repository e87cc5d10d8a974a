//===- EmitCasts.cpp - constants and tinygrad's casts -----------------------===//
//
// Constants and CAST with C semantics, in the types values compute in.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <cmath>

namespace mlir::tinygrad::kernel_emitter {

Value Emitter::constant(const Scalar &s, DType dt) {
  Type t = ty(dt);
  if (!t)
    return {};
  if (s.isInvalid())
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
  if (isa<FloatType>(t)) {
    double v = s.isFloat() ? s.f : s.isBool() ? (s.b ? 1.0 : 0.0) : (double)s.i;
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  }
  __int128 v = s.isInt() ? s.i : s.isBool() ? (s.b ? 1 : 0) : (__int128)s.f;
  unsigned w = t.getIntOrFloatBitWidth();
  APInt ap(128, {(uint64_t)v, (uint64_t)(v >> 64)});
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, ap.trunc(w)));
}

/// tinygrad's CAST with C semantics.
Value Emitter::convert(Value v, DType from, DType to) {
  Value r = convertCompute(v, from, to);
  if (!r || !isHalfLike(to) || from == to)
    return r;
  return roundToStorage(r, to);
}

Value Emitter::roundToStorage(Value v, DType dt) {
  // Through the storage type and back.
  Type mt = memoryType(b.getContext(), dt);
  Value h = arith::TruncFOp::create(b, loc, shapedLike(v, mt), v);
  return arith::ExtFOp::create(b, loc, shapedLike(v, b.getF32Type()), h);
}

Value Emitter::roundLikeC(UOpRef u, Value v) {
  // tinygrad computes bfloat16 ALUs in float and casts each result back
  // (create_non_native_float_pats); a half one is rounded where the C
  // names it, in an `__fp16` variable: a WHERE (MAX too: the Clang renderer
  // has none, tinygrad writes it as a WHERE), or a node used twice, which
  // includes one without lanes read by each lane of another (argmax's
  // `x*c == max*c`: the C compares each float product with the rounded
  // `max*c`).
  bool rounds = u->dtype == DType::BFloat16 ||
                (u->dtype == DType::Float16 && (u->op == K::WHERE || u->op == K::MAX || users.lookup(u) > 1 ||
                                                readPerLane.contains(u)));
  return rounds ? roundToStorage(v, u->dtype) : v;
}

Value Emitter::convertCompute(Value v, DType from, DType to) {
  Type st = ty(from), dt = ty(to);
  if (!st || !dt)
    return {};
  if (st == dt)
    return v;
  bool sf = isa<FloatType>(st), df = isa<FloatType>(dt);
  // Result types carry v's lanes.
  auto S = [&](Type t) { return shapedLike(v, t); };
  if (to == DType::Bool) {
    if (sf)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zeroLike(v));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zeroLike(v));
  }
  if (sf && df) {
    unsigned sw = st.getIntOrFloatBitWidth(), dw = dt.getIntOrFloatBitWidth();
    if (sw < dw || (sw == dw && st != dt && dw == 16)) {
      if (sw == dw) // f16 <-> bf16 through f32
        v = arith::ExtFOp::create(b, loc, S(b.getF32Type()), v), st = b.getF32Type(), sw = 32;
      else
        return arith::ExtFOp::create(b, loc, S(dt), v);
    }
    return arith::TruncFOp::create(b, loc, S(dt), v);
  }
  if (sf)
    return floatToInt(v, to);
  if (df)
    return isUnsignedDT(from) ? arith::UIToFPOp::create(b, loc, S(dt), v).getResult()
                              : arith::SIToFPOp::create(b, loc, S(dt), v).getResult();
  unsigned sw = st.getIntOrFloatBitWidth(), dw = dt.getIntOrFloatBitWidth();
  if (sw > dw)
    return arith::TruncIOp::create(b, loc, S(dt), v);
  return isUnsignedDT(from) ? arith::ExtUIOp::create(b, loc, S(dt), v).getResult()
                            : arith::ExtSIOp::create(b, loc, S(dt), v).getResult();
}

Value Emitter::floatToSigned(Value v, unsigned width) {
  // fptosi of a value outside (-2^(w-1) - 1, 2^(w-1)) or of NaN is poison
  // in LLVM; it only ever sees an in-range value here.
  Type ft = getElementTypeOrSelf(v.getType());
  Type it = b.getIntegerType(width);
  double lim = std::ldexp(1.0, int(width) - 1);
  auto cmp = [&](arith::CmpFPredicate p, double c) {
    return arith::CmpFOp::create(b, loc, p, v, splatLike(v, b.getFloatAttr(ft, c))).getResult();
  };
  // Ordered: false for NaN.
  Value in = arith::AndIOp::create(b, loc, cmp(arith::CmpFPredicate::OGE, -lim), cmp(arith::CmpFPredicate::OLT, lim));
  Value safe = arith::SelectOp::create(b, loc, in, v, zeroLike(v));
  Value r = arith::FPToSIOp::create(b, loc, shapedLike(v, it), safe);
  Value indefinite = splatLike(r, b.getIntegerAttr(it, APInt::getSignedMinValue(width)));
  return arith::SelectOp::create(b, loc, in, r, indefinite);
}

Value Emitter::floatToInt(Value v, DType to) {
  // C leaves a float outside the target's range (and NaN) undefined, and
  // tinygrad's answer there is whatever instruction clang picks (AVX-512's
  // unsigned converts saturate, a vectorized double -> int8 saturates,
  // SSE's give INT_MIN). Ours is one rule, numpy's on x86-64: a signed
  // 32/64-bit target is cvtt* (truncate; NaN and out of range give the
  // "integer indefinite" INT_MIN); narrower types convert to int32 that
  // way and wrap, as C's conversion through int does; an unsigned 32/64-bit
  // target is the generic expansion GCC and LLVM use without a native
  // unsigned convert: below 2^(w-1) (or NaN) the signed conversion, else
  // the signed conversion of x - 2^(w-1) with the top bit flipped.
  Type dt = ty(to);
  unsigned dw = dt.getIntOrFloatBitWidth();
  if (dw < 32) {
    Value r = floatToSigned(v, 32);
    return arith::TruncIOp::create(b, loc, shapedLike(v, dt), r);
  }
  if (!isUnsignedDT(to))
    return floatToSigned(v, dw);
  Type ft = getElementTypeOrSelf(v.getType());
  Value half = splatLike(v, b.getFloatAttr(ft, std::ldexp(1.0, int(dw) - 1)));
  Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, v, half);
  Value x = arith::SelectOp::create(b, loc, big, arith::SubFOp::create(b, loc, v, half), v);
  Value r = floatToSigned(x, dw);
  Value top = splatLike(r, b.getIntegerAttr(dt, APInt::getSignedMinValue(dw)));
  return arith::SelectOp::create(b, loc, big, arith::XOrIOp::create(b, loc, r, top), r);
}

} // namespace mlir::tinygrad::kernel_emitter
