//===- OrderedRewrite.h - graph_rewrite in tinygrad's visiting order -*- C++ -*-===//
//
// The symbolic engine's graphRewrite visits nodes in plain post-order, which
// is all pure rules need. The scheduler's rules have effects (tinygrad's
// callify appends assigns and buffers to lists, in visiting order, and that
// order becomes the CALL's argument order), so they run under this driver:
// tinygrad's unified_rewrite step for step, including that a node already
// waiting on the stack is not pushed again, the waitlist of nodes whose
// sources are not ready, and that the bodies of opaque CALLs/FUNCTIONs are
// not entered.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_ORDEREDREWRITE_H
#define TINYGRAD_SCHEDULE_ORDEREDREWRITE_H

#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::sched {

/// tinygrad's graph_rewrite(root, pm, ctx=user, bottom_up=bottomUp). Returns
/// null (with the reason in ctx.errors) on a rule loop or stack overflow.
sym::UOpRef orderedRewrite(sym::Context &ctx, sym::UOpRef root,
                           const sym::PatternMatcher &pm, void *user,
                           bool bottomUp, bool enterCalls = false);

} // namespace mlir::tinygrad::sched

#endif
