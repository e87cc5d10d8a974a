//===- UPat.h - a small matcher with tinygrad's UPat semantics --*- C++ -*-===//
//
// Patterns for the rule families: a src tuple matches one operand order, a
// src list every permutation (in itertools.permutations order), a repeated
// name must bind the same node, and bindings are enumerated depth first so
// a rule's callback sees them in tinygrad's order; the first non-null
// result wins. tinygrad's early_reject is checked first.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_SYMBOLIC_RULES_UPAT_H
#define TINYGRAD_LIB_SYMBOLIC_RULES_UPAT_H

#include "Rules.h"

#include "llvm/ADT/STLExtras.h"
#include <array>

namespace mlir::tinygrad::sym::rules::upat {

//===----------------------------------------------------------------------===//
// A tiny UPat
//===----------------------------------------------------------------------===//

enum Name : uint8_t {
  kX, kY, kZ, kC, kC0, kC1, kC2, kA, kB, kD, kT, kF, kTT, kFF, kCond, kR,
  kEnd, kS, kAlu, kCastA, kCastB, kNumNames, kNone = 255
};
using Binds = std::array<UOpRef, kNumNames>;

struct P {
  llvm::SmallVector<Op, 2> ops;   ///< empty: any op
  llvm::SmallVector<DType, 2> dts; ///< empty: any dtype
  uint8_t name = kNone;
  std::optional<Scalar> arg;       ///< CONST arg, Python equality
  enum Kind : uint8_t { AnySrc, Tuple, List, Repeat } kind = AnySrc;
  std::vector<P> src;
};

inline P var(uint8_t n = kNone, std::initializer_list<DType> dts = {}) {
  P p;
  p.name = n;
  p.dts.assign(dts.begin(), dts.end());
  return p;
}
inline P cvar(uint8_t n = kNone) {
  P p;
  p.ops = {Op::CONST};
  p.name = n;
  return p;
}
inline P cnum(I v) {
  P p;
  p.ops = {Op::CONST};
  p.arg = Scalar::fromInt(v);
  return p;
}
inline P cbool(bool v) {
  P p;
  p.ops = {Op::CONST};
  p.arg = Scalar::fromBool(v);
  return p;
}
/// UPat.alu / operator sugar: commutative ops take a src list; the pattern
/// dtype is bool for CMPLT/CMPNE, else the last source's dtype constraint.
inline P alu(Op op, std::vector<P> srcs) {
  P p;
  p.ops = {op};
  if (op == Op::CMPLT || op == Op::CMPNE)
    p.dts = {DType::Bool};
  else
    p.dts = srcs.back().dts;
  p.kind = isCommutative(op) ? P::List : P::Tuple;
  p.src = std::move(srcs);
  return p;
}
/// UPat(ops, dtype, src=tuple, name=...).
inline P up(std::initializer_list<Op> ops, std::vector<P> srcs, uint8_t n = kNone,
     std::initializer_list<DType> dts = {}) {
  P p;
  p.ops.assign(ops.begin(), ops.end());
  p.dts.assign(dts.begin(), dts.end());
  p.name = n;
  p.kind = P::Tuple;
  p.src = std::move(srcs);
  return p;
}
inline P add(P a, P b) { return alu(Op::ADD, {std::move(a), std::move(b)}); }
inline P mul(P a, P b) { return alu(Op::MUL, {std::move(a), std::move(b)}); }
inline P lt(P a, P b) { return alu(Op::CMPLT, {std::move(a), std::move(b)}); }
inline P ne(P a, P b) { return alu(Op::CMPNE, {std::move(a), std::move(b)}); }
inline P where(P c, P t, P f) {
  return alu(Op::WHERE, {std::move(c), std::move(t), std::move(f)});
}
inline P castOf(P x, uint8_t n = kNone, std::initializer_list<DType> dts = {}) {
  return up({Op::CAST}, {std::move(x)}, n, dts);
}

/// Enumerates the bindings of `p` against `u`, calling `k` for each until it
/// returns true.
bool match(const P &p, UOpRef u, Binds &b, llvm::function_ref<bool()> k);
/// tinygrad's early_reject: the ops of single-op source patterns must all
/// appear among the node's sources, else the rule cannot match. Checked
/// before the (much slower) binding enumeration.
inline bool earlyReject(const P &p, UOpRef u) {
  if (!p.ops.empty() && !llvm::is_contained(p.ops, u->op))
    return true;
  if (p.kind != P::Tuple && p.kind != P::List)
    return false;
  if (u->src.size() != p.src.size())
    return true;
  for (const P &sp : p.src) {
    if (sp.ops.size() != 1)
      continue;
    if (llvm::none_of(u->src, [&](UOpRef s) { return s->op == sp.ops[0]; }))
      return true;
  }
  return false;
}

/// Runs `fn` on every binding of `p` against `u`, in tinygrad's order; the
/// first non-null result is the rule's result.
template <typename F>
UOpRef run(const P &p, UOpRef u, F fn) {
  if (earlyReject(p, u))
    return nullptr;
  Binds b{};
  UOpRef out = nullptr;
  match(p, u, b, [&] {
    out = fn(b);
    return out != nullptr;
  });
  return out;
}

} // namespace mlir::tinygrad::sym::rules::upat

#endif
