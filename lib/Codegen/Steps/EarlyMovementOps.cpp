//===- EarlyMovementOps.cpp - "early movement ops": pm_mops bottom up -----===//
//
// tinygrad runs pm_mops on every kernel AST before it optimizes: a
// hand-written kernel indexes views of its buffers (`C.reshape(16, 16)[i,
// j]`, `x.shrink(...)[i]`), reads them AFTER stores (`C.after(k)[i, j]`)
// and ends views (`C[i, j].set(v).end(i, j)` is an END of a RESHAPE). After
// this step an INDEX addresses the buffer itself with flat index math, and
// AFTER/END hold buffers, as kernels from the scheduler do.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Steps.h"

#include "tinygrad/Schedule/Mops.h"

using namespace mlir::tinygrad;

sym::UOpRef codegen::earlyMovementOps(sym::Context &ctx, sym::UOpRef sink) {
  return sym::graphRewriteBottomUp(ctx, sink, sched::pmMops());
}
