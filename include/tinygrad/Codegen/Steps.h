//===- Steps.h - full_rewrite_to_sink on the interned graph -----*- C++ -*-===//
//
// tinygrad/codegen/__init__.py's full_rewrite_to_sink: the engine steps a
// kernel AST goes through before the emitter structures it into loops, in
// tinygrad's order (FullRewriteToSink.cpp is the one place that order is
// written down). The steps tinygrad runs before its optimizer, and that
// only hand-written kernels need (Tensor.custom_kernel, UOp programs,
// in-kernel shards), live here too, one file each.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_STEPS_H
#define TINYGRAD_CODEGEN_STEPS_H

#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include <string>

namespace mlir::tinygrad::codegen {

/// "multi_pm" (schedule/multi.py) on a kernel: UNSHARD views inside the
/// kernel resolved to the shard this range owns (ResolveUnshards.cpp).
/// Null on failure; ctx.errors says why (e.g. tinygrad's "cannot shard
/// index").
sym::UOpRef resolveUnshards(sym::Context &ctx, sym::UOpRef sink);
/// multi_pm's rule list, for the pass and the tests.
const sym::PatternMatcher &multiPm();

/// "early movement ops": pm_mops bottom up, so `buf.reshape(s)[i, j]`
/// indexes the buffer itself and views move past AFTER/END.
sym::UOpRef earlyMovementOps(sym::Context &ctx, sym::UOpRef sink);

/// "add local buffers": pm_add_local_buffers + pm_mops. A STAGE left in the
/// kernel becomes a LOCAL buffer filled under its ranges; movement ops
/// left by the opts (a partial INDEX of a view, merged by the symbolic)
/// become index math.
sym::UOpRef addLocalBuffers(sym::Context &ctx, sym::UOpRef sink);

/// pm_device_to_var (codegen/gpudims.py): a DEVICE range is bound per
/// device at launch, so it becomes the `_device_num` variable and no END
/// closes it.
sym::UOpRef deviceToVar(sym::Context &ctx, sym::UOpRef sink);

/// sym's load/store folding on the kernel's implicit loads (an INDEX read
/// as a value): `x[i] = x[i]` is nothing, `x[i] = g ? a : x[i]` stores `a`
/// gated by `g` (what tinygrad's early symbolic does once loads are
/// explicit).
sym::UOpRef foldStoresOfOwnLoads(sym::Context &ctx, sym::UOpRef sink);

struct RewriteOptions {
  tg::KernelInfoAttr info; ///< opts_to_apply / applied_opts (may be null)
  TargetDescription target;
  opt::OptMode mode = opt::OptMode::Ours;
  /// Stop before apply_opts and return the kernel as the opts see it (what
  /// BEAM search builds its Scheduler on).
  bool stopBeforeOpts = false;
};

/// Every engine step of full_rewrite_to_sink our CPU target runs, in
/// tinygrad's order, ending with the graph the emitter lowers. Null on
/// failure with the reason in `why`; `applied` gets the opts apply_opts
/// applied.
sym::UOpRef fullRewriteToSink(sym::Context &ctx, sym::UOpRef kernel, const RewriteOptions &opts,
                              llvm::SmallVectorImpl<opt::Opt> *applied, std::string &why);

} // namespace mlir::tinygrad::codegen

#endif
