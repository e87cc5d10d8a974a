//===- Transcendental.cpp - tinygrad's xexp2/xlog2/xsin decompositions ----===//
//
// tinygrad/codegen/decomp/transcendental.py: the 1-ulp SLEEF-style
// approximations tinygrad uses where the target has no EXP2/LOG2/SIN (its
// Clang renderer has none), built from ALU ops on the interned graph, so our
// kernels compute the values tinygrad's do. Constants are committed at the
// operand's dtype, as tinygrad's `const_like`/promotion gives them; polyN
// starts from the first coefficient, which is what tinygrad's `0.0*x + c0`
// folds to under the symbolic_simple rules it runs these with.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Decompositions.h"

#include <cmath>

namespace mlir::tinygrad::decomp {
using sym::Context;
using sym::Op;
using sym::UOpRef;
using namespace sym::pat;
namespace n = sym::pat::names;

namespace {

/// UOp arithmetic at fixed dtypes (operands are made to agree first).
struct B {
  Context &c;
  UOpRef k(UOpRef like, double v) { return c.cnst(Scalar::fromFloat(v), like->dtype); }
  UOpRef ki(UOpRef like, __int128 v) { return c.cnst(Scalar::fromInt(v), like->dtype); }
  UOpRef kb(bool v) { return c.constBool(v); }
  UOpRef op(Op o, UOpRef a, UOpRef b) { return c.alu(o, {a, b}); }
  UOpRef add(UOpRef a, UOpRef b) { return op(Op::ADD, a, b); }
  UOpRef mul(UOpRef a, UOpRef b) { return op(Op::MUL, a, b); }
  UOpRef sub(UOpRef a, UOpRef b) { return add(a, neg(b)); }
  UOpRef neg(UOpRef a) {
    return isFloat(a->dtype) ? mul(a, k(a, -1.0)) : mul(a, ki(a, -1));
  }
  UOpRef addf(UOpRef a, double v) { return add(a, k(a, v)); }
  UOpRef mulf(UOpRef a, double v) { return mul(a, k(a, v)); }
  UOpRef addi(UOpRef a, __int128 v) { return add(a, ki(a, v)); }
  UOpRef lt(UOpRef a, UOpRef b) { return op(Op::CMPLT, a, b); }
  UOpRef ltf(UOpRef a, double v) { return lt(a, k(a, v)); }
  UOpRef ne(UOpRef a, UOpRef b) { return op(Op::CMPNE, a, b); }
  UOpRef nef(UOpRef a, double v) { return ne(a, k(a, v)); }
  UOpRef land(UOpRef a, __int128 v) { return op(Op::AND, a, ki(a, v)); }
  UOpRef lor(UOpRef a, UOpRef b) { return op(Op::OR, a, b); }
  UOpRef where(UOpRef cnd, UOpRef t, UOpRef f) { return c.alu(Op::WHERE, {cnd, t, f}); }
  UOpRef cast(UOpRef x, DType dt) { return x->dtype == dt ? x : c.cast(x, dt); }
  UOpRef bitcast(UOpRef x, DType dt) {
    return c.get(Op::BITCAST, c.typeFor(dt), {x},
                 sym::Arg{{}, DictionaryAttr::get(c.getMLIRContext(),
                                                  {NamedAttribute(StringAttr::get(c.getMLIRContext(), "dtype"),
                                                                  TypeAttr::get(c.typeFor(dt)))})});
  }
  /// x // 2**y and x * 2**y (tinygrad's shr/shl on UOps).
  UOpRef shr(UOpRef x, unsigned y) { return op(Op::FLOORDIV, x, ki(x, __int128(1) << y)); }
  UOpRef shl(UOpRef x, unsigned y) { return mul(x, ki(x, __int128(1) << y)); }
  UOpRef polyN(UOpRef x, std::initializer_list<double> p) {
    auto it = p.begin();
    UOpRef acc = k(x, *it++);
    for (; it != p.end(); ++it)
      acc = addf(mul(acc, x), *it);
    return acc;
  }
};

struct FloatInfo {
  DType sint, uint;
  unsigned mant, expBits;
};
FloatInfo info(DType d) {
  switch (d) {
  case DType::Float64: return {DType::Int64, DType::UInt64, 52, 11};
  case DType::Float16: return {DType::Int16, DType::UInt16, 10, 5};
  default: return {DType::Int32, DType::UInt32, 23, 8};
  }
}
int bias(DType d) { return (1 << (info(d).expBits - 1)) - 1; }
int expMask(DType d) { return (1 << info(d).expBits) - 1; }

/// x.ne(inf).where(x.ne(x).where(nan, x.ne(-inf).where(ratio, _inf)), inf)
UOpRef lazyMapNumbers(B &b, UOpRef x, UOpRef inf, UOpRef ninf, UOpRef nan, UOpRef ratio) {
  return b.where(b.nef(x, INFINITY),
                 b.where(b.ne(x, x), nan, b.where(b.nef(x, -INFINITY), ratio, ninf)), inf);
}
UOpRef rintk(B &b, UOpRef d) {
  DType out = info(d->dtype).sint;
  return b.cast(b.add(d, b.where(b.ltf(d, 0.0), b.k(d, -0.5), b.k(d, 0.5))), out);
}
UOpRef pow2if(B &b, UOpRef q, DType floatDT) {
  DType out = q->dtype == DType::Int64 ? DType::Float64 : q->dtype == DType::Int32 ? DType::Float32 : floatDT;
  return b.bitcast(b.shl(b.addi(q, bias(out)), info(out).mant), out);
}
UOpRef ilogb2k(B &b, UOpRef d) {
  UOpRef dint = b.bitcast(d, info(d->dtype).sint);
  return b.addi(b.land(b.shr(dint, info(d->dtype).mant), expMask(d->dtype)), -bias(d->dtype));
}
UOpRef ldexp3k(B &b, UOpRef d, UOpRef e) {
  DType it = info(d->dtype).sint;
  UOpRef m1 = b.bitcast(d, it);
  UOpRef m2 = b.shl(b.cast(e, it), info(d->dtype).mant);
  return b.bitcast(b.add(m1, m2), d->dtype);
}
UOpRef ldexp2k(B &b, UOpRef d, UOpRef e) {
  UOpRef h = b.shr(e, 1);
  return b.mul(b.mul(d, pow2if(b, h, d->dtype)), pow2if(b, b.sub(e, h), d->dtype));
}
std::pair<UOpRef, UOpRef> frexp(B &b, UOpRef v) {
  DType d = v->dtype;
  __int128 m1 = d == DType::Float64 ? 0x000FFFFFFFFFFFFF : d == DType::Float32 ? 0x807FFFFF : 0x83FF;
  __int128 m2 = d == DType::Float64 ? 0x3FE0000000000000 : d == DType::Float32 ? 0x3F000000 : 0x3800;
  UOpRef bits = b.bitcast(v, info(d).uint);
  UOpRef exponent = b.land(b.shr(bits, info(d).mant), expMask(d));
  UOpRef mantissa = b.bitcast(b.op(Op::OR, b.land(bits, m1), b.ki(bits, m2)), d);
  UOpRef e = b.addi(b.addi(exponent, -bias(d)), 1);
  return {mantissa, e};
}

std::pair<UOpRef, UOpRef> payneHanek(B &b, UOpRef d) {
  static const uint32_t twoOverPi[] = {0x00000000, 0x28be60db, 0x9391054a, 0x7f09d5f4,
                                       0x7d4d3770, 0x36d8a566, 0x4f10e410};
  const unsigned nTwoOverPi = 7;
  DType inter = d->dtype == DType::Float16 ? DType::Float32 : d->dtype;
  auto [f, e0] = frexp(b, d);
  UOpRef ia = b.cast(b.mulf(b.cast(f, inter), 4.294967296e9), DType::UInt64);
  UOpRef i = b.shr(b.cast(e0, DType::UInt64), 5);
  UOpRef e = b.land(b.cast(e0, DType::Int32), 31);
  UOpRef offset = b.add(b.neg(e), b.ki(e, 32));
  std::function<UOpRef(UOpRef, unsigned, unsigned)> take = [&](UOpRef an, unsigned off, unsigned count) {
    if (count + off < nTwoOverPi - 1)
      an = b.where(b.ne(i, b.ki(i, count)), take(an, off, count + 1), b.ki(an, twoOverPi[count + off]));
    return an;
  };
  UOpRef zero32 = b.c.cnst(Scalar::fromInt(0), DType::UInt32);
  UOpRef a[4];
  for (unsigned j = 0; j < 4; ++j)
    a[j] = take(zero32, j, 0);
  // tinygrad's _shl_lazy/_shr_lazy multiply and floor-divide the u64 of x
  // by the u64 of pow2if(y). Here e is in [0, 31] and 32 - e in [1, 32]:
  // pow2if is exactly 2^y there, x < 2^32, so the product and the quotient
  // are x << y and x >> y, bit for bit. The shifts are what we emit: the
  // division was a 64-bit divide per lane (no vector integer divide on
  // x86), which made a sin kernel's code and its compile several times
  // larger (llama's rope kernels).
  auto shlLazy = [&](UOpRef x, UOpRef y) {
    return b.cast(b.op(Op::SHL, b.cast(x, DType::UInt64), b.cast(y, DType::UInt64)), DType::UInt32);
  };
  auto shrLazy = [&](UOpRef x, UOpRef y) {
    return b.cast(b.op(Op::SHR, b.cast(x, DType::UInt64), b.cast(y, DType::UInt64)), DType::UInt32);
  };
  UOpRef hi = b.lor(shlLazy(a[0], e), shrLazy(a[1], offset));
  UOpRef mi = b.lor(shlLazy(a[1], e), shrLazy(a[2], offset));
  UOpRef lo = b.lor(shlLazy(a[2], e), shrLazy(a[3], offset));
  auto hpMul = [&](UOpRef x, UOpRef y) { return b.mul(b.cast(x, DType::UInt64), b.cast(y, DType::UInt64)); };
  UOpRef p = b.add(b.add(b.shl(hpMul(ia, hi), 32), hpMul(ia, mi)), b.shr(hpMul(ia, lo), 32));
  UOpRef q = b.cast(b.shr(p, 62), DType::Int32);
  p = b.land(p, 0x3fffffffffffffff);
  UOpRef r = b.cast(b.mulf(b.cast(p, inter), 3.4061215800865545e-19), d->dtype);
  UOpRef small = b.ltf(f, 0.5);
  return {b.where(small, r, b.addf(r, -M_PI / 2)), b.where(small, q, b.addi(q, 1))};
}

std::pair<UOpRef, UOpRef> codyWaite(B &b, UOpRef d) {
  const double m1pi = 0.318309886183790671537767526745028724;
  UOpRef qdh = b.mulf(b.cast(b.cast(b.mulf(d, m1pi / 16777216.0), DType::Int64), d->dtype), 16777216.0);
  UOpRef quadrant = d->dtype == DType::Float64 ? rintk(b, b.sub(b.mulf(d, m1pi), qdh)) : rintk(b, b.mulf(d, m1pi));
  std::function<UOpRef(UOpRef, UOpRef)> reduce = [&](UOpRef x, UOpRef q) -> UOpRef {
    if (x->dtype == DType::Float64) {
      const double A = 3.1415926218032836914, Bc = 3.1786509424591713469e-08, C = 1.2246467864107188502e-16,
                   D = 1.2736634327021899816e-24;
      UOpRef r = b.add(b.mulf(qdh, -A), x);
      r = b.add(b.mulf(q, -A), r);
      r = b.add(b.mulf(qdh, -Bc), r);
      r = b.add(b.mulf(q, -Bc), r);
      r = b.add(b.mulf(qdh, -C), r);
      r = b.add(b.mulf(q, -C), r);
      return b.add(b.mulf(b.add(qdh, q), -D), r);
    }
    if (x->dtype == DType::Float16)
      return b.cast(reduce(b.cast(x, DType::Float32), b.cast(q, DType::Float32)), DType::Float16);
    UOpRef r = b.add(b.mulf(q, -3.1414794921875), x);
    r = b.add(b.mulf(q, -0.00011315941810607910156), r);
    r = b.add(b.mulf(q, -1.9841872589410058936e-09), r);
    return b.add(b.mulf(q, -1.2154201256553420762e-10), r);
  };
  return {reduce(d, b.cast(quadrant, d->dtype)), b.cast(quadrant, DType::Int32)};
}

UOpRef sinPoly(B &b, UOpRef d) {
  UOpRef d2 = b.mul(d, d);
  if (d->dtype == DType::Float64)
    return b.mul(d, b.polyN(d2, {-7.97255955009037868891952e-18, 2.81009972710863200091251e-15,
                                 -7.64712219118158833288484e-13, 1.60590430605664501629054e-10,
                                 -2.50521083763502045810755e-08, 2.75573192239198747630416e-06,
                                 -0.000198412698412696162806809, 0.00833333333333332974823815,
                                 -0.166666666666666657414808, 1.0}));
  return b.mul(d, b.polyN(d2, {2.6083159809786593541503e-06, -0.0001981069071916863322258,
                               0.00833307858556509017944336, -0.166666597127914428710938, 1.0}));
}
UOpRef ifand(B &b, UOpRef q, __int128 m) { return b.ne(b.land(q, m), b.ki(q, 0)); }
UOpRef sinPolySmall(B &b, UOpRef d, UOpRef q) {
  UOpRef r = sinPoly(b, d);
  return b.mul(r, b.where(ifand(b, q, 1), b.k(r, -1), b.k(r, 1)));
}
UOpRef sinPolyLarge(B &b, UOpRef d, UOpRef q) {
  UOpRef r = sinPoly(b, b.add(d, b.where(ifand(b, q, 1), b.k(d, M_PI / 2), b.k(d, 0))));
  return b.mul(r, b.where(ifand(b, q, 2), b.k(r, -1), b.k(r, 1)));
}

UOpRef xsin(B &b, UOpRef d) {
  UOpRef zero = b.k(d, 0.0);
  UOpRef x = lazyMapNumbers(b, d, zero, zero, zero, d);
  UOpRef xSign = b.where(b.nef(x, 0), b.where(b.ltf(x, 0), b.k(x, -1), b.k(x, 1)), b.k(x, 0));
  UOpRef xAbs = b.mul(x, xSign);
  auto [r, q] = payneHanek(b, xAbs);
  auto [rs, qs] = codyWaite(b, xAbs);
  UOpRef result = b.where(b.ltf(xAbs, 30.0), sinPolySmall(b, rs, qs), sinPolyLarge(b, r, q));
  result = b.mul(result, xSign);
  UOpRef nan = b.k(d, NAN);
  return lazyMapNumbers(b, d, nan, nan, nan, result);
}

UOpRef xexp2(B &b, UOpRef d) {
  // tinygrad first maps inf, -inf and NaN to 0 (three compares and three
  // selects a lane) so that rintk's conversion sees a finite value; the
  // selects below replace every such lane's result (d >= upper: inf, d <
  // lower: 0, NaN: NaN), so the value computed there is never read, and our
  // float -> int conversion is defined for every input (EmitCasts' guard).
  // Dropping the map gives tinygrad's bits for every input; clang derives the
  // same from tinygrad's C (its `?:` arm runs only where d < upper).
  UOpRef x = d;
  UOpRef q = rintk(b, x);
  UOpRef s = b.sub(x, b.cast(q, x->dtype));
  UOpRef u = d->dtype == DType::Float64
                 ? b.polyN(s, {0.4434359082926529454e-9, 0.7073164598085707425e-8, 0.1017819260921760451e-6,
                               0.1321543872511327615e-5, 0.1525273353517584730e-4, 0.1540353045101147808e-3,
                               0.1333355814670499073e-2, 0.9618129107597600536e-2, 0.5550410866482046596e-1,
                               0.2402265069591012214e+0, 0.6931471805599452862e+0, 0.1000000000000000000e+1})
                 : b.polyN(s, {0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1,
                               0.2402264476e+0, 0.6931471825e+0, 1.0});
  u = ldexp2k(b, u, q);
  double upper = d->dtype == DType::Float64 ? 1024 : d->dtype == DType::Float32 ? 128 : 23;
  double lower = d->dtype == DType::Float64 ? -2000 : d->dtype == DType::Float32 ? -150 : -22;
  // d >= upper is !(d < upper)
  u = b.where(b.ne(b.ltf(d, upper), b.kb(true)), b.k(d, INFINITY), u);
  u = b.where(b.ltf(d, lower), b.k(d, 0.0), u);
  return b.where(b.ne(d, d), b.k(d, NAN), u);
}

UOpRef xlog2(B &b, UOpRef d) {
  unsigned denormalExp = d->dtype == DType::Float16 ? 10 : 64;
  UOpRef isDenormal = b.ltf(d, d->dtype == DType::Float16 ? 6.1e-5 : 1e-4);
  UOpRef a = b.where(isDenormal, b.mulf(d, std::ldexp(1.0, denormalExp)), d);
  UOpRef e = b.cast(ilogb2k(b, b.mulf(a, 1.0 / 0.75)), a->dtype);
  UOpRef m = ldexp3k(b, a, b.neg(e));
  e = b.where(isDenormal, b.addf(e, -double(denormalExp)), e);
  UOpRef x = b.mul(b.addf(m, -1.0), b.c.alu(Op::RECIPROCAL, {b.addf(m, 1.0)}));
  UOpRef x2 = b.mul(x, x);
  UOpRef r;
  if (d->dtype == DType::Float64) {
    UOpRef t = b.polyN(x2, {0.2211941750456081490e+0, 0.2200768693152277689e+0, 0.2623708057488514656e+0,
                            0.3205977477944495502e+0, 0.4121985945485324709e+0, 0.5770780162997058982e+0,
                            0.96179669392608091449});
    r = b.add(b.add(b.mul(t, b.mul(x, x2)), e), b.mulf(x, 2.885390081777926774));
  } else {
    UOpRef t = b.polyN(x2, {0.4374550283e+0, 0.5764790177e+0, 0.9618012905120});
    r = b.add(b.add(b.mul(t, b.mul(x, x2)), e), b.mulf(x, 2.8853900432586669922));
    if (d->dtype == DType::Float32)
      r = b.add(r, b.mulf(x, 3.2734474483568488616e-08));
  }
  r = b.where(b.nef(d, INFINITY), r, b.k(r, INFINITY));
  r = b.where(b.nef(d, 0.0), r, b.k(r, -INFINITY));
  r = b.where(b.ltf(d, -0.0), b.k(r, NAN), r);
  r = b.where(b.ne(d, d), b.k(r, NAN), r);
  return b.where(b.nef(b.c.alu(Op::RECIPROCAL, {d}), -INFINITY), r, b.k(r, -INFINITY));
}

bool transcendentalDType(DType dt) {
  return dt == DType::Float16 || dt == DType::Float32 || dt == DType::Float64;
}

} // namespace

std::vector<sym::pat::Rule> castFloatAluRules() {
  return std::vector<Rule>{
      {"cast float alu operands", up({Op::SIN, Op::LOG2, Op::EXP2, Op::SQRT, Op::RECIPROCAL}, {var(n::x)}, n::u),
       [](Match &m) -> UOpRef {
         UOpRef u = m[n::u], x = m[n::x];
         if (x->dtype == u->dtype)
           return nullptr;
         UOpRef r = m.ctx.alu(u->op, {m.ctx.cast(x, u->dtype)});
         return r && r->dtype == u->dtype ? r : nullptr;
       }},
  };
}

const sym::PatternMatcher &castFloatAluPatterns() {
  static const sym::PatternMatcher pm(castFloatAluRules());
  return pm;
}

std::vector<sym::pat::Rule> transcendentalRules() {
  static const DTypeSet kFloats{DType::Float16, DType::Float32, DType::Float64};
  return std::vector<Rule>{
      {"xexp2", up(Op::EXP2, {var(n::d)}, Name::None, kFloats),
       [](Match &m) { B b{m.ctx}; return xexp2(b, m[n::d]); }},
      {"xlog2", up(Op::LOG2, {var(n::d)}, Name::None, kFloats),
       [](Match &m) { B b{m.ctx}; return xlog2(b, m[n::d]); }},
      {"xsin", up(Op::SIN, {var(n::d)}, Name::None, kFloats),
       [](Match &m) { B b{m.ctx}; return xsin(b, m[n::d]); }},
      // POW reaches codegen unsimplified: tinygrad's sym turns it into xpow.
      {"xpow", up(Op::POW, {var(n::x), var(n::y)}),
       [](Match &m) { return sym::powToExp2Log2(m.ctx, m[n::x], m[n::y]); }},
      // Other float dtypes compute through float32.
      {"transcendental via float32", up({Op::EXP2, Op::LOG2, Op::SIN}, {var(n::d)}, n::x),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x];
         if (!isFloat(x->dtype) || transcendentalDType(x->dtype))
           return nullptr;
         UOpRef f = m.ctx.alu(x->op, {m.ctx.cast(m[n::d], DType::Float32)});
         return m.ctx.cast(f, x->dtype);
       }},
  };
}

const sym::PatternMatcher &transcendentalPatterns() {
  static const sym::PatternMatcher pm = [] {
    sym::PatternMatcher m(transcendentalRules());
    // tinygrad's "late decompositions" rewrite runs both lists at once.
    m.add(lateRewriteRules());
    return m;
  }();
  return pm;
}

} // namespace mlir::tinygrad::decomp
