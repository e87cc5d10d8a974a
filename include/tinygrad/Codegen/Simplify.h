//===- Simplify.h - tinygrad's range rewrites before apply_opts -*- C++ -*-===//
//
// tinygrad/codegen/simplify.py as full_rewrite_to_sink runs it before the
// opts: ranges split where the index math takes them modulo a divisor, and
// adjacent ranges merged where that removes divisions, so the heuristic
// sees the axes tinygrad's sees (e.g. one 4096 axis, not 64x64).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_SIMPLIFY_H
#define TINYGRAD_CODEGEN_SIMPLIFY_H

#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::codegen {

/// "split ranges": pm_split_ranges + pm_flatten_range.
sym::UOpRef splitRanges(sym::Context &ctx, sym::UOpRef sink);
/// "initial symbolic": sym + pm_flatten_range.
sym::UOpRef initialSymbolic(sym::Context &ctx, sym::UOpRef sink);
/// "simplify ranges": pm_flatten_range + pm_simplify_ranges.
sym::UOpRef simplifyRanges(sym::Context &ctx, sym::UOpRef sink);
/// "postopt symbolic": sym + pm_move_where_on_load + pm_flatten_range +
/// pm_reduce_unparented.
sym::UOpRef postOptSymbolic(sym::Context &ctx, sym::UOpRef sink);

} // namespace mlir::tinygrad::codegen

#endif
