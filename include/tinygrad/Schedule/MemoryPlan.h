//===- MemoryPlan.h - intermediates share storage ----------------*- C++ -*-===//
//
// tinygrad's memory_plan_rewrite: every intermediate buffer of a LINEAR (not
// a program buffer, not on DISK) lives from its first to its last use;
// buffers whose lifetimes do not overlap are placed at the same offset of
// one int8 arena per (device, lane), copies in their own lane so a copy
// never waits on compute. Each planned buffer becomes
// `arena[off:off+nbytes].bitcast(dtype)`.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_MEMORYPLAN_H
#define TINYGRAD_SCHEDULE_MEMORYPLAN_H

#include "tinygrad/Symbolic/UOp.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tinygrad::sched {

struct MemoryPlan {
  sym::UOpRef linear = nullptr;
  /// Bytes of the planned buffers without planning (each 256-byte rounded),
  /// and of the arenas that replace them.
  int64_t unplannedBytes = 0, plannedBytes = 0;
  unsigned plannedBuffers = 0, arenas = 0;
};

/// `held` are the buffers the program owns (the CALL's args): never planned.
/// Arena buffers are numbered from `nextSlot`.
MemoryPlan memoryPlan(sym::Context &ctx, sym::UOpRef linear,
                      const llvm::DenseSet<sym::UOpRef> &held, int64_t &nextSlot);

} // namespace mlir::tinygrad::sched

#endif
