//===- KernelGraph.cpp - get_kernel_graph, in tinygrad's order ------------===//
#include "tinygrad/Schedule/KernelGraph.h"

#include "Passes.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;

UOpRef sched::getKernelGraph(Context &ctx, UOpRef sink) {
  if (!sink || sink->op != sym::Op::SINK)
    return fail(ctx, "get_kernel_graph", "expected the SINK body of a CALL");
  ScopedRangeCache cache;
  // multi_pm: single-device graphs pass through unchanged.
  UOpRef t = sym::graphRewriteBottomUp(ctx, sink, pmMops() + earliestRewrites());
  if (!t)
    return nullptr;
  if (!(t = copyToStore(ctx, t)))
    return nullptr;
  if (!(t = runRangeify(ctx, t)))
    return nullptr;
  if (!(t = sym::graphRewrite(ctx, t, removeBufferize())))
    return nullptr;
  if (!(t = limitBufs(ctx, t)))
    return nullptr;
  int64_t firstSlot = 0;
  for (UOpRef u : toposort(t))
    if (auto pa = paramArg(u); u->op == sym::Op::BUFFER && pa && pa.getAddrspace() == tg::AddrSpace::Global)
      firstSlot = std::max(firstSlot, pa.getSlot() + 1);
  if (!(t = stageToStore(ctx, t, firstSlot)))
    return nullptr;
  if (!(t = splitKernels(ctx, t)))
    return nullptr;
  for (UOpRef u : toposort(t))
    if (u->op == sym::Op::CALL && u->src.size() - 1 > 31)
      return fail(ctx, "get_kernel_graph", "a kernel uses " + llvm::Twine(u->src.size() - 1) +
                                               " buffers, more than the CPU limit of 31 (pm_limit_bufs)");
  return ctx.errors.empty() ? t : nullptr;
}
