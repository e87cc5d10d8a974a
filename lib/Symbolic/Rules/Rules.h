//===- Rules.h - rule families and matching helpers -------------*- C++ -*-===//
//
// Each rule family lives in the file named after its tinygrad counterpart
// (symbolic_simple, symbolic, div_and_mod_symbolic, simplify_valid). A rule
// is a plain function (Context&, node) -> replacement or null; these helpers
// keep the matching code close to tinygrad's UPat spelling.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_SYMBOLIC_RULES_RULES_H
#define TINYGRAD_LIB_SYMBOLIC_RULES_RULES_H

#include "tinygrad/Symbolic/Rewrite.h"
#include <cmath>

namespace mlir::tinygrad::sym::rules {

using I = __int128;

std::vector<Rule> dataInvalidRules();     ///< pm_data_invalid
std::vector<Rule> symbolicSimpleRules();  ///< symbolic_simple (phase 1)
std::vector<Rule> mopCleanupRules();      ///< mop_cleanup
std::vector<Rule> commutativeRules();     ///< commutative
std::vector<Rule> symbolicRules();        ///< symbolic (phase 2)
std::vector<Rule> divAndModRules();       ///< div_and_mod_symbolic
std::vector<Rule> simplifyValidRules();   ///< pm_simplify_valid
std::vector<Rule> symRules();             ///< the extra rules of `sym`
std::vector<Rule> cleanUpGroupSinkRules();///< pm_clean_up_group_sink
std::vector<Rule> moveWhereOnLoadRules(); ///< pm_move_where_on_load
std::vector<Rule> castWeakRules();        ///< pm_cast_weak
std::vector<Rule> indexingSimplifyRules(); ///< indexing_simplify (codegen/late/coalesce.py)
std::vector<Rule> dropAndClausesRules();  ///< pm_drop_and_clauses

/// parse_valid: a clause `X <= c` (isUpper) or `X >= c`; nullopt otherwise.
struct ParsedValid {
  UOpRef expr;
  bool isUpper;
  __int128 c;
};
std::optional<ParsedValid> parseValid(UOpRef v);
/// uop_given_valid: `uop` simplified under the assumption that `valid` holds.
UOpRef uopGivenValid(Context &ctx, UOpRef valid, UOpRef uop, bool trySimplex = true);

//===----------------------------------------------------------------------===//
// Matching helpers
//===----------------------------------------------------------------------===//

/// UPat.cvar: any CONST. `c` receives it.
inline bool isCVar(UOpRef u) { return u->op == Op::CONST; }
/// An int CONST with value `v` (UPat.const(v)); Python equality, so a
/// float 0.0 or False also equals 0.
inline bool isConstVal(UOpRef u, I v) {
  if (u->op != Op::CONST)
    return false;
  const Scalar &s = u->val();
  if (s.isInt())
    return s.i == v;
  if (s.isBool())
    return (s.b ? 1 : 0) == v;
  if (s.isFloat())
    return s.f == static_cast<double>(v);
  return false;
}
/// The int value of a CONST (bools count as 0/1, as in Python).
inline std::optional<I> cint(UOpRef u) {
  if (u->op != Op::CONST)
    return std::nullopt;
  if (u->val().isInt())
    return u->val().i;
  if (u->val().isBool())
    return u->val().b ? 1 : 0;
  return std::nullopt;
}
/// Binary op `op` with sources (a, b).
inline bool bin(UOpRef u, Op op, UOpRef &a, UOpRef &b) {
  if (u->op != op || u->src.size() != 2)
    return false;
  a = u->src[0];
  b = u->src[1];
  return true;
}
inline bool isWeakInt(UOpRef u) { return u->dtype == DType::WeakInt; }
inline bool isIndexInt(UOpRef u) { return isInt(u->dtype); }

inline I floorDiv(I a, I b) {
  I q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
inline I floorMod(I a, I b) { return a - floorDiv(a, b) * b; }
inline I gcd(I a, I b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    I t = a % b;
    a = b;
    b = t;
  }
  return a;
}


//===----------------------------------------------------------------------===//
// tinygrad's operator sugar on UOps (ElementwiseMixin), for rule results that
// tinygrad writes with Python operators: `a + b` promotes both sides to
// least_upper_dtype first (a bare weak CONST stays a CONST of the weak kind of
// that dtype, anything else is CAST; Invalid is kept), a Python int operand is
// a weakint CONST, `-x` is `x*-1` (logical_not for bool), `a - b` is
// `a + -b`, `//` is FLOORDIV for ints. Context::alu is tinygrad's plain
// `x.alu(op, ...)` (no promotion).
//===----------------------------------------------------------------------===//
namespace py {
/// `x.cast(dt)`: x itself when the dtype already matches.
inline UOpRef cast(Context &ctx, UOpRef x, DType dt) {
  return x->dtype == dt ? x : ctx.cast(x, dt);
}
/// A Python int as a UOp (`UOp.const(c)`): weakint.
inline UOpRef ic(Context &ctx, I c) { return ctx.constInt(c, DType::WeakInt); }
/// `_broadcasted`: both operands promoted to their least upper dtype.
inline std::pair<UOpRef, UOpRef> promote(Context &ctx, UOpRef a, UOpRef b) {
  if (a->dtype == b->dtype)
    return {a, b};
  auto out = leastUpperDType({a->dtype, b->dtype});
  if (!out)
    return {a, b};
  auto one = [&](UOpRef t) -> UOpRef {
    if (t->isInvalid())
      return t;
    if (isWeak(t->dtype) && t->op == Op::CONST)
      return ctx.cnst(t->val(), weakDType(*out));
    return cast(ctx, t, *out);
  };
  return {one(a), one(b)};
}
inline UOpRef binop(Context &ctx, Op op, UOpRef a, UOpRef b) {
  auto [x, y] = promote(ctx, a, b);
  return ctx.alu(op, {x, y});
}
inline UOpRef add(Context &ctx, UOpRef a, UOpRef b) { return binop(ctx, Op::ADD, a, b); }
inline UOpRef add(Context &ctx, UOpRef a, I c) { return add(ctx, a, ic(ctx, c)); }
inline UOpRef mul(Context &ctx, UOpRef a, UOpRef b) { return binop(ctx, Op::MUL, a, b); }
inline UOpRef mul(Context &ctx, UOpRef a, I c) { return mul(ctx, a, ic(ctx, c)); }
/// `c * a` with a Python int on the left (__rmul__): MUL(CONST c, a).
inline UOpRef rmul(Context &ctx, I c, UOpRef a) { return mul(ctx, ic(ctx, c), a); }
/// `c + a` with a Python int on the left (__radd__, e.g. Python's sum()).
inline UOpRef radd(Context &ctx, I c, UOpRef a) { return add(ctx, ic(ctx, c), a); }
inline UOpRef neg(Context &ctx, UOpRef a) {
  return a->dtype == DType::Bool ? binop(ctx, Op::CMPNE, a, ctx.constBool(true))
                                 : mul(ctx, a, -1);
}
inline UOpRef sub(Context &ctx, UOpRef a, UOpRef b) {
  auto [x, y] = promote(ctx, a, b);
  return ctx.alu(Op::ADD, {x, neg(ctx, y)});
}
inline UOpRef sub(Context &ctx, UOpRef a, I c) { return sub(ctx, a, ic(ctx, c)); }
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
/// `UOp.usum(*xs)` / `UOp.uprod(*xs)`: a left fold from the first element.
inline UOpRef usum(Context &ctx, llvm::ArrayRef<UOpRef> xs) {
  UOpRef r = xs[0];
  for (UOpRef x : xs.drop_front())
    r = r->dtype == DType::Bool ? binop(ctx, Op::OR, r, x) : add(ctx, r, x);
  return r;
}
/// Python's `sum(xs)`: starts from the int 0 (`0 + xs[0]` is ADD(0, xs[0])).
inline UOpRef pysum(Context &ctx, llvm::ArrayRef<UOpRef> xs) {
  if (xs.empty())
    return nullptr; // the int 0; callers handle it
  UOpRef r = radd(ctx, 0, xs[0]);
  for (UOpRef x : xs.drop_front())
    r = add(ctx, r, x);
  return r;
}
/// Integer view of a bound (bools as 0/1).
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
} // namespace py

} // namespace mlir::tinygrad::sym::rules

#endif
