//===- EmitNamedPartials.cpp - the running values a horizontal reduce names -===//
//
// A loop-free reduce is tinygrad's chain `t0 op t1 op ...` in each output
// lane, devectorized lane by lane and hash-consed: where lanes' chains
// share a prefix (a cumprod's window: lane o is lane o-1's product times
// one more term) the running value is one UOp used twice, a variable of
// the C, and else it stays inline in the next op. For 8- and 16-bit ints
// that decides the value the reduce's user reads: C computes the inline
// chain in int and wraps only a variable (`(float)(val0*val1*val2*val3)`,
// random-kernels probe: int16 prod of 4 cast to float; a cumprod's last
// lane `(float)(alu49*val6)`). Found as EmitSharedLanes finds shared
// groups: each lane's terms (laneTerm), the chains built from them, uses
// counted.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

namespace mlir::tinygrad::kernel_emitter {

SmallVector<Emitter::LaneMask> Emitter::namedPartials(UOpRef src, sym::Op op, ArrayRef<UOpRef> folded,
                                                       ArrayRef<UOpRef> out) {
  unsigned nOut = numLanes(out), nFold = numLanes(folded);
  // Each lane's terms are a rewrite of the whole term: bounded.
  constexpr unsigned kMaxLaneSubstitutions = 1024;
  if (nOut * nFold > kMaxLaneSubstitutions)
    return {};
  sym::Context &ctx = src->ctx();
  SmallVector<UOpRef, 2> srcShape = laneShape(src);
  int64_t identity = op == K::MUL ? 1 : 0;
  // running[o][c]: lane o's running value once folded lane c is combined
  // (null before its first term); `users`: each value's distinct users.
  SmallVector<SmallVector<UOpRef, 8>> running(nOut);
  llvm::DenseMap<UOpRef, llvm::SmallPtrSet<UOpRef, 2>> users;
  for (unsigned o = 0; o < nOut; ++o) {
    LaneVals outVals = laneVals(out, o);
    UOpRef cur = nullptr;
    for (unsigned c = 0; c < nFold; ++c) {
      UOpRef t = laneTerm(src, srcShape, outVals, laneVals(folded, c));
      if (!t)
        return {};
      // tinygrad's symbolic folds `x*1` and `x+0`: no op of the chain.
      bool isIdentity = t->op == K::CONST && (t->val().isFloat() ? t->val().f == (double)identity
                                                                  : t->val().isInt() && t->val().i == identity);
      if (!isIdentity) {
        if (cur) {
          UOpRef next = ctx.get(op, src->type, {cur, t});
          users[cur].insert(next);
          users[t].insert(next);
          cur = next;
        } else {
          cur = t;
        }
      }
      running[o].push_back(cur);
    }
  }
  // Each lane's final value is used by the reduce's user in that lane.
  llvm::DenseSet<UOpRef> finals;
  for (unsigned o = 0; o < nOut; ++o)
    if (UOpRef f = running[o].back())
      finals.insert(f);
  SmallVector<LaneMask> named(nFold, LaneMask(nOut, false));
  for (unsigned o = 0; o < nOut; ++o)
    for (unsigned c = 0; c < nFold; ++c)
      if (UOpRef v = running[o][c])
        named[c][o] = users.lookup(v).size() + finals.count(v) > 1;
  return named;
}

} // namespace mlir::tinygrad::kernel_emitter
