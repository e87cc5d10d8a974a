//===- EmitReadPerLane.cpp - values tinygrad's devectorized C reads per lane ===//
//
// tinygrad's C is devectorized: each lane of a node with lanes is its own
// scalar expression, and a value the C reads twice is a variable there (a
// half one rounded to `__fp16`, an 8/16-bit one wrapped: roundLikeC,
// promotedAlu). A node read by a node with more lanes is read once per
// lane of its reader. A WHERE the lanes decide is no node there: tinygrad
// folds it per lane, each lane its branch's expression, so a branch
// without lanes is read by the lanes that pick it, once if one lane does
// (argmax over halves bitcast from uint64 with the 16-bit lanes upcast:
// each lane's product `h_k * w` is compared unrounded in the C; rounded,
// 4 of 16 indices changed: random-kernels --candidates 4 seed 2238 #88).
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

namespace mlir::tinygrad::kernel_emitter {

std::optional<SmallVector<int8_t>> Emitter::decidedLanes(UOpRef u) {
  if (u->op != K::WHERE || u->src.size() != 3)
    return std::nullopt;
  UOpRef c = u->src[0];
  if (laneShape(c).empty() || !llvm::all_of(rangesOf(c), isLaneRange))
    return std::nullopt;
  SmallVector<int8_t> g = staticLaneGates(c, laneShape(u));
  if (llvm::any_of(g, [](int8_t x) { return x < 0; }))
    return std::nullopt;
  return g;
}

void Emitter::collectReadPerLane(ArrayRef<UOpRef> topo) {
  // The decided WHEREs with lanes, and those read only as a branch of
  // another of the same lanes (walked from it: only the lanes that reach
  // them through it count).
  llvm::DenseMap<UOpRef, SmallVector<int8_t>> decided;
  for (UOpRef u : topo)
    if (u->op == K::WHERE && numLanes(laneShape(u)) > 1)
      if (auto g = decidedLanes(u))
        decided[u] = std::move(*g);
  auto nested = [&](UOpRef parent, UOpRef x) {
    return decided.count(x) && laneShape(x) == laneShape(parent);
  };
  llvm::DenseMap<UOpRef, unsigned> branchUses;
  for (auto &[w, g] : decided)
    for (UOpRef x : ArrayRef<UOpRef>(w->src).drop_front())
      if (nested(w, x))
        ++branchUses[x];
  // A decided WHERE read by a node with more lanes (another decided WHERE
  // repeating its lanes along its own: not readPerLane itself) has each
  // lane read more than once: what any of its lanes picks is read twice.
  llvm::DenseSet<UOpRef> readByWider;
  for (UOpRef u : topo)
    for (UOpRef x : u->src)
      if (decided.count(x) && numLanes(laneShape(x)) < numLanes(laneShape(u)))
        readByWider.insert(x);
  // Each lane-free branch: how many lanes of the decided WHEREs are it.
  llvm::DenseMap<UOpRef, unsigned> lanesPicking;
  unsigned perLane = 1; // reads per lane of the WHERE walked from
  std::function<void(UOpRef, const LaneMask &)> walk = [&](UOpRef w, const LaneMask &reach) {
    const SmallVector<int8_t> &g = decided.find(w)->second;
    for (int8_t side : {1, 0}) {
      UOpRef x = w->src[side ? 1 : 2];
      LaneMask picks(reach.size(), false);
      for (unsigned l = 0; l < reach.size(); ++l)
        picks[l] = reach[l] && g[l] == side;
      if (nested(w, x) && branchUses.lookup(x) == users.lookup(x))
        walk(x, picks);
      else if (numLanes(laneShape(x)) == 1)
        lanesPicking[x] += perLane * llvm::count(picks, true);
    }
  };
  for (auto &[w, g] : decided)
    if (!branchUses.count(w) || branchUses.lookup(w) != users.lookup(w)) {
      perLane = readByWider.contains(w) ? 2 : 1;
      walk(w, LaneMask(g.size(), true));
    }
  for (auto &[x, n] : lanesPicking)
    if (n > 1)
      readPerLane.insert(x);
  // Every other read by more lanes: one without lanes by each lane of its
  // reader, or one with lanes whose reader repeats them along lanes of its
  // own (a half `h = a*0.37 + 0.1` of 4 reduce-unrolled lanes read by each
  // of 4 upcast output lanes: random-kernels --layers seed 2130 #68,
  // c-semantics half_lanes_read_per_upcast); not by a WHERE there, which
  // leaves each lane its branch's (half-lane-where-unrounded.test).
  for (UOpRef u : topo) {
    unsigned n = numLanes(laneShape(u));
    if (n <= 1)
      continue;
    bool folded = decided.count(u);
    for (auto [i, x] : llvm::enumerate(u->src)) {
      if (folded && i > 0)
        continue; // counted above
      if (unsigned m = numLanes(laneShape(x)); m == 1 || (m < n && u->op != K::WHERE))
        readPerLane.insert(x);
    }
  }
}

} // namespace mlir::tinygrad::kernel_emitter
