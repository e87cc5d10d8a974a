//===- Bounds.cpp - vmin/vmax: tinygrad's _min_max ------------------------===//
//
// Interval rules exactly as tinygrad's `UOp._min_max`, evaluated lazily and
// cached on the interned node. Python ints are unbounded; here they are
// __int128 and arithmetic saturates, which only ever widens a range (the
// result still contains tinygrad's) and only for values beyond 2^127.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Symbolic/UOp.h"
#include "tinygrad/Support/PyInt.h"

#include <cmath>

using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;
using mlir::tinygrad::pyint::floorDiv;
using mlir::tinygrad::pyint::floorMod;

using I = __int128;
static constexpr I kMax = ~(static_cast<unsigned __int128>(1) << 127);
static constexpr I kMin = -kMax - 1;

static I toInt(const Scalar &s) {
  if (s.isBool())
    return s.b ? 1 : 0;
  if (s.isFloat())
    return static_cast<I>(s.f);
  return s.i;
}
static bool isIntLike(const Scalar &s) { return s.isInt() || s.isBool(); }
static double toDouble(const Scalar &s) {
  return s.isFloat() ? s.f : static_cast<double>(toInt(s));
}

int sym::compareScalar(const Scalar &a, const Scalar &b) {
  if (isIntLike(a) && isIntLike(b)) {
    I x = toInt(a), y = toInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  double x = toDouble(a), y = toDouble(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
bool sym::scalarLess(const Scalar &a, const Scalar &b) {
  return compareScalar(a, b) < 0;
}

static I satAdd(I a, I b) {
  I r;
  if (__builtin_add_overflow(a, b, &r))
    return a > 0 ? kMax : kMin;
  return r;
}
static I satSub(I a, I b) {
  I r;
  if (__builtin_sub_overflow(a, b, &r))
    return a >= 0 ? kMax : kMin;
  return r;
}
static I satMul(I a, I b) {
  I r;
  if (__builtin_mul_overflow(a, b, &r))
    return ((a < 0) != (b < 0)) ? kMin : kMax;
  return r;
}
static I cDiv(I a, I b) { return a / b; }

static Scalar S(I v) { return Scalar::fromInt(v); }
static Scalar B(bool v) { return Scalar::fromBool(v); }
static std::pair<Scalar, Scalar> P(I a, I b) { return {S(a), S(b)}; }

/// dtype.min / dtype.max as Python values.
static std::pair<Scalar, Scalar> dtypeRange(DType dt) {
  if (dt == DType::Bool)
    return {B(false), B(true)};
  if (isInt(dt)) {
    auto lo = intMinValue(dt), hi = intMaxValue(dt);
    return {S(lo ? *lo : kMin), S(hi ? *hi : kMax)};
  }
  if (isFloat(dt))
    return {Scalar::fromFloat(floatMinValue(dt)),
            Scalar::fromFloat(floatMaxValue(dt))};
  return {S(kMin), S(kMax)};
}

static std::pair<Scalar, Scalar> minMaxOf(const UOp &u);

const std::pair<Scalar, Scalar> &UOp::bounds() const {
  if (!cachedBounds)
    cachedBounds = minMaxOf(*this);
  return *cachedBounds;
}

static std::optional<std::pair<Scalar, Scalar>> binaryBounds(const UOp &u) {
  const Scalar &amin = u.src[0]->vmin(), &amax = u.src[0]->vmax();
  const Scalar &bmin = u.src[1]->vmin(), &bmax = u.src[1]->vmax();
  bool allInt = isIntLike(amin) && isIntLike(amax) && isIntLike(bmin) &&
                isIntLike(bmax);
  if (!allInt) {
    // Float operands still compare (e.g. a bool CMPLT of two floats).
    auto lt = [](const Scalar &x, const Scalar &y) { return compareScalar(x, y) < 0; };
    auto eq = [](const Scalar &x, const Scalar &y) { return compareScalar(x, y) == 0; };
    if (u.op == Op::CMPLT)
      return std::make_pair(B(lt(amax, bmin)), B(lt(amin, bmax)));
    if (u.op == Op::CMPNE)
      return std::make_pair(B(lt(amax, bmin) || lt(bmax, amin)),
                            B(!(eq(amin, amax) && eq(amax, bmin) && eq(bmin, bmax))));
    return std::nullopt;
  }
  I a = toInt(amin), A = toInt(amax), b = toInt(bmin), Bv = toInt(bmax);
  switch (u.op) {
  case Op::ADD:
    return P(satAdd(a, b), satAdd(A, Bv));
  case Op::SUB:
    return P(satSub(a, Bv), satSub(A, b));
  case Op::AND:
    if (isInt(u.dtype) && b == Bv && Bv >= 0)
      return P(0, a < 0 ? Bv : std::min(A, Bv));
    if (u.dtype == DType::Bool)
      return std::make_pair(B(a && b), B(A && Bv));
    break;
  case Op::MUL: {
    I v[4] = {satMul(a, b), satMul(a, Bv), satMul(A, b), satMul(A, Bv)};
    return P(*std::min_element(v, v + 4), *std::max_element(v, v + 4));
  }
  case Op::SHL:
    if (b == Bv && b >= 0 && b < 127)
      return P(satMul(a, (I)1 << b), satMul(A, (I)1 << b));
    break;
  case Op::SHR:
    if (b == Bv && b >= 0 && b < 127)
      return P(a >> b, A >> b);
    break;
  case Op::CMOD: {
    I c = b;
    if (c == Bv && c > 0)
      return P(a > 0 ? 0 : (0 >= a && a > -c) ? a : -(Bv - 1),
               A < 0 ? 0 : (0 <= A && A < c) ? A : c - 1);
    if (b > 0)
      return a >= 0 ? P(0, Bv - 1) : A <= 0 ? P(-(Bv - 1), 0) : P(-(Bv - 1), Bv - 1);
    if (Bv < 0)
      return a >= 0 ? P(0, -b - 1) : A <= 0 ? P(-(-b - 1), 0) : P(-(-b - 1), -b - 1);
    break;
  }
  case Op::CDIV:
    if ((b > 0 && Bv > 0) || (b < 0 && Bv < 0)) {
      I v[4] = {cDiv(a, b), cDiv(a, Bv), cDiv(A, b), cDiv(A, Bv)};
      return P(*std::min_element(v, v + 4), *std::max_element(v, v + 4));
    }
    break;
  case Op::FLOORDIV:
    if (a > A)
      return P(0, 0);
    if ((b > 0 && Bv > 0) || (b < 0 && Bv < 0)) {
      I v[4] = {floorDiv(a, b), floorDiv(a, Bv), floorDiv(A, b),
                floorDiv(A, Bv)};
      return P(*std::min_element(v, v + 4), *std::max_element(v, v + 4));
    }
    break;
  case Op::FLOORMOD: {
    if (a > A)
      return P(0, 0);
    I c = b;
    if (c == Bv && c > 0)
      return floorDiv(a, c) == floorDiv(A, c) ? P(floorMod(a, c), floorMod(A, c))
                                                  : P(0, c - 1);
    if (c == Bv && c < 0)
      return floorDiv(a, c) == floorDiv(A, c) ? P(floorMod(a, c), floorMod(A, c))
                                                  : P(c + 1, 0);
    if (b > 0)
      return P(0, Bv - 1);
    if (Bv < 0)
      return P(b + 1, 0);
    break;
  }
  case Op::XOR:
    if (b == Bv && b == -1 && amin.isInt() && amax.isInt())
      return P(~A, ~a);
    break;
  case Op::MAX: {
    // Python max keeps the first of equal values (and its bool-ness).
    const Scalar &lo = compareScalar(amin, bmin) >= 0 ? amin : bmin;
    const Scalar &hi = compareScalar(amax, bmax) >= 0 ? amax : bmax;
    return std::make_pair(lo, hi);
  }
  case Op::CMPLT:
    return std::make_pair(B(A < b), B(a < Bv));
  case Op::CMPNE:
    return std::make_pair(B(A < b || Bv < a), B(!(a == A && A == b && b == Bv)));
  case Op::OR:
    if (u.dtype == DType::Bool)
      return std::make_pair(B(a || b), B(A || Bv));
    break;
  default:
    break;
  }
  // AND on ints without a const mask falls through (handled above).
  return std::nullopt;
}

static std::pair<Scalar, Scalar> minMaxOf(const UOp &u) {
  if (isBinary(u.op) && !isFloat(u.dtype) && u.dtype != DType::WeakFloat)
    if (auto r = binaryBounds(u))
      return *r;
  if (u.op == Op::WHERE && isInt(u.dtype)) {
    const Scalar &lo = scalarLess(u.src[2]->vmin(), u.src[1]->vmin())
                           ? u.src[2]->vmin() : u.src[1]->vmin();
    const Scalar &hi = scalarLess(u.src[1]->vmax(), u.src[2]->vmax())
                           ? u.src[2]->vmax() : u.src[1]->vmax();
    return {lo, hi};
  }
  if (u.op == Op::PARAM || u.op == Op::BUFFER)
    if (auto vmm = u.param().vminVmax)
      return *vmm;
  if ((u.op == Op::RANGE || u.op == Op::SPECIAL) && u.dtype != DType::Void) {
    const Scalar &end = u.src[0]->vmax();
    if (isIntLike(end))
      return P(0, satSub(toInt(end), 1));
  }
  if (u.op == Op::AFTER || u.op == Op::INDEX)
    return u.src[0]->bounds();
  if (u.op == Op::STACK && !u.src.empty()) {
    Scalar lo = u.src[0]->vmin(), hi = u.src[0]->vmax();
    for (UOpRef s : u.src.drop_front()) {
      if (scalarLess(s->vmin(), lo))
        lo = s->vmin();
      if (scalarLess(hi, s->vmax()))
        hi = s->vmax();
    }
    return {lo, hi};
  }
  if (u.op == Op::CONST && !u.val().isInvalid())
    return {u.val(), u.val()};
  if (u.op == Op::CAST && !u.src.empty()) {
    Scalar smin = u.src[0]->vmin(), smax = u.src[0]->vmax();
    bool finite = std::isfinite(toDouble(smin)) && std::isfinite(toDouble(smax));
    if (finite && isFloat(u.dtype) && u.dtype != DType::WeakFloat) {
      auto lo = truncate(u.dtype, Scalar::fromFloat(toDouble(smin)));
      auto hi = truncate(u.dtype, Scalar::fromFloat(toDouble(smax)));
      if (lo && hi)
        smin = *lo, smax = *hi;
    } else if (finite && isInt(u.dtype)) {
      smin = S(toInt(smin));
      smax = S(toInt(smax));
    }
    auto [dmin, dmax] = dtypeRange(u.dtype);
    if (isUnsigned(u.dtype) && compareScalar(S(0), smin) <= 0 &&
        compareScalar(smax, dmax) <= 0)
      return {smin, smax};
    bool clamps = (isFloat(u.dtype) && u.dtype != DType::WeakFloat) ||
                  (isInt(u.dtype) && !isUnsigned(u.dtype));
    if (clamps)
      return {scalarLess(smin, dmin) ? dmin : smin,
              scalarLess(dmax, smax) ? dmax : smax};
  }
  return dtypeRange(u.dtype);
}

std::string sym::formatBound(const Scalar &s) {
  if (s.isBool())
    return s.b ? "True" : "False";
  return s.str();
}
