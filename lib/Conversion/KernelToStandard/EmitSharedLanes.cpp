//===- EmitSharedLanes.cpp - lanes tinygrad's devectorizer makes one UOp ---===//
//
// tinygrad's devectorizer makes each lane its own scalar expression and its
// UOps are hash-consed, so lanes whose expressions coincide become one UOp:
// used by several lanes, it is a named variable of the C. For a reduce's
// unrolled group that decides the order of the sum: a group used once is
// inlined and its parentheses stripped, `acc + x0 + x1 ...` added term by
// term, a shared one is `alu = x0 + x1 ...; acc + alu` (random-kernels seed
// 1811 #95: a sum over a `cat` of a flipped copy, 1 ulp apart). The
// emitter keeps the lanes in one vector, so it finds them here: each lane's
// terms with its lane values substituted, simplified by the engine's
// symbolic, compared by identity.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tinygrad/Symbolic/Rewrite.h"

#include <map>

namespace mlir::tinygrad::kernel_emitter {

UOpRef Emitter::laneTerm(UOpRef src, ArrayRef<UOpRef> srcShape, const LaneVals &outVals, const LaneVals &foldVals) {
  sym::Context &ctx = src->ctx();
  llvm::DenseMap<UOpRef, UOpRef> at;
  for (UOpRef r : srcShape)
    at[r] = ctx.constInt(outVals.count(r) ? outVals.lookup(r) : foldVals.lookup(r), r->dtype);
  return laneSimplified(sym::substitute(ctx, src, at));
}

Emitter::LaneMask Emitter::lanesSharingTheirGroup(UOpRef src, ArrayRef<UOpRef> folded, ArrayRef<UOpRef> out) {
  unsigned nOut = numLanes(out), nFold = numLanes(folded);
  SmallVector<UOpRef, 2> srcShape = laneShape(src);
  if (nOut < 2)
    return {};
  // Looked for only where the terms read an output lane range through a
  // WHERE the lanes decide (a `cat` or `stack`). Not through a
  // floor division or modulo (the bytes of a float bitcast, seed 301 #4,
  // known-differences.test): our heuristic's rows padded to 16 read their
  // out-of-bounds lanes that way, which coincide, and the group beside the
  // term-by-term chain would cost such a ResNet conv an eighth more FMAs
  // for lanes it never stores. Terms linear in the lanes (matmul and conv
  // tiles) are not substituted lane by lane, nor more than
  // kMaxLaneSubstitutions lanes (each a rewrite of the whole term).
  constexpr unsigned kMaxLaneSubstitutions = 1024;
  auto behindLaneWhere = [&]() {
    llvm::DenseSet<UOpRef> seen;
    SmallVector<UOpRef, 16> todo{src};
    while (!todo.empty()) {
      UOpRef n = todo.pop_back_val();
      if (!seen.insert(n).second)
        continue;
      if (laneShuffles.count(n) && llvm::any_of(laneShape(n), [&](UOpRef r) { return llvm::is_contained(out, r); }))
        return true;
      for (UOpRef x : n->src)
        todo.push_back(x);
    }
    return false;
  };
  if (nOut * nFold > kMaxLaneSubstitutions || !behindLaneWhere())
    return {};
  std::map<SmallVector<UOpRef, 8>, unsigned> count;
  SmallVector<SmallVector<UOpRef, 8>> keys;
  for (unsigned o = 0; o < nOut; ++o) {
    LaneVals outVals = laneVals(out, o);
    SmallVector<UOpRef, 8> key;
    for (unsigned c = 0; c < nFold; ++c)
      key.push_back(laneTerm(src, srcShape, outVals, laneVals(folded, c)));
    ++count[key];
    keys.push_back(std::move(key));
  }
  LaneMask shared(nOut, false);
  bool any = false;
  // A group that folds to constants is no variable of the C (a padded
  // border's zeros: `acc + 0` folds away).
  for (unsigned o = 0; o < nOut; ++o)
    any |= shared[o] = count[keys[o]] > 1 && !llvm::all_of(keys[o], [](UOpRef e) { return e && e->op == K::CONST; });
  return any ? shared : LaneMask();
}

} // namespace mlir::tinygrad::kernel_emitter
