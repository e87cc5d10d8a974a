//===- CExpressions.h - tinygrad's C renderer's evaluation order -*- C++ -*-===//
//
// tinygrad's CPU values are what clang computes from its rendered C, and the
// renderer drops the parentheses of a single-use ADD (MUL) inside an ADD
// (MUL): `a+(b+c)` is written `a+b+c`, which C evaluates as `(a+b)+c`. For
// floats that is another rounding, and where terms cancel (Cody-Waite's
// `x - q*pi_a - q*pi_b - ...`, which tinygrad's symbolic reorders to put x
// last) another answer: sin near kπ differs by up to 1e-4 relative.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_CEXPRESSIONS_H
#define TINYGRAD_CODEGEN_CEXPRESSIONS_H

#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::codegen {

/// Every float ADD/MUL whose same-op, same-dtype sources are used once
/// becomes the left fold of its flattened operands, the order C evaluates
/// tinygrad's rendering in (cstyle.py's strip_parens on same-op sources).
sym::UOpRef cEvaluationOrder(sym::Context &ctx, sym::UOpRef sink);

} // namespace mlir::tinygrad::codegen

#endif
