//===- SchedulePipeline.h - tensor graph -> LINEAR over buffers --*- C++ -*-===//
//
// tinygrad's Tensor.realize path up to execution: transform_to_call, the
// kernel graph of the call body, create_schedule (cached on the body, which
// callify made positional), resolve_linear_call, pm_copy_from_store, the
// bound variables' values and memory planning.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_SCHEDULEPIPELINE_H
#define TINYGRAD_SCHEDULE_SCHEDULEPIPELINE_H

#include "tinygrad/Schedule/MemoryPlan.h"
#include "tinygrad/Symbolic/UOp.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include <functional>

namespace mlir::tinygrad::sched {

/// get_kernel_graph(body): supplied by the caller, so the pipeline runs
/// with our rangeify or with a kernel graph tinygrad produced.
using KernelGraphFn = std::function<llvm::Expected<sym::UOpRef>(sym::UOpRef body)>;

/// tinygrad's schedule_cache: the LINEAR create_schedule made for a call
/// body. Bodies are interned and positional, so equal programs share one
/// key (a pointer) within a Context.
class ScheduleCache {
public:
  sym::UOpRef lookup(sym::UOpRef body) const { return map.lookup(body); }
  void insert(sym::UOpRef body, sym::UOpRef linear) { map[body] = linear; }
  unsigned hits = 0, misses = 0;

private:
  llvm::DenseMap<sym::UOpRef, sym::UOpRef> map;
};

struct ScheduledProgram {
  sym::UOpRef call = nullptr;     ///< callify's CALL(SINK, *buffers)
  sym::UOpRef linear = nullptr;   ///< final LINEAR over buffers (memory planned)
  llvm::DenseMap<sym::UOpRef, sym::UOpRef> bufferMap;
  llvm::StringMap<int64_t> varVals;
  MemoryPlan plan;
  bool cacheHit = false;
};

/// create_linear_with_vars on a tensor graph SINK. `cache` may be null.
llvm::Expected<ScheduledProgram> scheduleProgram(sym::Context &ctx, sym::UOpRef tensorSink,
                                                 const KernelGraphFn &kernelGraph,
                                                 ScheduleCache *cache = nullptr);

} // namespace mlir::tinygrad::sched

#endif
