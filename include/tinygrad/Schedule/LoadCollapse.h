//===- LoadCollapse.h - tinygrad's pm_load_collapse -------------*- C++ -*-===//
//
// Codegen's "load collapse" (codegen/simplify.py): a REDUCE that only
// selects the element a loaded index names (indexing a tensor by a tensor)
// becomes a gated load. It shares reduce_collapse with the scheduler.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_LOADCOLLAPSE_H
#define TINYGRAD_SCHEDULE_LOADCOLLAPSE_H

#include "tinygrad/Symbolic/UOp.h"

namespace mlir::tinygrad::sched {

/// graph_rewrite(sink, pm_load_collapse). Null on a rewrite error (ctx.errors).
sym::UOpRef loadCollapse(sym::Context &ctx, sym::UOpRef sink);

} // namespace mlir::tinygrad::sched

#endif
