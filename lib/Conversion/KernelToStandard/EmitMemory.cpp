//===- EmitMemory.cpp - addresses, loads, stores, local buffers -------------===//
//
// How an INDEX addresses each lane, and the vector, masked and scalar
// accesses that follow from it; LOCAL staging buffers and their AFTER fills.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include <algorithm>

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tinygrad::kernel_emitter {

namespace {
/// A gate likely true, read without a branch (loadGroupUnbranched): an AND
/// of comparisons of index arithmetic (ADD, MUL of ranges and constants)
/// by `<` and its negation, as a padded window's bounds (`x+k >= 1 &
/// x+k < 57`), true in all but its border lanes. Any other
/// gate keeps its branch (likely false: a strided transposed convolution's
/// divisibility test, FLOORMOD == 0, gates most lanes off, and the branch
/// skips their loads).
bool likelyTrueGate(UOpRef gate) {
  bool bounds = true;
  opt::forEachNode(gate, [&](UOpRef x) {
    switch (x->op) {
    case K::AND:
    case K::CMPLT:
    case K::ADD:
    case K::MUL:
    case K::RANGE:
    case K::SPECIAL:
    case K::CONST:
      break;
    case K::CMPNE: // a negation: CMPNE(compare, true)
      bounds = x->src[1]->isConst() && x->src[1]->dtype == DType::Bool;
      break;
    default:
      bounds = false;
    }
    return bounds;
  });
  return bounds;
}
} // namespace

bool Emitter::Address::contiguous() const {
  if (!linear || !wholeVectors(lanes))
    return false;
  for (unsigned l = 0; l < lanes; ++l)
    if (offsets[l] != (int64_t)l)
      return false;
  return true;
}

bool Emitter::Address::splat() const {
  return linear && llvm::all_of(offsets, [](int64_t o) { return o == 0; });
}

UOpRef Emitter::storageOf(UOpRef u) {
  while (u->op == K::AFTER || u->op == K::SHRINK || u->op == K::BITCAST)
    u = u->src[0];
  return u->op == K::PARAM || u->op == K::BUFFER ? u : nullptr;
}

bool Emitter::isBufferView(UOpRef u) {
  if (u->op != K::BITCAST && u->op != K::SHRINK)
    return false;
  UOpRef st = storageOf(u);
  return st && !(st->op == K::PARAM && st->param().isALU);
}

/// Elements in a static 1-D memory type, -1 otherwise.
static int64_t staticElements(Type t) {
  tg::ValueInfo info = tg::getValueInfo(t);
  int64_t n = 1;
  for (int64_t d : info.shape)
    if (d == tg::kDynamic || d < 0)
      return -1;
    else
      n *= d;
  return n;
}

LogicalResult Emitter::memoryOf(UOpRef bufU, Address &a, int64_t &size) {
  a.dt = bufU->dtype;
  if (UOpRef st = storageOf(bufU); st && st->op == K::PARAM && st->arg.attrs)
    if (auto pa = dyn_cast_or_null<tg::ParamAttr>(st->arg.attrs.get("arg")))
      a.isVolatile = pa.getIsVolatile();
  if (isBufferView(bufU)) {
    // A view of a buffer's bytes (tinygrad's `buf.shrink(...).bitcast(dt)`,
    // rendered `(dt*)(buf+off)`): a memref.view of the storage's bytes at
    // the byte offset its SHRINKs add up to.
    int64_t byteOffset = 0;
    UOpRef v = bufU;
    while (v->op == K::SHRINK || v->op == K::BITCAST || v->op == K::AFTER) {
      if (v->op == K::AFTER && !emitL(v)) // what fills it runs first
        return failure();
      if (v->op == K::SHRINK) {
        tg::ValueInfo in = tg::getValueInfo(v->src[0]->type);
        auto off = v->src.size() > 1 ? v->src[1]->intVal() : std::nullopt;
        if (in.shape.size() != 1 || !off) {
          fail(v, "a view of a buffer needs a 1-D SHRINK at a constant offset");
          return failure();
        }
        byteOffset += (int64_t)*off * storageBytes(v->src[0]->dtype);
      }
      v = v->src[0];
    }
    size = staticElements(bufU->type);
    Value bytes = storageBytesOf(v);
    if (!bytes)
      return failure();
    if (size < 0 || !memoryType(b.getContext(), bufU->dtype)) {
      fail(bufU, "a view of a buffer needs a static size and a storage dtype");
      return failure();
    }
    a.buf = viewAs(bytes, byteOffset, size, bufU->dtype);
    return success();
  }
  if (bufU->op == K::AFTER || bufU->op == K::BUFFER) {
    // A LOCAL or REG buffer, read after what fills it (or a PARAM after
    // the stores of a hand-written kernel).
    if (!(a.buf = emitL(bufU)))
      return failure();
    while (bufU->op == K::AFTER)
      bufU = bufU->src[0];
  } else {
    auto it = args.find(bufU);
    if (it == args.end()) {
      fail(bufU, "only PARAM, LOCAL and REG buffers and views of them can be indexed");
      return failure();
    }
    a.buf = it->second;
  }
  a.dt = bufU->dtype;
  if (!bufU->src.empty() && bufU->src[0]->vmax().isInt())
    size = (int64_t)bufU->src[0]->vmax().i;
  return success();
}

unsigned Emitter::storageBytes(DType dt) {
  Type t = memoryType(b.getContext(), dt);
  return t ? std::max(1u, t.getIntOrFloatBitWidth() / 8) : 0;
}

Value Emitter::storageBytesOf(UOpRef storage) {
  if (storage->op == K::BUFFER && !emitL(storage)) // allocates it
    return {};
  Value bytes = byteStorage.lookup(storage);
  if (!bytes)
    fail(storage, "a buffer viewed as another dtype must be declared as bytes (not found)");
  return bytes;
}

Value Emitter::viewAs(Value bytes, int64_t byteOffset, int64_t elems, DType dt) {
  Value &v = viewCache[{bytes.getAsOpaquePointer(), byteOffset, elems, (unsigned)dt}];
  if (v)
    return v;
  // Where the bytes are defined: an argument's at the entry, an alloca's
  // right after it.
  OpBuilder vb(b.getContext());
  if (Operation *def = bytes.getDefiningOp())
    vb.setInsertionPointAfter(def);
  else
    vb.setInsertionPointToStart(entry);
  Value shift = arith::ConstantIndexOp::create(vb, loc, byteOffset);
  v = memref::ViewOp::create(vb, loc, MemRefType::get({elems}, memoryType(b.getContext(), dt)), bytes, shift,
                             ValueRange{});
  return v;
}

LogicalResult Emitter::address(UOpRef index, ArrayRef<UOpRef> shape, Address &a) {
  if (index->op == K::CAST && !index->src.empty())
    index = index->src[0];
  if (index->op != K::INDEX || index->src.size() < 2) {
    fail(index, "expected INDEX(buffer, index) as an address");
    return failure();
  }
  UOpRef bufU = index->src[0];
  int64_t size = -1;
  if (failed(memoryOf(bufU, a, size)))
    return failure();
  a.size = size;
  UOpRef i = index->src[1];
  UOpRef gateU = nullptr;
  if (index->src.size() > 2) {
    fail(index, "multi-dimensional INDEX is not supported on CPU");
    return failure();
  }
  if (i->op == K::WHERE && i->src[2]->isInvalid()) {
    gateU = i->src[0];
    i = i->src[1];
  }
  // An ungated index whose whole value range lies outside the buffer can
  // only fault: reject the kernel (bounds are tinygrad's vmin/vmax).
  if (!gateU && size >= 0 && i->vmin().isInt() && i->vmax().isInt()) {
    if (i->vmin().i >= size || i->vmax().i < 0) {
      UOpRef st = storageOf(bufU);
      fail(index, "index range [" + std::to_string((long long)i->vmin().i) + ", " +
                      std::to_string((long long)i->vmax().i) + "] is outside buffer slot " +
                      std::to_string(st ? st->param().slot : -1) + " of " + std::to_string((long long)size) +
                      " elements");
      return failure();
    }
  }
  a.lanes = numLanes(shape);
  a.gate = {};
  a.laneGates.clear();
  a.laneGateVals.clear();
  a.laneGateLikely.clear();
  a.gateLikely = gateU && likelyTrueGate(gateU);
  if (gateU && !laneShape(gateU).empty()) {
    // What tinygrad's expander leaves symbolic to do: each lane's gate with
    // its lane values in place, simplified over the loop ranges (a padded
    // convolution's border lanes are statically in or out).
    SmallVector<UOpRef> exprs;
    a.laneGates = staticLaneGates(gateU, shape, &exprs);
    if (llvm::all_of(a.laneGates, [](int8_t g) { return g == 1; })) {
      a.laneGates.clear();
      gateU = nullptr;
    } else if (!gpu()) {
      // The lanes' gates as scalars: lanes that share one (a padded row's
      // interior columns) share one branch in a gather, as clang merges
      // tinygrad's per-lane `g ? x[i] : 0` that test the same condition.
      llvm::DenseMap<UOpRef, Value> done;
      a.laneGateVals.assign(a.lanes, Value());
      a.laneGateLikely.assign(a.lanes, false);
      for (unsigned l = 0; l < a.lanes; ++l) {
        UOpRef e = exprs[l];
        if (a.laneGates[l] != -1 || !e || e->dtype != DType::Bool || !laneShape(e).empty())
          continue;
        // Index arithmetic only: a gate that reads memory (a gather's
        // loaded index) would be a second load of that lane.
        bool reads = false;
        opt::forEachNode(e, [&](UOpRef x) { return !(reads = x->op == K::INDEX || x->op == K::LOAD); });
        if (reads)
          continue;
        Value &v = done[e];
        if (!v && !(v = emit(e)))
          return failure();
        a.laneGateVals[l] = v;
        a.laneGateLikely[l] = likelyTrueGate(e);
      }
    }
  }
  UOpRef gatedIndex = index->src[1];
  if (gateU) {
    Value g = emitL(gateU);
    if (!g)
      return failure();
    a.gate = g; // broadcast by the caller, where the access is placed
    a.gateShape = laneShape(gateU);
  }
  auto lin = linearizeIndex(
      i, isLaneRange, [&](UOpRef x) { return !laneShape(x).empty(); });
  SmallVector<int64_t> laneOffsets; // when no strides explain the lanes' offsets
  if (!lin && !laneShape(i).empty())
    lin = laneWiseLinear(gatedIndex, a.laneGates, shape, laneOffsets);
  if (lin)
    for (auto [r, k] : lin->strides)
      if (!llvm::is_contained(shape, r))
        lin.reset(); // cannot happen for a well-formed graph; stay safe
  int d = depthOf(i);
  if (d < 0)
    return failure();
  if (lin) {
    a.linear = true;
    SmallVector<Value> terms;
    for (auto [t, k] : lin->terms) {
      Value x = emit(t);
      if (!x)
        return failure();
      terms.push_back(x);
    }
    // The base lives where its index does (emit() may have left the
    // insertion point in an outer scope).
    setInsertionAt(d);
    Value base;
    auto add = [&](Value x) { base = base ? arith::AddIOp::create(b, loc, base, x).getResult() : x; };
    for (auto [n, tk] : llvm::enumerate(lin->terms)) {
      Value x = convert(terms[n], tk.first->dtype, DType::Int64);
      if (tk.second != 1)
        x = arith::MulIOp::create(b, loc, x,
                                  arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(tk.second)));
      add(x);
    }
    if (lin->offset || !base)
      add(arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(lin->offset)));
    a.base = arith::IndexCastOp::create(b, loc, b.getIndexType(), base);
    a.offsets.clear();
    for (unsigned l = 0; l < a.lanes; ++l) {
      if (!laneOffsets.empty()) {
        a.offsets.push_back(laneOffsets[l]);
        continue;
      }
      LaneVals vals = laneVals(shape, l);
      int64_t o = 0;
      for (UOpRef r : shape)
        o += lin->strideOf(r) * vals[r];
      a.offsets.push_back(o);
    }
    // A lane statically masked off accesses nothing: its offset is free.
    auto off = [&](unsigned l) { return l < a.laneGates.size() && a.laneGates[l] == 0; };
    llvm::SmallDenseSet<int64_t, 16> seen;
    unsigned live = 0;
    for (unsigned l = 0; l < a.lanes; ++l)
      if (!off(l)) {
        seen.insert(a.offsets[l]);
        ++live;
      }
    a.distinct = seen.size() == live;
    // Segments along the last lane range whose lanes lie one element apart:
    // one vector access each, whichever place that range has in the lane
    // order (found from the offsets, so strided and per-lane ones alike).
    a.segments.clear();
    a.segPos.clear();
    auto unitAlong = [&](unsigned k) {
      int64_t inner = 1;
      for (UOpRef r : ArrayRef<UOpRef>(shape).drop_front(k + 1))
        inner *= rangeSize(r);
      int64_t m = rangeSize(shape[k]);
      for (unsigned l = 0; l < a.lanes; ++l) {
        int64_t coord = (l / inner) % m, first = l - coord * inner;
        if (!off(l) && a.offsets[l] != a.offsets[first] + coord)
          return false;
      }
      return true;
    };
    int p = -1;
    for (unsigned k = shape.size(); k-- > 0 && p < 0;)
      if (rangeSize(shape[k]) > 1 && (laneOffsets.empty() ? lin->strideOf(shape[k]) == 1 : unitAlong(k)))
        p = k;
    if (p >= 0 && !a.contiguous() && wholeVectors(rangeSize(shape[p]))) {
      int64_t inner = 1;
      for (UOpRef r : ArrayRef<UOpRef>(shape).drop_front(p + 1))
        inner *= rangeSize(r);
      int64_t m = rangeSize(shape[p]);
      llvm::DenseMap<int64_t, unsigned> segOf;
      a.segPos.resize(a.lanes);
      for (unsigned l = 0; l < a.lanes; ++l) {
        int64_t coord = (l / inner) % m;
        auto [it, fresh] = segOf.try_emplace(l - coord * inner, a.segments.size());
        if (fresh)
          a.segments.emplace_back(m, 0);
        a.segments[it->second][coord] = l;
        a.segPos[l] = it->second * m + coord;
      }
    }
    return success();
  }
  Value iv = emitL(i);
  if (!iv)
    return failure();
  setInsertionAt(d);
  SmallVector<UOpRef, 2> from = laneShape(i);
  Value wide = convert(iv, i->dtype, DType::Int64);
  a.linear = false;
  a.idx = arith::IndexCastOp::create(b, loc, shapedLike(wide, b.getIndexType()), wide);
  a.idx = broadcastTo(a.idx, from, shape);
  return success();
}

UOpRef Emitter::laneSimplified(UOpRef substituted) {
  if (!substituted)
    return nullptr;
  auto [it, fresh] = laneSimplifiedMemo.try_emplace(substituted, nullptr);
  if (fresh)
    it->second = sym::graphRewrite(substituted->ctx(), substituted, sym::symMatcher());
  return it->second;
}

SmallVector<int8_t> Emitter::staticLaneGates(UOpRef gate, ArrayRef<UOpRef> shape, SmallVectorImpl<UOpRef> *exprs) {
  sym::Context &ctx = gate->ctx();
  SmallVector<UOpRef, 2> gs = laneShape(gate);
  // The gate reads the lane ranges `gs` only: each of its lanes once, then
  // each lane of `shape` takes its lane of `gs`.
  SmallVector<UOpRef> perGateLane;
  for (unsigned l = 0, n = numLanes(gs); l < n; ++l) {
    LaneVals vals = laneVals(gs, l);
    llvm::DenseMap<UOpRef, UOpRef> at;
    for (UOpRef r : gs)
      at[r] = ctx.constInt(vals.lookup(r), r->dtype);
    perGateLane.push_back(laneSimplified(sym::substitute(ctx, gate, at)));
  }
  SmallVector<int8_t> out;
  for (unsigned l = 0, n = numLanes(shape); l < n; ++l) {
    UOpRef g = perGateLane[laneIndex(gs, shape, l)];
    out.push_back(g && g->op == K::CONST && g->val().isBool() ? int8_t(g->val().b) : int8_t(-1));
    if (exprs)
      exprs->push_back(g);
  }
  return out;
}

std::optional<LinearIndex> Emitter::laneWiseLinear(UOpRef where, ArrayRef<int8_t> laneGates,
                                                   ArrayRef<UOpRef> shape, SmallVectorImpl<int64_t> &laneOffsets) {
  laneOffsets.clear();
  sym::Context &ctx = where->ctx();
  SmallVector<UOpRef, 2> ls = laneShape(where);
  // Per lane of `ls`: its lane-free terms (in a fixed order) and constant.
  SmallVector<UOpRef, 4> terms;
  bool first = true;
  SmallVector<std::optional<int64_t>> offsets;
  SmallVector<int64_t, 4> sizes;
  for (UOpRef r : ls)
    sizes.push_back(rangeSize(r));
  unsigned n = numLanes(ls);
  // A lane statically masked off in every lane of `shape` it stands for
  // reads nothing: its offset is free.
  SmallVector<bool> read(n, laneGates.empty());
  for (unsigned k = 0; k < laneGates.size(); ++k)
    if (laneGates[k] != 0)
      read[laneIndex(ls, shape, k)] = true;
  for (unsigned l = 0; l < n; ++l) {
    LaneVals vals = laneVals(ls, l);
    if (!read[l]) {
      offsets.push_back(std::nullopt);
      continue;
    }
    llvm::DenseMap<UOpRef, UOpRef> at;
    for (UOpRef r : ls)
      at[r] = ctx.constInt(vals.lookup(r), r->dtype);
    UOpRef x = laneSimplified(sym::substitute(ctx, where, at));
    if (x && x->op == K::WHERE && x->src[2]->isInvalid())
      x = x->src[1];
    if (!x || x->isInvalid() || !isInt(x->dtype))
      return std::nullopt;
    SmallVector<UOpRef, 8> parts;
    ctx.splitUOp(x, K::ADD, parts);
    SmallVector<UOpRef, 4> laneTerms;
    int64_t c = 0;
    for (UOpRef p : parts) {
      if (p->op == K::CONST && p->val().isInt())
        c += (int64_t)p->val().i;
      else
        laneTerms.push_back(p);
    }
    // The same terms in every lane (hash-consed: the same nodes), kept in
    // the first lane's order.
    if (first)
      terms = laneTerms;
    else if ((laneTerms.size() != terms.size() || !std::is_permutation(laneTerms.begin(), laneTerms.end(), terms.begin())))
      return std::nullopt;
    first = false;
    offsets.push_back(c);
  }
  auto fit = fitLaneStrides(offsets, sizes);
  LinearIndex lin;
  for (UOpRef t : terms)
    lin.terms.push_back({t, 1});
  if (!fit) {
    // Offsets no strides explain (lane values through `/` or `%`: a strided
    // convolution's window folded into its lanes): each lane of `shape` its
    // own constant, so that a lane's address is the scalar base + c, not a
    // lane of an index vector computed whole and then taken apart. A lane
    // statically masked off reads nothing: 0.
    for (unsigned l = 0, n = numLanes(shape); l < n; ++l)
      laneOffsets.push_back(offsets[laneIndex(ls, shape, l)].value_or(0));
    return lin;
  }
  lin.offset = fit->first;
  for (auto [r, k] : llvm::zip(ls, fit->second))
    if (k)
      lin.strides.push_back({r, k});
  return lin;
}

Value Emitter::laneAddress(OpBuilder &ob, const Address &a, unsigned l) {
  if (!a.linear)
    return a.lanes == 1 ? a.idx : vector::ExtractOp::create(ob, loc, a.idx, l).getResult();
  if (a.offsets[l] == 0)
    return a.base;
  Value off = arith::ConstantIndexOp::create(ob, loc, a.offsets[l]);
  return arith::AddIOp::create(ob, loc, a.base, off);
}

// Lanes are read in clusters of nearby addresses: each cluster's base is
// selected, where the gate fails, so that its lowest lane reads element 0
// (the cluster spans no more than the buffer: every load is in bounds for
// either value of the gate), and a cluster of more than one lane is one
// vector load of its span, its lanes picked by a shuffle (a stride-2
// convolution's row of input pixels: two loads, not 16 scalar ones). The
// loaded lanes are selected against the pass values.
SmallVector<Value> Emitter::loadGroupUnbranched(OpBuilder &ob, const Address &a, Value g,
                                                ArrayRef<unsigned> group, ArrayRef<Value> pass) {
  // A cluster: lanes at most kMaxGap elements apart, kMaxSpan at most in all.
  constexpr int64_t kMaxGap = 4, kMaxSpan = 64;
  Type mt = memoryType(ob.getContext(), a.dt);
  auto index = [&](int64_t c) -> Value { return arith::ConstantIndexOp::create(ob, loc, c); };
  SmallVector<Value> out(group.size());
  auto select = [&](Value x, unsigned i) { out[i] = arith::SelectOp::create(ob, loc, g, x, pass[i]); };
  SmallVector<unsigned> order = llvm::to_vector(llvm::seq<unsigned>(0, group.size()));
  llvm::sort(order, [&](unsigned x, unsigned y) {
    return std::make_pair(a.offsets[group[x]], x) < std::make_pair(a.offsets[group[y]], y);
  });
  for (size_t c = 0; c < order.size();) {
    int64_t lo = a.offsets[group[order[c]]];
    size_t e = c + 1;
    while (e < order.size() && a.offsets[group[order[e]]] - a.offsets[group[order[e - 1]]] <= kMaxGap &&
           a.offsets[group[order[e]]] - lo < std::min(kMaxSpan, a.size))
      ++e;
    int64_t span = a.offsets[group[order[e - 1]]] - lo + 1;
    Value base = arith::SelectOp::create(ob, loc, g, a.base, index(-lo));
    auto at = [&](int64_t off) -> Value {
      return off ? arith::AddIOp::create(ob, loc, base, index(off)).getResult() : base;
    };
    if (e - c == 1) {
      select(loadElement(ob, a, at(lo)), order[c]);
    } else {
      // One select of the cluster's lanes as a vector: LLVM keeps it a
      // vector select, where a select per extracted lane stays scalar.
      Value row = vector::LoadOp::create(ob, loc, VectorType::get({span}, mt), a.buf, ValueRange{at(lo)});
      SmallVector<int64_t> picks;
      SmallVector<Value> passes;
      for (size_t k = c; k < e; ++k) {
        picks.push_back(a.offsets[group[order[k]]] - lo);
        passes.push_back(pass[order[k]]);
      }
      Value lanes = pickLanes(ob, row, picks);
      Value passV = vector::FromElementsOp::create(ob, loc, cast<VectorType>(lanes.getType()), passes);
      Value sel = arith::SelectOp::create(ob, loc, g, lanes, passV);
      for (size_t k = c; k < e; ++k)
        out[order[k]] = pickLanes(ob, sel, {(int64_t)(k - c)});
    }
    c = e;
  }
  return out;
}

Value Emitter::fromMemory(OpBuilder &ob, Value v, DType dt) {
  if (dt == DType::Bool)
    return arith::TruncIOp::create(ob, loc, shapedLike(v, ob.getI1Type()), v);
  if (isHalfLike(dt))
    return arith::ExtFOp::create(ob, loc, shapedLike(v, ob.getF32Type()), v);
  return v;
}

Value Emitter::toMemory(OpBuilder &ob, Value v, DType dt) {
  if (dt == DType::Bool)
    return arith::ExtUIOp::create(ob, loc, shapedLike(v, ob.getI8Type()), v);
  if (isHalfLike(dt))
    return arith::TruncFOp::create(ob, loc, shapedLike(v, memoryType(ob.getContext(), dt)), v);
  return v;
}

// memref.load has no volatile flag, and LLVM may hoist a plain load out of
// a loop whose body does not write memory, or delete the loop around it: a
// spin on a flag another thread sets (test_wait_loop's wait_ext) would never
// see it change. An llvm.load volatile through the element's address is
// what tinygrad's LLVM renderer writes (`load volatile`) and its C's
// `volatile int*` means: LLVM keeps every one, each iteration, in order, and
// a loop that performs one is not free of side effects.
Value Emitter::loadElement(OpBuilder &ob, const Address &a, Value at) {
  if (!a.isVolatile)
    return loadAt(ob, a.buf, at);
  return LLVM::LoadOp::create(ob, loc, memoryType(ob.getContext(), a.dt), pointerAt(ob, a.buf, at, a.dt),
                              storageBytes(a.dt), /*isVolatile=*/true);
}

void Emitter::storeElement(OpBuilder &ob, const Address &a, Value x, Value at) {
  if (!a.isVolatile) {
    storeAt(ob, x, a.buf, at);
    return;
  }
  LLVM::StoreOp::create(ob, loc, x, pointerAt(ob, a.buf, at, a.dt), storageBytes(a.dt), /*isVolatile=*/true);
}

Value Emitter::loadLanes(OpBuilder &ob, const Address &a, Value mask, Value pass) {
  Type mt = memoryType(ob.getContext(), a.dt);
  auto vload = [&](Value at, ArrayRef<int64_t> lanes, Value m) -> Value {
    auto vt = VectorType::get({(int64_t)lanes.size()}, mt);
    if (!m)
      return vector::LoadOp::create(ob, loc, vt, a.buf, ValueRange{at});
    Value p = pass ? pickLanes(ob, pass, lanes)
                   : arith::ConstantOp::create(ob, loc, ob.getZeroAttr(vt)).getResult();
    return vector::MaskedLoadOp::create(ob, loc, vt, a.buf, ValueRange{at}, m, p);
  };
  if (gpu() && mask)
    return gatedLoadsOnGPU(ob, a, mask, pass);
  if (a.lanes == 1)
    return loadElement(ob, a, a.base ? a.base : a.idx);
  // A volatile buffer, and any on a GPU (Emitter::gpu), is read lane by lane.
  if (a.contiguous() && !a.isVolatile && !gpu()) {
    ++vectorLoads;
    return vload(a.base, llvm::to_vector(llvm::seq<int64_t>(0, a.lanes)), mask);
  }
  if (!a.segments.empty() && !a.isVolatile && !gpu()) {
    ++vectorLoads;
    SmallVector<Value> segs;
    for (ArrayRef<int64_t> seg : a.segments)
      segs.push_back(vload(laneAddress(ob, a, seg[0]), seg, mask ? pickLanes(ob, mask, seg) : Value()));
    return pickLanes(ob, concat(ob, segs), a.segPos);
  }
  if (a.splat() && !mask && !a.isVolatile) {
    Value s = loadAt(ob, a.buf, a.base);
    return vector::BroadcastOp::create(ob, loc, VectorType::get({(int64_t)a.lanes}, mt), s);
  }
  // A gather: lane by lane, each gated lane behind its own branch.
  if (mask)
    ++gatedGathers;
  SmallVector<Value> elems;
  auto passLane = [&](OpBuilder &pb, unsigned l) -> Value {
    return pass ? pickLanes(pb, pass, {(int64_t)l})
                : arith::ConstantOp::create(pb, loc, pb.getZeroAttr(mt)).getResult();
  };
  SmallVector<Value> byLane(a.lanes);
  // Likely-true gates read their lanes without a branch (likelyTrueGate)
  // where the lanes have strides (linear): lanes without (each its own
  // scalar load either way) keep their branch, which cost less than a
  // select per lane (ResNet-18's 64 -> 128 stride 2 onto 28x28, and a
  // mnist_train gradient whose index keeps tinygrad's `//` and `%`).
  bool unbranched = a.size > 0 && !a.isVolatile && a.linear;
  for (unsigned l = 0; l < a.lanes; ++l) {
    int8_t known = mask && l < a.laneGates.size() ? a.laneGates[l] : -1;
    if (!mask || known == 1) {
      elems.push_back(loadElement(ob, a, laneAddress(ob, a, l)));
      continue;
    }
    if (known == 0) {
      elems.push_back(passLane(ob, l));
      continue;
    }
    if (Value g = l < a.laneGateVals.size() ? a.laneGateVals[l] : Value()) {
      // Every lane under this scalar gate, behind one branch (at its first
      // lane), or none where the gate is likely true.
      if (!byLane[l]) {
        SmallVector<unsigned> group;
        for (unsigned m = l; m < a.lanes; ++m)
          if (m < a.laneGateVals.size() && a.laneGateVals[m] == g && a.laneGates[m] == -1)
            group.push_back(m);
        if (unbranched && a.laneGateLikely[l]) {
          SmallVector<Value> passes;
          for (unsigned m : group)
            passes.push_back(passLane(ob, m));
          for (auto [m, r] : llvm::zip(group, loadGroupUnbranched(ob, a, g, group, passes)))
            byLane[m] = r;
          elems.push_back(byLane[l]);
          continue;
        }
        SmallVector<Type> types(group.size(), mt);
        auto ifOp = scf::IfOp::create(ob, loc, types, g, /*addThenBlock=*/true, /*addElseBlock=*/true);
        OpBuilder tb = ifOp.getThenBodyBuilder(), fb = ifOp.getElseBodyBuilder();
        SmallVector<Value> in, out;
        for (unsigned m : group) {
          in.push_back(loadElement(tb, a, laneAddress(tb, a, m)));
          out.push_back(passLane(fb, m));
        }
        scf::YieldOp::create(tb, loc, in);
        scf::YieldOp::create(fb, loc, out);
        for (auto [m, r] : llvm::zip(group, ifOp.getResults()))
          byLane[m] = r;
      }
      elems.push_back(byLane[l]);
      continue;
    }
    Value g = vector::ExtractOp::create(ob, loc, mask, l);
    if (unbranched && a.gateLikely) {
      elems.push_back(loadGroupUnbranched(ob, a, g, {l}, {passLane(ob, l)})[0]);
      continue;
    }
    auto ifOp = scf::IfOp::create(ob, loc, TypeRange{mt}, g, /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(tb, loc, loadElement(tb, a, laneAddress(tb, a, l)));
    OpBuilder fb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(fb, loc, passLane(fb, l));
    elems.push_back(ifOp.getResult(0));
  }
  return vector::FromElementsOp::create(ob, loc, VectorType::get({(int64_t)a.lanes}, mt), elems);
}

Value Emitter::emitLoad(UOpRef u, UOpRef index, UOpRef alt) {
  // Operands may live in outer loops; the load itself sits at the index's depth.
  int depth = depthOf(index);
  if (depth < 0)
    return {};
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  Address a;
  if (failed(address(index, shape, a)))
    return {};
  Value other;
  if (alt && a.gate && !(other = emitL(alt)))
    return {};
  if (!a.laneGates.empty()) {
    LaneConsts altConst = alt ? lanesTo(constLanes(alt), laneShape(alt), shape)
                              : LaneConsts(a.lanes, u->ctx().cnst(Scalar::fromInt(0), a.dt));
    LaneConsts off(a.lanes, nullptr);
    for (unsigned l = 0; l < a.lanes && !altConst.empty(); ++l)
      if (a.laneGates[l] == 0)
        off[l] = altConst[l];
    loadConstLanes[u] = off;
  }
  setInsertionAt(depth);
  if (!a.gate)
    return fromMemory(b, loadLanes(b, a, {}), a.dt);
  // Masked-off lanes read the alternative (0 without one), not memory.
  Value o = alt ? broadcastTo(other, laneShape(alt), shape) : Value();
  if (!alt) {
    Value z = constant(Scalar::fromInt(0), a.dt);
    if (!z)
      return {};
    o = broadcastTo(z, {}, shape);
  }
  if (!isa<VectorType>(a.gate.getType()) && !gpu()) {
    // One gate for every lane: one branch around the whole access.
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{o.getType()}, a.gate, true, true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(tb, loc, fromMemory(tb, loadLanes(tb, a, {}), a.dt));
    OpBuilder fb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(fb, loc, o);
    return ifOp.getResult(0);
  }
  Value mask = broadcastTo(a.gate, a.gateShape, shape);
  // Where memory holds the compute type, the alternative is the masked
  // load's pass-through; else the converted load is selected against it,
  // which keeps the alternative's exact value.
  if (memoryType(b.getContext(), a.dt) == ty(a.dt))
    return loadLanes(b, a, mask, o);
  Value loaded = fromMemory(b, loadLanes(b, a, mask), a.dt);
  return arith::SelectOp::create(b, loc, mask, loaded, o);
}

Value Emitter::emitAfter(UOpRef u, unsigned depth) {
  Value v = emitL(u->src[0]);
  if (!v)
    return {};
  // The deps run where the AFTER is first needed, at its depth: a LOCAL
  // buffer's fill (an END over its own loops) lands before the loops that
  // read it, once per iteration of the loops it depends on.
  for (UOpRef d : u->src.drop_front()) {
    // `reg.after(loop)`: read in the bound-less loop (depthOf placed it
    // there), which has no value.
    if (isBoundless(d))
      continue;
    if (!isEffect(d)) {
      if (!emitL(d))
        return {};
      continue;
    }
    if (failed(atDepth(depth, [&] { return emitEffect(d); })))
      return {};
  }
  // Listed after what it waits for (a fill's loop ends just before here).
  setInsertionAt(depth);
  note(lastInserted(), u, 1);
  return v;
}

Value Emitter::emitLocalBuffer(UOpRef u) {
  auto pa = u->arg.attrs ? dyn_cast_or_null<tg::ParamAttr>(u->arg.attrs.get("arg")) : tg::ParamAttr();
  if (!pa || (pa.getAddrspace() != tg::AddrSpace::Local && pa.getAddrspace() != tg::AddrSpace::Reg))
    return fail(u, "only LOCAL and REG buffers are lowered on CPU");
  Type et = memoryType(b.getContext(), u->dtype);
  if (!et || u->src.empty() || !u->src[0]->vmax().isInt() || u->src[0]->vmax().i <= 0 ||
      u->src[0]->vmax().i > (int64_t(1) << 24))
    return fail(u, "a LOCAL or REG buffer needs a constant size of at most 16M elements and a storage dtype");
  // The entry block: one array for the whole kernel, aligned to a cache
  // line so that the vector rows read from it never split one. Thread pool
  // workers are std::threads with the default 8 MB stack; the heuristic
  // keeps a panel within half an L2. A CPU thread is tinygrad's whole
  // workgroup, so LOCAL memory and a REG accumulator are both this stack
  // array (tinygrad's C declares both as local arrays); the ranges an
  // AFTER puts a REG buffer in reuse it, as the C's loop body does.
  OpBuilder eb(b.getContext());
  eb.setInsertionPointToStart(entry);
  int64_t n = (int64_t)u->src[0]->vmax().i;
  if (gpu()) {
    // A GPU's workgroup memory is shared by the workgroup's threads (a
    // LOCAL buffer); a REG buffer is each thread's own.
    if (viewedStorage.count(u))
      return fail(u, "a LOCAL or REG buffer viewed as another dtype is not lowered for " + target.name);
    bool local = pa.getAddrspace() == tg::AddrSpace::Local;
    auto mt = MemRefType::get({n}, et, MemRefLayoutAttrInterface(), local ? workgroupSpace : privateSpace);
    if (!local)
      return memref::AllocaOp::create(eb, loc, mt);
    workgroupBytes += n * (int64_t)storageBytes(u->dtype);
    return memref::AllocOp::create(eb, loc, mt);
  }
  if (!viewedStorage.count(u))
    return memref::AllocaOp::create(eb, loc, MemRefType::get({n}, et), ValueRange{}, eb.getI64IntegerAttr(64));
  // Viewed as another dtype too: its bytes, and its own dtype a view of them.
  Value bytes = memref::AllocaOp::create(eb, loc, MemRefType::get({n * (int64_t)storageBytes(u->dtype)}, eb.getI8Type()),
                                         ValueRange{}, eb.getI64IntegerAttr(64));
  byteStorage[u] = bytes;
  return viewAs(bytes, 0, n, u->dtype);
}

Value Emitter::isAligned(Value buf, unsigned align) {
  Value &t = alignedTests[{buf, align}];
  if (t)
    return t;
  OpBuilder eb(b.getContext());
  eb.setInsertionPointToStart(entry);
  Value p = memref::ExtractAlignedPointerAsIndexOp::create(eb, loc, buf);
  Value low = arith::AndIOp::create(eb, loc, p, arith::ConstantIndexOp::create(eb, loc, align - 1));
  t = arith::CmpIOp::create(eb, loc, arith::CmpIPredicate::eq, low, arith::ConstantIndexOp::create(eb, loc, 0));
  return t;
}

unsigned Emitter::streamAlignment(const Address &a, UOpRef index) {
  if (!streaming || !a.contiguous() || !a.base || scopes.size() < 2 || !scopes.back().range)
    return 0;
  if (index->op == K::CAST && !index->src.empty())
    index = index->src[0];
  if (index->op != K::INDEX || index->src.size() != 2 || index->src[0]->op != K::PARAM)
    return 0;
  // Only an output of at least half the last-level cache, in a kernel whose
  // buffers together exceed it (`streaming`): the kernel's own reads then
  // evict most of the output before the next kernel could read it back, so
  // its write-allocate reads are the larger cost (layernorm's 16 MB output
  // beside its 16 MB input on a 32 MB L3: 0.9x -> 1.5x tinygrad's C). A
  // smaller output, or one the kernel's footprint leaves cached, is read by
  // the next kernel from the caches.
  auto bufType = cast<MemRefType>(a.buf.getType());
  if (!bufType.hasStaticShape() ||
      (uint64_t)bufType.getNumElements() * (bufType.getElementTypeBitWidth() / 8) < target.lastCacheBytes / 2)
    return 0;
  unsigned elemBytes = memoryType(b.getContext(), a.dt).getIntOrFloatBitWidth() / 8;
  uint64_t bytes = (uint64_t)a.lanes * elemBytes;
  if (!elemBytes || !llvm::isPowerOf2_64(bytes) || bytes < 16)
    return 0;
  unsigned align = (unsigned)std::min<uint64_t>(bytes, 64);
  // The lane-free part of the index: every term a multiple of the lanes,
  // and the innermost loop's range among them with the lanes as stride.
  auto lin = linearizeIndex(
      index->src[1], isLaneRange, [&](UOpRef x) { return !laneShape(x).empty(); });
  if (!lin || lin->offset % (int64_t)(align / elemBytes) != 0)
    return 0;
  sym::Context &ctx = index->ctx();
  UOpRef inner = scopes.back().range;
  int64_t innerStride = 0;
  for (auto [t, k] : lin->terms) {
    if ((__int128)k * ctx.constFactor(t) % (align / elemBytes) != 0)
      return 0;
    SmallVector<UOpRef, 8> parts;
    ctx.splitUOp(t, K::ADD, parts);
    for (UOpRef p : parts) {
      if (p == inner)
        innerStride += k;
      else if (p->op == K::MUL && p->src[0] == inner && p->src[1]->op == K::CONST && p->src[1]->val().isInt())
        innerStride += k * (int64_t)p->src[1]->val().i;
    }
  }
  return innerStride == (int64_t)a.lanes ? align : 0;
}

void Emitter::storeLanes(OpBuilder &ob, const Address &a, Value v, Value mask, unsigned streamAlign) {
  auto vstore = [&](Value x, Value at, Value m) {
    if (m)
      vector::MaskedStoreOp::create(ob, loc, a.buf, ValueRange{at}, m, x);
    else
      vector::StoreOp::create(ob, loc, x, a.buf, ValueRange{at});
  };
  if (a.lanes == 1) {
    storeElement(ob, a, v, a.base ? a.base : a.idx);
    return;
  }
  // A volatile buffer is written lane by lane (the scatter below).
  if (a.contiguous() && streamAlign && !mask && !a.isVolatile) {
    // Non-temporal stores need their alignment, which only the buffer's
    // address tells: one loop-invariant branch (LLVM unswitches it).
    streamed = true;
    auto ifOp = scf::IfOp::create(ob, loc, isAligned(a.buf, streamAlign), /*withElse=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    vector::StoreOp::create(tb, loc, v, a.buf, ValueRange{a.base}, /*nontemporal=*/true,
                            llvm::MaybeAlign(streamAlign));
    OpBuilder eb = ifOp.getElseBodyBuilder();
    vector::StoreOp::create(eb, loc, v, a.buf, ValueRange{a.base});
    return;
  }
  if (a.contiguous() && !a.isVolatile && !gpu())
    return vstore(v, a.base, mask);
  if (!a.segments.empty() && a.distinct && !a.isVolatile && !gpu()) {
    for (ArrayRef<int64_t> seg : a.segments)
      vstore(pickLanes(ob, v, seg), laneAddress(ob, a, seg[0]), mask ? pickLanes(ob, mask, seg) : Value());
    return;
  }
  // A scatter, in lane order (a later lane at the same address wins).
  for (unsigned l = 0; l < a.lanes; ++l) {
    Value x = vector::ExtractOp::create(ob, loc, v, l);
    if (!mask) {
      storeElement(ob, a, x, laneAddress(ob, a, l));
      continue;
    }
    Value g = vector::ExtractOp::create(ob, loc, mask, l);
    auto ifOp = scf::IfOp::create(ob, loc, g, /*withElse=*/false);
    OpBuilder ib = ifOp.getThenBodyBuilder();
    storeElement(ib, a, x, laneAddress(ib, a, l));
  }
}

LogicalResult Emitter::emitStore(UOpRef u) {
  if (u->src.size() < 2) {
    fail(u, "STORE needs an address and a value");
    return failure();
  }
  UOpRef index = u->src[0], val = u->src[1];
  unsigned depth = scopes.size() - 1;
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  Value v = emitL(val);
  if (!v)
    return failure();
  Address a;
  if (failed(address(index, shape, a)))
    return failure();
  Value g2;
  if (u->src.size() > 2 && !(g2 = emitL(u->src[2])))
    return failure();
  b.setInsertionPoint(scopes[depth].tail);
  SmallVector<UOpRef, 2> valShape = laneShape(val);
  Value x = convertCompute(broadcastTo(v, valShape, shape), val->dtype, a.dt);
  if (!x) {
    fail(u, "unsupported store dtype");
    return failure();
  }
  x = toMemory(b, x, a.dt);
  // The gates: the index's and the store's own; over the store's lanes
  // when either has lanes, else one scalar for the whole store.
  SmallVector<std::pair<Value, SmallVector<UOpRef, 2>>, 2> gates;
  if (a.gate)
    gates.push_back({a.gate, a.gateShape});
  if (g2)
    gates.push_back({g2, laneShape(u->src[2])});
  bool laned = llvm::any_of(gates, [](auto &p) { return numLanes(p.second) > 1; });
  Value g;
  for (auto &[gv, from] : gates) {
    Value x = laned ? broadcastTo(gv, from, shape) : gv;
    g = g ? arith::AndIOp::create(b, loc, g, x).getResult() : x;
  }
  if (!g) {
    storeLanes(b, a, x, {}, streamAlignment(a, index));
  } else if (!isa<VectorType>(g.getType())) {
    auto ifOp = scf::IfOp::create(b, loc, g, /*withElse=*/false);
    OpBuilder ib = ifOp.getThenBodyBuilder();
    storeLanes(ib, a, x, {});
  } else {
    storeLanes(b, a, x, g);
  }
  note(lastInserted(), u, numLanes(shape));
  return success();
}

} // namespace mlir::tinygrad::kernel_emitter
