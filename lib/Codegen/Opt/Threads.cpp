//===- Threads.cpp - the THREAD opt of tinygrad's CPU heuristics -----------===//
#include "tinygrad/Codegen/Opts.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tinygrad::opt {
using sym::Context;
using sym::Op;
using sym::UOpRef;

namespace {
int64_t axisId(UOpRef r) {
  if (auto ids = dyn_cast_or_null<DenseI64ArrayAttr>(r->arg.attrs ? r->arg.attrs.get("ids") : Attribute()))
    if (!ids.empty())
      return ids[0];
  return 0;
}
bool isWeakAxis(UOpRef r) {
  auto t = dyn_cast_or_null<tg::AxisTypeAttr>(r->arg.attrs ? r->arg.attrs.get("axis_type") : Attribute());
  return t && t.getValue() == tg::AxisType::Weak;
}
} // namespace

UOpRef applyThreadHeuristic(Context &ctx, UOpRef sink, unsigned maxThreads) {
  if (maxThreads < 2 || (sink->arg.attrs && sink->arg.attrs.get("tg.tag")))
    return sink;
  llvm::SmallVector<UOpRef, 8> ranges;
  llvm::DenseSet<UOpRef> seen;
  llvm::SmallVector<UOpRef, 32> stack{sink};
  while (!stack.empty()) {
    UOpRef u = stack.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (u->op == Op::RANGE)
      ranges.push_back(u);
    if (u->op == Op::PARAM && u->param().isALU && u->param().name == "core_id")
      return sink; // already threaded
    for (UOpRef s : u->src)
      stack.push_back(s);
  }
  llvm::sort(ranges, [](UOpRef a, UOpRef b) { return axisId(a) < axisId(b); });
  __int128 full = 1;
  for (UOpRef r : ranges) {
    auto n = r->src.empty() ? std::nullopt : r->src[0]->intVal();
    if (!n || *n <= 0)
      return sink; // symbolic shape: tinygrad's resolve() keeps it unthreaded
    full *= *n;
  }
  for (unsigned threads : {32u, 16u, 12u, 8u, 6u, 5u, 4u, 3u, 2u}) {
    if (threads > maxThreads || full / (128 << 10) < threads)
      continue;
    for (UOpRef r : ranges) {
      if (!isWeakAxis(r))
        continue;
      __int128 n = *r->src[0]->intVal();
      if (n % threads != 0)
        break; // tinygrad tries the first WEAK axis only
      // RANGE(n) -> core_id * (n/T) + RANGE(n/T), the inner range keeping
      // the axis id so nothing else about the kernel changes.
      llvm::SmallVector<UOpRef, 2> src(r->src.begin(), r->src.end());
      src[0] = ctx.constLike(r->src[0], n / threads);
      UOpRef inner = ctx.get(Op::RANGE, r->type, src, r->arg);
      UOpRef core = ctx.variable("core_id", 0, threads - 1);
      UOpRef idx = ctx.add(ctx.mul(core, ctx.constInt(n / threads)), inner);
      llvm::DenseMap<UOpRef, UOpRef> map{{r, idx}};
      // END/REDUCE then close `idx`, i.e. the ranges inside it (the lowering
      // reads a non-RANGE closer that way, as tinygrad's flatten_range does).
      return sym::substitute(ctx, sink, map);
    }
  }
  return sink;
}

} // namespace mlir::tinygrad::opt
