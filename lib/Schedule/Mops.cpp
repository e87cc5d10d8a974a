//===- Mops.cpp - pm_mops: movement ops on INDEX become index math --------===//
#include "Passes.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

/// _mop_index: INDEX(movement(x), idx...) -> INDEX(x, apply_movement_op(idx...)).
static UOpRef mopIndex(Match &m) {
  Context &ctx = m.ctx;
  UOpRef r = m[n::r], idx = m[n::idx];
  auto idxs = idx->src.drop_front();
  auto rs = shapeOf(r), ss = shapeOf(r->src[0]);
  auto marg = margOf(r);
  if (!rs || !ss || !marg)
    return nullptr;
  if (idxs.size() == rs->size()) {
    auto in = applyMovementOp(ctx, r->op, *ss, *marg, idxs);
    return in ? index(ctx, r->src[0], *in) : nullptr;
  }
  if (r->op != sym::Op::RESHAPE)
    return nullptr;
  // a partial index of a RESHAPE whose trailing dims are unchanged
  llvm::ArrayRef<int64_t> tail = llvm::ArrayRef<int64_t>(*rs).drop_front(idxs.size());
  int64_t prefix = static_cast<int64_t>(ss->size()) - static_cast<int64_t>(tail.size());
  if (prefix < 0 || llvm::ArrayRef<int64_t>(*ss).drop_front(prefix) != tail)
    return nullptr;
  if (prefix == 0)
    return r->src[0]->dtype == idx->dtype ? r->src[0] : nullptr;
  MArg sub;
  sub.shape.assign(rs->begin(), rs->begin() + idxs.size());
  auto in = applyMovementOp(ctx, sym::Op::RESHAPE, llvm::ArrayRef<int64_t>(*ss).take_front(prefix), sub, idxs);
  if (!in)
    return nullptr;
  UOpRef ret = index(ctx, r->src[0], *in);
  return shapeOf(ret) == shapeOf(idx) ? ret : nullptr;
}

const sym::PatternMatcher &sched::pmMops() {
  static const sym::PatternMatcher pm({
      {"movement op on INDEX", up(sym::Op::INDEX, {op(movementOps(), n::r)}, n::idx).allowAnyLen(), mopIndex},
      {"move movement op/INDEX after AFTER",
       up(sym::Op::AFTER, {op(movementOps() | OpSet(sym::Op::INDEX), n::r)}, n::a).allowAnyLen(),
       [](Match &m) -> UOpRef {
         UOpRef r = m[n::r], a = m[n::a];
         llvm::SmallVector<UOpRef, 4> as{r->src[0]};
         as.append(a->src.begin() + 1, a->src.end());
         UOpRef na = m.ctx.get(sym::Op::AFTER, r->src[0]->type, as);
         llvm::SmallVector<UOpRef, 4> rs{na};
         rs.append(r->src.begin() + 1, r->src.end());
         if (r->op == sym::Op::INDEX)
           return index(m.ctx, na, llvm::ArrayRef<UOpRef>(rs).drop_front());
         return m.ctx.get(r->op, r->type, rs, r->arg);
       }},
      {"move movement op after END", up(sym::Op::END, {op(movementOps(), n::r)}, n::a).allowAnyLen(),
       [](Match &m) -> UOpRef {
         UOpRef a = m[n::a];
         llvm::SmallVector<UOpRef, 4> as{m[n::r]->src[0]};
         as.append(a->src.begin() + 1, a->src.end());
         return m.ctx.get(sym::Op::END, a->type, as, a->arg);
       }},
  });
  return pm;
}
