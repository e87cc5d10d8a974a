//===- SymbolicSimple.cpp - symbolic_simple (tinygrad/uop/symbolic.py) ----===//
//
// Phase 1 of tinygrad's symbolic rules, the most generic folding rules: self
// and zero folding, constant folding, bool algebra, div rules, cast/bitcast
// chains, pow and simple where folding. Construction follows the UOp methods
// tinygrad's callbacks call (`x*y` promotes its operands like `_broadcasted`,
// `-x` is `x*-1`, `x.where(a,b)` promotes a and b, ...). Where tinygrad's
// callback raises, the rule reports to ctx.errors and declines.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

#include <cmath>
#include <string>

namespace mlir::tinygrad::sym::rules {
namespace {

//===----------------------------------------------------------------------===//
// Python value semantics on Scalars
//===----------------------------------------------------------------------===//

/// `bool(v)` (Invalid is truthy: InvalidType has no __bool__).
bool truthy(const Scalar &s) {
  switch (s.kind) {
  case Scalar::Int:
    return s.i != 0;
  case Scalar::Float:
    return s.f != 0.0; // nan is truthy
  case Scalar::Bool:
    return s.b;
  case Scalar::Invalid:
    return true;
  }
  return true;
}

/// Python `s == v` for an int v (Invalid equals nothing).
bool pyEqInt(const Scalar &s, I v) {
  switch (s.kind) {
  case Scalar::Int:
    return s.i == v;
  case Scalar::Bool:
    return (s.b ? 1 : 0) == v;
  case Scalar::Float:
    return s.f == static_cast<double>(v) &&
           static_cast<I>(s.f) == v; // exact, as Python compares int/float
  case Scalar::Invalid:
    return false;
  }
  return false;
}

/// Python `s < 0` / `s > 0`; nullopt for Invalid (TypeError).
std::optional<int> pySign(const Scalar &s) {
  switch (s.kind) {
  case Scalar::Int:
    return s.i < 0 ? -1 : s.i > 0 ? 1 : 0;
  case Scalar::Bool:
    return s.b ? 1 : 0;
  case Scalar::Float:
    return s.f < 0 ? -1 : s.f > 0 ? 1 : 0; // nan: neither
  case Scalar::Invalid:
    return std::nullopt;
  }
  return std::nullopt;
}

/// Python int value of an int/bool Scalar (floats raise TypeError in `&`, `|`,
/// `<<`; callers treat nullopt as "tinygrad raises").
std::optional<I> pyInt(const Scalar &s) {
  if (s.isInt())
    return s.i;
  if (s.isBool())
    return s.b ? 1 : 0;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// symbolic_simple helpers
//===----------------------------------------------------------------------===//

/// `pop_const` with int/bool constants; nullopt when the CONST is a float or
/// Invalid (only in ill-typed weakint graphs; the rule then declines).
std::optional<std::pair<UOpRef, I>> popC(UOpRef x, Op op) {
  if (x->op == op && x->src.size() == 2 && x->src[1]->op == Op::CONST) {
    auto v = pyInt(x->src[1]->val());
    if (!v)
      return std::nullopt;
    return std::make_pair(x->src[0], *v);
  }
  return std::make_pair(x, I(op == Op::MUL ? 1 : 0));
}

bool mulOk(I a, I b, I &r) { return !__builtin_mul_overflow(a, b, &r); }

/// `_quotient_base(q, base, div)`: null for None; `bail` on a raise or an
/// unsupported constant.
UOpRef quotientBase(Context &ctx, UOpRef q0, UOpRef base, I div, bool &bail) {
  const char *R = "fold_add_divmod_recombine";
  auto qs = popC(q0, Op::ADD), na = popC(base, Op::ADD);
  if (!qs || !na) {
    bail = true;
    return nullptr;
  }
  auto [q, s] = *qs;
  auto [num, a] = *na;
  if (q->op != Op::FLOORDIV || q->src.size() != 2 || q->src[1]->op != Op::CONST)
    return nullptr;
  auto qd = pyInt(q->src[1]->val());
  if (!qd) {
    bail = true;
    return nullptr;
  }
  I D;
  bool merged = false;
  if (div > 0 && num->op == Op::FLOORDIV && num->src.size() == 2 &&
      num->src[1]->op == Op::CONST) {
    auto c = pyInt(num->src[1]->val());
    I cd;
    if (!c || !mulOk(*c, div, cd)) {
      bail = true;
      return nullptr;
    }
    if (*qd == cd) {
      num = num->src[0];
      if (!mulOk(a, *c, a)) {
        bail = true;
        return nullptr;
      }
      D = cd;
      merged = true;
    }
  }
  if (!merged) {
    if (*qd != div)
      return nullptr;
    D = div;
  }
  auto xs = popC(num, Op::ADD), ps = popC(q->src[0], Op::ADD);
  if (!xs || !ps) {
    bail = true;
    return nullptr;
  }
  if (ps->first != xs->first)
    return nullptr;
  I t = xs->second + a - ps->second;
  if (D == 0) {
    bail = true;
    return py::fail(ctx, R, "integer modulo by zero");
  }
  if (floorMod(t, D) != 0)
    return nullptr;
  I k = floorDiv(t, D) - s;
  if (k == 0)
    return base;
  I kd;
  if (!mulOk(k, div, kd)) {
    bail = true;
    return nullptr;
  }
  // base - k*div == base + (k*div)*-1 (sub negates the promoted rhs)
  UOpRef lhs = base, rhs = py::ic(ctx, kd);
  if (!py::broadcasted(ctx, lhs, rhs, R)) {
    bail = true;
    return nullptr;
  }
  return py::alu(ctx, Op::ADD, {lhs, py::neg(ctx, rhs, R)});
}

UOpRef foldAddDivmodRecombine(Context &ctx, UOpRef x) {
  const char *R = "fold_add_divmod_recombine";
  llvm::SmallVector<UOpRef, 8> terms;
  ctx.splitUOp(x, Op::ADD, terms);
  for (size_t i = 0; i < terms.size(); ++i) {
    auto mm = popC(terms[i], Op::MUL);
    if (!mm)
      return nullptr;
    auto [mod, mul] = *mm;
    if (mod->op != Op::FLOORMOD || mod->src.size() != 2 || mod->src[1]->op != Op::CONST)
      continue;
    UOpRef base = mod->src[0];
    auto divv = pyInt(mod->src[1]->val());
    if (!divv)
      return nullptr;
    I div = *divv, dm;
    if (!mulOk(div, mul, dm))
      return nullptr;
    for (size_t j = 0; j < terms.size(); ++j) {
      auto qq = popC(terms[j], Op::MUL);
      if (!qq)
        return nullptr;
      auto [q, scale] = *qq;
      if (i == j || scale != dm)
        continue;
      llvm::SmallVector<UOpRef, 8> rest;
      for (size_t k = 0; k < terms.size(); ++k)
        if (k != i && k != j)
          rest.push_back(terms[k]);
      bool bail = false;
      if (UOpRef b = quotientBase(ctx, q, base, div, bail))
        return py::usum(ctx, py::binopI(ctx, Op::MUL, b, mul, R), rest, R);
      if (bail)
        return nullptr;
      if (q->op == Op::FLOORMOD && q->src.size() == 2 && q->src[1]->op == Op::CONST) {
        auto d = pyInt(q->src[1]->val());
        if (!d)
          return nullptr;
        if (*d > 0) {
          UOpRef b = quotientBase(ctx, q->src[0], base, div, bail);
          if (bail)
            return nullptr;
          I dd;
          if (b) {
            if (!mulOk(div, *d, dd))
              return nullptr;
            return py::usum(ctx,
                          py::binopI(ctx, Op::MUL, py::binopI(ctx, Op::FLOORMOD, b, dd, R), mul, R),
                          rest, R);
          }
        }
      }
    }
  }
  return nullptr;
}

/// const_arg of a CONST or a STACK of CONSTs (the const_folding_pat srcs).
bool constArgs(UOpRef a, llvm::SmallVectorImpl<std::optional<Scalar>> &scalars,
               llvm::SmallVectorImpl<llvm::SmallVector<Scalar, 4>> &lanes) {
  for (UOpRef s : a->src) {
    if (s->op == Op::CONST) {
      scalars.push_back(s->val());
      lanes.emplace_back();
    } else if (s->op == Op::STACK && !s->src.empty() &&
               llvm::all_of(s->src, [](UOpRef e) { return e->op == Op::CONST; })) {
      scalars.push_back(std::nullopt);
      lanes.emplace_back();
      for (UOpRef e : s->src)
        lanes.back().push_back(e->val());
    } else {
      return false;
    }
  }
  return true;
}

/// fold_const_alu: exec_alu(op, dtype, vals, truncate_output=False).
UOpRef foldConstALU(Context &ctx, UOpRef a) {
  const char *R = "fold_const_alu";
  auto aop = getALUOp(a->op);
  if (!aop)
    return nullptr;
  llvm::SmallVector<std::optional<Scalar>, 3> scalars;
  llvm::SmallVector<llvm::SmallVector<Scalar, 4>, 3> lanes;
  if (!constArgs(a, scalars, lanes))
    return nullptr;
  size_t count = 0;
  for (size_t k = 0; k < scalars.size(); ++k)
    if (!scalars[k])
      count = std::max(count, lanes[k].size());
  if (count == 0) {
    llvm::SmallVector<Scalar, 3> ops;
    for (auto &s : scalars)
      ops.push_back(*s);
    auto r = execALU(*aop, a->dtype, ops, /*truncateOutput=*/false);
    if (!r) {
      // execALU declines where tinygrad raises, and where a Python int
      // result would not fit the 128-bit index arithmetic we evaluate in.
      bool allInts = llvm::all_of(ops, [](const Scalar &x) { return x.isInt(); });
      return py::fail(ctx, R, allInts && isInt(a->dtype)
                                  ? "integer result overflows the 128-bit index width"
                                  : "exec_alu raised");
    }
    return py::constLike(ctx, a, *r, R);
  }
  // Tuple operands: lane-wise exec_alu with the default truncate_output=True.
  llvm::SmallVector<UOpRef, 4> out;
  for (size_t l = 0; l < count; ++l) {
    llvm::SmallVector<Scalar, 3> ops;
    for (size_t k = 0; k < scalars.size(); ++k) {
      if (scalars[k]) {
        ops.push_back(*scalars[k]);
      } else {
        if (l >= lanes[k].size())
          return py::fail(ctx, R, "tuple index out of range");
        ops.push_back(lanes[k][l]);
      }
    }
    auto r = execALU(*aop, a->dtype, ops, /*truncateOutput=*/true);
    if (!r)
      return py::fail(ctx, R, "exec_alu raised");
    UOpRef c = py::constOf(ctx, *r, a->dtype, R);
    if (!c)
      return nullptr;
    out.push_back(c);
  }
  return ctx.stack(out);
}

/// simplify_pow(x, c).
UOpRef simplifyPow(Context &ctx, UOpRef x, const Scalar &v) {
  const char *R = "simplify_pow";
  auto sign = pySign(v);
  if (!sign)
    return py::fail(ctx, R, "comparison with Invalid");
  if (*sign < 0) {
    Scalar nv = v.isFloat() ? Scalar::fromFloat(-v.f) : Scalar::fromInt(-*pyInt(v));
    return py::pow(ctx, py::alu(ctx, Op::RECIPROCAL, {x}), nv, R);
  }
  if (pyEqInt(v, 0)) // (nan has sign 0 but is not == 0)
    return py::constLike(ctx, x, Scalar::fromInt(1), R);
  // int(c.val-0.5)+0.5 == c.val
  bool half;
  bool integral;
  Scalar halfDown, halfExp;
  bool odd = false;
  if (v.isFloat()) {
    if (!std::isfinite(v.f))
      return py::fail(ctx, R, "int() of nan/inf");
    half = std::trunc(v.f - 0.5) + 0.5 == v.f;
    integral = std::trunc(v.f) == v.f;
    halfExp = Scalar::fromFloat(v.f - 0.5);
    halfDown = Scalar::fromFloat(std::floor(v.f / 2.0));
    odd = std::fmod(v.f, 2.0) == 1.0; // v > 0 here
  } else {
    I iv = *pyInt(v);
    double d = static_cast<double>(iv) - 0.5;
    double r = std::trunc(d) + 0.5;
    half = std::trunc(r) == r && std::fabs(r) < 1.7e38 && static_cast<I>(r) == iv;
    integral = true;
    halfExp = Scalar::fromFloat(d);
    halfDown = Scalar::fromInt(floorDiv(iv, 2));
    odd = floorMod(iv, 2) == 1;
  }
  if (half) {
    UOpRef p = py::pow(ctx, x, halfExp, R);
    return py::binop(ctx, Op::MUL, p, py::alu(ctx, Op::SQRT, {x}), R);
  }
  if (integral) {
    UOpRef y = py::pow(ctx, x, halfDown, R);
    UOpRef yy = py::binop(ctx, Op::MUL, y, y, R);
    return odd ? py::binop(ctx, Op::MUL, yy, x, R) : py::binopI(ctx, Op::MUL, yy, 1, R);
  }
  return nullptr;
}

/// fold_bitcast(root, c).
UOpRef foldBitcast(Context &ctx, UOpRef root, UOpRef c) {
  const char *R = "fold_bitcast";
  const DTypeInfo &ci = getInfo(c->dtype), &ri = getInfo(root->dtype);
  if (!ci.fmt || !ri.fmt || ci.itemsize != ri.itemsize)
    return nullptr;
  auto t = truncate(c->dtype, c->val());
  if (!t)
    return py::fail(ctx, R, "truncate raised");
  auto b = bitcastScalar(*t, c->dtype, root->dtype);
  if (!b)
    return py::fail(ctx, R, "struct.pack raised");
  return py::constLike(ctx, root, *b, R);
}

/// `mask | ((1 << k) - 1) == -1`: every bit at or above k is set.
bool clearsOnlyBelow(I mask, I k) {
  if (mask >= 0)
    return false;
  return k >= 127 || mask >= -(I(1) << k);
}

//===----------------------------------------------------------------------===//
// Patterns tinygrad spells with UOp operators
//===----------------------------------------------------------------------===//

/// dtypes.ints+(dtypes.bool, dtypes.weakint).
DTypeSet intsBoolWeak() { return intDTypes() | DTypeSet{DType::Bool, DType::WeakInt}; }
/// `UPat((Ops.CONST, Ops.STACK))`.
Pat constFoldingPat() { return op({Op::CONST, Op::STACK}); }
/// GroupOp.Binary-{Ops.THREEFRY}.
OpSet binaryNoThreefry() {
  OpSet s;
  for (Op o : binaryOps().ops())
    if (o != Op::THREEFRY)
      s.insert(o);
  return s;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

UOpRef castBoolNeConst(Match &m) { // CAST(bool -> int) != c
  const char *R = "CAST(bool)!=c";
  UOpRef x = m[n::x];
  const Scalar &c = m[n::c]->val();
  if (pyEqInt(c, 0))
    return x;
  if (pyEqInt(c, 1))
    return py::logicalNot(m.ctx, x, R);
  return py::constLike(m.ctx, x, Scalar::fromBool(true), R);
}
UOpRef maskedShr(Match &m) { // x >> k.val if mask.val | ((1 << k.val) - 1) == -1
  const char *R = "(x&mask)>>k";
  auto mask = pyInt(m[n::mask]->val()), k = pyInt(m[n::k]->val());
  if (!k || *k < 0 || !mask)
    return py::fail(m.ctx, R, "unsupported operand for << or |");
  if (!clearsOnlyBelow(*mask, *k))
    return nullptr;
  return py::binopC(m.ctx, Op::SHR, m[n::x], m[n::k]->val(), R);
}
UOpRef maskedDiv(Match &m) { // x // c.val if c.val > 0 and c.val & (c.val-1) == 0 and mask.val | (c.val-1) == -1
  const char *R = "(x&mask)//c";
  const Scalar &c = m[n::c]->val();
  auto sign = pySign(c);
  if (!sign)
    return py::fail(m.ctx, R, "comparison with Invalid");
  if (*sign <= 0)
    return nullptr;
  auto cv = pyInt(c);
  if (!cv)
    return py::fail(m.ctx, R, "unsupported operand for &");
  if ((*cv & (*cv - 1)) != 0)
    return nullptr;
  auto mask = pyInt(m[n::mask]->val());
  if (!mask)
    return py::fail(m.ctx, R, "unsupported operand for |");
  // c is a power of two 2**k: mask | (c-1) == -1 iff -c <= mask < 0
  if (!(*mask < 0 && *mask >= -*cv))
    return nullptr;
  return py::binopC(m.ctx, Op::FLOORDIV, m[n::x], c, R);
}
UOpRef mulZero(Match &m) { // nan for a nan/inf const x, else 0
  UOpRef x = m[n::x];
  bool nanOut = x->op == Op::CONST && x->val().isFloat() &&
                (std::isnan(x->val().f) || std::isinf(x->val().f));
  return py::constLike(m.ctx, x, nanOut ? Scalar::fromFloat(NAN) : Scalar::fromInt(0), "x*0");
}
UOpRef bitcastTwice(Match &m) { // x.bitcast(b.dtype)
  UOpRef x = m[n::x], b = m[n::b];
  if (isWeak(x->dtype) || isWeak(b->dtype))
    return py::fail(m.ctx, "bitcast twice", "bitcast requires concrete dtypes");
  if (x->dtype == b->dtype)
    return x;
  return m.ctx.get(Op::BITCAST, b->type, {x}, b->arg);
}
UOpRef constPow(Match &m) { // c if c.val == 1 else (x*math.log2(c.val)).exp2() if c.val > 0 else None
  const char *R = "c**x";
  UOpRef c = m[n::c];
  const Scalar &v = c->val();
  if (pyEqInt(v, 1))
    return c;
  auto sign = pySign(v);
  if (!sign)
    return py::fail(m.ctx, R, "comparison with Invalid");
  if (*sign <= 0)
    return nullptr;
  double l = v.isFloat() ? std::log2(v.f) : std::log2(static_cast<double>(*pyInt(v)));
  return py::alu(m.ctx, Op::EXP2, {py::binopC(m.ctx, Op::MUL, m[n::x], Scalar::fromFloat(l), R)});
}
UOpRef foldConstWhere(Match &m) { // fold_const_where(gate, c0, c1, w)
  UOpRef ret = truthy(m[n::gate]->val()) ? m[n::c0] : m[n::c1];
  // folding a strong dtype WHERE to a weak const branch keeps the strong dtype
  if (ret->op == Op::CONST && isWeak(ret->dtype) && !isWeak(m[n::w]->dtype))
    return py::commitWeak(m.ctx, ret, m[n::w]->dtype, "fold_const_where");
  return ret;
}

} // namespace

std::vector<pat::Rule> symbolicSimpleRules() {
  Pat xBool = var(n::x, DType::Bool);
  return {
      // ** self folding **
      {"x+0 / x^0 / x|0 -> x", upList({Op::ADD, Op::XOR, Op::OR}, {var(n::x), cnum(0)}), to(n::x)},
      {"x<<0 / x>>0 -> x", up({Op::SHL, Op::SHR}, {var(n::x), cnum(0)}), to(n::x)},
      {"x*1 -> x", var(n::x) * 1, to(n::x)},
      {"x//x -> 1", fdiv(var(n::x), var(n::x)),
       [](Match &m) { return py::constLike(m.ctx, m[n::x], Scalar::fromInt(1), "x//x"); }},
      {"x//1 -> x", fdiv(var(n::x), 1), to(n::x)},
      {"x//-1 -> -x", fdiv(var(n::x), -1), [](Match &m) { return py::neg(m.ctx, m[n::x], "x//-1"); }},
      {"(x^y)^y -> x", (var(n::x) ^ var(n::y)) ^ var(n::y), to(n::x)},
      {"(x%y)%y -> x%y", mod(mod(var(), var(n::y)).named(n::base), var(n::y)), to(n::base)},
      // variations of (x%c)+(x//c)*c = x
      {"fold_add_divmod_recombine", op(Op::ADD, n::x, DType::WeakInt),
       [](Match &m) { return foldAddDivmodRecombine(m.ctx, m[n::x]); }},
      {"bool x&c", xBool & cvar(n::c),
       [](Match &m) { return truthy(m[n::c]->val()) ? m[n::x] : m[n::c]; }},
      {"bool x|c", xBool | cvar(n::c),
       [](Match &m) { return truthy(m[n::c]->val()) ? m[n::c] : m[n::x]; }},
      {"x!=False -> x", xBool.ne(cbool(false)), to(n::x)},
      {"idempotent op(x,x) -> x", up(idempotentOps(), {var(n::x), var(n::x)}), to(n::x)},
      {"!!x -> x", xBool.logicalNot().logicalNot(), to(n::x)},
      {"x.where(True,False) -> x", xBool.where(cbool(true), cbool(false)), to(n::x)},
      {"x.where(False,True) -> !x", xBool.where(cbool(false), cbool(true)),
       [](Match &m) { return py::logicalNot(m.ctx, m[n::x], "where(F,T)"); }},
      // CAST(bool -> int) != const: CAST(True)=1, CAST(False)=0, so fold based on const value
      {"CAST(bool)!=c", xBool.cast(intDTypes() | DType::WeakInt).ne(cvar(n::c)), castBoolNeConst},
      {"trunc(int x) -> x", var(n::x, intsBoolWeak()).alu(Op::TRUNC, {}), to(n::x)},
      // ** zero folding **
      {"x<x -> False", var(n::x) < var(n::x), [](Match &m) { return m.ctx.constBool(false); }},
      {"x%x -> 0", mod(var(n::x), var(n::x)),
       [](Match &m) { return py::constLike(m.ctx, m[n::x], Scalar::fromInt(0), "x%x"); }},
      {"x^x -> 0", var(n::x) ^ var(n::x),
       [](Match &m) { return py::constLike(m.ctx, m[n::x], Scalar::fromInt(0), "x^x"); }},
      {"x&0 -> 0", var(n::x) & 0,
       [](Match &m) { return py::constLike(m.ctx, m[n::x], Scalar::fromInt(0), "x&0"); }},
      // (x&mask)>>k -> x>>k when mask only clears bits below k
      {"(x&mask)>>k -> x>>k", (var(n::x) & cvar(n::mask)) >> cvar(n::k), maskedShr},
      {"(x&mask)//c -> x//c", fdiv(var(n::x) & cvar(n::mask), cvar(n::c)), maskedDiv},
      {"x!=x -> False (ints)", var(n::x, intsBoolWeak()).ne(var(n::x)),
       [](Match &m) { return m.ctx.constBool(false); }},
      // ** constant folding **
      // a CAST to a concrete dtype over a CONST is a value conversion: evaluate it once, at the width the CAST states
      {"CAST(CONST) -> CONST",
       up(Op::CAST, {cvar(n::c)}, n::root, floatDTypes() | intDTypes() | DType::Bool),
       [](Match &m) { return py::constLike(m.ctx, m[n::root], m[n::c]->val(), "CAST(CONST)"); }},
      {"fold_const_alu (unary)", up(unaryOps(), {constFoldingPat()}, n::a),
       [](Match &m) { return foldConstALU(m.ctx, m[n::a]); }},
      // NOTE: THREEFRY(const,const) folds via its decomposition
      {"fold_const_alu (binary)", up(binaryNoThreefry(), {constFoldingPat(), constFoldingPat()}, n::a),
       [](Match &m) { return foldConstALU(m.ctx, m[n::a]); }},
      {"fold_const_alu (ternary)",
       up(ternaryOps(), {constFoldingPat(), constFoldingPat(), constFoldingPat()}, n::a),
       [](Match &m) { return foldConstALU(m.ctx, m[n::a]); }},
      // bool MUL is AND, ADD/MAX is OR. prevents other rules to rewrite bool ADD/MUL incorrectly
      {"bool x*y -> x&y", xBool * var(n::y, DType::Bool),
       [](Match &m) { return py::binop(m.ctx, Op::AND, m[n::x], m[n::y], "bool*"); }},
      {"bool x+y -> x|y", xBool + var(n::y, DType::Bool),
       [](Match &m) { return py::binop(m.ctx, Op::OR, m[n::x], m[n::y], "bool+"); }},
      {"bool max(x,y) -> x|y", maximum(xBool, var(n::y, DType::Bool)),
       [](Match &m) { return py::binop(m.ctx, Op::OR, m[n::x], m[n::y], "bool max"); }},
      // *** div rules ***
      {"0/0 -> nan", cscalar(Scalar::fromInt(0), {}, n::x) / cnum(0),
       [](Match &m) { return py::constLike(m.ctx, m[n::x], Scalar::fromFloat(NAN), "0/0"); }},
      {"(x*0)/0 -> nan", (var(n::x) * 0) / cnum(0),
       [](Match &m) { return py::constLike(m.ctx, m[n::x], Scalar::fromFloat(NAN), "(x*0)/0"); }},
      // can be wrong if x or x2 is 0
      {"x/x -> 1", var(n::x) / var(n::x),
       [](Match &m) { return py::constLike(m.ctx, m[n::x], Scalar::fromInt(1), "x/x"); }},
      {"(x*x2)/x2 -> x", (var(n::x) * var(n::x2)) / var(n::x2), to(n::x)},
      // x*0 -> 0 or 0*x -> 0; if x is nan or inf it should render the nan value.
      // NOTE: this can be wrong for loaded NaN
      {"x*0 -> 0", var(n::x) * 0, mulZero},
      // *** cast/bitcast ***
      {"CAST/BITCAST to own dtype -> x", up({Op::CAST, Op::BITCAST}, {var(n::x)}, n::root),
       [](Match &m) { return m[n::root]->dtype == m[n::x]->dtype ? m[n::x] : nullptr; }},
      {"fold_bitcast", up(Op::BITCAST, {cvar(n::c)}, n::root),
       [](Match &m) { return foldBitcast(m.ctx, m[n::root], m[n::c]); }},
      // b.cast(a).cast(b) -> b if a preserves all values in b
      {"x.cast(a).cast(b) -> x", var(n::x).cast({}, n::a).cast({}, n::b), [](Match &m) {
         UOpRef x = m[n::x], a = m[n::a], b = m[n::b];
         return x->dtype == b->dtype && canLosslessCast(b->dtype, a->dtype) ? x : nullptr;
       }},
      {"bitcast twice", up(Op::BITCAST, {var(n::x).bitcast()}, n::b), bitcastTwice},
      {"x.cast(bool) -> x!=0", var(n::x).cast(DType::Bool),
       [](Match &m) { return py::binopI(m.ctx, Op::CMPNE, m[n::x], 0, "cast(bool)"); }},
      // ** pow **
      {"simplify_pow", var(n::x).alu(Op::POW, {cvar(n::c)}),
       [](Match &m) { return simplifyPow(m.ctx, m[n::x], m[n::c]->val()); }},
      // positive const ** x
      {"c**x -> exp2(x*log2(c))", cvar(n::c).alu(Op::POW, {var(n::x)}), constPow},
      // unpack a uint64 packed from two uint32 (threefry)
      {"threefry unpack low",
       ((var(Name::None, DType::UInt64) << 32) | var(n::y, DType::UInt32).cast(DType::UInt64)).cast(DType::UInt32),
       to(n::y)},
      {"threefry unpack high",
       ((var(n::x, DType::UInt32).cast(DType::UInt64) << 32) |
        var(Name::None, DType::UInt32).cast(DType::UInt64)) >> 32,
       [](Match &m) { return py::cast(m.ctx, m[n::x], DType::UInt64); }},
      // ** simple where folding **
      // a conditional with the same results either way is a noop, also fold const conditionals
      {"c.where(v,v) -> v", var().where(var(n::val), var(n::val)), to(n::val)},
      {"fold_const_where", cvar(n::gate).where(var(n::c0), var(n::c1)).named(n::w), foldConstWhere},
      // a.where(b.where(c, d), d) -> (a & b).where(c, d)
      {"a.where(b.where(c,d),d)", var(n::a).where(var(n::b).where(var(n::c), var(n::d)), var(n::d)),
       [](Match &m) {
         const char *R = "where-nest-and";
         return py::where(m.ctx, py::binop(m.ctx, Op::AND, m[n::a], m[n::b], R), m[n::c], m[n::d], R);
       }},
      // a.where(c, b.where(c, d)) -> (a | b).where(c, d)
      {"a.where(c,b.where(c,d))", var(n::a).where(var(n::c), var(n::b).where(var(n::c), var(n::d))),
       [](Match &m) {
         const char *R = "where-nest-or";
         return py::where(m.ctx, py::binop(m.ctx, Op::OR, m[n::a], m[n::b], R), m[n::c], m[n::d], R);
       }},
  };
}

} // namespace mlir::tinygrad::sym::rules
