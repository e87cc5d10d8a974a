//===- EmitInlinedAdds.cpp - terms tinygrad's C adds leaf by leaf -----------===//
//
// tinygrad's C renderer strips the parentheses of an inlined (single-use)
// ADD operand of an ADD: `acc + (a + b)` is the C `acc + a + b`, which
// computes ((acc + a) + b). A reduce's term that is a float ADD in some
// lanes only, once tinygrad's per-lane symbolic has decided the WHEREs
// above it (a cumsum's window edge: `r + c < 18 ? 0.0 : x + y`), is added
// leaf by leaf in those lanes and whole in the others (random-kernels seed
// 1817 #98: a float64 cumsum of edge values, 0.0 against tinygrad's 0.58
// where the sum cancels). A term that is such an ADD in every lane is
// EmitReduce's `leaves`.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::kernel_emitter {

SmallVector<Emitter::InlinedAdd, 2> Emitter::inlinedAddLanes(UOpRef src, DType dt) {
  SmallVector<InlinedAdd, 2> out;
  if (src->op != K::WHERE)
    return out;
  auto inlinable = [&](UOpRef u) { return u->op == K::ADD && u->dtype == dt && users.lookup(u) == 1; };
  // Only where a WHERE's branch is such an ADD (the per-lane rewrites below
  // cost a padded sum's `valid ? x : 0` nothing).
  std::function<bool(UOpRef)> addBranch = [&](UOpRef u) {
    return u->op == K::WHERE ? addBranch(u->src[1]) || addBranch(u->src[2]) : inlinable(u);
  };
  if (!addBranch(src))
    return out;
  SmallVector<UOpRef, 2> shape = laneShape(src);
  unsigned n = numLanes(shape);
  // Each lane's condition with its lane values in place, simplified by the
  // engine's symbolic as tinygrad's per-lane symbolic does, which also
  // decides it from the loop ranges' bounds (a cumsum window's last term,
  // `r + 18 < 18` with r >= 0). A rewrite of the condition per lane, so
  // bounded.
  constexpr unsigned kMaxLanes = 1024;
  if (n > kMaxLanes)
    return out;
  sym::Context &ctx = src->ctx();
  SmallVector<llvm::DenseMap<UOpRef, UOpRef>> at(n);
  for (unsigned l = 0; l < n; ++l) {
    LaneVals vals = laneVals(shape, l);
    for (UOpRef r : shape)
      at[l][r] = ctx.constInt(vals.lookup(r), r->dtype);
  }
  // `reach`: the lanes of `src` whose decided WHEREs lead to `u`.
  std::function<void(UOpRef, const LaneMask &)> walk = [&](UOpRef u, const LaneMask &reach) {
    if (!llvm::is_contained(reach, true))
      return;
    if (u->op == K::WHERE) {
      if (!addBranch(u))
        return;
      LaneMask t(n, false), f(n, false);
      for (unsigned l = 0; l < n; ++l) {
        if (!reach[l])
          continue;
        UOpRef c = laneSimplified(sym::substitute(ctx, u->src[0], at[l]));
        if (c && c->op == K::CONST && c->val().isBool())
          (c->val().b ? t : f)[l] = true;
      }
      walk(u->src[1], t);
      walk(u->src[2], f);
      return;
    }
    // An ADD used once is inlined where it stands (shared by several
    // lanes it would be a variable: EmitSharedLanes' case).
    if (!inlinable(u))
      return;
    for (InlinedAdd &ia : out)
      if (ia.add == u) {
        for (unsigned l = 0; l < n; ++l)
          ia.lanes[l] = ia.lanes[l] || reach[l];
        return;
      }
    InlinedAdd ia{u, reach, {}};
    std::function<void(UOpRef)> leaves = [&](UOpRef a) {
      for (UOpRef s : a->src)
        if (inlinable(s))
          leaves(s);
        else
          ia.leaves.push_back(s);
    };
    leaves(u);
    out.push_back(std::move(ia));
  };
  // Through the decided WHEREs only: a term under a WHERE some lane does
  // not decide stays that WHERE, whose operand keeps its parentheses.
  walk(src, LaneMask(n, true));
  return out;
}

} // namespace mlir::tinygrad::kernel_emitter
