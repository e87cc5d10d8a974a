//===- SymbolicSimple.cpp - pm_data_invalid, symbolic_simple, mop_cleanup -===//
//
// Phase 1 of tinygrad's symbolic rules (tinygrad/uop/symbolic.py, the
// PatternMatcher inside `symbolic_simple`), the Invalid propagation rules that
// run before it (`pm_data_invalid`) and the movement-op cleanups appended to
// it (`mop_cleanup`, tinygrad/uop/movement.py).
//
// Matching follows UPat semantics: a commutative operator pattern tries both
// operand orders (first order first), a repeated name binds the identical
// node, `UPat.const(v)` compares with Python equality, and the first binding
// whose callback returns non-null decides the rule. Construction follows the
// UOp methods tinygrad's callbacks call (`x*y` promotes its operands like
// `_broadcasted`, `-x` is `x*-1`, `x.where(a,b)` promotes a and b, ...).
// Where tinygrad's callback raises, the rule reports to ctx.errors and
// declines.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
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
// Matching helpers
//===----------------------------------------------------------------------===//

bool isConst(UOpRef u) { return u->op == Op::CONST; }
/// UPat.const(v) / cvar(arg=v): CONST whose value == v (Python equality).
bool constEq(UOpRef u, I v) { return u->op == Op::CONST && pyEqInt(u->val(), v); }
/// UPat.const(b, dtypes.bool).
bool boolConst(UOpRef u, bool b) {
  return u->op == Op::CONST && u->dtype == DType::Bool && pyEqInt(u->val(), b);
}
bool isIntOrBoolOrWeak(DType dt) { return isInt(dt) || dt == DType::Bool; }
/// The two operand orders of a commutative list pattern, in itertools order.
template <typename Fn>
UOpRef perms(UOpRef u, Fn fn) {
  if (u->src.size() != 2)
    return nullptr;
  if (UOpRef r = fn(u->src[0], u->src[1]))
    return r;
  return fn(u->src[1], u->src[0]);
}
bool isUnaryOrCast(Op op) {
  return isUnary(op) || op == Op::CAST || op == Op::BITCAST;
}

//===----------------------------------------------------------------------===//
// pm_data_invalid
//===----------------------------------------------------------------------===//

// invalid_pat.broadcast(): a STACK of the same Invalid (at least one).
UOpRef invStack(Context &, UOpRef u) {
  if (u->src.empty() || !u->src[0]->isInvalid())
    return nullptr;
  for (UOpRef s : u->src)
    if (s != u->src[0])
      return nullptr;
  return u->src[0];
}
UOpRef invUnary(Context &, UOpRef u) {
  if (!isUnaryOrCast(u->op) || u->src.size() != 1 || !u->src[0]->isInvalid())
    return nullptr;
  return u->src[0];
}
UOpRef invUnaryGate(Context &ctx, UOpRef u) {
  UOpRef cond, x, i;
  if (!isUnaryOrCast(u->op) || u->src.size() != 1 || !invalidGate(u->src[0], cond, x, i))
    return nullptr;
  // op.replace(src=(x,)) keeps op's dtype and arg.
  UOpRef inner = ctx.get(u->op, u->type, {x}, u->arg);
  return py::where(ctx, cond, inner, i, "pm_data_invalid");
}
UOpRef invBinaryGateL(Context &ctx, UOpRef u) {
  UOpRef cond, x, i;
  if (!isBinary(u->op) || u->src.size() != 2 || !invalidGate(u->src[0], cond, x, i))
    return nullptr;
  return py::where(ctx, cond, py::alu(ctx, u->op, {x, u->src[1]}), i, "pm_data_invalid");
}
UOpRef invBinaryGateR(Context &ctx, UOpRef u) {
  UOpRef cond, x, i;
  if (!isBinary(u->op) || u->src.size() != 2 || !invalidGate(u->src[1], cond, x, i))
    return nullptr;
  return py::where(ctx, cond, py::alu(ctx, u->op, {u->src[0], x}), i, "pm_data_invalid");
}
UOpRef invBinary(Context &, UOpRef u) {
  if (!isBinary(u->op) || isComparison(u->op))
    return nullptr;
  return perms(u, [](UOpRef a, UOpRef) { return a->isInvalid() ? a : nullptr; });
}
UOpRef invWhereCond(Context &, UOpRef u) {
  if (u->op != Op::WHERE || u->src.size() != 3 || !u->src[0]->isInvalid())
    return nullptr;
  return u->src[0];
}
UOpRef invWhereGateCond(Context &ctx, UOpRef u) {
  UOpRef cond, x, i;
  if (u->op != Op::WHERE || u->src.size() != 3 || !invalidGate(u->src[0], cond, x, i))
    return nullptr;
  return py::where(ctx, cond, py::where(ctx, x, u->src[1], u->src[2], "pm_data_invalid"),
                 i, "pm_data_invalid");
}
UOpRef invWhereNormalize(Context &ctx, UOpRef u) {
  if (u->op != Op::WHERE || u->src.size() != 3 || !u->src[1]->isInvalid())
    return nullptr;
  UOpRef cond = u->src[0], i = u->src[1], val = u->src[2];
  if (val->isInvalid())
    return i;
  return py::where(ctx, py::logicalNot(ctx, cond, "pm_data_invalid"), val, i, "pm_data_invalid");
}
UOpRef invWhereLiftT(Context &ctx, UOpRef u) {
  UOpRef cond, x, i;
  if (u->op != Op::WHERE || u->src.size() != 3 || !invalidGate(u->src[1], cond, x, i))
    return nullptr;
  UOpRef a = u->src[0], c = u->src[2];
  if (c->isInvalid())
    return nullptr;
  const char *R = "pm_data_invalid";
  return py::where(ctx, py::binop(ctx, Op::OR, py::logicalNot(ctx, a, R), cond, R),
                 py::where(ctx, a, x, c, R), i, R);
}
UOpRef invWhereLiftF(Context &ctx, UOpRef u) {
  UOpRef cond, x, i;
  if (u->op != Op::WHERE || u->src.size() != 3 || !invalidGate(u->src[2], cond, x, i))
    return nullptr;
  UOpRef a = u->src[0], b = u->src[1];
  if (b->isInvalid())
    return nullptr;
  const char *R = "pm_data_invalid";
  return py::where(ctx, py::binop(ctx, Op::OR, a, cond, R), py::where(ctx, a, b, x, R), i, R);
}
/// `UPat(INDEX, src=(UPat(), invalid_pat), allow_any_len=True).or_casted()`.
bool invalidIndexOrCasted(UOpRef u) {
  auto isInvIndex = [](UOpRef v) {
    return v->op == Op::INDEX && v->src.size() >= 2 && v->src[1]->isInvalid();
  };
  if (isInvIndex(u))
    return true;
  return u->op == Op::CAST && u->src.size() == 1 && isInvIndex(u->src[0]);
}
UOpRef invStore(Context &ctx, UOpRef u) {
  if (u->src.size() != 2 || !invalidIndexOrCasted(u->src[0]))
    return nullptr;
  return ctx.get(Op::NOOP, ctx.typeFor(DType::Void), {});
}
UOpRef invLoad(Context &ctx, UOpRef u) {
  if (u->src.empty() || !invalidIndexOrCasted(u->src[0]))
    return nullptr;
  if (u->src.size() > 1)
    return u->src[1];
  return py::constLike(ctx, u, Scalar::fromInt(0), "pm_data_invalid");
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
  if (x->op != Op::ADD || x->dtype != DType::WeakInt)
    return nullptr;
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

/// (x & mask) with mask a CONST, both operand orders.
template <typename Fn>
UOpRef andMask(UOpRef u, Fn fn) {
  if (u->op != Op::AND)
    return nullptr;
  return perms(u, [&](UOpRef x, UOpRef m) { return isConst(m) ? fn(x, m) : nullptr; });
}
/// `mask | ((1 << k) - 1) == -1`: every bit at or above k is set.
bool clearsOnlyBelow(I mask, I k) {
  if (mask >= 0)
    return false;
  return k >= 127 || mask >= -(I(1) << k);
}

//===----------------------------------------------------------------------===//
// symbolic_simple rules
//===----------------------------------------------------------------------===//

#define RULE(name) UOpRef name(Context &ctx, UOpRef u)
#define UNUSED_CTX (void)ctx

// ** self folding **
RULE(selfAddZero) { // x+0 / x^0 / x|0 -> x
  UNUSED_CTX;
  return perms(u, [](UOpRef x, UOpRef c) { return constEq(c, 0) ? x : nullptr; });
}
RULE(selfShiftZero) { // x<<0 / x>>0 -> x
  UNUSED_CTX;
  return u->src.size() == 2 && constEq(u->src[1], 0) ? u->src[0] : nullptr;
}
RULE(selfMulOne) {
  UNUSED_CTX;
  return perms(u, [](UOpRef x, UOpRef c) { return constEq(c, 1) ? x : nullptr; });
}
RULE(selfDivSelf) {
  if (u->src.size() != 2 || u->src[0] != u->src[1])
    return nullptr;
  return py::constLike(ctx, u->src[0], Scalar::fromInt(1), "x//x");
}
RULE(selfDivOne) {
  UNUSED_CTX;
  return u->src.size() == 2 && constEq(u->src[1], 1) ? u->src[0] : nullptr;
}
RULE(selfDivNegOne) {
  if (u->src.size() != 2 || !constEq(u->src[1], -1))
    return nullptr;
  return py::neg(ctx, u->src[0], "x//-1");
}
RULE(xorXorY) { // (x^y)^y -> x
  UNUSED_CTX;
  return perms(u, [](UOpRef in, UOpRef y) -> UOpRef {
    if (in->op != Op::XOR || in->src.size() != 2)
      return nullptr;
    if (in->src[1] == y)
      return in->src[0];
    if (in->src[0] == y)
      return in->src[1];
    return nullptr;
  });
}
RULE(modModY) { // (x%y)%y -> x%y
  UNUSED_CTX;
  if (u->src.size() != 2)
    return nullptr;
  UOpRef base = u->src[0];
  if (base->op != Op::FLOORMOD || base->src.size() != 2 || base->src[1] != u->src[1])
    return nullptr;
  return base;
}
RULE(divmodRecombine) { return foldAddDivmodRecombine(ctx, u); }
RULE(boolAndConst) {
  UNUSED_CTX;
  return perms(u, [](UOpRef x, UOpRef c) -> UOpRef {
    if (x->dtype != DType::Bool || !isConst(c))
      return nullptr;
    return truthy(c->val()) ? x : c;
  });
}
RULE(boolOrConst) {
  UNUSED_CTX;
  return perms(u, [](UOpRef x, UOpRef c) -> UOpRef {
    if (x->dtype != DType::Bool || !isConst(c))
      return nullptr;
    return truthy(c->val()) ? c : x;
  });
}
RULE(boolNeFalse) {
  UNUSED_CTX;
  return perms(u, [](UOpRef x, UOpRef c) -> UOpRef {
    return x->dtype == DType::Bool && boolConst(c, false) ? x : nullptr;
  });
}
RULE(idempotent) {
  UNUSED_CTX;
  return u->src.size() == 2 && u->src[0] == u->src[1] ? u->src[0] : nullptr;
}
RULE(notNot) { // x.logical_not().logical_not() -> x (x bool)
  UNUSED_CTX;
  return perms(u, [](UOpRef inner, UOpRef t) -> UOpRef {
    if (inner->op != Op::CMPNE || !constEq(t, 1))
      return nullptr;
    return perms(inner, [](UOpRef x, UOpRef t2) -> UOpRef {
      return x->dtype == DType::Bool && constEq(t2, 1) ? x : nullptr;
    });
  });
}
RULE(whereTrueFalse) {
  UNUSED_CTX;
  if (u->dtype != DType::Bool || u->src.size() != 3 || u->src[0]->dtype != DType::Bool)
    return nullptr;
  return boolConst(u->src[1], true) && boolConst(u->src[2], false) ? u->src[0] : nullptr;
}
RULE(whereFalseTrue) {
  if (u->dtype != DType::Bool || u->src.size() != 3 || u->src[0]->dtype != DType::Bool)
    return nullptr;
  if (!boolConst(u->src[1], false) || !boolConst(u->src[2], true))
    return nullptr;
  return py::logicalNot(ctx, u->src[0], "where(F,T)");
}
RULE(castBoolNeConst) {
  return perms(u, [&](UOpRef cst, UOpRef c) -> UOpRef {
    if (cst->op != Op::CAST || cst->src.size() != 1 || !isInt(cst->dtype) ||
        cst->src[0]->dtype != DType::Bool || !isConst(c))
      return nullptr;
    UOpRef x = cst->src[0];
    if (pyEqInt(c->val(), 0))
      return x;
    if (pyEqInt(c->val(), 1))
      return py::logicalNot(ctx, x, "CAST(bool)!=c");
    return py::constLike(ctx, x, Scalar::fromBool(true), "CAST(bool)!=c");
  });
}
RULE(truncInt) {
  UNUSED_CTX;
  if (u->src.size() != 1 || !isIntOrBoolOrWeak(u->dtype) || !isIntOrBoolOrWeak(u->src[0]->dtype))
    return nullptr;
  return u->src[0];
}
// ** zero folding **
RULE(ltSelf) {
  if (u->src.size() != 2 || u->src[0] != u->src[1])
    return nullptr;
  return ctx.constBool(false);
}
RULE(modSelf) {
  if (u->src.size() != 2 || u->src[0] != u->src[1])
    return nullptr;
  return py::constLike(ctx, u->src[0], Scalar::fromInt(0), "x%x");
}
RULE(xorSelf) {
  if (u->src.size() != 2 || u->src[0] != u->src[1])
    return nullptr;
  return py::constLike(ctx, u->src[0], Scalar::fromInt(0), "x^x");
}
RULE(andZero) {
  return perms(u, [&](UOpRef x, UOpRef c) -> UOpRef {
    return constEq(c, 0) ? py::constLike(ctx, x, Scalar::fromInt(0), "x&0") : nullptr;
  });
}
RULE(maskedShr) { // (x&mask)>>k -> x>>k
  const char *R = "(x&mask)>>k";
  if (u->src.size() != 2 || !isConst(u->src[1]))
    return nullptr;
  UOpRef k = u->src[1];
  bool raised = false;
  UOpRef r = andMask(u->src[0], [&](UOpRef x, UOpRef mask) -> UOpRef {
    auto m = pyInt(mask->val());
    auto kv = pyInt(k->val());
    if (!kv || (kv && *kv < 0) || !m) {
      raised = true;
      return py::fail(ctx, R, "unsupported operand for << or |");
    }
    if (!clearsOnlyBelow(*m, *kv))
      return nullptr;
    return py::binopC(ctx, Op::SHR, x, k->val(), R);
  });
  return raised ? nullptr : r;
}
RULE(maskedDiv) { // (x&mask)//c -> x//c
  const char *R = "(x&mask)//c";
  if (u->src.size() != 2 || !isConst(u->src[1]))
    return nullptr;
  UOpRef c = u->src[1];
  bool raised = false;
  UOpRef r = andMask(u->src[0], [&](UOpRef x, UOpRef mask) -> UOpRef {
    auto sign = pySign(c->val());
    if (!sign) {
      raised = true;
      return py::fail(ctx, R, "comparison with Invalid");
    }
    if (*sign <= 0)
      return nullptr;
    auto cv = pyInt(c->val());
    if (!cv) {
      raised = true;
      return py::fail(ctx, R, "unsupported operand for &");
    }
    if ((*cv & (*cv - 1)) != 0)
      return nullptr;
    auto m = pyInt(mask->val());
    if (!m) {
      raised = true;
      return py::fail(ctx, R, "unsupported operand for |");
    }
    // c is a power of two 2**k: mask | (c-1) == -1 iff -c <= mask < 0
    if (!(*m < 0 && *m >= -*cv))
      return nullptr;
    return py::binopC(ctx, Op::FLOORDIV, x, c->val(), R);
  });
  return raised ? nullptr : r;
}
RULE(neSelfInt) {
  if (u->src.size() != 2 || u->src[0] != u->src[1] || !isIntOrBoolOrWeak(u->src[0]->dtype))
    return nullptr;
  return ctx.constBool(false);
}
// ** constant folding **
RULE(castConst) {
  // dtypes.all = floats + ints + (bool,): no weak, void or wide uint targets
  bool concrete = u->dtype == DType::Bool || (isInt(u->dtype) && !isWeak(u->dtype)) ||
                  (isFloat(u->dtype) && !isWeak(u->dtype));
  if (u->src.size() != 1 || !isConst(u->src[0]) || !concrete)
    return nullptr;
  return py::constLike(ctx, u, u->src[0]->val(), "CAST(CONST)");
}
bool isConstFolding(UOpRef s) { return s->op == Op::CONST || s->op == Op::STACK; }
RULE(foldUnary) {
  if (u->src.size() != 1 || !isConstFolding(u->src[0]))
    return nullptr;
  return foldConstALU(ctx, u);
}
RULE(foldBinary) {
  if (u->op == Op::THREEFRY || u->src.size() != 2 || !isConstFolding(u->src[0]) ||
      !isConstFolding(u->src[1]))
    return nullptr;
  return foldConstALU(ctx, u);
}
RULE(foldTernary) {
  if (u->src.size() != 3 || !llvm::all_of(u->src, isConstFolding))
    return nullptr;
  return foldConstALU(ctx, u);
}
// bool MUL is AND, ADD/MAX is OR
RULE(boolMul) {
  if (u->dtype != DType::Bool || u->src.size() != 2 || u->src[0]->dtype != DType::Bool ||
      u->src[1]->dtype != DType::Bool)
    return nullptr;
  return py::binop(ctx, Op::AND, u->src[0], u->src[1], "bool*");
}
RULE(boolAddMax) {
  if (u->dtype != DType::Bool || u->src.size() != 2 || u->src[0]->dtype != DType::Bool ||
      u->src[1]->dtype != DType::Bool)
    return nullptr;
  return py::binop(ctx, Op::OR, u->src[0], u->src[1], "bool+");
}
// *** div rules *** (`a / b` is MUL(a, RECIPROCAL(b)))
bool isRecipOf(UOpRef r, UOpRef &of) {
  if (r->op != Op::RECIPROCAL || r->src.size() != 1)
    return false;
  of = r->src[0];
  return true;
}
RULE(zeroDivZero) { // 0/0 -> nan
  return perms(u, [&](UOpRef x, UOpRef r) -> UOpRef {
    UOpRef d;
    if (!constEq(x, 0) || !isRecipOf(r, d) || !constEq(d, 0))
      return nullptr;
    return py::constLike(ctx, x, Scalar::fromFloat(NAN), "0/0");
  });
}
RULE(mulZeroDivZero) { // (x*0)/0 -> nan
  return perms(u, [&](UOpRef m, UOpRef r) -> UOpRef {
    UOpRef d;
    if (m->op != Op::MUL || !isRecipOf(r, d) || !constEq(d, 0))
      return nullptr;
    return perms(m, [&](UOpRef x, UOpRef z) -> UOpRef {
      return constEq(z, 0) ? py::constLike(ctx, x, Scalar::fromFloat(NAN), "(x*0)/0") : nullptr;
    });
  });
}
RULE(divSelf) { // x/x -> 1
  return perms(u, [&](UOpRef x, UOpRef r) -> UOpRef {
    UOpRef d;
    if (!isRecipOf(r, d) || d != x)
      return nullptr;
    return py::constLike(ctx, x, Scalar::fromInt(1), "x/x");
  });
}
RULE(mulDivCancel) { // (x*x2)/x2 -> x
  UNUSED_CTX;
  return perms(u, [&](UOpRef m, UOpRef r) -> UOpRef {
    UOpRef d;
    if (m->op != Op::MUL || !isRecipOf(r, d))
      return nullptr;
    return perms(m, [&](UOpRef x, UOpRef x2) -> UOpRef { return x2 == d ? x : nullptr; });
  });
}
RULE(mulZero) { // x*0 -> 0 (nan for a nan/inf const x)
  return perms(u, [&](UOpRef x, UOpRef c) -> UOpRef {
    if (!constEq(c, 0))
      return nullptr;
    bool nanOut = x->op == Op::CONST && x->val().isFloat() &&
                  (std::isnan(x->val().f) || std::isinf(x->val().f));
    return py::constLike(ctx, x, nanOut ? Scalar::fromFloat(NAN) : Scalar::fromInt(0), "x*0");
  });
}
// *** cast/bitcast ***
RULE(castNoop) {
  UNUSED_CTX;
  return u->src.size() == 1 && u->dtype == u->src[0]->dtype ? u->src[0] : nullptr;
}
RULE(bitcastConst) {
  if (u->src.size() != 1 || !isConst(u->src[0]))
    return nullptr;
  return foldBitcast(ctx, u, u->src[0]);
}
RULE(castCast) { // x.cast(a).cast(b) -> x if lossless
  UNUSED_CTX;
  if (u->src.size() != 1)
    return nullptr;
  UOpRef a = u->src[0];
  if (a->op != Op::CAST || a->src.size() != 1)
    return nullptr;
  UOpRef x = a->src[0];
  return x->dtype == u->dtype && canLosslessCast(u->dtype, a->dtype) ? x : nullptr;
}
RULE(bitcastBitcast) {
  if (u->src.size() != 1 || u->src[0]->op != Op::BITCAST || u->src[0]->src.size() != 1)
    return nullptr;
  UOpRef x = u->src[0]->src[0];
  if (isWeak(x->dtype) || isWeak(u->dtype))
    return py::fail(ctx, "bitcast twice", "bitcast requires concrete dtypes");
  if (x->dtype == u->dtype)
    return x;
  return ctx.get(Op::BITCAST, u->type, {x}, u->arg);
}
RULE(castToBool) { // x.cast(bool) -> x != 0
  if (u->dtype != DType::Bool || u->src.size() != 1)
    return nullptr;
  return py::binopI(ctx, Op::CMPNE, u->src[0], 0, "cast(bool)");
}
// ** pow **
RULE(powConst) {
  if (u->src.size() != 2 || !isConst(u->src[1]))
    return nullptr;
  return simplifyPow(ctx, u->src[0], u->src[1]->val());
}
RULE(constPow) { // c ** x
  const char *R = "c**x";
  if (u->src.size() != 2 || !isConst(u->src[0]))
    return nullptr;
  UOpRef c = u->src[0], x = u->src[1];
  const Scalar &v = c->val();
  if (pyEqInt(v, 1))
    return c;
  auto sign = pySign(v);
  if (!sign)
    return py::fail(ctx, R, "comparison with Invalid");
  if (*sign <= 0)
    return nullptr;
  double l = v.isFloat() ? std::log2(v.f) : std::log2(static_cast<double>(*pyInt(v)));
  return py::alu(ctx, Op::EXP2, {py::binopC(ctx, Op::MUL, x, Scalar::fromFloat(l), R)});
}
// unpack a uint64 packed from two uint32 (threefry)
bool isU64CastOfU32(UOpRef c, UOpRef &y) {
  if (c->op != Op::CAST || c->dtype != DType::UInt64 || c->src.size() != 1 ||
      c->src[0]->dtype != DType::UInt32)
    return false;
  y = c->src[0];
  return true;
}
RULE(threefryLow) { // ((_<<32) | y.cast(u64)).cast(u32) -> y
  UNUSED_CTX;
  if (u->dtype != DType::UInt32 || u->src.size() != 1)
    return nullptr;
  UOpRef o = u->src[0];
  if (o->op != Op::OR || o->dtype != DType::UInt64)
    return nullptr;
  return perms(o, [](UOpRef shl, UOpRef cy) -> UOpRef {
    UOpRef y;
    if (shl->op != Op::SHL || shl->src.size() != 2 || shl->src[0]->dtype != DType::UInt64 ||
        !constEq(shl->src[1], 32) || !isU64CastOfU32(cy, y))
      return nullptr;
    return y;
  });
}
RULE(threefryHigh) { // ((x.cast(u64)<<32) | _.cast(u64)) >> 32 -> x.cast(u64)
  if (u->src.size() != 2 || !constEq(u->src[1], 32))
    return nullptr;
  UOpRef o = u->src[0];
  if (o->op != Op::OR || o->dtype != DType::UInt64)
    return nullptr;
  return perms(o, [&](UOpRef shl, UOpRef cl) -> UOpRef {
    UOpRef x, lo;
    if (shl->op != Op::SHL || shl->src.size() != 2 || !constEq(shl->src[1], 32) ||
        !isU64CastOfU32(shl->src[0], x) || !isU64CastOfU32(cl, lo))
      return nullptr;
    return py::cast(ctx, x, DType::UInt64);
  });
}
// ** simple where folding **
RULE(whereSame) {
  UNUSED_CTX;
  return u->src.size() == 3 && u->src[1] == u->src[2] ? u->src[1] : nullptr;
}
RULE(whereConstGate) { // fold_const_where
  if (u->src.size() != 3 || !isConst(u->src[0]))
    return nullptr;
  UOpRef ret = truthy(u->src[0]->val()) ? u->src[1] : u->src[2];
  if (ret->op == Op::CONST && isWeak(ret->dtype) && !isWeak(u->dtype))
    return py::commitWeak(ctx, ret, u->dtype, "fold_const_where");
  return ret;
}
RULE(whereNestAnd) { // a.where(b.where(c, d), d) -> (a & b).where(c, d)
  const char *R = "where-nest-and";
  if (u->src.size() != 3)
    return nullptr;
  UOpRef a = u->src[0], in = u->src[1], d = u->src[2];
  if (in->op != Op::WHERE || in->src.size() != 3 || in->src[2] != d)
    return nullptr;
  return py::where(ctx, py::binop(ctx, Op::AND, a, in->src[0], R), in->src[1], d, R);
}
RULE(whereNestOr) { // a.where(c, b.where(c, d)) -> (a | b).where(c, d)
  const char *R = "where-nest-or";
  if (u->src.size() != 3)
    return nullptr;
  UOpRef a = u->src[0], c = u->src[1], in = u->src[2];
  if (in->op != Op::WHERE || in->src.size() != 3 || in->src[1] != c)
    return nullptr;
  return py::where(ctx, py::binop(ctx, Op::OR, a, in->src[0], R), c, in->src[2], R);
}

//===----------------------------------------------------------------------===//
// mop_cleanup
//===----------------------------------------------------------------------===//

/// The static shape of a value type; nullopt for void or symbolic dims.
std::optional<llvm::SmallVector<int64_t>> staticShape(UOpRef u) {
  tg::ValueInfo info = tg::getValueInfo(u->type);
  if (info.isVoid || u->dtype == DType::Void)
    return std::nullopt;
  for (int64_t d : info.shape)
    if (d == tg::kDynamic)
      return std::nullopt;
  return info.shape;
}
std::optional<llvm::ArrayRef<int64_t>> permOf(UOpRef u) {
  if (!u->arg.attrs)
    return std::nullopt;
  auto p = dyn_cast_or_null<DenseI64ArrayAttr>(u->arg.attrs.get("perm"));
  if (!p)
    return std::nullopt;
  return p.asArrayRef();
}

RULE(mergeReshape) {
  if (u->src.size() != 2 || u->src[0]->op != Op::RESHAPE || u->src[0]->src.size() != 2)
    return nullptr;
  return ctx.get(Op::RESHAPE, u->type, {u->src[0]->src[0], u->src[1]}, u->arg);
}
RULE(noopReshape) {
  UNUSED_CTX;
  if (u->src.size() != 2)
    return nullptr;
  UOpRef x2 = u->src[0];
  auto a = staticShape(x2), b = staticShape(u);
  return a && b && *a == *b ? x2 : nullptr;
}
RULE(mergePermute) {
  if (u->src.size() != 1 || u->src[0]->op != Op::PERMUTE)
    return nullptr;
  UOpRef x2 = u->src[0];
  auto outer = permOf(u), inner = permOf(x2);
  if (!outer || !inner)
    return nullptr;
  llvm::SmallVector<int64_t> merged;
  for (int64_t i : *outer) {
    int64_t n = inner->size();
    if (i < -n || i >= n)
      return py::fail(ctx, "merge PERMUTEs", "tuple index out of range");
    merged.push_back((*inner)[i < 0 ? i + n : i]);
  }
  NamedAttrList attrs(x2->arg.attrs);
  attrs.set("perm", DenseI64ArrayAttr::get(ctx.getMLIRContext(), merged));
  return ctx.get(Op::PERMUTE, u->type, x2->src,
                 Arg{x2->arg.value, attrs.getDictionary(ctx.getMLIRContext())});
}
RULE(noopPermute) {
  UNUSED_CTX;
  auto p = permOf(u);
  if (!p || u->src.empty())
    return nullptr;
  for (size_t i = 0; i < p->size(); ++i)
    if ((*p)[i] != static_cast<int64_t>(i))
      return nullptr;
  return u->src[0];
}
RULE(stackOfIndexConst) {
  UNUSED_CTX;
  if (u->src.empty())
    return nullptr;
  UOpRef src = nullptr;
  for (UOpRef s : u->src) {
    if (s->op != Op::INDEX || s->src.size() != 2 || s->src[1]->op != Op::CONST)
      return nullptr;
    if (src && s->src[0] != src)
      return nullptr;
    src = s->src[0];
  }
  auto a = staticShape(u), b = staticShape(src);
  if (!a || !b || *a != *b)
    return nullptr;
  for (size_t i = 0; i < u->src.size(); ++i)
    if (!pyEqInt(u->src[i]->src[1]->val(), static_cast<I>(i)))
      return nullptr;
  return src;
}
RULE(indexIntoStack) {
  if (u->src.size() < 2 || u->src[0]->op != Op::STACK || !isConst(u->src[1]))
    return nullptr;
  // TODO: with extra indices tinygrad re-indexes a.src[i] (needs INDEX type
  // inference); only the plain form is ported.
  if (u->src.size() > 2)
    return nullptr;
  UOpRef a = u->src[0];
  auto iv = pyInt(u->src[1]->val());
  if (!iv)
    return py::fail(ctx, "INDEX(STACK, c)", "list indices must be integers");
  I n = a->src.size(), i = *iv < 0 ? *iv + n : *iv;
  if (i < 0 || i >= n)
    return py::fail(ctx, "INDEX(STACK, c)", "list index out of range");
  return a->src[static_cast<size_t>(i)];
}

#undef RULE
#undef UNUSED_CTX

std::vector<Op> unaryOps() {
  return {Op::EXP2, Op::LOG2, Op::SIN, Op::SQRT, Op::RECIPROCAL, Op::NEG, Op::TRUNC};
}
std::vector<Op> unaryCastOps() {
  auto v = unaryOps();
  v.push_back(Op::CAST);
  v.push_back(Op::BITCAST);
  return v;
}
std::vector<Op> binaryOps() {
  return {Op::ADD, Op::MUL, Op::SHL, Op::SHR, Op::CDIV, Op::MAX, Op::CMOD,
          Op::CMPLT, Op::CMPNE, Op::CMPEQ, Op::XOR, Op::OR, Op::AND,
          Op::THREEFRY, Op::SUB, Op::FDIV, Op::POW, Op::FLOORDIV, Op::FLOORMOD};
}
std::vector<Op> binaryNoCmp() {
  std::vector<Op> v;
  for (Op o : binaryOps())
    if (!isComparison(o))
      v.push_back(o);
  return v;
}
std::vector<Op> binaryNoThreefry() {
  std::vector<Op> v;
  for (Op o : binaryOps())
    if (o != Op::THREEFRY)
      v.push_back(o);
  return v;
}

} // namespace

std::vector<LegacyRule> dataInvalidRules() {
  return {
      {"invalid.broadcast() -> Invalid", {Op::STACK}, invStack},
      {"unary(Invalid) -> Invalid", unaryCastOps(), invUnary},
      {"unary(gate) -> gate(unary)", unaryCastOps(), invUnaryGate},
      {"binary(gate, y) -> gate(binary)", binaryOps(), invBinaryGateL},
      {"binary(y, gate) -> gate(binary)", binaryOps(), invBinaryGateR},
      {"binary(Invalid, _) -> Invalid", binaryNoCmp(), invBinary},
      {"Invalid.where(_, _) -> Invalid", {Op::WHERE}, invWhereCond},
      {"gate.where(a, b) -> lift gate", {Op::WHERE}, invWhereGateCond},
      {"c.where(Invalid, v) -> (!c).where(v, Invalid)", {Op::WHERE}, invWhereNormalize},
      {"a.where(gate, c) -> lift gate", {Op::WHERE}, invWhereLiftT},
      {"a.where(b, gate) -> lift gate", {Op::WHERE}, invWhereLiftF},
      {"STORE(INDEX(_, Invalid)) -> NOOP", {Op::STORE}, invStore},
      {"LOAD(INDEX(_, Invalid)) -> alt", {Op::LOAD}, invLoad},
  };
}

std::vector<LegacyRule> symbolicSimpleRules() {
  return {
      // ** self folding **
      {"x+0 / x^0 / x|0 -> x", {Op::ADD, Op::XOR, Op::OR}, selfAddZero},
      {"x<<0 / x>>0 -> x", {Op::SHL, Op::SHR}, selfShiftZero},
      {"x*1 -> x", {Op::MUL}, selfMulOne},
      {"x//x -> 1", {Op::FLOORDIV}, selfDivSelf},
      {"x//1 -> x", {Op::FLOORDIV}, selfDivOne},
      {"x//-1 -> -x", {Op::FLOORDIV}, selfDivNegOne},
      {"(x^y)^y -> x", {Op::XOR}, xorXorY},
      {"(x%y)%y -> x%y", {Op::FLOORMOD}, modModY},
      {"fold_add_divmod_recombine", {Op::ADD}, divmodRecombine},
      {"bool x&c", {Op::AND}, boolAndConst},
      {"bool x|c", {Op::OR}, boolOrConst},
      {"x!=False -> x", {Op::CMPNE}, boolNeFalse},
      {"idempotent op(x,x) -> x", {Op::OR, Op::AND, Op::MAX}, idempotent},
      {"!!x -> x", {Op::CMPNE}, notNot},
      {"x.where(True,False) -> x", {Op::WHERE}, whereTrueFalse},
      {"x.where(False,True) -> !x", {Op::WHERE}, whereFalseTrue},
      {"CAST(bool)!=c", {Op::CMPNE}, castBoolNeConst},
      {"trunc(int x) -> x", {Op::TRUNC}, truncInt},
      // ** zero folding **
      {"x<x -> False", {Op::CMPLT}, ltSelf},
      {"x%x -> 0", {Op::FLOORMOD}, modSelf},
      {"x^x -> 0", {Op::XOR}, xorSelf},
      {"x&0 -> 0", {Op::AND}, andZero},
      {"(x&mask)>>k -> x>>k", {Op::SHR}, maskedShr},
      {"(x&mask)//c -> x//c", {Op::FLOORDIV}, maskedDiv},
      {"x!=x -> False (ints)", {Op::CMPNE}, neSelfInt},
      // ** constant folding **
      {"CAST(CONST) -> CONST", {Op::CAST}, castConst},
      {"fold_const_alu (unary)", unaryOps(), foldUnary},
      {"fold_const_alu (binary)", binaryNoThreefry(), foldBinary},
      {"fold_const_alu (ternary)", {Op::WHERE, Op::MULACC}, foldTernary},
      {"bool x*y -> x&y", {Op::MUL}, boolMul},
      {"bool x+y -> x|y", {Op::ADD}, boolAddMax},
      {"bool max(x,y) -> x|y", {Op::MAX}, boolAddMax},
      // *** div rules ***
      {"0/0 -> nan", {Op::MUL}, zeroDivZero},
      {"(x*0)/0 -> nan", {Op::MUL}, mulZeroDivZero},
      {"x/x -> 1", {Op::MUL}, divSelf},
      {"(x*x2)/x2 -> x", {Op::MUL}, mulDivCancel},
      {"x*0 -> 0", {Op::MUL}, mulZero},
      // *** cast/bitcast ***
      {"CAST/BITCAST to own dtype -> x", {Op::CAST, Op::BITCAST}, castNoop},
      {"fold_bitcast", {Op::BITCAST}, bitcastConst},
      {"x.cast(a).cast(b) -> x", {Op::CAST}, castCast},
      {"bitcast twice", {Op::BITCAST}, bitcastBitcast},
      {"x.cast(bool) -> x!=0", {Op::CAST}, castToBool},
      // ** pow **
      {"simplify_pow", {Op::POW}, powConst},
      {"c**x -> exp2(x*log2(c))", {Op::POW}, constPow},
      {"threefry unpack low", {Op::CAST}, threefryLow},
      {"threefry unpack high", {Op::SHR}, threefryHigh},
      // ** simple where folding **
      {"c.where(v,v) -> v", {Op::WHERE}, whereSame},
      {"fold_const_where", {Op::WHERE}, whereConstGate},
      {"a.where(b.where(c,d),d)", {Op::WHERE}, whereNestAnd},
      {"a.where(c,b.where(c,d))", {Op::WHERE}, whereNestOr},
  };
}

std::vector<LegacyRule> mopCleanupRules() {
  return {
      {"merge RESHAPEs", {Op::RESHAPE}, mergeReshape},
      {"noop RESHAPE", {Op::RESHAPE}, noopReshape},
      {"merge PERMUTEs", {Op::PERMUTE}, mergePermute},
      {"noop PERMUTE", {Op::PERMUTE}, noopPermute},
      {"STACK of INDEX CONST -> src", {Op::STACK}, stackOfIndexConst},
      {"INDEX(STACK, c) -> src[c]", {Op::INDEX}, indexIntoStack},
  };
}

} // namespace mlir::tinygrad::sym::rules
