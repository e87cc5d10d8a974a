//===- Rangeify.cpp - run_rangeify: tinygrad's fusion decisions ----------===//
//
// Every node of the tensor graph gets (input ranges, output ranges): the
// consumers are walked first, a node with one consumer inherits its ranges,
// several consumers that index it identically share them, anything else (or
// a realized node, or one whose ranges end below a broadcast) gets fresh
// ranges and is staged into a buffer. Then pm_apply_rangeify rewrites the
// graph into per-element form: sources are indexed by their ranges, REDUCE
// gets its reduce ranges, PAD becomes a where, movement ops vanish.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "../Symbolic/Rules/Rules.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;
namespace py = mlir::tinygrad::sym::rules::py;

namespace {

struct IndexingContext {
  explicit IndexingContext(Context &ctx) : ctx(ctx) {}
  Context &ctx;
  /// realize_map: node -> realized axes (empty optional: "realize", axes not yet chosen).
  llvm::MapVector<UOpRef, std::optional<llvm::SmallVector<unsigned>>> realize;
  llvm::DenseSet<UOpRef> nonRemovable;
  llvm::DenseMap<UOpRef, std::pair<Ranges, Ranges>> rangeMap;
  int64_t rangeIdx = 0;
  Attribute sinkDevice;

  UOpRef newRange(int64_t s, tg::AxisType at = tg::AxisType::Weak) {
    if (s == 1)
      return ctx.constInt(0);
    return range(ctx, s, rangeIdx++, at);
  }
  /// new_range for dim `i` of `x`, which may be symbolic (a RANGE over the
  /// dim's expression).
  UOpRef newRange(UOpRef x, unsigned i, tg::AxisType at = tg::AxisType::Weak) {
    auto s = shapeOf(x);
    if ((*s)[i] != tg::kDynamic)
      return newRange((*s)[i], at);
    UOpRef d = dimOf(ctx, x, i);
    if (!d) {
      fail(ctx, "rangeify", "cannot find the symbolic size of dim " + llvm::Twine(i) + " of " +
                                sym::getOpName(x->op));
      d = ctx.constInt(1);
    }
    UOpRef r = range(ctx, 1, rangeIdx++, at);
    return ctx.get(sym::Op::RANGE, r->type, {sym::rules::py::cast(ctx, d, DType::WeakInt)}, r->arg);
  }
};

bool alwaysContiguous(sym::Op op) {
  switch (op) {
  case sym::Op::CONTIGUOUS:
  case sym::Op::AFTER:
  case sym::Op::BUFFER:
  case sym::Op::CONST:
  case sym::Op::MSELECT:
  case sym::Op::MSTACK:
  case sym::Op::PARAM:
  case sym::Op::LOAD:
  case sym::Op::CALL:
  case sym::Op::FUNCTION:
    return true;
  default:
    return false;
  }
}

bool broadcastable(sym::Op op) { return sym::isBinary(op) || sym::isTernary(op); }
bool elementwise(sym::Op op) { return sym::isALU(op) || op == sym::Op::CAST || op == sym::Op::BITCAST; }

/// data_srcs: the sources that carry data (not shapes, bounds or ranges).
llvm::ArrayRef<UOpRef> dataSrcs(UOpRef x) {
  switch (x->op) {
  case sym::Op::PARAM:
  case sym::Op::BUFFER:
  case sym::Op::RANGE:
  case sym::Op::SPECIAL:
    return {};
  case sym::Op::STORE:
    if (isVariable(x->src[0]))
      return {};
    return x->src;
  case sym::Op::INDEX:
  case sym::Op::STAGE:
  case sym::Op::REDUCE:
  case sym::Op::AFTER:
  case sym::Op::END:
    return x->src.take_front(1);
  default:
    if (sym::isMovement(x->op))
      return x->src.take_front(1);
    return x->src;
  }
}

//===----------------------------------------------------------------------===//
// pm_generate_realize_map
//===----------------------------------------------------------------------===//

UOpRef realizeCustomKernelSrcs(Match &m) {
  auto &r = m.state<IndexingContext>();
  for (UOpRef s : m[n::x]->src.drop_front()) {
    while (s->op == sym::Op::RESHAPE)
      s = s->src[0];
    if (!alwaysContiguous(s->op)) {
      r.realize[s];
      r.nonRemovable.insert(s);
    }
  }
  return nullptr;
}

const sym::PatternMatcher &pmGenerateRealizeMap() {
  static const sym::PatternMatcher pm({
      {"realize custom kernel srcs",
       up(sym::Op::CALL, {op({sym::Op::SINK, sym::Op::PROGRAM})}, n::x).allowAnyLen(), realizeCustomKernelSrcs},
      {"always realize", op({sym::Op::CONTIGUOUS, sym::Op::STORE}, n::tr),
       [](Match &m) -> UOpRef {
         m.state<IndexingContext>().realize[m[n::tr]];
         return nullptr;
       }},
      {"realize srcs of MSELECT/MSTACK", op({sym::Op::MSELECT, sym::Op::MSTACK}, n::rb),
       [](Match &m) -> UOpRef {
         for (UOpRef s : m[n::rb]->src)
           if (!alwaysContiguous(baseOf(s)->op))
             m.state<IndexingContext>().realize[s];
         return nullptr;
       }},
      {"realize STORE src on self-access", up(sym::Op::STORE, {var(n::dest), var(n::src)}),
       [](Match &m) -> UOpRef {
         UOpRef b = baseOf(m[n::dest]);
         for (UOpRef u : toposort(m[n::src]))
           if (u == b) {
             m.state<IndexingContext>().realize[m[n::src]];
             break;
           }
         return nullptr;
       }},
  });
  return pm;
}

//===----------------------------------------------------------------------===//
// pm_apply_rangeify
//===----------------------------------------------------------------------===//

/// broadcast_rngs: the consumer's ranges as seen by its source `src`.
Ranges broadcastRngs(Context &ctx, UOpRef x, UOpRef src, llvm::ArrayRef<UOpRef> rngs) {
  if (!broadcastable(x->op))
    return Ranges(rngs.begin(), rngs.end());
  auto ss = shapeOf(src), xs = shapeOf(x);
  if (!ss || !xs)
    return Ranges(rngs.begin(), rngs.end());
  auto baxes = broadcastAxes(*ss, *xs);
  unsigned nleft = xs->size() - ss->size();
  Ranges out;
  for (unsigned j = 0; j < rngs.size(); ++j)
    if (j >= nleft)
      out.push_back(llvm::is_contained(baxes, j) ? ctx.constLike(rngs[j], 0) : rngs[j]);
  return out;
}

llvm::SmallVector<UOpRef, 4> bufferizeAndIndexSrcs(IndexingContext &r, UOpRef x) {
  Context &ctx = r.ctx;
  llvm::SmallVector<UOpRef, 4> out;
  size_t dataCount = dataSrcs(x).size();
  auto xr = r.rangeMap.find(x);
  bool hasRanges = xr != r.rangeMap.end();
  for (auto [i, s] : llvm::enumerate(x->src)) {
    UOpRef ns = s;
    Ranges srcRngs;
    if (hasRanges)
      srcRngs = broadcastRngs(ctx, x, s, xr->second.first);
    if (s->op == sym::Op::PARAM || s->op == sym::Op::BUFFER || s->op == sym::Op::MSTACK ||
        s->op == sym::Op::MSELECT || s->op == sym::Op::AFTER) {
      if (hasRanges && i < dataCount)
        ns = index(ctx, ns, srcRngs);
    } else if (auto it = r.realize.find(s); it != r.realize.end()) {
      const auto &axes = *it->second;
      const Ranges &outR = r.rangeMap[s].second;
      Ranges closed;
      for (auto [k, rr] : llvm::enumerate(outR))
        if (llvm::is_contained(axes, k))
          closed.push_back(rr);
      if (s->op == sym::Op::STORE) {
        Ranges ends;
        for (UOpRef c : closed)
          if (c->op == sym::Op::RANGE)
            ends.push_back(c);
        ns = end(ctx, s, ends);
        r.realize.erase(it);
      } else {
        bool removable = !alwaysContiguous(s->op) && !r.nonRemovable.count(s);
        bool global = outR.size() == axes.size();
        auto opts = tg::BufferizeOptsAttr::get(ctx.getMLIRContext(), deviceOf(s),
                                               global ? tg::AddrSpace::Global : tg::AddrSpace::Local,
                                               removable);
        ns = stage(ctx, ns, closed, opts);
        if (hasRanges) {
          Ranges idx;
          for (auto [k, rr] : llvm::enumerate(srcRngs))
            if (llvm::is_contained(axes, k))
              idx.push_back(rr);
          ns = index(ctx, ns, idx);
        }
      }
    }
    out.push_back(ns);
  }
  return out;
}

UOpRef applyRangeifyAll(Match &m) {
  UOpRef x = m[n::x];
  if (x->op == sym::Op::STAGE || x->op == sym::Op::INDEX)
    return nullptr;
  auto srcs = bufferizeAndIndexSrcs(m.state<IndexingContext>(), x);
  return withSrc(m.ctx, x, srcs);
}

UOpRef convertReduce(Match &m) {
  auto &r = m.state<IndexingContext>();
  UOpRef x = m[n::x];
  auto n = x->arg.attrs ? dyn_cast_or_null<IntegerAttr>(x->arg.attrs.get("n")) : IntegerAttr();
  auto kind = x->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(x->arg.attrs.get("kind"))
                           : tg::ReduceKindAttr();
  if (!n || !kind || n.getInt() == 0)
    return nullptr;
  auto it = r.rangeMap.find(x);
  if (it == r.rangeMap.end())
    return fail(m.ctx, "rangeify", "REDUCE has no ranges in rangeify");
  auto srcs = bufferizeAndIndexSrcs(r, x);
  Ranges newR(it->second.first.begin(), it->second.first.begin() + n.getInt());
  return reduceRanged(m.ctx, srcs[0], newR, kind.getValue());
}

UOpRef convertPad(Match &m) {
  auto &r = m.state<IndexingContext>();
  UOpRef x = m[n::x];
  auto it = r.rangeMap.find(x);
  if (it == r.rangeMap.end())
    return nullptr;
  auto srcs = bufferizeAndIndexSrcs(r, x);
  UOpRef v = m.ctx.constBool(true);
  for (UOpRef rr : it->second.first)
    v = py::binop(m.ctx, sym::Op::AND, v, getValid(m.ctx, rr));
  // UOp.const(x.dtype.const(0)): a Python literal, so a weak CONST
  Scalar zero = isFloat(x->dtype) ? Scalar::fromFloat(0.0)
                : x->dtype == DType::Bool ? Scalar::fromBool(false) : Scalar::fromInt(0);
  return py::where(m.ctx, v, srcs[0], py::lit(m.ctx, zero));
}

UOpRef convertStack(Match &m) {
  auto &r = m.state<IndexingContext>();
  UOpRef x = m[n::x];
  auto it = r.rangeMap.find(x);
  if (it == r.rangeMap.end() || x->dtype == DType::Void)
    return nullptr;
  auto srcs = bufferizeAndIndexSrcs(r, x);
  UOpRef r0 = it->second.second[0];
  UOpRef ret = srcs.back();
  for (size_t k = srcs.size() - 1; k-- > 0;) {
    UOpRef eq = py::ne(m.ctx, py::ne(m.ctx, r0, py::ic(m.ctx, k)), m.ctx.constBool(true));
    ret = py::where(m.ctx, eq, srcs[k], ret);
  }
  return ret;
}

const sym::PatternMatcher &pmApplyRangeify() {
  static const sym::PatternMatcher pm({
      {"REDUCE(op, axis) -> REDUCE(op) with ranges", op(sym::Op::REDUCE, n::x), convertReduce},
      {"PAD -> WHERE", op(sym::Op::PAD, n::x), convertPad},
      {"STACK -> WHERE select on the leading range", op(sym::Op::STACK, n::x), convertStack},
      {"apply_rangeify", op(allOps(), n::x), applyRangeifyAll},
      {"remove movement op", op(movementOps(), n::x),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x];
         if (m.state<IndexingContext>().rangeMap.count(x) || x->src[0]->op == sym::Op::INDEX)
           return x->src[0];
         return nullptr;
       }},
  });
  return pm;
}

const sym::PatternMatcher &pmFixDeviceless() {
  static const sym::PatternMatcher pm({
      {"add device to deviceless", op(sym::Op::STAGE, n::b), [](Match &m) -> UOpRef {
         auto o = stageOpts(m[n::b]);
         Attribute dev = m.state<IndexingContext>().sinkDevice;
         if (!o || o.getAddrspace() != tg::AddrSpace::Global || o.getDevice() || !dev)
           return nullptr;
         return withAttr(m.ctx, m[n::b], "opts",
                         tg::BufferizeOptsAttr::get(m.ctx.getMLIRContext(), dev,
                                                    o.getAddrspace(), o.getRemovable()));
       }},
  });
  return pm;
}

//===----------------------------------------------------------------------===//
// Range assignment
//===----------------------------------------------------------------------===//

bool assignRanges(IndexingContext &rctx, llvm::ArrayRef<UOpRef> topo) {
  Context &ctx = rctx.ctx;
  llvm::DenseMap<UOpRef, llvm::SetVector<UOpRef>> consumers;
  for (UOpRef c : topo)
    for (UOpRef x : dataSrcs(c))
      consumers[x].insert(c);
  RangeCache local;
  auto rangesOfAll = [&](llvm::ArrayRef<UOpRef> xs) {
    Ranges r;
    if (xs.empty())
      return r;
    return Ranges(local.ranges(sink(ctx, xs)));
  };

  llvm::DenseMap<UOpRef, Ranges> ending;
  for (UOpRef x : llvm::reverse(topo)) {
    if (x->op == sym::Op::CALL || x->op == sym::Op::FUNCTION || x->op == sym::Op::LINEAR ||
        x->op == sym::Op::AFTER || x->op == sym::Op::MSTACK || x->op == sym::Op::MSELECT)
      continue;
    auto &cons = consumers[x];
    Ranges endX;
    for (UOpRef u : cons)
      if (auto it = ending.find(u); it != ending.end())
        endX.append(it->second);

    std::optional<Shape> xshape = shapeOf(x);
    Ranges ended;
    for (UOpRef c : cons) {
      auto it = rctx.rangeMap.find(c);
      if (it == rctx.rangeMap.end() || !broadcastable(c->op))
        continue;
      auto cs = shapeOf(c);
      if (!xshape || !cs)
        continue;
      for (unsigned i : broadcastAxes(*xshape, *cs))
        ended.push_back(it->second.first[i]);
    }
    Ranges bcastEnding = rangesOfAll(ended);
    if (x->op == sym::Op::REDUCE)
      endX.append(bcastEnding);

    llvm::SmallVector<Ranges, 2> consumerRngs;
    for (UOpRef c : cons)
      if (auto it = rctx.rangeMap.find(c); it != rctx.rangeMap.end())
        consumerRngs.push_back(broadcastRngs(ctx, c, x, it->second.first));

    Ranges outR;
    auto realized = rctx.realize.find(x);
    if (realized != rctx.realize.end()) {
      if (!xshape) {
        fail(ctx, "rangeify", "realized " + sym::getOpName(x->op) + " has no shape");
        return false;
      }
      llvm::SmallVector<unsigned> axes;
      for (unsigned i = 0; i < xshape->size(); ++i) {
        outR.push_back(rctx.newRange(x, i));
        axes.push_back(i);
      }
      endX.clear();
      realized->second = axes;
    } else if (consumerRngs.empty()) {
      ending[x] = endX;
      continue;
    } else if (consumerRngs.size() == 1) {
      outR = consumerRngs[0];
    } else {
      size_t nax = consumerRngs[0].size();
      bool allSame = true;
      for (size_t i = 0; i < nax && allSame; ++i)
        for (auto &cr : consumerRngs)
          if (cr.size() != nax || getIdx(cr[i]) != getIdx(consumerRngs[0][i]))
            allSame = false;
      llvm::SmallVector<unsigned> axes;
      for (size_t i = 0; i < nax; ++i) {
        if (allSame) {
          UOpRef v = ctx.constBool(false);
          for (auto &cr : consumerRngs)
            v = py::usum(ctx, {v, getValid(ctx, cr[i])});
          UOpRef r = sym::graphRewrite(ctx, py::valid(ctx, getIdx(consumerRngs[0][i]), v),
                                       sym::symbolic());
          if (!r)
            return false;
          outR.push_back(r);
        } else {
          if (!xshape || i >= xshape->size()) {
            fail(ctx, "rangeify", "multi-consumer " + sym::getOpName(x->op) + " has no shape");
            return false;
          }
          outR.push_back(rctx.newRange(x, i));
          axes.push_back(i);
        }
      }
      if (!axes.empty())
        rctx.realize[x] = axes;
    }

    // a reduce or elementwise op whose ranges end is realized on the rest
    if (!endX.empty() && (elementwise(x->op) || x->op == sym::Op::REDUCE)) {
      llvm::SmallVector<unsigned> axes;
      if (auto it = rctx.realize.find(x); it != rctx.realize.end() && it->second)
        axes = *it->second;
      for (unsigned i = 0; i < outR.size(); ++i)
        if (!llvm::is_contained(axes, i))
          axes.push_back(i);
      endX.clear();
      if (!axes.empty()) {
        rctx.realize[x] = axes;
        for (unsigned i = 0; i < outR.size(); ++i)
          if (llvm::is_contained(axes, i))
            outR[i] = rctx.newRange(x, i);
      }
    }
    endX.append(bcastEnding);

    Ranges inR = outR;
    if (sym::isMovement(x->op)) {
      auto marg = margOf(x);
      auto ss = shapeOf(x->src[0]);
      if (!marg || !ss) {
        fail(ctx, "rangeify", sym::getOpName(x->op) + " needs a static shape and argument");
        return false;
      }
      auto r = applyMovementOp(ctx, x->op, *ss, *marg, outR);
      if (!r)
        return false;
      inR = *r;
    }
    if (x->op == sym::Op::STACK)
      inR.assign(outR.begin() + std::min<size_t>(1, outR.size()), outR.end());
    if (x->op == sym::Op::EXPAND) {
      auto marg = margOf(x);
      size_t k = std::min(marg->shape.size(), outR.size());
      auto r = rangesOfAll(llvm::ArrayRef<UOpRef>(outR).take_front(k));
      endX.append(r);
    }
    if (x->op == sym::Op::REDUCE) {
      auto nattr = dyn_cast_or_null<IntegerAttr>(x->arg.attrs.get("n"));
      int64_t nred = nattr ? nattr.getInt() : 0;
      if (nred) {
        auto ss = shapeOf(x->src[0]);
        Ranges red;
        for (int64_t i = 0; i < nred; ++i)
          red.push_back(rctx.newRange(x->src[0], i, tg::AxisType::Reduce));
        red.append(outR);
        inR = red;
      }
    }
    ending[x] = endX;
    rctx.rangeMap[x] = {inR, outR};
  }
  return true;
}

} // namespace

UOpRef sched::runRangeify(Context &ctx, UOpRef tsink) {
  IndexingContext rctx(ctx);
  sym::graphRewrite(ctx, tsink, pmGenerateRealizeMap(), &rctx);
  // gate_kernel_sink: kernels already built are opaque
  auto topo = toposort(tsink, [](UOpRef u) {
    return !(u->op == sym::Op::SINK && u->arg.attrs && u->arg.attrs.get("arg"));
  });
  if (!assignRanges(rctx, topo))
    return nullptr;
  UOpRef r = sym::graphRewriteBottomUp(ctx, tsink, pmApplyRangeify(), &rctx);
  if (!r)
    return nullptr;
  rctx.sinkDevice = deviceOf(tsink);
  return sym::graphRewrite(ctx, r, pmFixDeviceless(), &rctx);
}
