//===- EmitLinear.cpp - the emitted program in tinygrad's linear form -------===//
//
// tinygrad hands back, with every compiled program, the linearized UOps it
// rendered (PROGRAM's LINEAR) and Estimates counted on them; its tests,
// counters and BEAM read both. Ours are read off the code we emitted: each
// node is noted at the MLIR op that completes it, and a walk over the
// function in op order lists them, each loop as RANGE ... END. What
// tinygrad's lowering makes explicit is spelled its way: a value read from
// memory is LOAD(INDEX), a REDUCE over loops a REG accumulator (BUFFER,
// STORE of the identity before the loop, LOAD + ALU + STORE in it, LOAD
// after it), a horizontal one its chain of ALUs. Lanes stay one node each
// (a vector), with their width beside it.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"

namespace mlir::tinygrad::kernel_emitter {

void Emitter::noteValue(UOpRef u, Value v) {
  switch (u->op) {
  case K::PARAM:  // listed first, in slot order
  case K::REDUCE: // its accumulator ops are noted by emitReduce
  case K::AFTER:  // noted after its deps by emitAfter
  case K::RANGE:  // a loop is the scf.for; a lane range is the expander's constant lanes
    return;
  default:
    break;
  }
  note(v.getDefiningOp(), u, numLanes(laneShape(u)), u->op == K::INDEX);
}

namespace {
/// Rebuilds noted nodes the way tinygrad's lowering spells them for the
/// Clang renderer: an INDEX read as a value (not as an address) becomes
/// LOAD(INDEX) (pm_add_loads), a gated access INDEX(buf, idx) with the gate
/// on the LOAD/STORE (pm_move_gates_from_index), MAX `a<b ? b : a` (the
/// emitter's select; MAX is not a Clang op), a REDUCE the node standing for
/// its value.
struct LinearForm {
  sym::Context &ctx;
  const llvm::DenseMap<UOpRef, UOpRef> &reduceValues;
  const llvm::DenseSet<UOpRef> &laneShuffles;
  llvm::DenseMap<UOpRef, UOpRef> memo;

  static bool isAddress(UOpRef u, size_t i) {
    return i == 0 && (u->op == K::INDEX || u->op == K::STORE || u->op == K::LOAD || u->op == K::AFTER);
  }
  /// A rebuilt INDEX without its gate, and the gate (null if none).
  std::pair<UOpRef, UOpRef> ungated(UOpRef index) {
    if (index->op != K::INDEX || index->src.size() != 2)
      return {index, nullptr};
    UOpRef i = index->src[1];
    if (i->op != K::WHERE || !i->src[2]->isInvalid())
      return {index, nullptr};
    return {ctx.get(K::INDEX, index->type, {index->src[0], i->src[1]}, index->arg), i->src[0]};
  }
  UOpRef loadOp(UOpRef index, UOpRef alt, UOpRef gate) {
    MLIRContext *m = ctx.getMLIRContext();
    NamedAttrList attrs;
    attrs.set("operandSegmentSizes", DenseI32ArrayAttr::get(m, {1, alt ? 1 : 0, gate ? 1 : 0}));
    SmallVector<UOpRef, 3> src{index};
    if (alt)
      src.push_back(alt);
    if (gate)
      src.push_back(gate);
    return ctx.get(K::LOAD, ctx.typeFor(index->dtype), src, sym::Arg{Scalar(), attrs.getDictionary(m)});
  }
  /// LOAD of a rebuilt INDEX: a gated one reads 0 where the gate is off.
  UOpRef load(UOpRef index) {
    auto [idx, gate] = ungated(index);
    return loadOp(idx, gate ? ctx.constLike(index, Scalar::fromInt(0)) : nullptr, gate);
  }
  UOpRef operator()(UOpRef u) {
    if (UOpRef r = memo.lookup(u))
      return r;
    UOpRef r;
    if (reduceValues.count(u)) {
      r = (*this)(reduceValues.lookup(u));
    } else {
      SmallVector<UOpRef, 4> src;
      for (auto [i, s] : llvm::enumerate(u->src)) {
        UOpRef x = (*this)(s);
        src.push_back(x->op == K::INDEX && !isAddress(u, i) ? load(x) : x);
      }
      if (laneShuffles.count(u)) {
        r = ctx.get(K::STACK, u->type, {src[1], src[2]});
      } else if (u->op == K::MAX && src.size() == 2) {
        r = ctx.get(K::WHERE, u->type, {ctx.lt(src[0], src[1]), src[1], src[0]});
      } else if (u->op == K::STORE && src.size() == 2 && ungated(src[0]).second) {
        auto [idx, gate] = ungated(src[0]);
        r = ctx.get(K::STORE, u->type, {idx, src[1], gate}, u->arg);
      } else if (u->op == K::LOAD && src.size() >= 1 && ungated(src[0]).second) {
        auto [idx, gate] = ungated(src[0]);
        r = loadOp(idx, src.size() > 1 ? src[1] : ctx.constLike(u, Scalar::fromInt(0)), gate);
      } else {
        r = ctx.get(u->op, u->type, src, u->arg);
      }
    }
    return memo[u] = r;
  }
};
} // namespace

UOpRef Emitter::linearize(ArrayRef<UOpRef> bufs, ArrayRef<UOpRef> vars, SmallVectorImpl<unsigned> &lanes) {
  sym::Context &ctx = symCtx();
  LinearForm form{ctx, reduceValues, laneShuffles, llvm::DenseMap<UOpRef, UOpRef>()};
  SmallVector<UOpRef> items;
  llvm::DenseSet<UOpRef> listed;
  auto push = [&](UOpRef u, unsigned n) {
    items.push_back(u);
    lanes.push_back(n);
    listed.insert(u);
  };
  // Nodes tinygrad lists before what uses them (an INDEX, a LOAD's
  // alternative, MAX's compare), once.
  auto pushOnce = [&](UOpRef u, unsigned n) {
    if (!listed.count(u))
      push(u, n);
  };
  auto pushNoted = [&](Operation *anchor) {
    auto it = notes.find(anchor);
    if (it == notes.end())
      return;
    for (const Noted &n : it->second) {
      UOpRef x = form(n.u);
      if (n.load)
        x = form.load(x);
      // What tinygrad lists before: a load's or store's INDEX, MAX's compare.
      if (x->op == K::LOAD || x->op == K::STORE)
        pushOnce(x->src[0], n.lanes);
      if (x->op == K::LOAD && x->src.size() > 1 && x->src[1]->op == K::CONST)
        pushOnce(x->src[1], 1);
      if (n.u->op == K::MAX && x->op == K::WHERE)
        pushOnce(x->src[0], n.lanes);
      push(x, n.lanes);
    }
  };
  // tinygrad's linearizer puts the PARAMs first, in slot order.
  for (UOpRef p : bufs)
    push(p, 1);
  for (UOpRef v : vars)
    push(v, 1);
  pushNoted(nullptr);
  Type voidT = ctx.typeFor(DType::Void);
  std::function<void(Region &)> walk = [&](Region &region) {
    for (Block &block : region)
      for (Operation &op : block) {
        if (UOpRef r = loopRanges.lookup(&op)) {
          push(r, 1);
          for (Region &body : op.getRegions())
            walk(body);
          SmallVector<UOpRef, 3> end{items.back(), r};
          // A do-while's END(body, RANGE, cond), as tinygrad's C renders it.
          if (UOpRef c = loopConds.lookup(&op)) {
            UOpRef x = form(c);
            end.push_back(x->op == K::INDEX ? form.load(x) : x);
          }
          push(ctx.get(K::END, voidT, end), 1);
        } else {
          for (Region &nested : op.getRegions())
            walk(nested);
        }
        pushNoted(&op);
      }
  };
  walk(fn.getFunctionBody());
  return ctx.get(K::LINEAR, voidT, items);
}

} // namespace mlir::tinygrad::kernel_emitter
