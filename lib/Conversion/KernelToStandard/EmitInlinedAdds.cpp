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

namespace mlir::tinygrad::kernel_emitter {

SmallVector<Emitter::InlinedAdd, 2> Emitter::inlinedAddLanes(UOpRef src, DType dt) {
  SmallVector<InlinedAdd, 2> out;
  if (src->op != K::WHERE)
    return out;
  SmallVector<UOpRef, 2> shape = laneShape(src);
  unsigned n = numLanes(shape);
  // `reach`: the lanes of `src` whose decided WHEREs lead to `u`.
  std::function<void(UOpRef, const LaneMask &)> walk = [&](UOpRef u, const LaneMask &reach) {
    if (!llvm::is_contained(reach, true))
      return;
    if (u->op == K::WHERE) {
      LaneConsts c = constLanes(u->src[0]);
      if (c.empty())
        return; // no lane decides it
      LaneMask isTrue(c.size(), false), isFalse(c.size(), false);
      for (size_t l = 0; l < c.size(); ++l)
        if (c[l] && c[l]->val().isBool())
          (c[l]->val().b ? isTrue : isFalse)[l] = true;
      LaneMask t = maskTo(isTrue, laneShape(u->src[0]), shape), f = maskTo(isFalse, laneShape(u->src[0]), shape);
      for (unsigned l = 0; l < n; ++l) {
        t[l] = t[l] && reach[l];
        f[l] = f[l] && reach[l];
      }
      walk(u->src[1], t);
      walk(u->src[2], f);
      return;
    }
    // An ADD used once is inlined where it stands (shared by several
    // lanes it would be a variable: EmitSharedLanes' case).
    if (u->op != K::ADD || u->dtype != dt || users.lookup(u) != 1)
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
        if (s->op == K::ADD && s->dtype == dt && users.lookup(s) == 1)
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
