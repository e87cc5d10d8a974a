//===- EmitScopes.cpp - loop scopes, node placement and lanes ---------------===//
//
// Where a node goes (the outermost loop where its ranges are open), the
// loops a RANGE opens, and the lane shapes and shuffles of vector values.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "tinygrad/Conversion/ConcatLanes.h"
#include "tinygrad/Conversion/LoopAttributes.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::tinygrad::kernel_emitter {

const SmallVector<UOpRef, 4> &Emitter::rangesOf(UOpRef u) {
  auto it = rangeSets.find(u);
  if (it != rangeSets.end())
    return it->second;
  llvm::SetVector<UOpRef, SmallVector<UOpRef, 4>> set;
  if (u->op == K::RANGE)
    set.insert(u);
  for (UOpRef s : u->src) {
    // Copy: the recursive call may grow (and move) the map.
    SmallVector<UOpRef, 4> rs = rangesOf(s);
    set.insert(rs.begin(), rs.end());
  }
  if (u->op == K::REDUCE || u->op == K::END)
    for (UOpRef r : closedRanges(u))
      set.remove(r);
  return rangeSets[u] = SmallVector<UOpRef, 4>(set.begin(), set.end());
}

SmallVector<UOpRef, 4> Emitter::closedRanges(UOpRef u) {
  // A do-while END closes its loop; its condition is computed in the body
  // and may read outer ranges, which stay open.
  if (loopCondition(u))
    return {u->src[1]};
  // A closer that is an expression (after a range split) closes its RANGEs.
  llvm::SetVector<UOpRef, SmallVector<UOpRef, 4>> out;
  for (UOpRef s : u->src.drop_front()) {
    if (s->op == K::RANGE) {
      out.insert(s);
      continue;
    }
    SmallVector<UOpRef, 4> rs = rangesOf(s);
    out.insert(rs.begin(), rs.end());
  }
  return SmallVector<UOpRef, 4>(out.begin(), out.end());
}

SmallVector<UOpRef, 2> Emitter::laneShape(UOpRef u) {
  auto it = laneShapes.find(u);
  if (it != laneShapes.end())
    return it->second;
  SmallVector<UOpRef, 2> out;
  for (UOpRef r : rangesOf(u))
    if (isLaneRange(r))
      out.push_back(r);
  llvm::stable_sort(out, [&](UOpRef a, UOpRef c) { return laneBefore(a, c); });
  return laneShapes[u] = out;
}

bool Emitter::laneBefore(UOpRef a, UOpRef c) const {
  // Larger strides first, so the lane range a store (else a load) walks
  // contiguously is the fastest: its lanes fill whole vector registers.
  // Only the layout changes; every lane computes what it did.
  auto key = [&](UOpRef r) {
    auto s = laneStrides.lookup(r);
    auto big = [](int64_t x) { return x ? x : std::numeric_limits<int64_t>::max(); };
    return std::make_pair(-big(s.first), -big(s.second));
  };
  // A pairwise-folded reduce's lanes (split accumulators) go last whatever
  // the strides: the loads walk them contiguously, and the fold halves the
  // vector lane-wise (x @ W.T's dot tile: 4x4 outputs by 16 k lanes; first,
  // as a lane range no store uses, they made every load a transpose).
  if (bool pa = pairwiseLanes.contains(a), pc = pairwiseLanes.contains(c); pa != pc)
    return pc;
  // A packed panel's lanes next (a convolution's vector of output
  // channels, staged because in the weights' layout it is a gather): the
  // panel row is then one vector register as loaded, and the other
  // operand's lanes (the map's pixels) are broadcasts, where ordering by
  // the store's strides made every FMA operand a shuffle of both. Only the
  // store, once per output, pays the transpose.
  if (bool pa = panelLanes.contains(a), pc = panelLanes.contains(c); pa != pc)
    return pc;
  auto ka = key(a), kc = key(c);
  return ka != kc ? ka < kc : rangeIdsLess(a, c);
}

void Emitter::chooseLaneOrder(ArrayRef<UOpRef> topo) {
  auto hasLanes = [&](UOpRef x) { return llvm::any_of(rangesOf(x), isLaneRange); };
  auto note = [&](UOpRef index, bool isStore) {
    if (index->op == K::CAST && !index->src.empty())
      index = index->src[0];
    if (index->op != K::INDEX || index->src.size() != 2)
      return;
    UOpRef i = index->src[1];
    if (i->op == K::WHERE && i->src[2]->isInvalid())
      i = i->src[1];
    auto lin = linearizeIndex(i, isLaneRange, hasLanes);
    if (!lin)
      return;
    UOpRef buf = index->src[0]->op == K::AFTER ? index->src[0]->src[0] : index->src[0];
    auto pa = buf->op == K::BUFFER && buf->arg.attrs ? dyn_cast_or_null<tg::ParamAttr>(buf->arg.attrs.get("arg"))
                                                      : tg::ParamAttr();
    bool panel = !isStore && pa && pa.getAddrspace() == tg::AddrSpace::Local;
    int64_t bytes = panel ? getInfo(buf->dtype).itemsize : 0;
    for (auto [r, k] : lin->strides) {
      if (panel && k == 1 && bytes > 0 && (rangeSize(r) * bytes) % target.vectorBytes == 0)
        panelLanes.insert(r);
      int64_t &slot = isStore ? laneStrides[r].first : laneStrides[r].second;
      int64_t m = k < 0 ? -k : k;
      if (m && (!slot || m < slot))
        slot = m;
    }
  };
  for (UOpRef u : topo) {
    if (u->op == K::REDUCE && u->arg.attrs && u->arg.attrs.get(opt::kPairwiseFoldAttr))
      for (UOpRef r : u->src.drop_front())
        if (r->op == K::RANGE && isLaneRange(r))
          pairwiseLanes.insert(r);
    if (u->op == K::STORE && !u->src.empty())
      note(u->src[0], true);
    else if (u->op == K::INDEX)
      note(u, false);
  }
}

int Emitter::depthOf(UOpRef u) {
  int d = 0;
  for (UOpRef r : rangesOf(u)) {
    if (isLaneRange(r))
      continue; // lanes are values, not loops
    int s = scopeOf(r);
    if (s < 0) {
      fail(u, "depends on a RANGE whose loop is not open here");
      return -1;
    }
    d = std::max(d, s);
  }
  return d;
}

void Emitter::openLoop(UOpRef range, unsigned depth) {
  if (isBoundless(range)) {
    fail(range, "a bound-less loop RANGE is closed only by an END with a condition (a do-while)");
    return;
  }
  setInsertionAt(depth);
  Value end = emit(range->src[0]);
  if (!end || !isa<IntegerType>(end.getType())) {
    fail(range, "the bound of a loop RANGE is not a scalar integer");
    return;
  }
  setInsertionAt(depth);
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::IndexCastOp::create(b, loc, b.getIndexType(), end);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, lb, ub, step);
  // A bound that is not a constant (a variable's) still has tinygrad's
  // vmax: recorded for the passes that count a thread's iterations.
  if (!getConstantIntValue(end) && range->src[0]->vmax().isInt())
    loop->setAttr(kMaxTripCountAttr, b.getI64IntegerAttr(std::max<int64_t>(0, range->src[0]->vmax().i)));
  loopRanges[loop] = range;
  // Scopes deeper than `depth` are hidden while this loop is open.
  scopes.push_back({range, loop, loop.getBody(), nextScopeId++, loop.getBody()->getTerminator()});
  b.setInsertionPointToStart(loop.getBody());
  Value iv = arith::IndexCastOp::create(b, loc, ty(range->dtype), loop.getInductionVar());
  memo[range] = {iv, unsigned(scopes.size() - 1), scopes.back().id};
}

void Emitter::openDoWhile(UOpRef range, unsigned depth) {
  setInsertionAt(depth);
  // The body runs first, then the condition decides whether it runs again:
  // the whole body is the "before" region and the "after" region only
  // yields. Until closeDoWhile the condition is a placeholder `true`.
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{}, ValueRange{},
      [&](OpBuilder &ob, Location l, ValueRange) {
        scf::ConditionOp::create(ob, l, arith::ConstantIntOp::create(ob, l, 1, 1), ValueRange{});
      },
      [&](OpBuilder &ob, Location l, ValueRange) { scf::YieldOp::create(ob, l); });
  loopRanges[loop] = range;
  Block *body = loop.getBeforeBody();
  scopes.push_back({range, loop, body, nextScopeId++, body->getTerminator()});
  // No value: the RANGE only orders what reads `reg.after(loop)` (emitAfter).
}

LogicalResult Emitter::closeDoWhile(UOpRef range, UOpRef cond) {
  int s = scopeOf(range);
  if (s < 0 || !isa<scf::WhileOp>(scopes[s].loop)) {
    fail(range, "a do-while END's loop is not open here");
    return failure();
  }
  // In the body, after what the END closes (the condition reads it).
  Value c = emit(cond);
  if (!c)
    return failure();
  auto term = cast<scf::ConditionOp>(scopes[s].tail);
  Operation *placeholder = term.getCondition().getDefiningOp();
  term.getConditionMutable().assign(c);
  placeholder->erase();
  loopConds[scopes[s].loop] = cond;
  return success();
}

Value Emitter::pickLanes(OpBuilder &ob, Value x, ArrayRef<int64_t> idx) {
  auto vt = dyn_cast<VectorType>(x.getType());
  if (!vt)
    return idx.size() == 1 ? x
                           : vector::BroadcastOp::create(
                                 ob, loc, VectorType::get({(int64_t)idx.size()}, x.getType()), x)
                                 .getResult();
  if (idx.size() == 1) {
    if (auto elems = x.getDefiningOp<vector::FromElementsOp>())
      return elems.getElements()[idx[0]];
    return vector::ExtractOp::create(ob, loc, x, idx[0]);
  }
  bool identity = (int64_t)idx.size() == vt.getNumElements();
  for (size_t i = 0; identity && i < idx.size(); ++i)
    identity = idx[i] == (int64_t)i;
  if (identity)
    return x;
  // Lanes picked from lanes built one by one are built from those scalars:
  // a gather of 225 lanes split into 9 pieces of 25 otherwise reaches
  // LLVM as a 225-long insertelement chain, which the Scalarizer (small
  // kernels) gathers back once per link: 70 ms of conv2d_groups' compile.
  if (auto elems = x.getDefiningOp<vector::FromElementsOp>()) {
    SmallVector<Value> picked;
    for (int64_t i : idx)
      picked.push_back(elems.getElements()[i]);
    return vector::FromElementsOp::create(ob, loc, VectorType::get({(int64_t)idx.size()}, vt.getElementType()),
                                          picked);
  }
  return vector::ShuffleOp::create(ob, loc, x, x, idx);
}

Value Emitter::broadcastTo(Value x, ArrayRef<UOpRef> from, ArrayRef<UOpRef> to,
                           const LaneVals *extra) {
  unsigned n = numLanes(to);
  SmallVector<int64_t> idx;
  for (unsigned l = 0; l < n; ++l)
    idx.push_back(numLanes(from) <= 1 ? 0 : laneIndex(from, to, l, extra));
  return pickLanes(b, x, idx);
}

// A balanced tree of same-typed shuffles (ConcatLanes.h): a chain, each
// link a shuffle of the lanes so far with the next, shorter piece, reached
// LLVM lane by lane (an extractelement and an insertelement per lane of
// every link): ResNet's stem's 448-lane panel row, 28 loads of 16 lanes,
// was ~6500 of each.
Value Emitter::concat(OpBuilder &ob, ArrayRef<Value> parts) { return concatLanes(ob, loc, parts); }

} // namespace mlir::tinygrad::kernel_emitter
