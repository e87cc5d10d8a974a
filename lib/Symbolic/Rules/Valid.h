//===- Valid.h - helpers of the valid and index families --------*- C++ -*-===//
//
// What pm_simplify_valid, the extras of `sym`, pm_move_where_on_load and
// indexing_simplify share: tinygrad's UOp methods they call (split_uop,
// simplify, substitute, UOp.variable) and the invalid_gate pattern.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_SYMBOLIC_RULES_VALID_H
#define TINYGRAD_LIB_SYMBOLIC_RULES_VALID_H

#include "Rules.h"

namespace mlir::tinygrad::sym::rules {

/// `x.split_uop(sep)`.
llvm::SmallVector<UOpRef, 8> split(Context &ctx, UOpRef x, Op sep);
/// `x.simplify()`.
UOpRef simplifyU(Context &ctx, UOpRef x);
/// `x.substitute(map)` (identity entries dropped; an empty map is a no-op).
UOpRef substituteU(Context &ctx, UOpRef x, llvm::ArrayRef<std::pair<UOpRef, UOpRef>> pairs);
/// `UOp.variable(f"fake{i}", lo, hi, dtype, param=True)`.
UOpRef fakeVar(Context &ctx, unsigned i, I lo, I hi, DType dt);

/// invalid_pat: `UPat(Ops.CONST, arg=Invalid, name="i")`.
inline Pat invalidPat() { return cinvalid(n::i); }
/// invalid_gate: `UPat.var("cond").where(UPat.var("x"), invalid_pat)`.
inline Pat invalidGatePat() { return var(n::cond).where(var(n::x), invalidPat()); }

} // namespace mlir::tinygrad::sym::rules

#endif
