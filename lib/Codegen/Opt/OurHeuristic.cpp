//===- OurHeuristic.cpp - our opt choices for the vector lowering ----------===//
//
// tinygrad's CPU heuristic upcasts by 3 or 4 and unrolls reduces by 4: its
// matmul keeps 16 scalar accumulators, a quarter of what AVX-512 holds. Our
// lowering packs lanes into vector registers, so a matmul-shaped kernel
// (REDUCE ADD of a MUL of two loads) gets a register-blocked tile instead:
// the output axis that is contiguous in the store is upcast to 32 lanes (two
// 16-float vectors), an axis the contiguous operand does not stride over is
// upcast to 4 rows, and the reduce stays a loop innermost (no unroll), so
// each step is 2 vector loads, 4 broadcasts and 8 FMAs into 8 accumulators.
// Where B's column panel can be packed (StagePanel.cpp) the tile is 2
// vectors wide and 4-8 rows tall instead: the packed panel is read from L2,
// and fewer column vectors halve those bytes per FMA. `x @ W.T` (both
// operands contiguous along the reduce: every nn.Linear) gets dotTile, a
// block of outputs by a vector of k lanes. A direct convolution
// (the same product, its input padded) gets a vector of output channels by
// a row's pixels over a packed panel of its weights (channelConvTile)
// where the registers and the L2 hold it, else its own tile (convTile; one for
// maps whose width is not a multiple of 8, smallMapConvTile, and one for
// odd maps, oddMapConvTile); a conv whose sum is masked per output pixel
// (fused into the next op's padding) gets them with the mask hoisted out
// of the reduce (hoistReduceMask). A product whose operands each miss an
// output axis the other reads, neither contiguous along the store (a conv's
// input or weight gradient), gets their outer product (outerProductTile;
// tapRowTile where one operand's own axes are only a window's taps). Long
// float reduces independent accumulators, large elementwise kernels 16
// lanes. The THREAD split follows as in tinygrad. Everything else keeps
// tinygrad's choices (its structure, so its outputs bit for bit where they
// matched), except that a reduce those choices unroll whole also gets
// lanes of outputs (verticalFold), which keeps every output's sum order.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Opts.h"

#include "tinygrad/Symbolic/Rewrite.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tinygrad::opt {
using sym::Op;
using sym::UOpRef;
using tg::AxisType;

namespace {
/// Wide tiles pay for themselves only on kernels with real work: below
/// this many points of the iteration space they mostly add compile time
/// (every lane is emitted), so small kernels keep tinygrad's choices.
constexpr int64_t kMinWork = 1 << 16;
int64_t work(const Scheduler &k) {
  int64_t p = 1;
  for (UOpRef r : k.rngs())
    p *= Scheduler::size(r).value_or(1 << 20);
  return p;
}

/// An ungated INDEX's index; null when gated (its lanes need masks).
UOpRef idxOf(UOpRef bidx) {
  bool gated;
  UOpRef i = indexOf(bidx, &gated);
  return gated || i == bidx ? nullptr : i;
}
/// Coefficient of `rng` as a term of the ADD-chain `idx` (0 if absent or
/// not affine in it there).
int64_t strideOf(sym::Context &ctx, UOpRef idx, UOpRef rng) {
  llvm::SmallVector<UOpRef, 8> terms;
  ctx.splitUOp(idx, Op::ADD, terms);
  for (UOpRef c : terms) {
    if (c == rng)
      return 1;
    if (c->op == Op::MUL && c->src[0] == rng && c->src[1]->op == Op::CONST)
      return (int64_t)c->src[1]->val().i;
  }
  return 0;
}
/// How an operand's index moves along each range, measured: the index
/// evaluated at an interior point of the iteration space and one step
/// further along each range. A padded window's index is a nest of `//` and
/// `%` (a strided window's taps, the padding's shift wrapped around the
/// buffer) that tinygrad simplifies only after the opts, lane by lane, given
/// the gate; inside the map it is affine, so the steps are its strides. 0
/// for a range the index does not use (or where it does not fold).
struct IndexStrides {
  llvm::DenseMap<UOpRef, int64_t> of;
  int64_t operator()(UOpRef r) const { return of.lookup(r); }
};
IndexStrides measureStrides(sym::Context &ctx, UOpRef idx, llvm::ArrayRef<UOpRef> rngs) {
  IndexStrides out;
  llvm::DenseMap<UOpRef, UOpRef> at;
  auto point = [&](UOpRef r, int64_t step) {
    return ctx.constInt((Scheduler::size(r).value_or(1) - 1) / 2 + step, r->dtype);
  };
  auto eval = [&]() -> std::optional<int64_t> {
    UOpRef v = sym::graphRewrite(ctx, sym::substitute(ctx, idx, at), sym::symMatcher());
    if (!v || v->op != Op::CONST || !v->val().isInt())
      return std::nullopt;
    return (int64_t)v->val().i;
  };
  for (UOpRef r : rngs)
    at[r] = point(r, 0);
  auto base = eval();
  if (!base)
    return out;
  for (UOpRef r : rngs) {
    if (Scheduler::size(r).value_or(1) < 2)
      continue;
    at[r] = point(r, 1);
    if (auto v = eval())
      out.of[r] = *v - *base;
    at[r] = point(r, 0);
  }
  return out;
}
/// A range's identity across opts: its whole ids tuple (the parts of a
/// split range share the first id).
using AxisKey = Attribute;
AxisKey axisKey(UOpRef r) { return r->arg.attrs ? r->arg.attrs.get("ids") : Attribute(); }
int axisWithId(const Scheduler &k, AxisKey id) {
  auto rs = k.rngs();
  for (unsigned i = 0; i < rs.size(); ++i)
    if (axisKey(rs[i]) == id)
      return i;
  return -1;
}

/// The loads (INDEX nodes) an operand's value reads, not through their
/// indices; none when it reads a reduce's result.
std::optional<llvm::SmallVector<UOpRef, 4>> operandLoads(UOpRef operand) {
  llvm::SmallVector<UOpRef, 4> loads;
  llvm::SmallVector<UOpRef, 16> stack{operand};
  llvm::DenseSet<UOpRef> seen;
  while (!stack.empty()) {
    UOpRef u = stack.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (u->op == Op::REDUCE)
      return std::nullopt;
    if (u->op == Op::INDEX) // its index is not part of the value
      loads.push_back(u);
    else
      stack.append(u->src.begin(), u->src.end());
  }
  return loads;
}
/// The one load an operand of a product reads: the operand itself, or the
/// only INDEX under an elementwise expression of it (a padded window's
/// WHERE(valid, load, 0); a weight tinygrad never realized, such as
/// Tensor.uniform's `rand * scale + low` that an unrealized model's every
/// conv recomputes from the random buffer). The tile depends on how that
/// load strides over the ranges, not on what is done to the value. Null
/// when the operand reads no load, several, or a reduce's result.
UOpRef soleLoad(UOpRef operand) {
  auto loads = operandLoads(operand);
  return loads && loads->size() == 1 ? loads->front() : nullptr;
}

/// Independent accumulators a tile needs to keep both FMA pipes busy
/// through the 4-cycle FMA latency.
constexpr int64_t kMinAccumulators = 8;

/// A kernel of one STORE of REDUCE ADD(MUL(a, b)) over one or more reduce
/// ranges (a CAST between them allowed): its REDUCE, MUL and STORE.
struct ReduceOfProduct {
  UOpRef red, mul, store;
};
/// With `largest`, a kernel may hold several such reduces (a residual
/// block's convolution and its fused 1x1 downsample, summed into one
/// output): the one over the most points is matched.
std::optional<ReduceOfProduct> matchReduceOfProduct(const Scheduler &k, bool largest = false) {
  auto reds = k.reduceOps();
  if (reds.empty() || (reds.size() != 1 && !largest) || k.ast->src.size() != 1 || k.ast->src[0]->op != Op::END)
    return std::nullopt;
  auto points = [](UOpRef r) {
    int64_t n = 1;
    for (UOpRef x : r->src.drop_front())
      n *= Scheduler::size(x).value_or(1);
    return n;
  };
  // Side by side (their sums added), not one reducing over another.
  for (UOpRef r : reds) {
    bool nested = false;
    forEachNode(r->src[0], [&](UOpRef u) { return !(nested = u->op == Op::REDUCE); });
    if (nested)
      return std::nullopt;
  }
  UOpRef red = *llvm::max_element(reds, [&](UOpRef a, UOpRef b) { return points(a) < points(b); });
  auto kind = red->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(red->arg.attrs.get("kind"))
                             : tg::ReduceKindAttr();
  if (!kind || kind.getValue() != tg::ReduceKind::Add || red->src.size() < 2)
    return std::nullopt;
  UOpRef mul = red->src[0];
  if (mul->op == Op::CAST)
    mul = mul->src[0];
  UOpRef store = k.ast->src[0]->src[0];
  if (mul->op != Op::MUL || store->op != Op::STORE || store->src[0]->op != Op::INDEX)
    return std::nullopt;
  return ReduceOfProduct{red, mul, store};
}

/// The register tile for C[m,n] += A[m,k] * B[k,n], `colVectors` vector
/// registers of columns wide; false when the kernel is not that shape or
/// the tile does not fit (nothing applied then).
bool matmulTile(Scheduler &k, int64_t colVectors) {
  if (work(k) < 16 * kMinWork)
    return false;
  auto m = matchReduceOfProduct(k);
  if (!m || m->red->src.size() != 2)
    return false;
  // An operand may be an elementwise expression of its load (a weight
  // tinygrad never realized, `rand * scale + low`): the tile depends on how
  // the load strides, not on what is done to its value.
  UOpRef mul = m->mul, store = m->store, aLoad = soleLoad(mul->src[0]), bLoad = soleLoad(mul->src[1]);
  if (!aLoad || !bLoad)
    return false;
  UOpRef sIdx = idxOf(store->src[0]), aIdx = idxOf(aLoad), bIdx = idxOf(bLoad);
  if (!sIdx || !aIdx || !bIdx)
    return false;
  auto rs = k.rngs();
  AxisKey nId, mId;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    if (Scheduler::axisType(r) != AxisType::Weak)
      continue;
    int64_t sa = strideOf(k.ctx, aIdx, r), sb = strideOf(k.ctx, bIdx, r);
    if (!nId && strideOf(k.ctx, sIdx, r) == 1 && (sa == 1) != (sb == 1) && (sa == 0 || sb == 0))
      nId = axisKey(r);
  }
  if (!nId)
    return false;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    if (axisKey(r) == nId || Scheduler::axisType(r) != AxisType::Weak)
      continue;
    int64_t sa = strideOf(k.ctx, aIdx, r), sb = strideOf(k.ctx, bIdx, r);
    if ((sa == 0) != (sb == 0) && strideOf(k.ctx, sIdx, r) > 1) {
      mId = axisKey(r);
      break;
    }
  }
  if (!mId)
    return false;
  auto sizeOf = [&](AxisKey id) {
    int a = axisWithId(k, id);
    return a < 0 ? int64_t(1) : Scheduler::size(k.rngs()[a]).value_or(1);
  };
  // As many rows (8, 6, 4 or 2) as keep the accumulators, the column vectors
  // and a row's broadcast within the register file. Packed on AVX-512, 8x2
  // zmm (16 accumulators) measured 1.2-1.3x faster than 4x2 at 1 thread:
  // 8 accumulators barely cover two FMA pipes' latency. Unpacked, four column
  // vectors: 2x4 ymm on AVX2 (4x4 needs 21 of its 16 registers and spilled
  // in the k loop; with the vector lowering 2x4 measured 1.3-1.5x faster at
  // 1 thread and 1.4x at 2 here), 6x4 or 4x4 zmm on AVX-512. Packed, two:
  // 4x2 ymm measured 1.1-1.2x faster than 2x4 at 1 thread and 1.3x at 2.
  int64_t width = k.target.vectorBytes / 4, cols = colVectors * width;
  if (sizeOf(nId) % cols != 0)
    return false;
  int64_t rows = 0;
  for (int64_t r : {8, 6, 4, 2})
    if (sizeOf(mId) % r == 0 && colVectors * r + colVectors + 1 <= (int64_t)k.target.vectorRegs) {
      rows = r;
      break;
    }
  if (!rows || rows * colVectors < kMinAccumulators)
    return false;
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  // UPCAST is at most 16 per opt: wider column blocks take two.
  bool ok = k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, nId), std::min<int64_t>(cols, 16)});
  if (ok && cols > 16)
    ok = k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, nId), cols / 16});
  if (!ok || !k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, mId), rows})) {
    k.ast = savedAst;
    k.applied = savedApplied;
    return false;
  }
  return true;
}
} // namespace

/// Upcasts axis `a` by `na`, then axis `b` by `nb`; both or neither (the
/// kernel as it was when either cannot be).
static bool upcastPair(Scheduler &k, AxisKey a, int64_t na, AxisKey b, int64_t nb) {
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  if (k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, a), na}) &&
      k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, b), nb}))
    return true;
  k.ast = savedAst;
  k.applied = savedApplied;
  return false;
}

/// UNROLL of the reduce axis `id` by `amount` (its index among the
/// unrollable dims, as the opt counts them).
static bool unrollAxis(Scheduler &k, AxisKey id, int64_t amount) {
  auto un = k.unrollableDims();
  auto pos = llvm::find(un, (unsigned)axisWithId(k, id));
  return pos != un.end() && k.applyOpt({tg::OptOps::Unroll, (int64_t)(pos - un.begin()), amount});
}

/// convTile's tile for a map whose width is not a multiple of 8 (ResNet's
/// 28 and 14), or an input strided over x: out[o, y, x] for a vector's
/// width of channels o by a block of the map, the input-channel reduce c
/// unrolled by 4 instead of the taps. The weights of a vector of channels
/// are a strided gather (o strides by the whole window), so the block is
/// as large as the registers allow: 4 rows by 4 columns (16 accumulators
/// with AVX-512) where the map divides by 4; a 14-wide map is padded to 16
/// columns (PADTO, the padding gated) for 2 rows by 4, unless the input is
/// strided over x (its 4 columns would be gathers too: 2 by 2 then).
/// Measured on ResNet-18's 3x3 convs at batch 1, 1 thread, CPU time
/// (tinygrad's C 8-35 ms): 128 channels on 28x28 4.9 -> 1.6 ms for 4x4
/// against 2x2 (2x4: 2.5), its residual tail with the downsample 5.3 ->
/// 1.9, 64 -> 128 stride 2 onto 28x28 5.7 -> 3.3; 256 channels on 14x14
/// 4.9 -> 3.2 ms padded to 2x4 (4x4 padded both ways 3.7; 7 columns, 13),
/// its residual tail 6.2 -> 3.6. An odd map (7x7) gets oddMapConvTile.
static bool smallMapConvTile(Scheduler &k, const IndexStrides &in, const IndexStrides &w, AxisKey xId, AxisKey oId, int64_t oLanes,
                             int64_t xStride, llvm::ArrayRef<UOpRef> rs) {
  int64_t xSize = Scheduler::size(rs[axisWithId(k, xId)]).value_or(1);
  if (xSize % 2 != 0)
    return false;
  // y: the row of the map, strided over by the input, not by the weights.
  AxisKey yId;
  int64_t ySize = 0;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    if (axisKey(r) != xId && axisKey(r) != oId && Scheduler::axisType(r) == AxisType::Weak &&
        in(r) > 1 && w(r) == 0 && Scheduler::size(r).value_or(1) % 2 == 0) {
      yId = axisKey(r);
      ySize = Scheduler::size(r).value_or(1);
      break;
    }
  }
  // c: the input-channel reduce, strided over by both operands, longer
  // than a window's taps.
  AxisKey cId;
  for (unsigned a : k.unrollableDims()) {
    UOpRef r = rs[a];
    int64_t n = Scheduler::size(r).value_or(0);
    if (n > 4 && n % 4 == 0 && in(r) > 1 && w(r) != 0) {
      cId = axisKey(r);
      break;
    }
  }
  if (!yId || !cId)
    return false;
  bool square4 = xSize % 4 == 0 && ySize % 4 == 0, padX = !square4 && xSize % 4 != 0 && xStride == 1;
  int64_t yLanes = square4 ? 4 : 2, xLanes = square4 || padX || xSize % 4 == 0 ? 4 : 2;
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  bool ok = k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, oId), oLanes}) &&
            (!padX || k.applyOpt({tg::OptOps::PadTo, (int64_t)axisWithId(k, xId), 4})) &&
            k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, yId), yLanes}) &&
            k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, xId), xLanes}) && unrollAxis(k, cId, 4);
  if (!ok) {
    k.ast = savedAst;
    k.applied = savedApplied;
  }
  return ok;
}

/// convTile's tile for a map of odd width (ResNet's 7x7), where
/// smallMapConvTile's 2x2 does not fit. With the input contiguous along x
/// it is what tinygrad chooses for a plain conv: the whole map upcast (at
/// most 64 lanes) and every tap of the window unrolled; tinygrad's last-
/// reduce unroll instead takes a residual block's fused 1x1 downsample
/// (its channel reduce comes last) and leaves the taps a loop, 4x slower
/// for us (ResNet-18's 512-channel block on 7x7, 42 -> 10 ms at 1 thread,
/// the plain conv's 6.3). With the input strided over x (a stride-2
/// window) the map's lanes would be gathers: a vector of output channels
/// by the row's x instead, the taps along y unrolled and the
/// input-channel reduce by 4 (256 -> 512 stride 2 on 7x7: 8.8 -> 4.1 ms,
/// tinygrad's C 6.0).
static bool oddMapConvTile(Scheduler &k, const IndexStrides &in, const IndexStrides &w, AxisKey xId, AxisKey oId,
                           int64_t oLanes, int64_t xStride, llvm::ArrayRef<UOpRef> rs) {
  int64_t xSize = Scheduler::size(rs[axisWithId(k, xId)]).value_or(0);
  if (xSize % 2 == 0 || xSize > 8)
    return false;
  // y: the map's row, strided over by the input, not by the weights.
  AxisKey yId;
  int64_t ySize = 0;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    if (axisKey(r) != xId && axisKey(r) != oId && Scheduler::axisType(r) == AxisType::Weak && in(r) > 1 &&
        w(r) == 0) {
      yId = axisKey(r);
      ySize = Scheduler::size(r).value_or(0);
      break;
    }
  }
  // The window's taps (short reduces both operands stride over) and the
  // input-channel reduce (longer, a multiple of 4).
  llvm::SmallVector<AxisKey, 2> taps;
  AxisKey rowTap, cId;
  for (unsigned a : k.unrollableDims()) {
    UOpRef r = rs[a];
    int64_t n = Scheduler::size(r).value_or(0);
    if (in(r) == 0 || w(r) == 0)
      continue;
    if (n > 1 && n <= 4) {
      taps.push_back(axisKey(r));
      if (in(r) > 1 && !rowTap) // along y: the input moves a row, not an element
        rowTap = axisKey(r);
    } else if (n > 4 && n % 4 == 0 && !cId) {
      cId = axisKey(r);
    }
  }
  if (!yId || taps.empty())
    return false;
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  bool ok;
  if (xStride == 1) {
    ok = xSize * ySize <= 64 && k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, xId), 0}) &&
         k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, yId), 0});
    for (AxisKey t : taps)
      ok = ok && unrollAxis(k, t, 0);
  } else {
    ok = rowTap && cId && k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, oId), oLanes}) &&
         k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, xId), 0}) && unrollAxis(k, rowTap, 0) &&
         unrollAxis(k, cId, 4);
  }
  if (!ok) {
    k.ast = savedAst;
    k.applied = savedApplied;
  }
  return ok;
}

/// A direct convolution's axes, out[n,o,y,x] += in[n,c,y+ky,x+kx] *
/// w[o,c,ky,kx] (a REDUCE ADD of a product of two single loads, the largest
/// where a residual tail sums two): x, contiguous in the store and strided
/// over by one operand (the input: by 1, or by a strided window's step),
/// not by the other (the weights); o, strided over by the weights only, its
/// size a multiple of `oMultiple`. Each operand's strides are measured.
struct ConvAxes {
  IndexStrides in, w;
  AxisKey xId, oId;
  int64_t xSize = 0, xStride = 0;
};
static std::optional<ConvAxes> convAxes(Scheduler &k, int64_t oMultiple) {
  auto m = matchReduceOfProduct(k, /*largest=*/true);
  if (!m || !isFloat(m->red->dtype))
    return std::nullopt;
  UOpRef aLoad = soleLoad(m->mul->src[0]), bLoad = soleLoad(m->mul->src[1]);
  if (!aLoad || !bLoad)
    return std::nullopt;
  UOpRef sIdx = idxOf(m->store->src[0]);
  UOpRef aIdx = indexOf(aLoad), bIdx = indexOf(bLoad);
  if (!sIdx || aIdx == aLoad || bIdx == bLoad)
    return std::nullopt;
  auto rs = k.rngs();
  IndexStrides sa = measureStrides(k.ctx, aIdx, rs), sb = measureStrides(k.ctx, bIdx, rs);
  ConvAxes c;
  bool aIsInput = true;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    if (Scheduler::axisType(r) != AxisType::Weak || strideOf(k.ctx, sIdx, r) != 1)
      continue;
    if ((sa(r) > 0 && sb(r) == 0) || (sb(r) > 0 && sa(r) == 0)) {
      c.xId = axisKey(r);
      c.xSize = Scheduler::size(r).value_or(1);
      aIsInput = sa(r) > 0;
      c.xStride = aIsInput ? sa(r) : sb(r);
      break;
    }
  }
  if (!c.xId)
    return std::nullopt;
  c.in = aIsInput ? sa : sb;
  c.w = aIsInput ? sb : sa;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    if (axisKey(r) != c.xId && Scheduler::axisType(r) == AxisType::Weak && strideOf(k.ctx, sIdx, r) > 1 &&
        c.w(r) != 0 && c.in(r) == 0 && Scheduler::size(r).value_or(1) % oMultiple == 0) {
      c.oId = axisKey(r);
      break;
    }
  }
  if (!c.oId)
    return std::nullopt;
  return c;
}

/// The register tile for a direct convolution, out[n,o,y,x] +=
/// in[n,c,y+ky,x+kx] * w[o,c,ky,kx] with the input load gated by its
/// padding (which keeps it from matmulTile): the output axis contiguous in
/// the store and the input (x) upcast to 8 lanes, the axis only the weights
/// stride over (o) to one vector register's width of lanes (16 with
/// AVX-512, 8 with AVX2: 8 accumulator registers), and the window's
/// taps along x (a reduce axis the input is contiguous in, of at most 4)
/// unrolled. Each step is one masked row of the input, one weight per
/// output channel and the FMAs of 8 accumulators. Measured on the bench's
/// conv2d (8x64 -> 64, 3x3, 56^2, pad 1; AVX-512): 2.3x tinygrad's tile
/// (4x4 with both taps unrolled) at 1 thread; tiles of 8x8, 8x32 and 4x16
/// lanes, or both taps unrolled, were no faster. A map whose width is not a
/// multiple of 8 gets smallMapConvTile (7 lanes of x by 16 channels was
/// 2-4x slower there than tinygrad's choices).
bool convTile(Scheduler &k) {
  if (work(k) < 16 * kMinWork)
    return false;
  // 8 x lanes by a vector's width of channels: kMinAccumulators registers.
  int64_t oLanes = k.target.vectorBytes / 4 * kMinAccumulators / 8;
  auto c = convAxes(k, oLanes);
  if (!c)
    return false;
  const IndexStrides &in = c->in, &w = c->w;
  AxisKey xId = c->xId, oId = c->oId;
  int64_t xSize = c->xSize, xStride = c->xStride;
  auto rs = k.rngs();
  if (xSize % 8 != 0 || xStride != 1)
    return smallMapConvTile(k, in, w, xId, oId, oLanes, xStride, rs) ||
           oddMapConvTile(k, in, w, xId, oId, oLanes, xStride, rs);
  // The taps along x: a short reduce axis the input is contiguous in.
  AxisKey tapId;
  for (unsigned a : k.unrollableDims()) {
    UOpRef r = rs[a];
    int64_t n = Scheduler::size(r).value_or(0);
    if (n > 1 && n <= 4 && in(r) == 1 && w(r) != 0) {
      tapId = axisKey(r);
      break;
    }
  }
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  bool ok = k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, xId), 8}) &&
            k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, oId), oLanes});
  if (ok && tapId)
    ok = unrollAxis(k, tapId, 0);
  if (!ok) {
    k.ast = savedAst;
    k.applied = savedApplied;
    return false;
  }
  return true;
}

/// The AND-terms of a boolean (nested ANDs flattened).
static void andTerms(UOpRef c, llvm::SmallVectorImpl<UOpRef> &out) {
  if (c->op == Op::AND) {
    for (UOpRef s : c->src)
      andTerms(s, out);
    return;
  }
  out.push_back(c);
}
/// The RANGEs an expression reads.
static llvm::DenseSet<UOpRef> rangesOf(UOpRef u) {
  llvm::DenseSet<UOpRef> out;
  forEachNode(u, [&](UOpRef x) {
    if (x->op == Op::RANGE)
      out.insert(x);
    return true;
  });
  return out;
}

/// A reduce whose terms are masked per output point only, REDUCE ADD(
/// WHERE(c, x, Invalid)) with c free of the reduce's ranges, is
/// WHERE(c, REDUCE ADD(x), 0): the same sum in the same order where c
/// holds, the empty sum where not. tinygrad leaves the mask inside when it
/// fuses a conv into the next op's padding (ResNet's stem, written into the
/// max pool's padded map: c is "inside the padding"), and the product
/// under the mask keeps the conv tiles from matching it. x is computed for
/// the masked points too, so every load in x whose index reads c's ranges
/// must be gated by (at least) c's terms itself. False (nothing changed)
/// when no reduce is so.
bool hoistReduceMask(Scheduler &k) {
  llvm::DenseMap<UOpRef, UOpRef> map;
  for (UOpRef red : k.reduceOps()) {
    auto kind = red->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(red->arg.attrs.get("kind"))
                               : tg::ReduceKindAttr();
    UOpRef w = red->src[0];
    if (!kind || kind.getValue() != tg::ReduceKind::Add || w->op != Op::WHERE || !w->src[2]->isInvalid())
      continue;
    UOpRef c = w->src[0];
    auto cRanges = rangesOf(c);
    if (llvm::any_of(red->src.drop_front(), [&](UOpRef r) { return r->op != Op::RANGE || cRanges.contains(r); }))
      continue;
    llvm::SmallVector<UOpRef, 8> cTerms;
    andTerms(c, cTerms);
    auto loads = operandLoads(w->src[1]);
    bool safe = loads.has_value();
    for (UOpRef ld : loads ? *loads : llvm::SmallVector<UOpRef, 4>()) {
      auto idxRanges = rangesOf(ld->src[1]);
      if (llvm::none_of(cRanges, [&](UOpRef r) { return idxRanges.contains(r); }))
        continue; // the same addresses wherever c holds or not
      UOpRef gi = ld->src[1];
      llvm::SmallVector<UOpRef, 8> gTerms;
      if (gi->op == Op::WHERE && gi->src[2]->isInvalid())
        andTerms(gi->src[0], gTerms);
      safe = safe && llvm::all_of(cTerms, [&](UOpRef t) { return llvm::is_contained(gTerms, t); });
    }
    if (!safe)
      continue;
    UOpRef inner = k.ctx.replaceSrc(red, [&] {
      llvm::SmallVector<UOpRef, 4> src(red->src.begin(), red->src.end());
      src[0] = w->src[1];
      return src;
    }());
    map[red] = k.ctx.get(Op::WHERE, red->type, {c, inner, k.ctx.constLike(red, isFloat(red->dtype) ? Scalar::fromFloat(0.0) : Scalar::fromInt(0))});
  }
  if (map.empty())
    return false;
  k.ast = sym::substitute(k.ctx, k.ast, map);
  return true;
}

/// Applies `opts` and the thread split, kept only where a panel is then
/// staged (stageReducePanel); else the kernel is left as it was.
static bool withStagedPanel(Scheduler &k, llvm::function_ref<bool()> opts, bool windowed = false) {
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  if (opts()) {
    applyThreadOpt(k);
    if (stageReducePanel(k, windowed)) {
      k.stagedPanel = windowed;
      return true;
    }
  }
  k.ast = savedAst;
  k.applied = savedApplied;
  return false;
}

/// A direct convolution as a matrix product over a packed weight panel:
/// out[o, y, x] for one vector register of output channels o by a block of
/// a row's pixels x, the taps along x unrolled, the input channels and the
/// taps along y loops. In the weights' layout (out x in x taps) a vector of
/// channels is a gather, so the panel of the block's weights is packed
/// once per block of channels (stageReducePanel: a LOCAL buffer, one row of
/// channels per reduce step) and read by every row of the map as one
/// vector load per tap; each input pixel is a broadcast (whatever the
/// stride or padding: its gate is one scalar), each step a vector FMA per
/// pixel into that pixel's accumulator (the panel's lanes are the vector
/// registers' lanes: EmitScopes laneBefore). Measured on ResNet-18 at batch
/// 1, 1 thread (per kernel, fastest of 30 steps in 3 runs interleaved with
/// the previous tiles, in brackets, on a loaded machine; PyTorch 1.13 in
/// braces): 64 channels on 56x56 1.4 ms [2.6] {1.5}, 256 on 14x14 2.3
/// [3.5] {1.5}, 512 on 7x7 2.9 [20.9] {2.9}, its residual tail with the
/// downsample 5.8 [19.4] {3.5}, 128 -> 256 stride 2 3.3 [6.2] {0.9},
/// 256 -> 512 stride 2 1.6 [4.4] {1.4}. False (nothing applied) when the
/// kernel is not that shape, its row not blocked so, or no panel is staged.
static bool channelConvTile(Scheduler &k, bool divisorBlocks = false) {
  if (work(k) < 16 * kMinWork)
    return false;
  int64_t lanes = k.target.vectorBytes / 4;
  auto c = convAxes(k, lanes);
  if (!c)
    return false;
  const IndexStrides &in = c->in, &w = c->w;
  AxisKey xId = c->xId, oId = c->oId, tapId;
  int64_t xSize = c->xSize;
  auto rs = k.rngs();
  // The taps along x: a short reduce both read, the input by one element.
  for (unsigned a : k.unrollableDims()) {
    UOpRef r = rs[a];
    int64_t n = Scheduler::size(r).value_or(0);
    if (n > 1 && n <= 8 && in(r) == 1 && w(r) != 0) {
      tapId = axisKey(r);
      break;
    }
  }
  if (!tapId)
    return false;
  // 8 pixels of a row that divides by 8 (two vectors of channels: 16
  // accumulators with AVX-512), or a short row whole, padded to 8 or 16
  // lanes (its extra lanes gated; 16 with one vector of channels). A whole row keeps
  // every tap's padding along x static per lane; blocks of a padded row
  // gate each lane on the block (ResNet's 28 padded to 32: 3.5x slower
  // than smallMapConvTile; such a row gets the divisor blocks below).
  int64_t block = xSize % 8 == 0 ? 8 : xSize < 8 ? 8 : xSize < 16 ? 16 : 0;
  // Two vectors of channels (two FMAs per broadcast pixel), else one where
  // the panel of two would not fit its half of the L2 (512 channels in).
  struct Tile {
    int64_t block, oVectors;
  };
  llvm::SmallVector<Tile, 6> tiles;
  if (block) {
    int64_t padded = (xSize + block - 1) / block * block;
    if ((xSize > block && xSize % block != 0) || (padded - xSize) * 8 > padded)
      return false;
    tiles = {{block, 2}, {block, 1}};
  } else if (divisorBlocks || xSize > 16) {
    // Else (a row longer than 16 at once, any other where no other tile
    // took the kernel), blocks of pixels that
    // divide the row (no lane padded; the taps' padding along x is gated
    // per block), by up to 4 vectors of channels, the accumulators a power
    // of two vector registers as above (16, else 8, else 4), fewest loads
    // per FMA first. LLVM legalizes a vector of any other number of
    // registers by widening it: ResNet's stem (114 = 2 * 3 * 19) in blocks
    // of 6 by 2 vectors (12 registers) assembled its broadcast pixels and
    // panel rows lane by lane through the stack (~1180 vinsertps per 84
    // FMAs); 2 pixels by 4 vectors (8) ran 7.8 -> 2.4 ms at 1 thread
    // (tinygrad's choices 20.6), its compile 260 -> 133 ms (LLVM's
    // instruction selection 179 -> 62). 32 channels on 114, 2 by 2 (4
    // registers): 3.7 -> 1.2 ms against 6 by 2. Rows of 28 in blocks of 4
    // by 4 vectors, ahead of smallMapConvTile (a vector of channels by 4x4
    // pixels, the channels unrolled by 4, its weights a gather): ResNet-18's
    // 64 -> 128 channels stride 2 onto 28x28 3.2 -> 0.9-1.0 ms at 1 thread,
    // 128 on 28x28 1.8 -> 1.4-1.6 (each side's choice timed interleaved).
    // Ahead of the other tiles, only tiles of at least kMinAccumulators.
    for (int64_t acc : {16, 8, 4})
      for (int64_t oVectors : {4, 2, 1})
        if (int64_t b = acc / oVectors;
            b >= 2 && b <= 8 && xSize % b == 0 && (divisorBlocks || acc >= kMinAccumulators))
          tiles.push_back({b, oVectors});
    llvm::sort(tiles, [](Tile a, Tile b) {
      return std::make_tuple(-a.block * a.oVectors, a.block + a.oVectors, a.block) <
             std::make_tuple(-b.block * b.oVectors, b.block + b.oVectors, b.block);
    });
  }
  int64_t oSize = Scheduler::size(rs[axisWithId(k, oId)]).value_or(0);
  for (auto [block, oVectors] : tiles) {
    // The accumulators, the panel's vectors and a broadcast pixel in registers.
    if (oSize % (oVectors * lanes) != 0 || oVectors * block + oVectors + 1 > (int64_t)k.target.vectorRegs)
      continue;
    int64_t padded = (xSize + block - 1) / block * block;
    if (withStagedPanel(k, [&, block = block, oVectors = oVectors] {
          return k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, oId), lanes}) &&
                 (oVectors == 1 || k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, oId), oVectors})) &&
                 (padded == xSize || k.applyOpt({tg::OptOps::PadTo, (int64_t)axisWithId(k, xId), block})) &&
                 k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, xId), block}) && unrollAxis(k, tapId, 0);
        }))
      return true;
  }
  return false;
}

/// A conv whose whole map is reduced in its kernel (see pooledConvTile):
/// the outer REDUCE ADD over the map holding the inner REDUCE ADD of a
/// float product (a CAST between them allowed), the kernel's only two.
struct PooledConv {
  UOpRef outer, inner, mul;
};
static std::optional<PooledConv> matchPooledConv(Scheduler &k) {
  if (work(k) < 16 * kMinWork || k.ast->src.size() != 1 || k.ast->src[0]->op != Op::END)
    return std::nullopt;
  auto reds = k.reduceOps();
  if (reds.size() != 2)
    return std::nullopt;
  auto holdsReduce = [](UOpRef r) {
    bool holds = false;
    forEachNode(r->src[0], [&](UOpRef u) { return !(holds = u->op == Op::REDUCE); });
    return holds;
  };
  UOpRef outer = holdsReduce(reds[0]) ? reds[0] : reds[1], inner = outer == reds[0] ? reds[1] : reds[0];
  auto isAdd = [](UOpRef r) {
    auto kind = r->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(r->arg.attrs.get("kind")) : tg::ReduceKindAttr();
    return kind && kind.getValue() == tg::ReduceKind::Add;
  };
  if (!holdsReduce(outer) || holdsReduce(inner) || !isAdd(outer) || !isAdd(inner) || !isFloat(inner->dtype))
    return std::nullopt;
  UOpRef mul = inner->src[0]->op == Op::CAST ? inner->src[0]->src[0] : inner->src[0];
  if (mul->op != Op::MUL)
    return std::nullopt;
  return PooledConv{outer, inner, mul};
}

/// The conv of pooledConvTile as channelConvTile tiles a plain one: a
/// vector register of output channels by the map's row unrolled (each
/// pixel its own accumulator, its input one broadcast), the taps along x
/// unrolled, and the weights of the block of channels packed into a panel
/// (stageReducePanel) that every row of the map reuses. The order of every
/// sum is tinygrad's: lanes are outputs or the pool's own pixels. False
/// (nothing applied) when the kernel is not that shape or no panel is
/// staged.
static bool pooledChannelTile(Scheduler &k) {
  auto p = matchPooledConv(k);
  if (!p)
    return false;
  UOpRef outer = p->outer, inner = p->inner, mul = p->mul;
  UOpRef aLoad = soleLoad(mul->src[0]), bLoad = soleLoad(mul->src[1]);
  UOpRef aIdx = aLoad ? indexOf(aLoad) : nullptr, bIdx = bLoad ? indexOf(bLoad) : nullptr;
  if (!aIdx || !bIdx || aIdx == aLoad || bIdx == bLoad)
    return false;
  auto rs = k.rngs();
  IndexStrides sa = measureStrides(k.ctx, aIdx, rs), sb = measureStrides(k.ctx, bIdx, rs);
  // The input reads the map (the outer reduce's ranges), the weights not.
  auto readsMap = [&](const IndexStrides &s) {
    return llvm::any_of(outer->src.drop_front(), [&](UOpRef r) { return r->op == Op::RANGE && s(r) != 0; });
  };
  if (readsMap(sa) == readsMap(sb))
    return false;
  const IndexStrides &in = readsMap(sa) ? sa : sb, &w = readsMap(sa) ? sb : sa;
  int64_t lanes = k.target.vectorBytes / 4;
  AxisKey oId, xId, tapId;
  int64_t xSize = 0;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    if (Scheduler::axisType(r) == AxisType::Weak && w(r) != 0 && in(r) == 0 &&
        Scheduler::size(r).value_or(1) % lanes == 0) {
      oId = axisKey(r);
      break;
    }
  }
  // The map's row: the pool's range the input is contiguous in, short
  // enough to be accumulators; the taps along x: the conv's short range
  // both read, the input by one element.
  for (UOpRef r : outer->src.drop_front())
    if (int64_t n = r->op == Op::RANGE ? Scheduler::size(r).value_or(0) : 0;
        n > 1 && n <= 16 && in(r) == 1 && w(r) == 0) {
      xId = axisKey(r);
      xSize = n;
    }
  for (UOpRef r : inner->src.drop_front()) {
    int64_t n = r->op == Op::RANGE ? Scheduler::size(r).value_or(0) : 0;
    if (n > 1 && n <= 8 && in(r) == 1 && w(r) != 0) {
      tapId = axisKey(r);
      break;
    }
  }
  // The accumulators, the panel's vector and a broadcast pixel in registers.
  if (!oId || !xId || !tapId || xSize + 2 > (int64_t)k.target.vectorRegs)
    return false;
  return withStagedPanel(k, [&] {
    return k.applyOpt({tg::OptOps::Upcast, (int64_t)axisWithId(k, oId), lanes}) && unrollAxis(k, xId, 0) &&
           unrollAxis(k, tapId, 0);
  });
}

/// A convolution whose whole map is reduced in the same kernel (ResNet's
/// last block: its 7x7 output average-pooled): the map's ranges belong to
/// the outer REDUCE (the pool), the conv is a REDUCE ADD of a product of
/// single loads inside it, so matchReduceOfProduct (one reduce, or side by
/// side) leaves it to tinygrad's choices, which unroll the map's x only.
/// The plain 7x7 conv's choice instead (oddMapConvTile): the map unrolled
/// whole, each pixel its own accumulator, and the window's taps unrolled:
/// ResNet-18's 512-channel tail with the pool 19 -> 6.7 ms at 1 thread
/// (tinygrad's C 19); a vector of output channels instead stays at 18-19
/// (its weights a strided gather per FMA) and the map's x alone at 27.
/// pooledChannelTile, which packs those weights, comes first (2.5 ms).
bool pooledConvTile(Scheduler &k) {
  auto p = matchPooledConv(k);
  if (!p || !soleLoad(p->mul->src[0]) || !soleLoad(p->mul->src[1]))
    return false;
  UOpRef outer = p->outer, inner = p->inner;
  // The map (the outer reduce's ranges, at most 64 points) and the taps
  // (the inner reduce's short ranges), unrolled last axis first.
  llvm::SmallVector<AxisKey, 4> keys;
  int64_t mapPoints = 1;
  for (UOpRef r : outer->src.drop_front()) {
    if (r->op != Op::RANGE)
      return false;
    mapPoints *= Scheduler::size(r).value_or(1 << 20);
    keys.push_back(axisKey(r));
  }
  for (UOpRef r : inner->src.drop_front())
    if (r->op == Op::RANGE && Scheduler::size(r).value_or(0) > 1 && Scheduler::size(r).value_or(0) <= 4)
      keys.push_back(axisKey(r));
  if (mapPoints > 64 || keys.size() == outer->src.size() - 1)
    return false;
  auto un = k.unrollableDims();
  auto rs = k.rngs();
  llvm::SmallVector<AxisKey, 4> order;
  for (unsigned a : llvm::reverse(un))
    if (llvm::is_contained(keys, axisKey(rs[a])))
      order.push_back(axisKey(rs[a]));
  if (order.size() != keys.size())
    return false;
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  for (AxisKey key : order)
    if (!unrollAxis(k, key, 0)) {
      k.ast = savedAst;
      k.applied = savedApplied;
      return false;
    }
  return true;
}

/// A reduce over an axis its input is contiguous in, of at least 256
/// elements: REDUCE(x, r) -> REDUCE(REDUCE(x[r := r_o*L + r_l], r_o), r_l)
/// with r_l an UPCAST range of L lanes. The inner REDUCE keeps L
/// independent accumulators (vector registers after packing), so the loop
/// is bound by loads, not by the latency of one add chain; the outer one
/// folds the lanes at the end. This reassociates the sum (within float
/// rounding of tinygrad's), which is why it is ours only and only for long
/// reduces; MAX is unaffected.
static void splitReduceLanes(Scheduler &k, UOpRef red, UOpRef r, int64_t lanes);
bool splitReduceAccumulators(Scheduler &k) {
  auto reds = k.reduceOps();
  if (reds.size() != 1)
    return false;
  UOpRef red = reds[0];
  auto kind = red->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(red->arg.attrs.get("kind"))
                             : tg::ReduceKindAttr();
  if (!kind || kind.getValue() == tg::ReduceKind::Mul || red->src.size() != 2 ||
      red->src[1]->op != Op::RANGE || !isFloat(red->dtype))
    return false;
  UOpRef r = red->src[1];
  auto n = Scheduler::size(r);
  if (!n || *n < 256)
    return false;
  bool contiguous = false;
  forEachNode(red->src[0], [&](UOpRef u) {
    if (u->op == Op::INDEX)
      if (UOpRef i = idxOf(u))
        contiguous = strideOf(k.ctx, i, r) == 1;
    return !contiguous;
  });
  if (!contiguous)
    return false;
  // A short kernel (a 256-element sum: its add chain is the whole run)
  // takes one register's worth: 32 lanes there doubled its compile.
  int64_t lanes = 0;
  for (int64_t l : {32, 16, 8})
    if (*n % l == 0 && (l <= k.target.vectorBytes / 4 || work(k) >= kMinWork)) {
      lanes = l;
      break;
    }
  if (!lanes)
    return false;
  k.takeUnnamedStep([lanes](Scheduler &s) {
    UOpRef red = s.reduceOps()[0];
    splitReduceLanes(s, red, red->src[1], lanes);
  });
  return true;
}

/// REDUCE(x, .., r) -> REDUCE(REDUCE(x[r := r_o*L + r_l], .., r_o), r_l),
/// r_l an UPCAST range of `lanes` (which divides r's size), the REDUCE's
/// other ranges kept on the inner one: L independent accumulators, folded
/// pairwise at the end.
static void splitReduceLanes(Scheduler &k, UOpRef red, UOpRef r, int64_t lanes) {
  int64_t n = *Scheduler::size(r);
  UOpRef rl = makeRange(k.ctx, r, lanes, k.newRangeId(), AxisType::Upcast);
  llvm::SmallVector<UOpRef, 2> rsrc(r->src.begin(), r->src.end());
  rsrc[0] = k.ctx.constLike(r->src[0], n / lanes);
  UOpRef ro = k.ctx.get(Op::RANGE, r->type, rsrc, r->arg);
  llvm::DenseMap<UOpRef, UOpRef> map{{r, k.ctx.add(k.ctx.mul(ro, k.ctx.constLike(r->src[0], lanes)), rl)}};
  UOpRef x = sym::substitute(k.ctx, red->src[0], map);
  llvm::SmallVector<UOpRef, 4> innerSrc{x};
  for (UOpRef s : red->src.drop_front())
    innerSrc.push_back(s == r ? ro : s);
  UOpRef inner = k.ctx.get(Op::REDUCE, red->type, innerSrc, red->arg);
  // The fold of our own lanes has no order to keep: it may go pairwise.
  NamedAttrList outerAttrs(red->arg.attrs);
  outerAttrs.set(kPairwiseFoldAttr, UnitAttr::get(k.ctx.getMLIRContext()));
  UOpRef outer = k.ctx.get(Op::REDUCE, red->type, {inner, rl},
                           sym::Arg{red->arg.value, outerAttrs.getDictionary(k.ctx.getMLIRContext())});
  llvm::DenseMap<UOpRef, UOpRef> top{{red, outer}};
  k.ast = sym::substitute(k.ctx, k.ast, top);
}

/// The tile for C[m,n] = sum_k A[m,k] * B[n,k] where both operands are
/// contiguous along k (`x @ W.T`, every nn.Linear of a model: the weight is
/// stored out-features by in-features), which the matmul tile cannot take:
/// no output axis is contiguous in either operand, so its column vectors
/// would be gathers. Instead the reduce is split into one vector register's
/// width of k lanes, or a narrower width that divides k (independent
/// accumulators, folded pairwise at the end)
/// and a block of m by n outputs is upcast, so each k step loads one vector
/// of each of the block's A rows and B rows and does rows x cols FMAs: an
/// operand row is reused across the other operand's block instead of
/// reloaded per output (splitReduceAccumulators alone: 2 loads per FMA).
/// An operand may be any elementwise expression of loads (RMSNorm's
/// `x * (1/rms[m]) * g[k]` fused into the projection): every load that
/// reads along k must be contiguous there, and none may read along both
/// block axes (so each is shared by a whole row or column of the block).
static bool dotTile(Scheduler &k) {
  if (work(k) < 16 * kMinWork)
    return false;
  auto m = matchReduceOfProduct(k);
  if (!m || !isFloat(m->red->dtype) || llvm::any_of(m->red->src.drop_front(), [](UOpRef x) {
        return x->op != Op::RANGE;
      }))
    return false;
  // The lanes are the last reduce range (a head-split k, `k%32 + k//32*D`,
  // is two ranges by now: the inner one is contiguous).
  UOpRef r = m->red->src.back();
  int64_t n = Scheduler::size(r).value_or(0), points = 1;
  for (UOpRef x : m->red->src.drop_front())
    points *= Scheduler::size(x).value_or(1);
  // One vector register's width of k lanes, else the widest narrower one
  // (8 or 4) that divides k: a conv's weight gradient reduces over a row of
  // the map (20 or 24 pixels), which no wider register divides; its
  // alternative, tinygrad's choices, unrolls the row into one accumulator's
  // serial FMA chain (mnist's 5x5 weight gradient: 20 dependent FMAs per
  // step, latency-bound).
  int64_t lanes = 0;
  for (int64_t l = k.target.vectorBytes / 4; l >= 4 && !lanes; l /= 2)
    if (n >= 2 * l && n % l == 0)
      lanes = l;
  if (!lanes || points < 4 * lanes)
    return false;
  UOpRef sIdx = idxOf(m->store->src[0]);
  if (!sIdx)
    return false;
  auto rs = k.rngs();
  // The step of `idx` along `along` from its first point (the others at an
  // interior point): a head-split index (k%32 + k//32*D) is linear inside a
  // lane block, but not across the middle of the range.
  auto stepFromStart = [&](UOpRef idx, UOpRef along) -> std::optional<int64_t> {
    llvm::DenseMap<UOpRef, UOpRef> at;
    for (UOpRef x : rs)
      at[x] = k.ctx.constInt(x == along ? 0 : (Scheduler::size(x).value_or(1) - 1) / 2, x->dtype);
    auto eval = [&]() -> std::optional<int64_t> {
      UOpRef v = sym::graphRewrite(k.ctx, sym::substitute(k.ctx, idx, at), sym::symMatcher());
      if (!v || v->op != Op::CONST || !v->val().isInt())
        return std::nullopt;
      return (int64_t)v->val().i;
    };
    auto a = eval();
    at[along] = k.ctx.constInt(1, along->dtype);
    auto b = eval();
    if (!a || !b)
      return std::nullopt;
    return *b - *a;
  };
  // The loads that read along k, as the set of output ranges each uses.
  llvm::SmallVector<llvm::DenseSet<UOpRef>, 4> readers;
  auto loads = operandLoads(m->mul);
  if (!loads)
    return false;
  for (UOpRef u : *loads) {
    UOpRef idx = idxOf(u);
    if (!idx)
      return false;
    llvm::DenseSet<UOpRef> uses;
    forEachNode(idx, [&](UOpRef x) {
      if (x->op == Op::RANGE)
        uses.insert(x);
      return true;
    });
    if (uses.contains(r)) {
      if (stepFromStart(idx, r) != 1)
        return false;
      readers.push_back(std::move(uses));
    }
  }
  if (readers.size() < 2)
    return false;
  // Two output axes, each read by some operand load, never by the same one.
  int64_t rowsWanted = k.target.vectorRegs >= 32 ? 4 : 2, colsWanted = 4;
  auto readBy = [&](UOpRef x) {
    return llvm::count_if(readers, [&](const llvm::DenseSet<UOpRef> &u) { return u.contains(x); });
  };
  auto together = [&](UOpRef a, UOpRef b) {
    return llvm::any_of(readers, [&](const llvm::DenseSet<UOpRef> &u) { return u.contains(a) && u.contains(b); });
  };
  // The columns: contiguous in the store where one is and a row axis is
  // left for it (a conv's weight gradient stores its batch blocks
  // contiguously, which both operands read: its channels are the block).
  auto rowFor = [&](UOpRef nR) -> AxisKey {
    for (unsigned a : k.upcastableDims()) {
      UOpRef x = rs[a];
      if (x != nR && Scheduler::axisType(x) == AxisType::Weak && Scheduler::size(x).value_or(0) % rowsWanted == 0 &&
          readBy(x) && !together(x, nR))
        return axisKey(x);
    }
    return AxisKey();
  };
  AxisKey nId, mId;
  for (unsigned a : k.upcastableDims()) {
    UOpRef x = rs[a];
    if (Scheduler::axisType(x) != AxisType::Weak || Scheduler::size(x).value_or(0) % colsWanted != 0 || !readBy(x))
      continue;
    AxisKey row = rowFor(x);
    if (row && (!nId || strideOf(k.ctx, sIdx, x) == 1)) {
      nId = axisKey(x);
      mId = row;
    }
  }
  if (!nId || !mId)
    return false;
  if (!upcastPair(k, nId, colsWanted, mId, rowsWanted))
    return false;
  {
    // A window's taps an operand walks as it walks k (x + kx: a conv weight
    // gradient's input) are outputs too: all of them as lanes, where their
    // accumulators leave 8 registers free; their loads overlap, so one row
    // of the input serves every tap. Each output's sum is unchanged (bit-
    // identical): beautiful_mnist's 5x5 one (r_4_20_20_32_32_5_5_128) 130
    // -> 88 ms at 2 threads, the 3x3 one (r_4_8_8_64_32_3_3_128) 18 -> 10.
    auto rs2 = k.rngs();
    UOpRef rr = m->red->src.back();
    for (unsigned a : k.upcastableDims()) {
      UOpRef x = rs2[a];
      int64_t t = Scheduler::size(x).value_or(0);
      if (Scheduler::axisType(x) != AxisType::Weak || t < 2 || t > 8 || readBy(x) != 1)
        continue;
      bool shifts = false;
      for (UOpRef u : *loads)
        if (UOpRef idx = idxOf(u))
          shifts |= strideOf(k.ctx, idx, x) == 1 && strideOf(k.ctx, idx, rr) == 1;
      int64_t regs = colsWanted * rowsWanted * t * lanes / (k.target.vectorBytes / 4);
      if (shifts && regs + 8 <= (int64_t)k.target.vectorRegs) {
        k.applyOpt({tg::OptOps::Upcast, (int64_t)a, t});
        break;
      }
    }
  }
  k.takeUnnamedStep([lanes](Scheduler &s) {
    UOpRef red = s.reduceOps()[0];
    splitReduceLanes(s, red, red->src.back(), lanes);
  });
  return true;
}

/// A product whose one operand is costly (transcendentals: attention's
/// scores, q with its rotary embedding computed from the positions, sin per
/// element) and independent of the output axes nested inside its own (the
/// keys): the whole reduce (a head's dims, one or two vector registers)
/// becomes lanes, folded pairwise, so that operand is one vector per outer
/// point, emitted at the depth of its ranges (outside the key loop) instead
/// of once per key; the store-contiguous inner axis is upcast by 4.
static void reduceToLanes(Scheduler &k);
static bool sharedOperandTile(Scheduler &k) {
  if (work(k) < kMinWork)
    return false;
  auto m = matchReduceOfProduct(k);
  if (!m || !isFloat(m->red->dtype))
    return false;
  // (q's rotary pairs, d//2 and d%2, have split the head's dims in two.)
  int64_t lanes = k.target.vectorBytes / 4, n = 1;
  for (UOpRef x : m->red->src.drop_front()) {
    if (x->op != Op::RANGE)
      return false;
    n *= Scheduler::size(x).value_or(1 << 20);
  }
  if (n < lanes || n % lanes != 0 || n > 2 * lanes)
    return false;
  auto costly = [](UOpRef x) {
    bool c = false;
    forEachNode(x, [&](UOpRef u) { return !(c = u->op == Op::SIN || u->op == Op::EXP2 || u->op == Op::LOG2); });
    return c;
  };
  bool c0 = costly(m->mul->src[0]), c1 = costly(m->mul->src[1]);
  if (c0 == c1)
    return false;
  llvm::DenseSet<UOpRef> used;
  forEachNode(m->mul->src[c0 ? 0 : 1], [&](UOpRef u) {
    if (u->op == Op::RANGE)
      used.insert(u);
    return true;
  });
  // Loops nest in axis order: every output loop the operand does not use
  // must be inside every one it does.
  auto rs = k.rngs();
  int lastUsed = -1, firstFree = -1;
  for (unsigned i = 0; i < rs.size(); ++i) {
    if (Scheduler::axisType(rs[i]) == AxisType::Reduce)
      continue;
    if (used.contains(rs[i]))
      lastUsed = i;
    else if (firstFree < 0)
      firstFree = i;
  }
  if (firstFree < 0 || firstFree < lastUsed)
    return false;
  UOpRef sIdx = idxOf(m->store->src[0]);
  if (!sIdx)
    return false;
  UOpRef savedAst = k.ast;
  auto savedApplied = k.applied;
  for (unsigned a : k.upcastableDims())
    if (!used.contains(rs[a]) && strideOf(k.ctx, sIdx, rs[a]) == 1 && Scheduler::size(rs[a]).value_or(0) % 4 == 0) {
      if (!k.applyOpt({tg::OptOps::Upcast, (int64_t)a, 4})) {
        k.ast = savedAst;
        k.applied = savedApplied;
        return false;
      }
      break;
    }
  // An UnnamedStep: BEAM's candidates around this kernel keep the lanes
  // (their values: test_heuristic_steps_values.py's attention scores).
  k.takeUnnamedStep([](Scheduler &s) { reduceToLanes(s); });
  return true;
}

/// REDUCE(x, r..) -> REDUCE(x[r := r_l ..], r_l ..), each r_l an UPCAST
/// range of r's size, folded pairwise: the whole reduce as lanes.
static void reduceToLanes(Scheduler &k) {
  UOpRef red = k.reduceOps()[0];
  llvm::DenseMap<UOpRef, UOpRef> map;
  llvm::SmallVector<UOpRef, 4> src{nullptr};
  for (UOpRef x : red->src.drop_front())
    src.push_back(map[x] = makeRange(k.ctx, x, *Scheduler::size(x), k.newRangeId(), AxisType::Upcast));
  src[0] = sym::substitute(k.ctx, red->src[0], map);
  NamedAttrList attrs(red->arg.attrs);
  attrs.set(kPairwiseFoldAttr, UnitAttr::get(k.ctx.getMLIRContext()));
  UOpRef folded = k.ctx.get(Op::REDUCE, red->type, src,
                            sym::Arg{red->arg.value, attrs.getDictionary(k.ctx.getMLIRContext())});
  llvm::DenseMap<UOpRef, UOpRef> top{{red, folded}};
  k.ast = sym::substitute(k.ctx, k.ast, top);
}

/// Elementwise: the output axis contiguous in the store upcast to 16 lanes
/// (one AVX-512 vector of floats) instead of tinygrad's 4.
bool wideElementwise(Scheduler &k) {
  if (work(k) < kMinWork || !k.reduceOps().empty() || k.ast->src.size() != 1 || k.ast->src[0]->op != Op::END)
    return false;
  UOpRef store = k.ast->src[0]->src[0];
  if (store->op != Op::STORE || store->src[0]->op != Op::INDEX)
    return false;
  UOpRef sIdx = idxOf(store->src[0]);
  if (!sIdx)
    return false;
  auto rs = k.rngs();
  for (unsigned a : k.upcastableDims())
    if (strideOf(k.ctx, sIdx, rs[a]) == 1 && *Scheduler::size(rs[a]) % 16 == 0 &&
        *Scheduler::size(rs[a]) >= 64)
      return k.applyOpt({tg::OptOps::Upcast, (int64_t)a, 16});
  return false;
}

/// Whether no load other than through `store` walks `r` with an affine
/// stride other than one: it moves by one element, not at all, or not
/// affinely (a pooled window's `r // 2`, whose lanes the emitter folds to
/// constant offsets one by one, given the gate).
bool noLoadStridesAlong(Scheduler &k, UOpRef store, UOpRef r) {
  bool ok = true;
  forEachNode(k.ast, [&](UOpRef u) {
    if (u->op == Op::INDEX && u != store) {
      int64_t s = strideOf(k.ctx, indexOf(u), r);
      ok = s == 0 || s == 1;
    }
    return ok;
  });
  return ok;
}

/// After tinygrad's choices: a reduce they unrolled whole (its lanes folded
/// into each output one by one, a horizontal chain per output) also gets
/// the store-contiguous output axis upcast by 8 (or 4), so the fold runs
/// over vectors of outputs: each output still sums in tinygrad's order,
/// and the emitter folds lane c of every output at once, one vertical op
/// per reduce lane instead of a serial chain of extracts (clang reaches
/// the same by unrolling tinygrad's C and vectorizing across outputs).
/// cumsum_1d (16 outputs, a 16-wide masked window each): 0.45-0.55x ->
/// 1.25-1.6x tinygrad in four bench runs; 16 lanes instead of 8 were no
/// faster and took twice as long to compile. Not where a load walks the
/// output axis with a stride: folding across outputs would then transpose
/// their inputs lane by lane (layernorm's r_4_16, rows of 16: LLVM built
/// 64-lane shuffles, 0.88x tinygrad and 12 ms of instruction selection).
/// A load whose index is not affine in the axis is no transpose: the max
/// pool's backward in beautiful_mnist (a 3x3 window of `x // 2` taps)
/// 93 -> 36 ms at 1 thread with 4 lanes of its row (scalarized: its loads
/// are gated gathers), tinygrad's C 45 ms; with its whole 20-pixel row as
/// lanes (a row of at most 32 that 8 does not divide, in a kernel of real
/// work) 43 -> 8 ms at 1 thread and 46 -> 14 at 2, for 55 ms more compile
/// (117 -> 172).
bool verticalFold(Scheduler &k) {
  if (k.reduceOps().size() != 1 || k.ast->src.size() != 1 || k.ast->src[0]->op != Op::END)
    return false;
  auto rs = k.rngs();
  bool unrolled = false;
  for (UOpRef r : rs) {
    AxisType t = Scheduler::axisType(r);
    if (t == AxisType::Reduce || t == AxisType::Upcast)
      return false; // a reduce loop is left, or an output axis is already lanes
    unrolled |= t == AxisType::Unroll;
  }
  UOpRef store = k.ast->src[0]->src[0];
  if (!unrolled || store->op != Op::STORE || store->src[0]->op != Op::INDEX)
    return false;
  UOpRef sIdx = idxOf(store->src[0]);
  if (!sIdx)
    return false;
  for (unsigned a : k.upcastableDims()) {
    int64_t n = Scheduler::size(rs[a]).value_or(0);
    if (Scheduler::axisType(rs[a]) != AxisType::Weak || strideOf(k.ctx, sIdx, rs[a]) != 1 ||
        !noLoadStridesAlong(k, store->src[0], rs[a]))
      continue;
    if (work(k) >= kMinWork && n > 8 && n % 8 != 0 && n % 4 == 0 && n <= 32)
      return k.applyOpt({tg::OptOps::Upcast, (int64_t)a, 4}) && k.applyOpt({tg::OptOps::Upcast, (int64_t)a, n / 4});
    for (int64_t w : {8, 4})
      if (n % w == 0)
        return k.applyOpt({tg::OptOps::Upcast, (int64_t)a, w});
  }
  return false;
}

/// outerProductTile's tile where one operand reads no output axis of 8 of
/// its own, only a window's taps: a weight gradient whose input has one
/// channel (beautiful_mnist's first conv, dW[o, 0, ky, kx] summed over
/// its batch blocks and map: r_2_24_24_32_5_5_256). A vector of the other
/// operand's own axis `own` (a register's lanes) by every value of the
/// longest tap axis only the first reads (the innermost among equals), one
/// accumulator register per tap, the tap values broadcast: 50 -> 16 ms at
/// 2 threads, against tinygrad's choices (4 output channels, the row
/// unrolled into one chain). False (nothing applied) where no such tap axis
/// or the lanes do not divide `own`.
static bool tapRowTile(Scheduler &k, const llvm::DenseSet<UOpRef> &readA, const llvm::DenseSet<UOpRef> &readB,
                       AxisKey own, int64_t ownSize, bool ownIsA) {
  int64_t lanes = k.target.vectorBytes / 4, tapSize = 0;
  AxisKey tap;
  auto rs = k.rngs();
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    int64_t n = Scheduler::size(r).value_or(0);
    bool onlyOther = ownIsA ? readB.contains(r) && !readA.contains(r) : readA.contains(r) && !readB.contains(r);
    if (Scheduler::axisType(r) != AxisType::Reduce && onlyOther && n >= 2 && n < 8 && n >= tapSize) {
      tap = axisKey(r);
      tapSize = n;
    }
  }
  if (!tap || ownSize % lanes != 0 || 2 * tapSize > (int64_t)k.target.vectorRegs ||
      !upcastPair(k, tap, tapSize, own, lanes))
    return false;
  applyThreadOpt(k);
  return true;
}

/// A reduce of a product whose operands each miss an output axis the other
/// reads, C[i,j,..] += A[i,..,k] * B[j,..,k], neither operand contiguous
/// along the store's axis, so no matmul or conv tile matched: a
/// convolution's input gradient (the weights do not read the batch, the
/// output gradient's window does not read the input channel, both gather
/// along the map). tinygrad's choices upcast both by 4 and unroll a window
/// row; an 8x8 outer product with the reduce a loop loads 8 + 8 values per
/// 64 FMAs, the reduces loops as tinygrad nests them (the channels' sum per
/// window tap). Better still, 8 of one axis by 16 lanes of the other over a
/// panel of the operand those lanes gather (a windowed panel: the weights'
/// tap is no affine form of the ranges), one vector load and 8 broadcasts
/// per 128 FMAs. beautiful_mnist's 5x5 conv input gradient at batch 512,
/// one thread, interleaved: 666 (tinygrad's 4x4 with its unroll) -> 339
/// (8x8; 16x4 337, 8x4 381) -> 118-122 ms (8 x 16 over the panel;
/// tinygrad's C 1113 ms).
static bool outerProductTile(Scheduler &k) {
  if (work(k) < 16 * kMinWork || k.ast->src.size() != 1 || k.ast->src[0]->op != Op::END)
    return false;
  // The product: the one REDUCE ADD of a MUL, reducing no other reduce; any
  // other reduce sums it (a padded window's taps, each gated, over the
  // channels' sum), so the tile's lanes are outputs and every sum keeps
  // tinygrad's order.
  std::optional<ReduceOfProduct> m;
  for (UOpRef red : k.reduceOps()) {
    auto kind = red->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(red->arg.attrs.get("kind"))
                               : tg::ReduceKindAttr();
    if (!kind || kind.getValue() != tg::ReduceKind::Add || !isFloat(red->dtype))
      return false;
    UOpRef mul = red->src[0]->op == Op::CAST ? red->src[0]->src[0] : red->src[0];
    if (mul->op != Op::MUL)
      continue;
    bool nested = false;
    forEachNode(mul, [&](UOpRef u) { return !(nested = u->op == Op::REDUCE); });
    if (m || nested)
      return false;
    m = ReduceOfProduct{red, mul, k.ast->src[0]->src[0]};
  }
  if (!m || m->store->op != Op::STORE || m->store->src[0]->op != Op::INDEX)
    return false;
  for (UOpRef red : k.reduceOps()) {
    bool sums = red == m->red;
    forEachNode(red->src[0], [&](UOpRef u) { return !(sums |= u == m->red); });
    if (!sums)
      return false;
  }
  UOpRef sIdx = idxOf(m->store->src[0]);
  if (!sIdx)
    return false;
  llvm::DenseSet<UOpRef> readA = rangesOf(m->mul->src[0]), readB = rangesOf(m->mul->src[1]);
  auto rs = k.rngs();
  // An operand walking the store's axis contiguously is a matmul's or a
  // conv's, unless that axis is no multiple of the tile's 8 lanes: a weight
  // gradient's store is contiguous along the window's taps (3 or 5, or 9
  // where ky and kx merge), which its input walks too, and no vector fits
  // there. beautiful_mnist's 3x3
  // one over the whole batch (r_512_6_6_64_64_3_3, a 6-pixel row no vector
  // divides, so no dotTile either): tinygrad's choices, the taps upcast and
  // the row unrolled, 51 ms at 2 threads; 8 output by 8 input channels 21-35
  // ms, 13 ms with the 16 by 16 tile below).
  bool contiguous = false;
  forEachNode(m->mul, [&](UOpRef u) {
    if (u->op == Op::INDEX)
      for (UOpRef r : rs)
        contiguous |= strideOf(k.ctx, sIdx, r) == 1 && strideOf(k.ctx, indexOf(u), r) == 1 &&
                      Scheduler::size(r).value_or(0) % 8 == 0;
    return !contiguous;
  });
  if (contiguous)
    return false;
  // The largest output axis only A (only B) reads, a multiple of 8.
  AxisKey onlyA, onlyB;
  int64_t sizeA = 0, sizeB = 0;
  for (unsigned a : k.upcastableDims()) {
    UOpRef r = rs[a];
    int64_t n = Scheduler::size(r).value_or(0);
    if (Scheduler::axisType(r) == AxisType::Reduce || n % 8 != 0 || readA.contains(r) == readB.contains(r))
      continue;
    auto [key, size] = readA.contains(r) ? std::tie(onlyA, sizeA) : std::tie(onlyB, sizeB);
    if (n > size) {
      key = axisKey(r);
      size = n;
    }
  }
  if (!onlyA && !onlyB)
    return false;
  if (!onlyA || !onlyB)
    return tapRowTile(k, readA, readB, onlyA ? onlyA : onlyB, onlyA ? sizeA : sizeB, /*ownIsA=*/(bool)onlyA);
  // An operand contiguous along an axis of its own (not the store's): a
  // vector of a register's lanes along it, loaded whole, by 4 of an axis
  // only the other reads, broadcast, as matmulTile's but stored strided (a
  // conv's input gradient before its windows are summed, out[n, c, y, x,
  // ky, kx] = sum over o of W[o, c, ky, kx] * dy[n, o, y, x], its store
  // contiguous along the taps: r_64_512_32_8_8_3_3, 51 ms with tinygrad's
  // choices and 38-45 with 8 images by 16 channels over the panel, 10 ms
  // with 16 pixels by 4 channels at 2 threads).
  {
    int64_t lanes = k.target.vectorBytes / 4;
    UOpRef mul = m->mul;
    for (auto [opIdx, otherReads, otherOnly] : {std::tuple(0, &readB, onlyB), std::tuple(1, &readA, onlyA)}) {
      UOpRef load = soleLoad(mul->src[opIdx]);
      UOpRef idx = load ? idxOf(load) : nullptr;
      if (!idx)
        continue;
      for (unsigned a : k.upcastableDims()) {
        UOpRef r = rs[a];
        int64_t n = Scheduler::size(r).value_or(0);
        if (Scheduler::axisType(r) == AxisType::Reduce || n % lanes != 0 || otherReads->contains(r) ||
            strideOf(k.ctx, idx, r) != 1)
          continue;
        int64_t otherSize = Scheduler::size(rs[axisWithId(k, otherOnly)]).value_or(0);
        if (otherSize % 4 == 0 && upcastPair(k, axisKey(r), lanes, otherOnly, 4)) {
          applyThreadOpt(k);
          return true;
        }
      }
    }
  }
  // A vector of 16 lanes along one operand's own axis, over a panel of that
  // operand (a windowed one: the input gradient's weights are read at a tap
  // (t // 25) its index only knows as an expression; the panel holds every
  // tap of the channel block, packed once and read by each batch row and
  // pixel as one vector load, where the 8x8 tile gathers 8 weights a step).
  for (auto [own, ownSize, other] : {std::tuple(onlyA, sizeA, onlyB), std::tuple(onlyB, sizeB, onlyA)})
    if (ownSize % 16 == 0 &&
        withStagedPanel(k, [&, own = own, other = other] { return upcastPair(k, other, 8, own, 16); },
                        /*windowed=*/true))
      return true;
  // Else a square of one vector register's lanes each way, its accumulators
  // a register per row, where they take at most half the register file (16
  // by 16 on AVX-512: the whole-batch 3x3 weight gradient above 35 -> 13 ms
  // at 2 threads, 75 -> 27 at 1, against 8 by 8); 8 by 8 otherwise.
  int64_t lanes = k.target.vectorBytes / 4;
  int64_t side = lanes > 8 && 2 * lanes <= (int64_t)k.target.vectorRegs && sizeA % lanes == 0 && sizeB % lanes == 0
                     ? lanes
                     : 8;
  if (!upcastPair(k, onlyB, side, onlyA, side))
    return false;
  applyThreadOpt(k);
  return true;
}

void ourOptimizations(Scheduler &k) {
  // The packed-panel tile, kept only where the panel is staged.
  if (withStagedPanel(k, [&] { return matmulTile(k, 2); }))
    return;
  UOpRef ast = k.ast;
  auto applied = k.applied;
  // The tiles of a reduce of a product; a reduce masked per output point
  // (hoistReduceMask) gets them only with the mask hoisted, and keeps its
  // AST where none applies.
  auto productTile = [&] {
    if (channelConvTile(k))
      return true;
    if (matmulTile(k, 4) || dotTile(k) || sharedOperandTile(k) || convTile(k)) {
      applyThreadOpt(k);
      return true;
    }
    return channelConvTile(k, /*divisorBlocks=*/true);
  };
  if (productTile())
    return;
  if (hoistReduceMask(k)) {
    if (productTile()) {
      k.hoistedMask = true;
      return;
    }
    k.ast = ast;
    k.applied = applied;
    k.unnamedSteps.clear();
  }
  if (pooledChannelTile(k))
    return;
  if (pooledConvTile(k) || splitReduceAccumulators(k) || wideElementwise(k)) {
    applyThreadOpt(k);
    return;
  }
  if (outerProductTile(k)) // with its thread split
    return;
  handCodedOptimizations(k);
  verticalFold(k);
}

} // namespace mlir::tinygrad::opt
