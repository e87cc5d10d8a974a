//===- Passes.h - the steps of get_kernel_graph ----------------*- C++ -*-===//
//
// One function per tinygrad step, each in the file named after it. Every
// step takes and returns the whole graph; null means it failed and the
// reason is in ctx.errors.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_SCHEDULE_PASSES_H
#define TINYGRAD_LIB_SCHEDULE_PASSES_H

#include "tinygrad/Schedule/Graph.h"
#include "tinygrad/Schedule/Mops.h"

namespace mlir::tinygrad::sched {

/// apply_movement_op (schedule/indexing.py): the input ranges of movement op
/// `op` (source shape `inShape`, argument `arg`) from its output ranges.
std::optional<Ranges> applyMovementOp(Context &ctx, Op op, llvm::ArrayRef<int64_t> inShape,
                                      const MArg &arg, llvm::ArrayRef<UOpRef> rngs);

/// mop_cleanup + earliest_rewrites (rangeify.py), to be run bottom-up with pm_mops.
const sym::PatternMatcher &earliestRewrites();
/// pm_copy_to_store: COPY becomes a store into a buffer on the target device.
UOpRef copyToStore(Context &ctx, UOpRef sink);
/// run_rangeify (schedule/indexing.py).
UOpRef runRangeify(Context &ctx, UOpRef sink);
/// pm_reduce_simplify's reduce_collapse (codegen/simplify.py).
const sym::PatternMatcher &pmReduceSimplify();
/// pm_load_collapse (codegen/simplify.py).
const sym::PatternMatcher &pmLoadCollapse();
/// symbolic + pm_reduce_simplify + pm_const_buffer_folding + pm_remove_bufferize.
const sym::PatternMatcher &removeBufferize();
/// pm_limit_bufs: stage sources of ops that would read too many buffers.
UOpRef limitBufs(Context &ctx, UOpRef sink);
/// pm_add_buffers + pm_add_param_range_tags (stage to store).
const sym::PatternMatcher &addBuffers();
/// Runs addBuffers bottom-up; new BUFFERs are numbered from `firstSlot`.
UOpRef stageToStore(Context &ctx, UOpRef sink, int64_t firstSlot);
/// split_kernels + pm_no_indexing_calls.
UOpRef splitKernels(Context &ctx, UOpRef sink);

} // namespace mlir::tinygrad::sched

#endif
