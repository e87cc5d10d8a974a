//===- Opts.h - tinygrad's kernel opts on the interned graph -----*- C++ -*-===//
//
// tinygrad/codegen/opt: the structural choices (which axis becomes threads,
// upcast, unrolled) that tinygrad's heuristics make for a target. Each opt
// is a graph rewrite on the kernel AST before the lowering.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_OPTS_H
#define TINYGRAD_CODEGEN_OPTS_H

#include "tinygrad/Symbolic/UOp.h"

namespace mlir::tinygrad::opt {

/// hand_coded_optimizations' threading step for a CPU with `maxThreads`
/// cores (the renderer's global_max): the first WEAK axis divisible by the
/// largest thread count in {32,16,12,8,6,5,4,3,2} that fits (about 128K ops
/// per thread) becomes `core_id * (n/T) + RANGE(n/T)`, core_id a variable in
/// [0, T). Results are unchanged (each output is computed the same way);
/// tagged ASTs and kernels with symbolic sizes are left alone.
sym::UOpRef applyThreadHeuristic(sym::Context &ctx, sym::UOpRef sink, unsigned maxThreads);

} // namespace mlir::tinygrad::opt

#endif
