//===- GroupForReduce.cpp - tinygrad's fix_group_for_reduce ----------------===//
//
// codegen/__init__.py, pm_reduce_local's first rule with the local buffer
// pm_add_local_buffers makes of its STAGE: a REDUCE whose ranges include
// GROUP_REDUCE ones (GROUP/GROUPTOP split a reduce over the threads of a
// workgroup) first reduces only its other ranges, in each thread; the
// partial results go to a LOCAL buffer indexed by the local ranges above it
// and the group ranges (and its UPCAST lanes); the final reduce reads that buffer back over fresh
// REDUCE ranges (ids + 100, tinygrad's numbering) after the fill (the
// barrier is added by addImplicitBarriers).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/GPU.h"

#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Symbolic/Rewrite.h"

#include "mlir/IR/Builders.h"

namespace mlir::tinygrad::gpu {
using opt::Scheduler;
using sym::Op;
using sym::UOpRef;
using tg::AxisType;

namespace {

/// Row-major position of `idx` (one per dimension) in a buffer of `sizes`.
UOpRef rowMajor(sym::Context &ctx, llvm::ArrayRef<UOpRef> idx, llvm::ArrayRef<int64_t> sizes) {
  UOpRef pos = ctx.constInt(0);
  for (size_t i = 0; i < idx.size(); ++i)
    pos = ctx.add(ctx.mul(pos, sizes[i]), idx[i]);
  return sym::simplify(ctx, pos);
}

struct State {
  int nextSlot = 0;
};

UOpRef fixGroupForReduce(sym::Context &ctx, UOpRef x, State &st) {
  llvm::SmallVector<UOpRef, 4> gfr, rest;
  for (UOpRef r : x->src.drop_front())
    (r->op == Op::RANGE && Scheduler::axisType(r) == AxisType::GroupReduce ? gfr : rest).push_back(r);
  if (gfr.empty())
    return nullptr;
  MLIRContext *m = ctx.getMLIRContext();
  // Other locals the value depends on are dimensions of the buffer too.
  // So are its UPCAST ranges: tinygrad runs this after the expander, where
  // they are the REDUCE's vector lanes and the buffer's elements vectors
  // (add_local_buffer's placeholder of x.dtype); here they are still
  // ranges, the innermost dimensions, so that each lane keeps its slot.
  llvm::SmallVector<UOpRef, 4> upstreamLocals, lanes;
  for (UOpRef u : sym::toposort(x)) {
    if (u->op == Op::RANGE && Scheduler::axisType(u) == AxisType::Local)
      upstreamLocals.push_back(u);
    if (u->op == Op::RANGE && Scheduler::axisType(u) == AxisType::Upcast)
      lanes.push_back(u);
  }

  // The per-thread reduce over the ungrouped ranges only.
  llvm::SmallVector<UOpRef, 4> partialSrc{x->src[0]};
  partialSrc.append(rest);
  UOpRef partial = rest.empty() ? x->src[0] : ctx.get(Op::REDUCE, x->type, partialSrc, x->arg);
  llvm::SmallVector<UOpRef, 4> reduceLoop;
  for (UOpRef g : gfr) {
    NamedAttrList attrs(g->arg.attrs);
    attrs.set("ids", Builder(m).getDenseI64ArrayAttr({Scheduler::axisId(g) + 100}));
    attrs.set("axis_type", tg::AxisTypeAttr::get(m, AxisType::Reduce));
    reduceLoop.push_back(ctx.get(Op::RANGE, g->type, g->src, sym::Arg{g->arg.value, attrs.getDictionary(m)}));
  }

  llvm::SmallVector<UOpRef, 8> fillIdx(upstreamLocals.begin(), upstreamLocals.end()), readIdx = fillIdx;
  fillIdx.append(gfr);
  fillIdx.append(lanes);
  readIdx.append(reduceLoop);
  readIdx.append(lanes);
  llvm::SmallVector<int64_t, 8> sizes;
  int64_t elems = 1;
  for (UOpRef r : fillIdx) {
    auto n = Scheduler::size(r);
    if (!n) {
      ctx.errors.push_back("fix_group_for_reduce: a grouped reduce over a symbolic range");
      return nullptr;
    }
    sizes.push_back(*n);
    elems *= *n;
  }
  Type elem = ctx.typeFor(x->dtype);
  auto pa = tg::ParamAttr::get(m, st.nextSlot++, elem, {}, std::nullopt, {}, tg::AddrSpace::Local, std::nullopt,
                               {}, false, std::nullopt);
  NamedAttrList bufAttrs;
  bufAttrs.set("arg", pa);
  UOpRef buf = ctx.get(Op::BUFFER, tg::makeValueType(elem, {elems}, tg::AddrSpace::Local), {ctx.constInt(elems)},
                       sym::Arg{Scalar(), bufAttrs.getDictionary(m)});
  Type localElem = tg::makeValueType(elem, {}, tg::AddrSpace::Local);
  Type vt = ctx.typeFor(DType::Void);
  UOpRef write = ctx.get(Op::INDEX, localElem, {buf, rowMajor(ctx, fillIdx, sizes)});
  llvm::SmallVector<UOpRef, 8> endSrc{ctx.get(Op::STORE, vt, {write, partial})};
  endSrc.append(fillIdx);
  UOpRef staged = ctx.get(Op::AFTER, buf->type, {buf, ctx.get(Op::END, vt, endSrc)});
  UOpRef read = ctx.get(Op::INDEX, localElem, {staged, rowMajor(ctx, readIdx, sizes)});
  // The final reduce: every horizontal reduce already happened in the first.
  NamedAttrList redAttrs(x->arg.attrs);
  redAttrs.set("n", IntegerAttr::get(IntegerType::get(m, 64), 0));
  llvm::SmallVector<UOpRef, 4> finalSrc{read};
  finalSrc.append(reduceLoop);
  return ctx.get(Op::REDUCE, x->type, finalSrc, sym::Arg{x->arg.value, redAttrs.getDictionary(m)});
}

} // namespace

UOpRef groupForReduce(sym::Context &ctx, UOpRef sink) {
  State st;
  std::vector<UOpRef> topo = sym::toposort(sink);
  bool any = false;
  for (UOpRef u : topo) {
    if (u->op == Op::BUFFER)
      st.nextSlot = std::max<int>(st.nextSlot, u->param().slot + 1);
    any |= u->op == Op::RANGE && Scheduler::axisType(u) == AxisType::GroupReduce;
  }
  if (!any)
    return sink;
  static const sym::PatternMatcher pm = [] {
    using namespace sym::pat;
    namespace n = sym::pat::names;
    return sym::PatternMatcher({
        {"fix_group_for_reduce", op({Op::REDUCE}, n::x),
         [](Match &mt) { return fixGroupForReduce(mt.ctx, mt[n::x], mt.state<State>()); }},
    });
  }();
  return sym::graphRewrite(ctx, sink, pm, &st);
}

} // namespace mlir::tinygrad::gpu
