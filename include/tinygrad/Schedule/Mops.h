//===- Mops.h - tinygrad's pm_mops --------------------------------*- C++ -*-===//
//
// rangeify.py's pm_mops: a movement op under an INDEX becomes index math
// (apply_movement_op), and movement ops and INDEX move past AFTER and END.
// The scheduler runs it while it rangeifies; codegen runs it first on
// every kernel AST ("early movement ops"), where hand-written kernels
// index views of their buffers (`C.reshape(16, 16)[i, j]`).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_MOPS_H
#define TINYGRAD_SCHEDULE_MOPS_H

#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::sched {

/// pm_mops (run it bottom up, as tinygrad does).
const sym::PatternMatcher &pmMops();

} // namespace mlir::tinygrad::sched

#endif
