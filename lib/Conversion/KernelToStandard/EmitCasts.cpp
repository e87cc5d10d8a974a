//===- EmitCasts.cpp - constants and tinygrad's casts -----------------------===//
//
// Constants and CAST with C semantics, in the types values compute in.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

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
  if (sf) {
    // C converts through the integer width of the target; x86 gives the
    // "integer indefinite" value out of range.
    Type wide = dt.getIntOrFloatBitWidth() < 32 ? b.getI32Type() : dt;
    Value r = isUnsignedDT(to) && dt.getIntOrFloatBitWidth() >= 32
                  ? arith::FPToUIOp::create(b, loc, S(wide), v).getResult()
                  : arith::FPToSIOp::create(b, loc, S(wide), v).getResult();
    return wide == dt ? r : arith::TruncIOp::create(b, loc, S(dt), r).getResult();
  }
  if (df)
    return isUnsignedDT(from) ? arith::UIToFPOp::create(b, loc, S(dt), v).getResult()
                              : arith::SIToFPOp::create(b, loc, S(dt), v).getResult();
  unsigned sw = st.getIntOrFloatBitWidth(), dw = dt.getIntOrFloatBitWidth();
  if (sw > dw)
    return arith::TruncIOp::create(b, loc, S(dt), v);
  return isUnsignedDT(from) ? arith::ExtUIOp::create(b, loc, S(dt), v).getResult()
                            : arith::ExtSIOp::create(b, loc, S(dt), v).getResult();
}

} // namespace mlir::tinygrad::kernel_emitter
