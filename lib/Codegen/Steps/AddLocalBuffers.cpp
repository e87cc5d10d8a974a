//===- AddLocalBuffers.cpp - "add local buffers": LOCAL stages as buffers -===//
//
// full_rewrite_to_sink's "add local buffers" (pm_add_local_buffers +
// pm_mops): a STAGE the scheduler left in the kernel (a value realized
// over only some of the kernel's ranges, addrspace LOCAL) becomes a buffer
// of its shape filled under its ranges, `buf.after(buf[rngs].store(x).end(rngs))`;
// pm_mops then flattens the multi-dimensional INDEXes this and the
// opts left (`buf.reshape(s)[i][j]` once the symbolic merged the INDEXes).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Steps.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Schedule/Graph.h"
#include "tinygrad/Schedule/Mops.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;
using K = sym::Op;
using sym::UOpRef;

namespace {
/// The rewrite's ctx: tinygrad's itertools.count(0) of buffer slots.
struct SlotCounter {
  int64_t next = 0;
};

UOpRef addLocalBuffer(Match &m) {
  sym::Context &ctx = m.ctx;
  UOpRef x = m[n::x];
  auto opts = sched::stageOpts(x);
  auto shape = sched::shapeOf(x);
  if (!opts || !shape)
    return nullptr;
  // x.max_shape: a symbolic dim at its largest value
  sched::Shape maxShape;
  int64_t size = 1;
  for (auto [i, d] : llvm::enumerate(*shape)) {
    if (d == tg::kDynamic) {
      UOpRef dim = sched::dimOf(ctx, x, i);
      if (!dim || !dim->vmax().isInt())
        return sched::fail(ctx, "add_local_buffer", "a STAGE dim without an upper bound");
      d = (int64_t)dim->vmax().i;
    }
    maxShape.push_back(d);
    size *= d;
  }
  int64_t slot = m.state<SlotCounter>().next++;
  auto arg = tg::ParamAttr::get(ctx.getMLIRContext(), slot, ctx.typeFor(x->dtype), ArrayAttr(), std::nullopt,
                                StringAttr(), opts.getAddrspace(), std::nullopt, Attribute(), false, std::nullopt);
  // UOp.placeholder: a BUFFER of prod(shape) elements, reshaped when it has more dims
  UOpRef buf = sched::storage(ctx, K::BUFFER, {size}, arg);
  if (maxShape.size() > 1)
    buf = sched::reshape(ctx, buf, maxShape);
  llvm::ArrayRef<UOpRef> rngs = x->src.drop_front();
  UOpRef fill = sched::end(ctx, sched::store(ctx, sched::index(ctx, buf, rngs), x->src[0]), rngs);
  return sched::after(ctx, buf, {fill});
}
} // namespace

UOpRef codegen::addLocalBuffers(sym::Context &ctx, UOpRef sink) {
  static const sym::PatternMatcher pm =
      sym::PatternMatcher({{"add_local_buffer", op(K::STAGE, n::x), addLocalBuffer}}) + sched::pmMops();
  SlotCounter slots;
  return sym::graphRewrite(ctx, sink, pm, &slots);
}
