//===- ScalarALU.cpp - tinygrad scalar constant semantics -----------------===//
//
// Each helper mirrors one Python expression in tinygrad's python_alu, so the
// odd corners (cmod(x, 0) == x, trunc(-0.5) == +0.0, cdiv(1e-300, -1e-300) ==
// 1.0 because the sign test multiplies and underflows) come out the same.
//
//===----------------------------------------------------------------------===//

#include "tinygrad/Support/ScalarALU.h"
#include "FloatFormats.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir::tinygrad;

namespace {
using i128 = __int128;
using u128 = unsigned __int128;

constexpr double kInf = std::numeric_limits<double>::infinity();
// math.nan: a positive quiet nan.
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Python ints with more than ~2**40 bits exhaust memory (MemoryError) before
// any truncation could happen, so shifts/powers that large are "raises".
constexpr i128 kHugeBits = static_cast<i128>(1) << 40;

bool fitsI128(double d) { return d >= -0x1p127 && d < 0x1p127; }

// Tracks what an __int128 cannot represent of a Python int computation.
struct Ctx {
  // Some Int value only holds the true result modulo 2**128.
  bool wrapped = false;
  // A wrapped value was used where its high bits matter; give up.
  bool failed = false;
};

bool isIntLike(const Scalar &s) {
  return s.kind == Scalar::Int || s.kind == Scalar::Bool;
}
i128 asInt(const Scalar &s) { return s.kind == Scalar::Bool ? s.b : s.i; }

// float(x) for an int or float; a wrapped int has no faithful float.
double asDouble(const Scalar &s, Ctx &ctx) {
  if (s.kind == Scalar::Float)
    return s.f;
  if (ctx.wrapped)
    ctx.failed = true;
  return static_cast<double>(asInt(s));
}

bool truthy(const Scalar &s) {
  switch (s.kind) {
  case Scalar::Int: return s.i != 0;
  case Scalar::Float: return s.f != 0.0 || std::isnan(s.f);
  case Scalar::Bool: return s.b;
  case Scalar::Invalid: return true; // plain object: truthy
  }
  return true;
}

// Python's exact int-vs-float ordering: -1, 0, 1, or 2 when unordered (nan).
int cmpIntDouble(i128 a, double d) {
  if (std::isnan(d))
    return 2;
  if (d >= 0x1p127)
    return -1;
  if (d < -0x1p127)
    return 1;
  double t = std::trunc(d);
  i128 ti = static_cast<i128>(t);
  if (a != ti)
    return a < ti ? -1 : 1;
  double frac = d - t;
  return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

// Numeric three-way compare as Python does it for int/float/bool.
int pyCompare(const Scalar &a, const Scalar &b, Ctx &ctx) {
  if (ctx.wrapped)
    ctx.failed = true;
  if (isIntLike(a) && isIntLike(b)) {
    i128 x = asInt(a), y = asInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a.kind == Scalar::Float && b.kind == Scalar::Float) {
    if (std::isnan(a.f) || std::isnan(b.f))
      return 2;
    return a.f < b.f ? -1 : a.f > b.f ? 1 : 0;
  }
  if (a.kind == Scalar::Float) {
    int c = cmpIntDouble(asInt(b), a.f);
    return c == 2 ? 2 : -c;
  }
  return cmpIntDouble(asInt(a), b.f);
}
bool pyLt(const Scalar &a, const Scalar &b, Ctx &ctx) {
  return pyCompare(a, b, ctx) == -1;
}
bool pyGt(const Scalar &a, const Scalar &b, Ctx &ctx) {
  return pyCompare(a, b, ctx) == 1;
}
bool pyIsZero(const Scalar &a) {
  return a.kind == Scalar::Float ? a.f == 0.0 : asInt(a) == 0;
}

// --- Python int/float arithmetic -------------------------------------------

i128 wrapAdd(i128 a, i128 b, Ctx &ctx) {
  i128 r;
  if (__builtin_add_overflow(a, b, &r))
    ctx.wrapped = true;
  return r;
}
i128 wrapSub(i128 a, i128 b, Ctx &ctx) {
  i128 r;
  if (__builtin_sub_overflow(a, b, &r))
    ctx.wrapped = true;
  return r;
}
i128 wrapMul(i128 a, i128 b, Ctx &ctx) {
  i128 r;
  if (__builtin_mul_overflow(a, b, &r))
    ctx.wrapped = true;
  return r;
}

Scalar pyAdd(const Scalar &a, const Scalar &b, Ctx &ctx) {
  if (isIntLike(a) && isIntLike(b))
    return Scalar::fromInt(wrapAdd(asInt(a), asInt(b), ctx));
  return Scalar::fromFloat(asDouble(a, ctx) + asDouble(b, ctx));
}
Scalar pySub(const Scalar &a, const Scalar &b, Ctx &ctx) {
  if (isIntLike(a) && isIntLike(b))
    return Scalar::fromInt(wrapSub(asInt(a), asInt(b), ctx));
  return Scalar::fromFloat(asDouble(a, ctx) - asDouble(b, ctx));
}
Scalar pyMul(const Scalar &a, const Scalar &b, Ctx &ctx) {
  if (isIntLike(a) && isIntLike(b))
    return Scalar::fromInt(wrapMul(asInt(a), asInt(b), ctx));
  return Scalar::fromFloat(asDouble(a, ctx) * asDouble(b, ctx));
}
Scalar pyNeg(const Scalar &a, Ctx &ctx) {
  if (a.kind == Scalar::Float)
    return Scalar::fromFloat(-a.f);
  return Scalar::fromInt(wrapSub(0, asInt(a), ctx));
}
Scalar pyAbs(const Scalar &a, Ctx &ctx) {
  if (a.kind == Scalar::Float)
    return Scalar::fromFloat(std::fabs(a.f));
  i128 v = asInt(a);
  return Scalar::fromInt(v < 0 ? wrapSub(0, v, ctx) : v);
}

// CPython's float floor division (_float_div_mod); wx != 0.
double floatFloorDiv(double vx, double wx) {
  double mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0.0 || std::isnan(mod)) {
    if ((wx < 0) != (mod < 0))
      div -= 1.0;
  }
  if (div != 0.0 || std::isnan(div)) {
    double floordiv = std::floor(div);
    if (div - floordiv > 0.5)
      floordiv += 1.0;
    return floordiv;
  }
  return std::copysign(0.0, vx / wx);
}

// The division helpers below mirror tinygrad's Python literally and are only
// used once a float is involved; int/int goes through intDivOp.

// Python's a // b for b != 0 with at least one float.
Scalar pyFloatFloorDiv(const Scalar &a, const Scalar &b, Ctx &ctx) {
  return Scalar::fromFloat(floatFloorDiv(asDouble(a, ctx), asDouble(b, ctx)));
}

// tinygrad's helpers.cdiv: abs(x)//abs(y)*(1,-1)[x*y<0] if y != 0 else 0.
Scalar pyCDiv(const Scalar &x, const Scalar &y, Ctx &ctx) {
  if (pyIsZero(y))
    return Scalar::fromInt(0);
  Scalar q = pyFloatFloorDiv(pyAbs(x, ctx), pyAbs(y, ctx), ctx);
  // The sign test really multiplies: 1e-300 * -1e-300 underflows to -0.0,
  // which is not < 0, so cdiv(1e-300, -1e-300) is +1.0 in tinygrad.
  bool negative = asDouble(x, ctx) * asDouble(y, ctx) < 0;
  return pyMul(q, Scalar::fromInt(negative ? -1 : 1), ctx);
}
// tinygrad's helpers.floordiv: x//y if y != 0 else 0.
Scalar pyFloorDiv(const Scalar &x, const Scalar &y, Ctx &ctx) {
  if (pyIsZero(y))
    return Scalar::fromInt(0);
  return pyFloatFloorDiv(x, y, ctx);
}

// --- pow ---------------------------------------------------------------------

enum class PowErr { None, ZeroDivision, Overflow, Complex };

bool isOddInteger(double w) {
  return std::fmod(std::fabs(w), 2.0) == 1.0;
}

// CPython's float_pow, special cases included.
double floatPow(double iv, double iw, PowErr &err) {
  err = PowErr::None;
  if (iw == 0)
    return 1.0;
  if (std::isnan(iv))
    return iv;
  if (std::isnan(iw))
    return iv == 1.0 ? 1.0 : iw;
  if (std::isinf(iw)) {
    iv = std::fabs(iv);
    if (iv == 1.0)
      return 1.0;
    if ((iw > 0.0) == (iv > 1.0))
      return std::fabs(iw);
    return 0.0;
  }
  if (std::isinf(iv)) {
    bool odd = isOddInteger(iw);
    if (iw > 0.0)
      return odd ? iv : std::fabs(iv);
    return odd ? std::copysign(0.0, iv) : 0.0;
  }
  if (iv == 0.0) {
    if (iw < 0.0) {
      err = PowErr::ZeroDivision;
      return 0.0;
    }
    return isOddInteger(iw) ? iv : 0.0;
  }
  bool negate = false;
  if (iv < 0.0) {
    if (iw != std::floor(iw)) {
      // Python returns a complex; complex_pow only raises if it overflows.
      err = std::isinf(std::pow(-iv, iw)) ? PowErr::Overflow : PowErr::Complex;
      return kNaN;
    }
    iv = -iv;
    negate = isOddInteger(iw);
  }
  if (iv == 1.0)
    return negate ? -1.0 : 1.0;
  double ix = std::pow(iv, iw);
  if (std::isinf(ix))
    err = PowErr::Overflow;
  return negate ? -ix : ix;
}

// Python int ** non-negative int.
std::optional<i128> intPow(i128 base, i128 exp, Ctx &ctx) {
  if (base == 0)
    return exp == 0 ? 1 : 0;
  if (base == 1)
    return 1;
  if (base == -1)
    return (exp & 1) ? -1 : 1;
  // |base| >= 2: exact products overflow within 127 steps, so the loop is
  // short; beyond that only the value modulo 2**128 is needed.
  if (exp >= kHugeBits)
    return std::nullopt;
  if (exp <= 128) {
    i128 r = 1;
    for (i128 k = 0; k < exp; ++k)
      r = wrapMul(r, base, ctx);
    return r;
  }
  ctx.wrapped = true;
  u128 r = 1, b = static_cast<u128>(base);
  for (u128 e = static_cast<u128>(exp); e; e >>= 1, b *= b)
    if (e & 1)
      r *= b;
  return static_cast<i128>(r);
}

// Python pow(x, y) as tinygrad's safe_pow sees it; nullopt on OverflowError.
std::optional<Scalar> safePow(const Scalar &x, const Scalar &y, Ctx &ctx) {
  if (isIntLike(x) && isIntLike(y) && asInt(y) >= 0) {
    if (std::optional<i128> r = intPow(asInt(x), asInt(y), ctx))
      return Scalar::fromInt(*r);
    return std::nullopt;
  }
  PowErr err;
  double r = floatPow(asDouble(x, ctx), asDouble(y, ctx), err);
  switch (err) {
  case PowErr::None: return Scalar::fromFloat(r);
  case PowErr::ZeroDivision: return Scalar::fromFloat(kInf);
  case PowErr::Complex: return Scalar::fromFloat(kNaN);
  case PowErr::Overflow: return std::nullopt;
  }
  return std::nullopt;
}

// 2 ** x with OverflowError mapped to inf.
std::optional<Scalar> safeExp2(const Scalar &x, Ctx &ctx) {
  if (isIntLike(x) && asInt(x) >= 0) {
    if (std::optional<i128> r = intPow(2, asInt(x), ctx))
      return Scalar::fromInt(*r);
    return std::nullopt;
  }
  PowErr err;
  double r = floatPow(2.0, asDouble(x, ctx), err);
  return Scalar::fromFloat(err == PowErr::Overflow ? kInf : r);
}

// --- unary -------------------------------------------------------------------

// Python 1/x for an int x != 0 (true division, correctly rounded for
// |x| <= 2**64; beyond that long double can double-round).
double intReciprocal(i128 x) {
  if (x >= -(static_cast<i128>(1) << 53) && x <= (static_cast<i128>(1) << 53))
    return 1.0 / static_cast<double>(x);
  return static_cast<double>(1.0L / static_cast<long double>(x));
}

std::optional<Scalar> unaryOp(ALUOp op, const Scalar &x, Ctx &ctx) {
  if (x.kind == Scalar::Invalid)
    return std::nullopt; // math.* and operator.neg raise TypeError
  switch (op) {
  case ALUOp::Neg: return pyNeg(x, ctx);
  case ALUOp::Exp2: return safeExp2(x, ctx);
  case ALUOp::Log2: {
    Scalar zero = Scalar::fromInt(0);
    if (pyGt(x, zero, ctx))
      return Scalar::fromFloat(std::log2(asDouble(x, ctx)));
    return Scalar::fromFloat(pyCompare(x, zero, ctx) == 0 ? -kInf : kNaN);
  }
  case ALUOp::Sqrt: {
    int c = pyCompare(x, Scalar::fromInt(0), ctx);
    if (c == 0 || c == 1)
      return Scalar::fromFloat(std::sqrt(asDouble(x, ctx)));
    return Scalar::fromFloat(kNaN);
  }
  case ALUOp::Sin: {
    double d = asDouble(x, ctx);
    return Scalar::fromFloat(std::isinf(d) ? kNaN : std::sin(d));
  }
  case ALUOp::Reciprocal:
    if (x.kind == Scalar::Float)
      return Scalar::fromFloat(x.f != 0.0 ? 1.0 / x.f
                                          : std::copysign(kInf, x.f));
    if (ctx.wrapped)
      ctx.failed = true;
    return Scalar::fromFloat(asInt(x) != 0 ? intReciprocal(asInt(x)) : kInf);
  case ALUOp::Trunc:
    if (isIntLike(x))
      return Scalar::fromInt(asInt(x)); // math.trunc(bool) is an int
    if (!std::isfinite(x.f))
      return x;
    // math.trunc returns an int, so trunc(-0.5) is +0 once made float again.
    // (|x| >= 2**127 is handled by execALU.)
    return Scalar::fromInt(static_cast<i128>(std::trunc(x.f)));
  default: return std::nullopt;
  }
}

// --- binary ------------------------------------------------------------------

std::optional<Scalar> bitwiseOp(ALUOp op, const Scalar &a, const Scalar &b) {
  if (!isIntLike(a) || !isIntLike(b))
    return std::nullopt; // TypeError on floats
  if (a.kind == Scalar::Bool && b.kind == Scalar::Bool) {
    bool r = op == ALUOp::Xor ? (a.b != b.b)
             : op == ALUOp::Or ? (a.b || b.b)
                               : (a.b && b.b);
    return Scalar::fromBool(r);
  }
  i128 x = asInt(a), y = asInt(b);
  return Scalar::fromInt(op == ALUOp::Xor ? (x ^ y)
                         : op == ALUOp::Or ? (x | y)
                                           : (x & y));
}

std::optional<Scalar> shiftOp(ALUOp op, const Scalar &a, const Scalar &b,
                              Ctx &ctx) {
  if (!isIntLike(a) || !isIntLike(b))
    return std::nullopt; // TypeError on floats
  i128 x = asInt(a), n = asInt(b);
  if (n < 0)
    return std::nullopt; // ValueError: negative shift count
  if (op == ALUOp::Shr) {
    if (ctx.wrapped)
      ctx.failed = true;
    return Scalar::fromInt(n >= 127 ? (x < 0 ? -1 : 0) : (x >> n));
  }
  if (x == 0)
    return Scalar::fromInt(0);
  if (n >= kHugeBits)
    return std::nullopt;
  if (n >= 127) {
    ctx.wrapped = true;
    return Scalar::fromInt(
        n >= 128 ? 0 : static_cast<i128>(static_cast<u128>(x) << n));
  }
  i128 r = static_cast<i128>(static_cast<u128>(x) << n);
  if ((r >> n) != x)
    ctx.wrapped = true;
  return Scalar::fromInt(r);
}

// threefry2x32 as tinygrad decomposes it (codegen/decomp/op.py), all adds in
// uint32 with wraparound.
uint64_t threefry2x32(uint64_t x, uint64_t key) {
  auto rotl = [](uint32_t v, unsigned r) {
    return static_cast<uint32_t>((v << r) + (v >> (32 - r)));
  };
  static const unsigned kRot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  uint32_t x0 = static_cast<uint32_t>(x), x1 = static_cast<uint32_t>(x >> 32);
  uint32_t k0 = static_cast<uint32_t>(key),
           k1 = static_cast<uint32_t>(key >> 32);
  uint32_t ks[3] = {k1, k0 ^ k1 ^ 0x1BD11BDAu, k0};
  uint32_t r0 = x0 + ks[2], r1 = x1 + ks[0];
  for (unsigned i = 0; i < 5; ++i) {
    for (unsigned r : kRot[i % 2]) {
      uint32_t s = r0 + r1;
      r1 = s ^ rotl(r1, r);
      r0 = s;
    }
    r0 = r0 + ks[i % 3];
    r1 = r1 + ks[(i + 1) % 3] + (i + 1);
  }
  return (static_cast<uint64_t>(r1) << 32) | r0;
}

// cdiv/cmod/floordiv/floormod on Python ints, exact: only q = MIN / -1
// leaves __int128, while the matching remainders are plain 0.
Scalar intDivOp(ALUOp op, i128 x, i128 y, Ctx &ctx) {
  bool isDiv = op == ALUOp::CDiv || op == ALUOp::FloorDiv;
  if (y == 0)
    return Scalar::fromInt(isDiv ? 0 : x);
  if (y == -1)
    return Scalar::fromInt(isDiv ? wrapSub(0, x, ctx) : 0);
  i128 q = x / y, r = x % y;
  if ((op == ALUOp::FloorDiv || op == ALUOp::FloorMod) && r != 0 &&
      ((r < 0) != (y < 0))) {
    q -= 1;
    r += y;
  }
  return Scalar::fromInt(isDiv ? q : r);
}

std::optional<Scalar> binaryOp(ALUOp op, DType dtype, const Scalar &a,
                               const Scalar &b, Ctx &ctx) {
  if ((op == ALUOp::CDiv || op == ALUOp::CMod || op == ALUOp::FloorDiv ||
       op == ALUOp::FloorMod) &&
      isIntLike(a) && isIntLike(b))
    return intDivOp(op, asInt(a), asInt(b), ctx);
  switch (op) {
  case ALUOp::Add: return pyAdd(a, b, ctx);
  case ALUOp::Sub: return pySub(a, b, ctx);
  case ALUOp::Mul: return pyMul(a, b, ctx);
  case ALUOp::Max: return pyGt(b, a, ctx) ? b : a; // Python max keeps the first
  case ALUOp::CmpLt: return Scalar::fromBool(pyLt(a, b, ctx));
  case ALUOp::CmpNe:
  case ALUOp::CmpEq: {
    // Float CONST args are ConstFloat, whose __eq__ makes nan == nan.
    bool eq = (a.kind == Scalar::Float && b.kind == Scalar::Float &&
               std::isnan(a.f) && std::isnan(b.f)) ||
              pyCompare(a, b, ctx) == 0;
    return Scalar::fromBool(op == ALUOp::CmpEq ? eq : !eq);
  }
  case ALUOp::Xor:
  case ALUOp::Or:
  case ALUOp::And: return bitwiseOp(op, a, b);
  case ALUOp::Shl:
  case ALUOp::Shr: return shiftOp(op, a, b, ctx);
  case ALUOp::CDiv: return pyCDiv(a, b, ctx);
  case ALUOp::CMod: return pySub(a, pyMul(pyCDiv(a, b, ctx), b, ctx), ctx);
  case ALUOp::FloorDiv: return pyFloorDiv(a, b, ctx);
  case ALUOp::FloorMod:
    return pySub(a, pyMul(pyFloorDiv(a, b, ctx), b, ctx), ctx);
  case ALUOp::Pow: return safePow(a, b, ctx);
  case ALUOp::Threefry:
    if (dtype != DType::UInt64 || !isIntLike(a) || !isIntLike(b))
      return std::nullopt;
    return Scalar::fromInt(threefry2x32(static_cast<uint64_t>(asInt(a)),
                                        static_cast<uint64_t>(asInt(b))));
  default: return std::nullopt; // FDIV: not in python_alu
  }
}

bool isTruncatingIntDType(DType dt) { return isInt(dt) && dt != DType::WeakInt; }

bool hasTruncate(DType dt) {
  return dt == DType::Bool || isTruncatingIntDType(dt) ||
         (isFloat(dt) && dt != DType::WeakFloat);
}

i128 wrapToDType(i128 v, DType dt) {
  unsigned bits = getInfo(dt).bitsize;
  uint64_t low = static_cast<uint64_t>(v);
  if (bits < 64)
    low &= (uint64_t(1) << bits) - 1;
  if (isUnsigned(dt))
    return low;
  if (bits < 64 && (low >> (bits - 1)) & 1)
    return static_cast<i128>(low) - (static_cast<i128>(1) << bits);
  return static_cast<int64_t>(low);
}

double roundFloat(double v, DType dt) {
  switch (dt) {
  case DType::Float16: return roundToFloat16(v);
  case DType::BFloat16: return roundToBFloat16(v);
  case DType::Float32: return static_cast<double>(static_cast<float>(v));
  case DType::Float64: return v;
  default: return roundToFP8(v, dt);
  }
}
} // namespace

bool Scalar::operator==(const Scalar &o) const {
  if (kind != o.kind)
    return false;
  switch (kind) {
  case Int: return i == o.i;
  case Bool: return b == o.b;
  case Invalid: return true;
  case Float: {
    if (std::isnan(f) || std::isnan(o.f))
      return std::isnan(f) && std::isnan(o.f);
    uint64_t x, y;
    std::memcpy(&x, &f, 8);
    std::memcpy(&y, &o.f, 8);
    return x == y;
  }
  }
  return false;
}

std::string Scalar::str() const {
  switch (kind) {
  case Invalid: return "Invalid";
  case Bool: return b ? "True" : "False";
  case Float: {
    if (std::isnan(f))
      return "nan";
    if (std::isinf(f))
      return f > 0 ? "inf" : "-inf";
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", f);
    return buf;
  }
  case Int: {
    u128 mag = i < 0 ? -static_cast<u128>(i) : static_cast<u128>(i);
    std::string s;
    do {
      s.insert(s.begin(), char('0' + unsigned(mag % 10)));
      mag /= 10;
    } while (mag);
    return i < 0 ? "-" + s : s;
  }
  }
  return "?";
}

unsigned mlir::tinygrad::getNumOperands(ALUOp op) {
  if (op <= ALUOp::Trunc)
    return 1;
  if (op == ALUOp::Where || op == ALUOp::MulAcc)
    return 3;
  return 2;
}

std::optional<Scalar> mlir::tinygrad::truncate(DType dtype, const Scalar &x) {
  if (dtype == DType::Bool)
    return Scalar::fromBool(truthy(x));
  if (!hasTruncate(dtype))
    return x;
  if (x.kind == Scalar::Invalid)
    return std::nullopt;
  if (isTruncatingIntDType(dtype)) {
    if (x.kind == Scalar::Float)
      return std::nullopt; // ctypes: int expected instead of float
    return Scalar::fromInt(wrapToDType(asInt(x), dtype));
  }
  Ctx ctx;
  return Scalar::fromFloat(roundFloat(asDouble(x, ctx), dtype));
}

std::optional<Scalar> mlir::tinygrad::execALU(ALUOp op, DType dtype,
                                              llvm::ArrayRef<Scalar> operands,
                                              bool truncateOutput) {
  unsigned n = getNumOperands(op);
  if (operands.size() != n)
    return std::nullopt;
  if (n == 2 && (operands[0].isInvalid() || operands[1].isInvalid()))
    return Scalar::invalid();

  Ctx ctx;
  std::optional<Scalar> r;
  if (n == 1) {
    // Huge finite floats truncate to ints past __int128; their float value
    // and their low bits (all zero) are still known.
    const Scalar &x = operands[0];
    if (op == ALUOp::Trunc && x.isFloat() && !fitsI128(x.f) &&
        std::isfinite(x.f)) {
      if (!truncateOutput || !hasTruncate(dtype))
        return std::nullopt;
      if (isFloat(dtype))
        return truncate(dtype, x);
      return truncate(dtype, dtype == DType::Bool ? x : Scalar::fromInt(0));
    }
    r = unaryOp(op, x, ctx);
  } else if (n == 2) {
    r = binaryOp(op, dtype, operands[0], operands[1], ctx);
  } else if (op == ALUOp::Where) {
    r = truthy(operands[0]) ? operands[1] : operands[2];
  } else { // MulAcc: (x*y)+z
    for (const Scalar &s : operands)
      if (s.isInvalid())
        return std::nullopt;
    r = pyAdd(pyMul(operands[0], operands[1], ctx), operands[2], ctx);
  }
  if (!r || ctx.failed)
    return std::nullopt;
  if (ctx.wrapped && r->isInt()) {
    // Only the low bits are right: fine if ctypes is about to keep just those.
    if (!truncateOutput || !isTruncatingIntDType(dtype))
      return std::nullopt;
  }
  if (!truncateOutput)
    return r;
  return truncate(dtype, *r);
}

std::optional<Scalar> mlir::tinygrad::castScalar(const Scalar &x, DType to) {
  if (x.isInvalid())
    return x;
  if (isFloat(to)) {
    Ctx ctx;
    double v = x.isFloat() && std::isnan(x.f) ? kNaN : asDouble(x, ctx);
    return Scalar::fromFloat(to == DType::WeakFloat ? v : roundFloat(v, to));
  }
  if (to == DType::Bool)
    return Scalar::fromBool(truthy(x));
  // int(x): no wraparound, even for sized int dtypes.
  if (isIntLike(x))
    return Scalar::fromInt(asInt(x));
  if (!fitsI128(x.f)) // also int(nan) ValueError, int(inf) OverflowError
    return std::nullopt;
  return Scalar::fromInt(static_cast<i128>(std::trunc(x.f)));
}

namespace {
// struct format for bitcast storage (storage_fmt_for_dtype).
char storageFmt(DType dt) {
  if (dt == DType::BFloat16)
    return 'H';
  if (isFP8(dt))
    return 'B';
  return getInfo(dt).fmt;
}

// struct.pack(fmt, v) as little-endian raw bits; nullopt where struct raises.
std::optional<uint64_t> packBits(char fmt, const Scalar &v) {
  switch (fmt) {
  case '?': return truthy(v) ? 1 : 0;
  case 'e':
  case 'f':
  case 'd': {
    if (v.isInvalid())
      return std::nullopt;
    Ctx ctx;
    double d = asDouble(v, ctx);
    if (fmt == 'd') {
      uint64_t bits;
      std::memcpy(&bits, &d, 8);
      return bits;
    }
    if (fmt == 'e') {
      std::optional<uint16_t> h = doubleToHalfBits(d);
      if (!h)
        return std::nullopt;
      return *h;
    }
    float f = static_cast<float>(d);
    if (std::isinf(f) && !std::isinf(d))
      return std::nullopt; // float too large to pack with f format
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  }
  default: {
    if (!isIntLike(v))
      return std::nullopt;
    i128 x = asInt(v);
    bool isUnsignedFmt = fmt == 'B' || fmt == 'H' || fmt == 'I' || fmt == 'Q';
    unsigned bits = (fmt == 'b' || fmt == 'B')   ? 8
                    : (fmt == 'h' || fmt == 'H') ? 16
                    : (fmt == 'i' || fmt == 'I') ? 32
                                                 : 64;
    i128 lo = isUnsignedFmt ? 0 : -(static_cast<i128>(1) << (bits - 1));
    i128 hi = isUnsignedFmt ? (static_cast<i128>(1) << bits) - 1
                            : (static_cast<i128>(1) << (bits - 1)) - 1;
    if (x < lo || x > hi)
      return std::nullopt; // struct.error: out of range
    uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    return static_cast<uint64_t>(x) & mask;
  }
  }
}

Scalar unpackBits(char fmt, uint64_t bits) {
  switch (fmt) {
  case '?': return Scalar::fromBool(bits != 0);
  case 'e': return Scalar::fromFloat(halfBitsToDouble(bits));
  case 'f': {
    uint32_t b32 = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b32, 4);
    return Scalar::fromFloat(f);
  }
  case 'd': {
    double d;
    std::memcpy(&d, &bits, 8);
    return Scalar::fromFloat(d);
  }
  case 'b': return Scalar::fromInt(static_cast<int8_t>(bits));
  case 'h': return Scalar::fromInt(static_cast<int16_t>(bits));
  case 'i': return Scalar::fromInt(static_cast<int32_t>(bits));
  case 'q': return Scalar::fromInt(static_cast<int64_t>(bits));
  default: return Scalar::fromInt(bits);
  }
}
} // namespace

std::optional<Scalar> mlir::tinygrad::bitcastScalar(const Scalar &x,
                                                    DType from, DType to) {
  if (getInfo(from).itemsize != getInfo(to).itemsize)
    return std::nullopt;
  char inFmt = storageFmt(from), outFmt = storageFmt(to);
  if (!inFmt || !outFmt)
    return std::nullopt;
  // to_storage_scalar
  Scalar stored = x;
  if (from == DType::Float16 || from == DType::BFloat16 || isFP8(from)) {
    if (x.isInvalid())
      return std::nullopt;
    Ctx ctx;
    double d = asDouble(x, ctx);
    if (from == DType::Float16) {
      stored = Scalar::fromFloat(roundToFloat16(d));
    } else if (from == DType::BFloat16) {
      float f = static_cast<float>(roundToBFloat16(d));
      uint32_t b32;
      std::memcpy(&b32, &f, 4);
      stored = Scalar::fromInt(b32 >> 16);
    } else {
      stored = Scalar::fromInt(floatToFP8Bits(d, from));
    }
  }
  std::optional<uint64_t> bits = packBits(inFmt, stored);
  if (!bits)
    return std::nullopt;
  // from_storage_scalar
  if (to == DType::BFloat16) {
    uint32_t b32 = static_cast<uint32_t>(*bits & 0xFFFF) << 16;
    float f;
    std::memcpy(&f, &b32, 4);
    return Scalar::fromFloat(f);
  }
  if (isFP8(to))
    return Scalar::fromFloat(fp8BitsToFloat(static_cast<uint8_t>(*bits), to));
  return unpackBits(outFmt, *bits);
}
