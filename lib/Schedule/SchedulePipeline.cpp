//===- SchedulePipeline.cpp - tensor graph -> LINEAR over buffers ---------===//
#include "tinygrad/Schedule/SchedulePipeline.h"

#include "tinygrad/Schedule/Callify.h"
#include "tinygrad/Schedule/CreateSchedule.h"
#include "tinygrad/Schedule/TensorGraph.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sched::tgraph;

llvm::Expected<ScheduledProgram> sched::scheduleProgram(Context &ctx, UOpRef tensorSink,
                                                        const KernelGraphFn &kernelGraph,
                                                        ScheduleCache *cache) {
  ScheduledProgram out;
  int64_t nextSlot = nextFreeBufferSlot(tensorSink);
  auto called = callify(ctx, tensorSink, nextSlot);
  if (!called)
    return called.takeError();
  out.call = called->call;
  out.bufferMap = std::move(called->bufferMap);
  UOpRef body = out.call->src[0];
  UOpRef linear = cache ? cache->lookup(body) : nullptr;
  if (linear) {
    ++cache->hits;
    out.cacheHit = true;
  } else {
    auto kg = kernelGraph(body);
    if (!kg)
      return kg.takeError();
    auto lin = createSchedule(ctx, *kg);
    if (!lin)
      return lin.takeError();
    linear = *lin;
    if (cache) {
      ++cache->misses;
      cache->insert(body, linear);
    }
  }
  llvm::SmallVector<UOpRef, 8> callSrc{linear};
  callSrc.append(out.call->src.begin() + 1, out.call->src.end());
  UOpRef linearCall = ctx.replaceSrc(out.call, callSrc);
  auto resolved = resolveLinearCall(ctx, linearCall, nextSlot);
  if (!resolved)
    return resolved.takeError();
  auto copied = copyFromStore(ctx, *resolved);
  if (!copied)
    return copied.takeError();
  auto vals = boundVarVals(out.call, *copied);
  if (!vals)
    return vals.takeError();
  out.varVals = std::move(*vals);
  llvm::DenseSet<UOpRef> held;
  for (UOpRef a : out.call->src.drop_front())
    if (a->op == sym::Op::BUFFER)
      held.insert(a);
  out.plan = memoryPlan(ctx, *copied, held, nextSlot);
  out.linear = out.plan.linear;
  return out;
}
