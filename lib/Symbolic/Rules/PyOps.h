//===- PyOps.h - tinygrad's Python operator semantics on UOps ---*- C++ -*-===//
//
// tinygrad's operator sugar on UOps (ElementwiseMixin), for rule results that
// tinygrad writes with Python operators. Every rule family builds its results
// through this one layer:
//
//  * `a + b` promotes both sides with `_broadcasted` first: a bare weak CONST
//    stays a CONST at the weak kind of least_upper_dtype, Invalid is kept,
//    anything else is CAST;
//  * a Python literal is `UOp.const(v)` (int: weakint, float: weakfloat,
//    bool: bool);
//  * `-x` is `x*-1` (logical_not for bool), `a - b` is `a + -b`, `//` is
//    FLOORDIV for ints, `x.where(a, b)` promotes a and b together;
//  * `UOp.usum`/`uprod` fold from the first element, Python's `sum()` starts
//    from the int 0 and helpers.prod from the int 1.
//
// Context::alu is tinygrad's plain `x.alu(op, ...)` (no promotion).
//
// Two flavours share the promotion core:
//  * the plain forms (py::add, py::binop, ...) take non-null operands; where
//    least_upper_dtype has no answer (void, _uint128) they build the node from
//    the unpromoted operands;
//  * the checked forms take the rule's name: a null operand gives null, and
//    where tinygrad raises they report to ctx.errors and return null.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_SYMBOLIC_RULES_PYOPS_H
#define TINYGRAD_LIB_SYMBOLIC_RULES_PYOPS_H

#include "tinygrad/Symbolic/UOp.h"
#include <cmath>
#include <string>

namespace mlir::tinygrad::sym::rules::py {

using I = __int128;

//===----------------------------------------------------------------------===//
// Constants and casts
//===----------------------------------------------------------------------===//

/// `x.cast(dt)`: x itself when the dtype already matches.
inline UOpRef cast(Context &ctx, UOpRef x, DType dt) {
  return x->dtype == dt ? x : ctx.cast(x, dt);
}
/// A Python literal as `UOp.const(v)`: the dtype comes from the Python type.
inline UOpRef lit(Context &ctx, const Scalar &v) {
  DType dt = v.isBool() || v.isInvalid() ? DType::Bool
             : v.isFloat()               ? DType::WeakFloat
                                         : DType::WeakInt;
  return ctx.cnst(v, dt);
}
/// A Python int as a UOp (`UOp.const(c)`): weakint.
inline UOpRef ic(Context &ctx, I c) { return ctx.constInt(c, DType::WeakInt); }
/// `Invalid` as a UOp.
inline UOpRef invalid(Context &ctx) { return ctx.cnst(Scalar::invalid(), DType::Bool); }

//===----------------------------------------------------------------------===//
// Promotion (`_broadcasted`)
//===----------------------------------------------------------------------===//

/// The promote step of `_broadcasted` for one operand: Invalid stays, a weak
/// CONST stays weak (at the weak kind of `out`), anything else is cast.
inline UOpRef promoteTo(Context &ctx, UOpRef t, DType out) {
  if (t->isInvalid())
    return t;
  if (isWeak(t->dtype) && t->op == Op::CONST)
    return ctx.cnst(t->val(), weakDType(out));
  return cast(ctx, t, out);
}
/// `_broadcasted`: both operands promoted to their least upper dtype
/// (unchanged when the dtypes already agree or have no upper bound).
inline std::pair<UOpRef, UOpRef> promote(Context &ctx, UOpRef a, UOpRef b) {
  if (a->dtype == b->dtype)
    return {a, b};
  auto out = leastUpperDType({a->dtype, b->dtype});
  if (!out)
    return {a, b};
  return {promoteTo(ctx, a, *out), promoteTo(ctx, b, *out)};
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

/// `a <op> b` (`x._binop(op, y)`).
inline UOpRef binop(Context &ctx, Op op, UOpRef a, UOpRef b) {
  auto [x, y] = promote(ctx, a, b);
  return ctx.alu(op, {x, y});
}
/// `a <op> c` for a Python int c.
inline UOpRef binopI(Context &ctx, Op op, UOpRef a, I c) { return binop(ctx, op, a, ic(ctx, c)); }
inline UOpRef add(Context &ctx, UOpRef a, UOpRef b) { return binop(ctx, Op::ADD, a, b); }
inline UOpRef add(Context &ctx, UOpRef a, I c) { return add(ctx, a, ic(ctx, c)); }
inline UOpRef mul(Context &ctx, UOpRef a, UOpRef b) { return binop(ctx, Op::MUL, a, b); }
inline UOpRef mul(Context &ctx, UOpRef a, I c) { return mul(ctx, a, ic(ctx, c)); }
/// `c * a` with a Python int on the left (__rmul__): MUL(CONST c, a).
inline UOpRef rmul(Context &ctx, I c, UOpRef a) { return mul(ctx, ic(ctx, c), a); }
/// `c + a` with a Python int on the left (__radd__, e.g. Python's sum()).
inline UOpRef radd(Context &ctx, I c, UOpRef a) { return add(ctx, ic(ctx, c), a); }
/// `-a`: logical_not for bool, else `a*-1`.
inline UOpRef neg(Context &ctx, UOpRef a) {
  return a->dtype == DType::Bool ? binop(ctx, Op::CMPNE, a, ctx.constBool(true))
                                 : mul(ctx, a, -1);
}
/// `a - b`: `a + -b` after promotion.
inline UOpRef sub(Context &ctx, UOpRef a, UOpRef b) {
  auto [x, y] = promote(ctx, a, b);
  return ctx.alu(Op::ADD, {x, neg(ctx, y)});
}
inline UOpRef sub(Context &ctx, UOpRef a, I c) { return sub(ctx, a, ic(ctx, c)); }
/// `a // b`: FLOORDIV for ints.
inline UOpRef floordiv(Context &ctx, UOpRef a, UOpRef b) {
  auto [x, y] = promote(ctx, a, b);
  if (isInt(x->dtype) && isInt(y->dtype))
    return ctx.alu(Op::FLOORDIV, {x, y});
  if (isInt(x->dtype) || x->dtype == DType::Bool)
    x = cast(ctx, x, DType::Float32);
  UOpRef d = ctx.alu(Op::MUL, {x, ctx.alu(Op::RECIPROCAL, {y})});
  return d; // (floor() of a float quotient is not used by the symbolic rules)
}
inline UOpRef floordiv(Context &ctx, UOpRef a, I c) { return floordiv(ctx, a, ic(ctx, c)); }
inline UOpRef mod(Context &ctx, UOpRef a, UOpRef b) {
  auto [x, y] = promote(ctx, a, b);
  return ctx.alu(Op::FLOORMOD, {x, y});
}
inline UOpRef mod(Context &ctx, UOpRef a, I c) { return mod(ctx, a, ic(ctx, c)); }
inline UOpRef lt(Context &ctx, UOpRef a, UOpRef b) { return binop(ctx, Op::CMPLT, a, b); }
inline UOpRef lt(Context &ctx, UOpRef a, I c) { return lt(ctx, a, ic(ctx, c)); }
/// `a > c` = CMPLT(c, a).
inline UOpRef gt(Context &ctx, UOpRef a, I c) { return lt(ctx, ic(ctx, c), a); }
inline UOpRef ne(Context &ctx, UOpRef a, UOpRef b) { return binop(ctx, Op::CMPNE, a, b); }
/// `cond.where(x, y)`: the branches are promoted together.
inline UOpRef where(Context &ctx, UOpRef c, UOpRef x, UOpRef y) {
  auto [a, b] = promote(ctx, x, y);
  return ctx.alu(Op::WHERE, {c, a, b});
}
/// `x.valid(cond)` = `cond.where(x, Invalid)`.
inline UOpRef valid(Context &ctx, UOpRef x, UOpRef cond) {
  return where(ctx, cond, x, invalid(ctx));
}

//===----------------------------------------------------------------------===//
// Folds
//===----------------------------------------------------------------------===//

/// `UOp.usum(*xs)`: a left fold from the first element; the operator (OR
/// for a bool first element, ADD otherwise) is chosen once, as
/// functools.reduce does.
inline UOpRef usum(Context &ctx, llvm::ArrayRef<UOpRef> xs) {
  bool isOr = xs[0]->dtype == DType::Bool;
  UOpRef r = xs[0];
  for (UOpRef x : xs.drop_front())
    r = isOr ? binop(ctx, Op::OR, r, x) : add(ctx, r, x);
  return r;
}
/// `UOp.uprod(*xs)`: AND for a bool first element, MUL otherwise.
inline UOpRef uprod(Context &ctx, llvm::ArrayRef<UOpRef> xs) {
  Op op = xs[0]->dtype == DType::Bool ? Op::AND : Op::MUL;
  UOpRef r = xs[0];
  for (UOpRef x : xs.drop_front())
    r = binop(ctx, op, r, x);
  return r;
}
/// `UOp.const(True).uprod(*xs)`: the conjunction, True when xs is empty.
inline UOpRef allTrue(Context &ctx, llvm::ArrayRef<UOpRef> xs) {
  UOpRef r = ctx.constBool(true);
  for (UOpRef x : xs)
    r = binop(ctx, Op::AND, r, x);
  return r;
}
/// `functools.reduce(op, xs, start)` for a Python int start: the first node
/// is `start <op> xs[0]`; null for an empty xs (the result is the int start,
/// which callers handle).
inline UOpRef foldFromInt(Context &ctx, Op op, I start, llvm::ArrayRef<UOpRef> xs) {
  if (xs.empty())
    return nullptr;
  UOpRef r = binop(ctx, op, ic(ctx, start), xs[0]);
  for (UOpRef x : xs.drop_front())
    r = binop(ctx, op, r, x);
  return r;
}
/// Python's `sum(xs)`: starts from the int 0 (`0 + xs[0]` is ADD(0, xs[0])).
inline UOpRef pysum(Context &ctx, llvm::ArrayRef<UOpRef> xs) {
  return foldFromInt(ctx, Op::ADD, 0, xs);
}
/// helpers.prod (`functools.reduce(operator.mul, xs, 1)`): MUL(1, xs[0]) first.
inline UOpRef prod(Context &ctx, llvm::ArrayRef<UOpRef> xs) {
  return foldFromInt(ctx, Op::MUL, 1, xs);
}

//===----------------------------------------------------------------------===//
// Python values
//===----------------------------------------------------------------------===//

/// `int(v)` of a bound (bools as 0/1, floats truncated).
inline I ib(const Scalar &s) {
  return s.isBool() ? (s.b ? 1 : 0) : s.isFloat() ? static_cast<I>(s.f) : s.i;
}
/// Python `==` on two constant values.
inline bool eq(const Scalar &a, const Scalar &b) {
  if (a.isInvalid() || b.isInvalid())
    return a.isInvalid() && b.isInvalid();
  if ((a.isFloat() && std::isnan(a.f)) || (b.isFloat() && std::isnan(b.f)))
    return false;
  return compareScalar(a, b) == 0;
}

//===----------------------------------------------------------------------===//
// Checked forms: null operands give null; where tinygrad raises, the rule
// reports to ctx.errors and declines (returns null).
//===----------------------------------------------------------------------===//

inline UOpRef fail(Context &ctx, const char *rule, const char *why) {
  ctx.errors.push_back(std::string(rule) + ": " + why);
  return nullptr;
}
/// `UOp.const(v, dt)`: a CONST holding `dt.const(v)`; null where that raises
/// (int(nan), int(inf)).
inline UOpRef constOf(Context &ctx, const Scalar &v, DType dt, const char *rule) {
  if (!v.isInvalid() && !castScalar(v, dt))
    return fail(ctx, rule, "dtype.const raised (int of nan/inf)");
  return ctx.cnst(v, dt);
}
/// `x.const_like(v)`.
inline UOpRef constLike(Context &ctx, UOpRef x, const Scalar &v, const char *rule) {
  return constOf(ctx, v, x->dtype, rule);
}
/// `commit_weak(s, dt)` (tinygrad/uop/weak.py): a CONST commits directly at
/// dt (`dt.const(val)`, no wrapping), any other node takes the cast.
inline UOpRef commitWeak(Context &ctx, UOpRef s, DType dt, const char *rule) {
  if (s->op == Op::CONST)
    return constOf(ctx, s->val(), dt, rule);
  return cast(ctx, s, dt);
}
/// `x._broadcasted(y)` in place; false where least_upper_dtype raises.
inline bool broadcasted(Context &ctx, UOpRef &x, UOpRef &y, const char *rule) {
  auto out = leastUpperDType({x->dtype, y->dtype});
  if (!out) {
    fail(ctx, rule, "least_upper_dtype raised");
    return false;
  }
  x = promoteTo(ctx, x, *out);
  y = promoteTo(ctx, y, *out);
  return true;
}
/// `x._binop(op, y)`.
inline UOpRef binop(Context &ctx, Op op, UOpRef x, UOpRef y, const char *rule) {
  if (!x || !y || !broadcasted(ctx, x, y, rule))
    return nullptr;
  return ctx.alu(op, {x, y});
}
/// `x <op> c` for a Python literal c.
inline UOpRef binopC(Context &ctx, Op op, UOpRef x, const Scalar &c, const char *rule) {
  return x ? binop(ctx, op, x, lit(ctx, c), rule) : nullptr;
}
/// `x <op> c` for a Python int c.
inline UOpRef binopI(Context &ctx, Op op, UOpRef x, I c, const char *rule) {
  return binopC(ctx, op, x, Scalar::fromInt(c), rule);
}
/// `x.logical_not()` = `x.cast(bool).ne(True)`.
inline UOpRef logicalNot(Context &ctx, UOpRef x, const char *rule) {
  if (!x)
    return nullptr;
  return binopC(ctx, Op::CMPNE, cast(ctx, x, DType::Bool), Scalar::fromBool(true), rule);
}
/// `-x`: logical_not for bool, else `x*-1`.
inline UOpRef neg(Context &ctx, UOpRef x, const char *rule) {
  if (!x)
    return nullptr;
  if (x->dtype == DType::Bool)
    return logicalNot(ctx, x, rule);
  return binopI(ctx, Op::MUL, x, -1, rule);
}
/// `c.where(x, y)`.
inline UOpRef where(Context &ctx, UOpRef c, UOpRef x, UOpRef y, const char *rule) {
  if (!c || !x || !y || !broadcasted(ctx, x, y, rule))
    return nullptr;
  return ctx.alu(Op::WHERE, {c, x, y});
}
/// `UOp.alu(op, *src)`: no promotion.
inline UOpRef alu(Context &ctx, Op op, llvm::ArrayRef<UOpRef> src) {
  for (UOpRef s : src)
    if (!s)
      return nullptr;
  return ctx.alu(op, src);
}
/// `x.pow(v)` for a Python number v.
inline UOpRef pow(Context &ctx, UOpRef x, const Scalar &v, const char *rule) {
  if (!x)
    return nullptr;
  UOpRef b = x, e = lit(ctx, v);
  if (!broadcasted(ctx, b, e, rule))
    return nullptr;
  auto lub = leastUpperDType({b->dtype, e->dtype});
  bool nonNegInt = (v.isInt() && v.i >= 0) || v.isBool();
  if (lub && !isFloat(*lub) && !nonNegInt)
    return fail(ctx, rule, "base needs to be float");
  return ctx.alu(Op::POW, {b, e});
}
/// `first.usum(*rest)`: OR for a bool first term, ADD otherwise (the
/// operator is chosen once, from the first term, as tinygrad's reduce does).
inline UOpRef usum(Context &ctx, UOpRef first, llvm::ArrayRef<UOpRef> rest,
                   const char *rule) {
  if (!first)
    return nullptr;
  Op op = first->dtype == DType::Bool ? Op::OR : Op::ADD;
  UOpRef r = first;
  for (UOpRef t : rest)
    r = binop(ctx, op, r, t, rule);
  return r;
}

} // namespace mlir::tinygrad::sym::rules::py

#endif
