//===- KernelGraph.h - tinygrad's get_kernel_graph on the engine -*- C++ -*-===//
//
// Rangeify and the kernel split (tinygrad/schedule/rangeify.py
// get_kernel_graph) on the interned UOp engine: the body SINK of a
// callified program (positional PARAMs, movement ops, REDUCE over leading
// axes, STORE/AFTER for outputs) becomes the kernel graph, a SINK of AFTERs
// over kernel `CALL(SINK(arg=KernelInfo), *args)`.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_KERNELGRAPH_H
#define TINYGRAD_SCHEDULE_KERNELGRAPH_H

#include "tinygrad/Symbolic/UOp.h"

namespace mlir::tinygrad::sched {

/// tinygrad's get_kernel_graph(sink). Null on failure, with the reasons
/// (which op, why) in ctx.errors.
sym::UOpRef getKernelGraph(sym::Context &ctx, sym::UOpRef callBodySink);

} // namespace mlir::tinygrad::sched

#endif
