//===- StagePanel.cpp - pack a reused reduce operand into a LOCAL buffer ---===//
//
// With C[m,n] = sum_k A[m,k] * B[k,n] tiled as W lanes of n by a few rows,
// every k step reads W floats of B one row (N floats) further on: a new page
// each step and, with N a multiple of 1024, always the same cache sets, so
// no cache keeps the k x W column panel and each row tile streams it again
// from L3 (27 GFLOP/s on the 1024 matmul, where a plain C model of the same
// loop over a packed panel runs at 75). BLAS packs that panel contiguously
// once per column block and runs every row over it. This is that step in
// tinygrad's own vocabulary: the operand's values over the reduce ranges and
// its lanes are STOREd into a LOCAL BUFFER inside an END over fresh ranges,
// the reduce reads the buffer AFTER that END, and the output loops the
// operand does not depend on get the last axis ids, so they nest inside the
// loops it does: the panel is filled once per column block and reused by
// every row. The copy changes no value and no order of a reduce's sum, yet
// one kernel's results moved in the last bits: a residual block's conv and
// 1x1 downsample summed into one output (conv2d_7x7_residual_downsample)
// differed packed and unpacked, with the same opts, on 638 of 1568 outputs
// by at most 1.1e-5 of 48 (random inputs; cause not found). Five other
// packed kernels, 35 opt lists, were bit for bit equal. BEAM's candidates
// pack under opts the heuristic never chose (ApplyOpts.cpp), so
// python/tests/test_packed_panel_values.py holds four packed kernels, under
// their heuristic's opts and one more, to their unpacked values within float
// rounding (it fails on a panel read one element off).
//
// The operand's lanes need not be contiguous in its buffer: a convolution's
// vector of output channels reads its weights (out x in x taps) one whole
// window apart, a gather on every reduce step. Packed, the panel row holds
// those lanes densely (the lane of the smallest stride fastest), so the
// gather is paid once per panel and every reuse is one vector load.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/LinearIndex.h"
#include "tinygrad/Codegen/Opts.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tinygrad::opt {
using sym::Op;
using sym::UOpRef;
using tg::AxisType;

namespace {
/// Fewer reuses than this and the copy costs more than the misses it saves.
constexpr int64_t kMinReuse = 8;
/// A panel whose lanes are a gather in the buffer: every reuse unpacked is
/// a gather again, so a second one already pays for the copy.
constexpr int64_t kMinGatherReuse = 2;
/// The most values a windowed operand's window may take (panel rows).
constexpr int64_t kMaxWindowValues = 1024;

bool isLane(UOpRef r) {
  AxisType t = Scheduler::axisType(r);
  return t == AxisType::Upcast || t == AxisType::Unroll;
}

/// A load of the reduce worth packing, and the panel it reads.
struct Candidate {
  UOpRef load = nullptr;
  LinearIndex lin;
  int64_t width = 0, elems = 0, reuse = 0;
  llvm::SmallVector<UOpRef, 2> lanes;
  /// Each lane range's stride in a panel row (the panel's lanes are
  /// emitted fastest, EmitScopes laneBefore).
  llvm::SmallVector<int64_t, 2> laneStrides;
  llvm::SmallVector<UOpRef, 4> reuseLoops;
  /// A windowed operand (stageReducePanel's `windowed`): the part of its
  /// index that is no linear form of ranges, e.g. a transposed conv's tap
  /// (t // 25) * 5 + u // 25, with its bounds; the panel holds a row for
  /// each of its values. Null: the index is linear.
  UOpRef window = nullptr;
  int64_t windowLo = 0, windowSize = 1;
  /// The load's gate (its index a WHERE(gate, idx, Invalid)); null: none.
  UOpRef gate = nullptr, invalid = nullptr;
};

/// `idx` as offset + sum(stride * RANGE) + window, sums and products by
/// constants distributed, where the window is the sum of every other
/// summand (nullopt when one of those depends on a lane range: the lanes
/// must stay linear to be dense in the panel).
std::optional<std::pair<LinearIndex, UOpRef>> linearPlusWindow(sym::Context &ctx, sym::RangeCache &rc,
                                                               UOpRef idx) {
  auto intConst = [](UOpRef u) { return u->op == Op::CONST && u->val().kind == Scalar::Int; };
  LinearIndex lin;
  llvm::SmallVector<UOpRef, 4> window;
  llvm::SmallVector<std::pair<UOpRef, int64_t>, 8> work{{idx, 1}};
  while (!work.empty()) {
    auto [u, k] = work.pop_back_val();
    if (u->op == Op::ADD) {
      for (UOpRef x : u->src)
        work.push_back({x, k});
    } else if (u->op == Op::MUL && u->src.size() == 2 && (intConst(u->src[0]) || intConst(u->src[1]))) {
      bool first = intConst(u->src[0]);
      work.push_back({u->src[first ? 1 : 0], k * (int64_t)u->src[first ? 0 : 1]->val().i});
    } else if (intConst(u)) {
      lin.offset += k * (int64_t)u->val().i;
    } else if (u->op == Op::RANGE) {
      UOpRef range = u;
      auto *at = llvm::find_if(lin.strides, [&](auto &p) { return p.first == range; });
      if (at == lin.strides.end())
        lin.strides.push_back({u, k});
      else
        at->second += k;
    } else {
      for (UOpRef r : rc.ranges(u))
        if (isLane(r))
          return std::nullopt;
      window.push_back(k == 1 ? u : ctx.mul(u, k));
    }
  }
  return std::make_pair(std::move(lin), window.empty() ? nullptr : ctx.usum(window));
}
/// The RANGEs a REDUCE or END closes (its closers may still be the
/// expressions shift_to left: r*4 + u closes r and u).
llvm::SmallVector<UOpRef, 4> closedRanges(sym::RangeCache &rc, UOpRef u) {
  sym::Ranges scratch;
  llvm::SetVector<UOpRef, llvm::SmallVector<UOpRef, 4>> out;
  for (UOpRef c : sym::RangeCache::endedRanges(u, scratch)) {
    if (c->op == Op::RANGE)
      out.insert(c);
    else
      for (UOpRef r : rc.ranges(c))
        out.insert(r);
  }
  return llvm::SmallVector<UOpRef, 4>(out.begin(), out.end());
}

/// Row-major position over `rs` (sizes as in the ranges), scaled by `unit`.
UOpRef densePosition(sym::Context &ctx, llvm::ArrayRef<UOpRef> rs, int64_t unit) {
  UOpRef pos = nullptr;
  int64_t scale = unit;
  for (UOpRef r : llvm::reverse(rs)) {
    UOpRef t = ctx.mul(r, scale);
    pos = pos ? ctx.add(t, pos) : t;
    scale *= Scheduler::size(r).value_or(1);
  }
  return pos;
}
} // namespace

bool stageReducePanel(Scheduler &k, bool windowed) {
  UOpRef ast = k.ast;
  if (ast->op != Op::SINK || ast->src.size() != 1 || ast->src[0]->op != Op::END ||
      ast->src[0]->src[0]->op != Op::STORE)
    return false;
  // Of several reduces side by side (a residual block's conv and its 1x1
  // downsample summed into one output), the one over the most points; of
  // nested ones (a conv inside the average pool of its map), an innermost
  // one, whose panel every step of the reduces around it reuses.
  llvm::SmallVector<UOpRef, 2> reds, outerReds;
  for (UOpRef r : k.reduceOps()) {
    bool nests = false;
    forEachNode(r->src[0], [&](UOpRef u) { return !(nests = u->op == Op::REDUCE); });
    (nests ? outerReds : reds).push_back(r);
  }
  if (reds.empty())
    return false;
  // Points of the RANGEs it closes (after the opts a closer may be an
  // expression of ranges, which counted as no points and let a residual
  // block's 1x1 downsample take the panel from its 3x3 conv: ResNet-18's
  // 512-channel tail 8.2 -> 3.4 ms at 1 thread).
  sym::RangeCache rc;
  auto points = [&](UOpRef r) {
    int64_t n = 1;
    for (UOpRef x : closedRanges(rc, r))
      n *= Scheduler::size(x).value_or(1);
    return n;
  };
  UOpRef red = *llvm::max_element(reds, [&](UOpRef a, UOpRef b) { return points(a) < points(b); }),
         end = ast->src[0];
  // The reduce's loops index the panel's rows; its lanes (taps a
  // convolution unrolled) are lanes of a row, as the output's are.
  llvm::SmallVector<UOpRef, 4> redRanges, redLanes, outRanges = closedRanges(rc, end);
  for (UOpRef r : closedRanges(rc, red))
    (isLane(r) ? redLanes : redRanges).push_back(r);
  // The ranges of the reduces around it: loops inside the output's, so a
  // panel they do not index is reused by each of their steps as it stands.
  llvm::SmallVector<UOpRef, 4> aroundRanges;
  for (UOpRef o : outerReds) {
    bool holds = false;
    forEachNode(o->src[0], [&](UOpRef u) { return !(holds |= u == red); });
    if (holds)
      for (UOpRef r : closedRanges(rc, o))
        if (!llvm::is_contained(redRanges, r) && !llvm::is_contained(redLanes, r))
          aroundRanges.push_back(r);
  }
  if (redRanges.empty())
    return false;
  llvm::stable_sort(redRanges, [](UOpRef a, UOpRef b) { return Scheduler::axisId(a) < Scheduler::axisId(b); });
  int64_t redPoints = 1;
  for (UOpRef r : redRanges) {
    auto n = Scheduler::size(r);
    if (!n)
      return false;
    redPoints *= *n;
  }
  auto isOut = [&](UOpRef r) { return llvm::is_contained(outRanges, r); };
  auto isRed = [&](UOpRef r) { return llvm::is_contained(redRanges, r) || llvm::is_contained(redLanes, r); };

  Candidate best;
  llvm::SmallPtrSet<UOpRef, 8> seen;
  forEachNode(red->src[0], [&](UOpRef x) {
    if (x->op != Op::INDEX || x->src.size() != 2 || x->src[0]->op != Op::PARAM || !seen.insert(x).second)
      return true;
    bool gated = false;
    UOpRef idx = indexOf(x, &gated);
    Candidate c;
    std::optional<LinearIndex> lin;
    if (!gated)
      lin = linearizeIndex(
          idx, [](UOpRef u) { return u->op == Op::RANGE; },
          [&](UOpRef u) { return !rc.ranges(u).empty(); });
    if (!lin && windowed) {
      // A windowed operand: whatever is no linear form of ranges is one
      // more row coordinate of the panel, over all of its values; a gated
      // load keeps its gate on the panel (the fill reads every value the
      // window can take, each within the buffer).
      auto lw = linearPlusWindow(k.ctx, rc, idx);
      if (!lw || !lw->second)
        return true;
      UOpRef w = lw->second;
      if (w->vmin().kind != Scalar::Int || w->vmax().kind != Scalar::Int ||
          w->vmax().i - w->vmin().i >= kMaxWindowValues)
        return true;
      c.window = w;
      c.windowLo = (int64_t)w->vmin().i;
      c.windowSize = (int64_t)(w->vmax().i - w->vmin().i) + 1;
      if (gated) {
        c.gate = x->src[1]->src[0];
        c.invalid = x->src[1]->src[2];
      }
      lin = std::move(lw->first);
    }
    if (!lin)
      return true;
    c.load = x;
    c.width = 1;
    llvm::SmallVector<int64_t, 32> offsets{0};
    for (auto [r, s] : lin->strides) {
      if (s == 0)
        continue;
      if (!isRed(r) && !isOut(r))
        return true; // a range of some other scope, or of a reduce around
      auto n = Scheduler::size(r);
      if (!n)
        return true;
      if (isLane(r)) {
        c.lanes.push_back(r);
        c.width *= *n;
        llvm::SmallVector<int64_t, 32> next;
        for (int64_t o : offsets)
          for (int64_t v = 0; v < *n; ++v)
            next.push_back(o + s * v);
        offsets = std::move(next);
      }
    }
    // Lanes that cover one dense block keep their own strides in the panel
    // row (the vector accesses stay what they were); others are laid out
    // densely.
    llvm::sort(offsets);
    bool denseLanes = true;
    for (auto [i, o] : llvm::enumerate(offsets))
      denseLanes &= o == (int64_t)i;
    if (denseLanes) {
      for (UOpRef l : c.lanes)
        c.laneStrides.push_back(lin->strideOf(l));
    } else {
      llvm::SmallVector<unsigned, 2> order(c.lanes.size());
      for (unsigned i = 0; i < order.size(); ++i)
        order[i] = i;
      // Whole vector registers of a lane range first, so that one panel
      // row segment is one register as the emitter orders lanes (its
      // panel lanes go fastest); then the smallest source stride.
      int64_t eltBytes = getInfo(x->src[0]->dtype).itemsize;
      auto key = [&](unsigned i) {
        bool whole = eltBytes > 0 && *Scheduler::size(c.lanes[i]) * eltBytes % k.target.vectorBytes == 0;
        return std::make_pair(!whole, std::abs(lin->strideOf(c.lanes[i])));
      };
      llvm::stable_sort(order, [&](unsigned a, unsigned b) { return key(a) < key(b); });
      c.laneStrides.assign(c.lanes.size(), 0);
      int64_t step = 1;
      for (unsigned i : order) {
        c.laneStrides[i] = step;
        step *= *Scheduler::size(c.lanes[i]);
      }
    }
    int64_t bytes = getInfo(x->src[0]->dtype).itemsize;
    if (bytes <= 0 || c.width * bytes < (int64_t)k.target.vectorBytes)
      return true;
    // Already a packed panel: the reduce ranges walk it densely.
    bool packed = denseLanes && !c.window;
    int64_t dense = c.width;
    for (UOpRef r : llvm::reverse(redRanges)) {
      int64_t s = lin->strideOf(r);
      if (s == 0)
        return true; // the panel would repeat itself
      packed &= s == dense;
      dense *= *Scheduler::size(r);
    }
    if (packed)
      return true;
    c.elems = redPoints * c.windowSize * c.width;
    if (c.elems * bytes > (int64_t)k.target.cacheBytes / 2)
      return true;
    c.reuse = 1;
    for (UOpRef r : outRanges)
      if (!isLane(r) && Scheduler::axisType(r) != AxisType::Thread && lin->strideOf(r) == 0) {
        c.reuse *= Scheduler::size(r).value_or(1);
        c.reuseLoops.push_back(r);
      }
    for (UOpRef r : aroundRanges)
      if (!isLane(r) && lin->strideOf(r) == 0)
        c.reuse *= Scheduler::size(r).value_or(1);
    if (c.reuse < (denseLanes ? kMinReuse : kMinGatherReuse) || c.reuse <= best.reuse)
      return true;
    c.lin = std::move(*lin);
    best = std::move(c);
    return true;
  });
  if (!best.load)
    return false;

  sym::Context &ctx = k.ctx;
  MLIRContext *m = ctx.getMLIRContext();
  int64_t id = 0;
  forEachNode(ast, [&](UOpRef u) {
    if (u->op == Op::RANGE)
      id = std::max(id, Scheduler::axisId(u) + 1);
    return true;
  });
  // The panel: one row of `width` lanes per point of the reduce ranges.
  UOpRef src = best.load->src[0];
  Type elem = ctx.typeFor(src->dtype);
  int slot = 0;
  forEachNode(ast, [&](UOpRef u) {
    if (u->op == Op::BUFFER)
      slot = std::max<int>(slot, u->param().slot + 1);
    return true;
  });
  auto pa = tg::ParamAttr::get(m, slot, elem, {}, std::nullopt, {}, tg::AddrSpace::Local, std::nullopt, {},
                               false, std::nullopt);
  NamedAttrList bufAttrs;
  bufAttrs.set("arg", pa);
  UOpRef buf = ctx.get(Op::BUFFER, tg::makeValueType(elem, {best.elems}, tg::AddrSpace::Local),
                       {ctx.constInt(best.elems)}, sym::Arg{Scalar(), bufAttrs.getDictionary(m)});
  // A window's value w (from its lower bound) selects a block of rows, the
  // reduce ranges' rows inside it.
  int64_t windowRows = best.elems / best.windowSize;
  auto rowOf = [&](llvm::ArrayRef<UOpRef> reds, llvm::ArrayRef<UOpRef> lanes, UOpRef window) {
    UOpRef pos = densePosition(ctx, reds, best.width);
    for (auto [u, s] : llvm::zip(lanes, best.laneStrides))
      pos = ctx.add(pos, s == 1 ? u : ctx.mul(u, s));
    if (window)
      pos = ctx.add(pos, ctx.mul(best.windowLo ? ctx.sub(window, best.windowLo) : window, windowRows));
    return pos;
  };
  // The fill: the operand's own index over fresh copies of the reduce
  // ranges (loops) and of its lanes (so the copy is vector moves).
  llvm::DenseMap<UOpRef, UOpRef> fresh;
  llvm::SmallVector<UOpRef, 4> fillReds, fillLanes, fillRanges;
  for (UOpRef r : redRanges)
    fillReds.push_back(fresh[r] = makeRange(ctx, r, *Scheduler::size(r), id++, AxisType::Loop));
  for (UOpRef l : best.lanes)
    fillLanes.push_back(fresh[l] = makeRange(ctx, l, *Scheduler::size(l), id++, AxisType::Upcast));
  UOpRef fillWindow = nullptr, readIdx;
  if (best.window) {
    // The window's values are a loop of the fill; the read is the linear
    // part over the fresh ranges plus that value, kept inside the buffer
    // (a value the kernel only takes where its gate is off may point past
    // it: that row is never read).
    UOpRef w = makeRange(ctx, redRanges.front(), best.windowSize, id++, AxisType::Loop);
    fillRanges.push_back(w);
    fillWindow = best.windowLo ? ctx.add(w, best.windowLo) : w;
    readIdx = ctx.constInt(best.lin.offset);
    for (auto [r, st] : best.lin.strides) {
      UOpRef f = fresh.count(r) ? fresh[r] : r;
      readIdx = ctx.add(readIdx, st == 1 ? f : ctx.mul(f, st));
    }
    readIdx = ctx.add(readIdx, fillWindow);
    if (src->src.empty() || src->src[0]->op != Op::CONST || src->src[0]->val().kind != Scalar::Int)
      return false;
    UOpRef inside = ctx.andOp(ctx.lt(readIdx, (int64_t)src->src[0]->val().i), ctx.gt(readIdx, -1));
    readIdx = ctx.where(inside, readIdx, ctx.cnst(Scalar::invalid(), readIdx->dtype));
  } else {
    readIdx = sym::substitute(ctx, indexOf(best.load), fresh);
  }
  fillRanges.append(fillReds);
  fillRanges.append(fillLanes);
  Type localElem = tg::makeValueType(elem, {}, tg::AddrSpace::Local);
  UOpRef read = ctx.get(Op::INDEX, best.load->type, {src, readIdx});
  UOpRef write = ctx.get(Op::INDEX, localElem, {buf, rowOf(fillReds, fillLanes, fillWindow)});
  Type vt = ctx.typeFor(DType::Void);
  llvm::SmallVector<UOpRef, 6> endSrc{ctx.get(Op::STORE, vt, {write, read})};
  endSrc.append(fillRanges);
  UOpRef fill = ctx.get(Op::END, vt, endSrc);
  UOpRef staged = ctx.get(Op::AFTER, buf->type, {buf, fill});
  UOpRef pos = rowOf(redRanges, best.lanes, best.window);
  if (best.gate)
    pos = ctx.where(best.gate, pos, best.invalid);
  UOpRef load = ctx.get(Op::INDEX, localElem, {staged, pos});
  llvm::DenseMap<UOpRef, UOpRef> swap{{best.load, load}};
  // The loops that reuse the panel nest inside the ones that choose it.
  llvm::stable_sort(best.reuseLoops, [](UOpRef a, UOpRef b) { return Scheduler::axisId(a) < Scheduler::axisId(b); });
  for (UOpRef r : best.reuseLoops) {
    NamedAttrList attrs(r->arg.attrs);
    attrs.set("ids", Builder(m).getDenseI64ArrayAttr({id++}));
    swap[r] = ctx.get(Op::RANGE, r->type, r->src, sym::Arg{r->arg.value, attrs.getDictionary(m)});
  }
  k.ast = sym::substitute(ctx, ast, swap);
  return true;
}

} // namespace mlir::tinygrad::opt
