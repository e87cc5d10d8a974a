//===- Scheduler.cpp - tinygrad's opt axes and apply_opt -------------------===//
//
// The axes an opt names are tinygrad's `Scheduler.rngs`: the RANGEs of the
// AST (size > 1, not DEVICE) ordered by (axis_to_pos[type], id). An opt
// splits one of them with shift_to: RANGE(n) becomes RANGE(n/a)*a + new
// RANGE(a) of the opt's axis type (THREAD: the new range on top), the new
// range numbered after every existing one. Indices shift exactly as in
// tinygrad, so an opts_to_apply list means the same axes here.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Symbolic/Ranges.h"

#include "tinygrad/Symbolic/Rewrite.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::tinygrad::opt {
using sym::Op;
using sym::UOpRef;
using tg::AxisType;

namespace {
int axisToPos(AxisType t) {
  switch (t) {
  case AxisType::Device: return -2;
  case AxisType::Weak: case AxisType::Loop: return -1;
  case AxisType::Thread: case AxisType::Global: return 0;
  case AxisType::Warp: return 1;
  case AxisType::Local: case AxisType::GroupReduce: return 2;
  case AxisType::Upcast: return 3;
  case AxisType::Reduce: return 4;
  case AxisType::Unroll: return 5;
  default: return 6;
  }
}
/// A STORE into a register buffer (a hand-written kernel's REG
/// accumulator, through its AFTERs) whose value varies along `rng` and
/// whose index does not: made lanes of `rng`, its lanes would store to one
/// element, the last one's kept (tinygrad's own C for slice_sum under
/// UPCAST 0 2 writes both rows' sums to one accumulator, one row lost).
bool laneCollidingRegisterStore(sym::Context &ctx, UOpRef ast, UOpRef rng) {
  llvm::SmallVector<UOpRef, 64> topo;
  toposort(ast, topo);
  for (UOpRef s : topo) {
    if (s->op != Op::STORE || s->src.size() < 2 || s->src[0]->op != Op::INDEX || s->src[0]->src.size() < 2)
      continue;
    UOpRef b = s->src[0]->src[0];
    while (b->op == Op::AFTER && !b->src.empty())
      b = b->src[0];
    auto pa = b->op == Op::BUFFER && b->arg.attrs ? dyn_cast_or_null<tg::ParamAttr>(b->arg.attrs.get("arg"))
                                                   : tg::ParamAttr();
    if (!pa || pa.getAddrspace() != tg::AddrSpace::Reg)
      continue;
    bool indexed = llvm::any_of(s->src[0]->src.drop_front(), [&](UOpRef i) { return ctx.inBackwardSlice(rng, i); });
    if (!indexed && ctx.inBackwardSlice(rng, s->src[1]))
      return true;
  }
  return false;
}
} // namespace

const char *optName(tg::OptOps op) {
  switch (op) {
  case tg::OptOps::TC: return "TC";
  case tg::OptOps::Upcast: return "UPCAST";
  case tg::OptOps::Unroll: return "UNROLL";
  case tg::OptOps::Local: return "LOCAL";
  case tg::OptOps::Thread: return "THREAD";
  case tg::OptOps::Group: return "GROUP";
  case tg::OptOps::GroupTop: return "GROUPTOP";
  case tg::OptOps::NoLocals: return "NOLOCALS";
  case tg::OptOps::PadTo: return "PADTO";
  case tg::OptOps::Swap: return "SWAP";
  }
  return "?";
}

void toposort(UOpRef root, llvm::SmallVectorImpl<UOpRef> &out) {
  std::vector<UOpRef> order = sym::toposort(root);
  out.append(order.begin(), order.end());
}

void forEachNode(UOpRef root, llvm::function_ref<bool(UOpRef)> fn) {
  llvm::SmallVector<UOpRef, 32> stack{root};
  llvm::DenseSet<UOpRef> seen;
  while (!stack.empty()) {
    UOpRef u = stack.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (!fn(u))
      return;
    for (UOpRef s : u->src)
      stack.push_back(s);
  }
}

UOpRef indexOf(UOpRef bidx, bool *gated) {
  if (gated)
    *gated = false;
  if (bidx->src.size() < 2)
    return bidx;
  UOpRef i = bidx->src[1];
  if (i->op == Op::WHERE && i->src.size() == 3 && i->src[2]->isInvalid()) {
    if (gated)
      *gated = true;
    return i->src[1];
  }
  return i;
}

int64_t beamUpcastMax() {
  const char *v = std::getenv("BEAM_UPCAST_MAX");
  long long n = v && *v ? std::strtoll(v, nullptr, 10) : 0;
  return n > 0 ? (int64_t)n : kBeamUpcastMax;
}

std::string toString(const Opt &o) {
  std::string s = std::string("Opt(op=OptOps.") + optName(o.op) + ", axis=" +
                  (o.axis ? std::to_string(*o.axis) : "None") + ", arg=" + std::to_string(o.arg) + ")";
  return s;
}
std::string toString(llvm::ArrayRef<Opt> opts) {
  std::string s = "(";
  for (size_t i = 0; i < opts.size(); ++i)
    s += (i ? ", " : "") + toString(opts[i]);
  return s + (opts.size() == 1 ? ",)" : ")");
}

Scheduler::Scheduler(sym::Context &ctx, UOpRef ast, const TargetDescription &target)
    : ctx(ctx), ast(ast), target(target) {
  int64_t mx = 0;
  for (UOpRef r : rngs())
    mx = std::max(mx, axisId(r));
  nextRangeId = mx + 1;
}

int64_t Scheduler::newRangeId() {
  for (UOpRef r : rngs())
    nextRangeId = std::max(nextRangeId, axisId(r) + 1);
  return nextRangeId++;
}

AxisType Scheduler::axisType(UOpRef r) {
  if (r->arg.attrs)
    if (auto t = dyn_cast_or_null<tg::AxisTypeAttr>(r->arg.attrs.get("axis_type")))
      return t.getValue();
  return AxisType::Loop;
}
int64_t Scheduler::axisId(UOpRef r) {
  if (r->arg.attrs)
    if (auto ids = dyn_cast_or_null<DenseI64ArrayAttr>(r->arg.attrs.get("ids")))
      if (!ids.empty())
        return ids[0];
  return 0;
}
std::optional<int64_t> Scheduler::size(UOpRef r) {
  if (r->src.empty())
    return std::nullopt;
  UOpRef s = r->src[0];
  if (auto v = s->intVal())
    return (int64_t)*v;
  // ssimplify: a size whose bounds meet is that constant.
  if (s->vmin().isInt() && s->vmax().isInt() && s->vmin().i == s->vmax().i)
    return (int64_t)s->vmin().i;
  return std::nullopt;
}

llvm::SmallVector<UOpRef, 8> Scheduler::rngs() const {
  llvm::SmallVector<UOpRef, 64> topo;
  toposort(ast, topo);
  llvm::SmallVector<UOpRef, 8> out;
  for (UOpRef u : topo) {
    if (u->op != Op::RANGE || u->dtype == DType::Void || axisType(u) == AxisType::Device)
      continue;
    if (!u->vmax().isInt() || u->vmax().i <= 0)
      continue;
    out.push_back(u);
  }
  // Python's sorted is stable: ties keep toposort order.
  llvm::DenseMap<UOpRef, unsigned> order;
  for (unsigned i = 0; i < out.size(); ++i)
    order[out[i]] = i;
  llvm::sort(out, [&](UOpRef a, UOpRef b) {
    int pa = axisToPos(axisType(a)), pb = axisToPos(axisType(b));
    if (pa != pb)
      return pa < pb;
    auto ia = dyn_cast_or_null<DenseI64ArrayAttr>(a->arg.attrs.get("ids"));
    auto ib = dyn_cast_or_null<DenseI64ArrayAttr>(b->arg.attrs.get("ids"));
    if (ia && ib && ia.asArrayRef() != ib.asArrayRef())
      return std::lexicographical_compare(ia.asArrayRef().begin(), ia.asArrayRef().end(),
                                          ib.asArrayRef().begin(), ib.asArrayRef().end());
    return order[a] < order[b];
  });
  return out;
}

llvm::SmallVector<unsigned, 8> Scheduler::axesOf(std::initializer_list<AxisType> types) const {
  llvm::SmallVector<unsigned, 8> out;
  auto rs = rngs();
  for (unsigned i = 0; i < rs.size(); ++i)
    if (llvm::is_contained(types, axisType(rs[i])))
      out.push_back(i);
  return out;
}
llvm::SmallVector<unsigned, 8> Scheduler::upcastableDims() const {
  llvm::SmallVector<unsigned, 8> out;
  auto rs = rngs();
  for (unsigned i : axesOf({AxisType::Global, AxisType::Local, AxisType::Weak}))
    if (auto s = size(rs[i]); s && *s > 1)
      out.push_back(i);
  return out;
}
llvm::SmallVector<unsigned, 8> Scheduler::unrollableDims() const {
  llvm::SmallVector<unsigned, 8> out;
  auto rs = rngs();
  for (unsigned i : axesOf({AxisType::GroupReduce, AxisType::Reduce}))
    if (auto s = size(rs[i]); s && *s > 1)
      out.push_back(i);
  return out;
}
int64_t Scheduler::upcastSize() const {
  int64_t p = 1;
  auto rs = rngs();
  for (unsigned i : axesOf({AxisType::Upcast, AxisType::Unroll}))
    p *= size(rs[i]).value_or(1);
  return p;
}
llvm::SmallVector<UOpRef, 8> Scheduler::bufs() const {
  llvm::SmallVector<UOpRef, 64> topo;
  toposort(ast, topo);
  llvm::SmallVector<UOpRef, 8> out;
  for (UOpRef u : llvm::reverse(topo))
    if (u->op == Op::INDEX)
      out.push_back(u);
  return out;
}
llvm::SmallVector<UOpRef, 4> Scheduler::reduceOps() const {
  llvm::SmallVector<UOpRef, 64> topo;
  toposort(ast, topo);
  llvm::SmallVector<UOpRef, 4> out;
  for (UOpRef u : topo)
    if (u->op == Op::REDUCE)
      out.push_back(u);
  return out;
}

/// `_globalizable_rngs`: WEAK ranges an END of the sink closes (and every
/// STAGE keeps).
llvm::SmallVector<UOpRef, 4> Scheduler::globalizableRngs() const {
  llvm::SmallVector<UOpRef, 4> out;
  for (UOpRef e : ast->src) {
    if (e->op != Op::END)
      continue;
    for (UOpRef c : e->src.drop_front()) {
      llvm::SmallVector<UOpRef, 16> topo;
      toposort(c, topo);
      for (UOpRef r : topo)
        if (r->op == Op::RANGE && axisType(r) == AxisType::Weak && !llvm::is_contained(out, r))
          out.push_back(r);
    }
  }
  llvm::SmallVector<UOpRef, 64> topo;
  toposort(ast, topo);
  for (UOpRef x : topo)
    if (x->op == Op::STAGE)
      llvm::erase_if(out, [&](UOpRef r) { return !ctx.inBackwardSlice(r, x); });
  return out;
}

void Scheduler::convertLoopToGlobal() {
  if (!target.hasLocal)
    return;
  auto glob = globalizableRngs();
  llvm::DenseMap<UOpRef, UOpRef> map;
  MLIRContext *m = ctx.getMLIRContext();
  for (UOpRef r : rngs())
    if (llvm::is_contained(glob, r)) {
      NamedAttrList attrs(r->arg.attrs);
      attrs.set("axis_type", tg::AxisTypeAttr::get(m, AxisType::Global));
      map[r] = ctx.get(Op::RANGE, r->type, r->src, sym::Arg{r->arg.value, attrs.getDictionary(m)});
    }
  if (!map.empty())
    ast = sym::substitute(ctx, ast, map);
}

UOpRef makeRange(sym::Context &ctx, UOpRef like, int64_t size, int64_t id, AxisType t) {
  MLIRContext *m = ctx.getMLIRContext();
  Builder b(m);
  NamedAttrList attrs;
  attrs.set("ids", b.getDenseI64ArrayAttr({id}));
  attrs.set("axis_type", tg::AxisTypeAttr::get(m, t));
  return ctx.get(Op::RANGE, like->type, {ctx.constLike(like->src[0], size)},
                 sym::Arg{Scalar(), attrs.getDictionary(m)});
}

void Scheduler::shiftTo(UOpRef rng, int64_t amount, AxisType type, bool top) {
  UOpRef oldSz = ctx.divides(rng->src[0], amount);
  UOpRef newRng = makeRange(ctx, rng, amount, newRangeId(), type);
  llvm::SmallVector<UOpRef, 2> src(rng->src.begin(), rng->src.end());
  src[0] = oldSz;
  UOpRef replaced = ctx.get(Op::RANGE, rng->type, src, rng->arg);
  UOpRef sub = top ? ctx.add(ctx.mul(newRng, oldSz), replaced)
                   : ctx.add(ctx.mul(replaced, ctx.constLike(rng->src[0], amount)), newRng);
  llvm::DenseMap<UOpRef, UOpRef> map{{rng, sub}};
  ast = sym::substitute(ctx, ast, map);
}

bool Scheduler::applyOpt(const Opt &o, bool append) {
  error.clear();
  if (o.op == tg::OptOps::NoLocals) {
    for (UOpRef r : rngs()) {
      AxisType t = axisType(r);
      if (!check(t != AxisType::Warp && t != AxisType::Local && t != AxisType::GroupReduce,
                 "no locals can't have locals"))
        return false;
    }
    if (append)
      applied.push_back(o);
    dontUseLocals = true;
    return true;
  }
  bool grouping = o.op == tg::OptOps::Group || o.op == tg::OptOps::GroupTop;
  if ((o.op == tg::OptOps::Local || grouping) && !check(target.hasLocal, "locals needed for opt"))
    return false;
  if (o.op == tg::OptOps::TC)
    return check(false, "no tensor cores on this target");
  auto rs = rngs();
  if (!o.axis)
    return check(false, "opt needs an axis");
  int64_t real = *o.axis;
  if (o.op == tg::OptOps::Unroll) {
    auto ud = unrollableDims();
    if (real < 0 || real >= (int64_t)ud.size())
      return check(false, "invalid unroll axis");
    real = ud[real];
  } else if (grouping) {
    auto rd = axesOf({AxisType::Reduce});
    if (real < 0 || real >= (int64_t)rd.size())
      return check(false, "invalid group axis");
    real = rd[real];
  } else if (!check(real >= 0 && real < (int64_t)rs.size(), "invalid axis")) {
    return false;
  }
  UOpRef rng = rs[real];
  AxisType at = axisType(rng);
  if (o.op == tg::OptOps::Swap) {
    if (!check(o.arg >= 0 && o.arg < (int64_t)rs.size(), "invalid swap axis"))
      return false;
    UOpRef alt = rs[o.arg];
    if (!check(at == AxisType::Global && axisType(alt) == AxisType::Global, "swap only for globals"))
      return false;
    // Each keeps its own type and size and takes the other's ids.
    auto withIds = [&](UOpRef r, UOpRef idsOf) {
      NamedAttrList attrs(r->arg.attrs);
      attrs.set("ids", idsOf->arg.attrs.get("ids"));
      return ctx.get(Op::RANGE, r->type, r->src, sym::Arg{r->arg.value, attrs.getDictionary(ctx.getMLIRContext())});
    };
    llvm::DenseMap<UOpRef, UOpRef> map{{rng, withIds(rng, alt)}, {alt, withIds(alt, rng)}};
    ast = sym::substitute(ctx, ast, map);
    if (append)
      applied.push_back(o);
    return true;
  }
  if (o.op == tg::OptOps::PadTo) {
    auto n = size(rng);
    if (!check(n.has_value(), "only pad const axes") ||
        !check(at != AxisType::Upcast && at != AxisType::Unroll, "cannot pad upcasted") ||
        !check(at != AxisType::Thread, "cannot pad thread") || !check(o.arg > 0, "pad amount"))
      return false;
    int64_t newSz = (*n + o.arg - 1) / o.arg * o.arg;
    if (!check(*n > newSz / 4, "pad adds more than quadruple the work"))
      return false;
    llvm::SmallVector<UOpRef, 2> src(rng->src.begin(), rng->src.end());
    src[0] = ctx.constLike(rng->src[0], newSz);
    UOpRef padded = ctx.get(Op::RANGE, rng->type, src, rng->arg);
    UOpRef valid = ctx.lt(padded, *n);
    llvm::DenseSet<UOpRef> storeTargets;
    llvm::SmallVector<UOpRef, 64> topo;
    toposort(ast, topo);
    for (UOpRef s : topo)
      if (s->op == Op::STORE)
        storeTargets.insert(s->src[0]);
    llvm::DenseMap<UOpRef, UOpRef> map{{rng, padded}};
    for (UOpRef bidx : bufs()) {
      if (bidx->src.size() < 2)
        continue;
      UOpRef i = bidx->src[1], idx = i, gate = nullptr;
      if (i->op == Op::WHERE && i->src[2]->isInvalid())
        gate = i->src[0], idx = i->src[1];
      if (!ctx.inBackwardSlice(rng, idx))
        continue;
      UOpRef g = gate ? ctx.andOp(valid, gate) : valid;
      UOpRef ni = ctx.where(g, idx, ctx.cnst(Scalar::invalid(), idx->dtype));
      llvm::SmallVector<UOpRef, 3> bsrc(bidx->src.begin(), bidx->src.end());
      bsrc[1] = ni;
      UOpRef nb = ctx.get(Op::INDEX, bidx->type, bsrc, bidx->arg);
      map[bidx] = storeTargets.count(bidx)
                      ? nb
                      : ctx.where(valid, nb, ctx.cnst(Scalar::invalid(), bidx->dtype));
    }
    ast = sym::substitute(ctx, ast, map);
    if (append)
      applied.push_back(o);
    return true;
  }
  if ((o.op == tg::OptOps::Upcast || o.op == tg::OptOps::Unroll) &&
      !check(!laneCollidingRegisterStore(ctx, ast, rng), "a register store does not index this axis: its lanes "
                                                          "would store to one element"))
    return false;
  int64_t amt = o.arg == 0 ? (int64_t)rng->vmax().i + 1 : o.arg;
  AxisType newType = AxisType::Upcast;
  bool top = false;
  auto reds = reduceOps();
  int64_t groupForReduces = (int64_t)axesOf({AxisType::GroupReduce}).size();
  // copied from kernel.py in tinygrad: the staged partial sums must fit in
  // shared memory (it prevents METAL compiler hangs there).
  if (!reds.empty() && (grouping || (groupForReduces && o.op != tg::OptOps::NoLocals && o.op != tg::OptOps::PadTo))) {
    int64_t upcastLocal = 1;
    for (unsigned a : axesOf({AxisType::Upcast, AxisType::Warp, AxisType::Local, AxisType::GroupReduce}))
      upcastLocal *= size(rs[a]).value_or(1);
    int64_t smem = amt * upcastLocal * getInfo(reds.front()->dtype).itemsize;
    if (!check(smem <= target.sharedMaxBytes, "exceeds maximum shared memory size"))
      return false;
  }
  if (!reds.empty() && grouping) {
    // We currently dont support a group within another reduce (tinygrad).
    sym::RangeCache rc;
    for (UOpRef red : reds) {
      bool closesRng = false;
      for (UOpRef r : red->src.drop_front())
        closesRng |= rc.inRanges(rng, r) || r == rng;
      if (!closesRng)
        continue;
      for (UOpRef outer : rc.ranges(red)) {
        AxisType t = axisType(outer);
        if (!check(t != AxisType::Reduce && t != AxisType::Unroll && t != AxisType::GroupReduce,
                   "cannot have a GROUP_REDUCE inside another reduce"))
          return false;
      }
      break;
    }
  }
  switch (o.op) {
  case tg::OptOps::Unroll:
    if (!check(amt <= 32, "don't unroll more than 32") ||
        !check(at == AxisType::GroupReduce || at == AxisType::Reduce, "unroll is for GROUP_REDUCE/REDUCE"))
      return false;
    newType = AxisType::Unroll;
    break;
  case tg::OptOps::Upcast:
    if (!check(amt <= 16, "don't upcast more than 16") ||
        !check(at == AxisType::Global || at == AxisType::Local || at == AxisType::Weak,
               "upcast is for GLOBAL/LOCAL/LOOP"))
      return false;
    break;
  case tg::OptOps::Local:
    if (!check(!dontUseLocals, "can't use locals") ||
        !check(at == AxisType::Global || at == AxisType::Weak, "local is for globals"))
      return false;
    newType = AxisType::Local;
    break;
  case tg::OptOps::Group:
  case tg::OptOps::GroupTop:
    if (!check(!dontUseLocals, "can't use locals") || !check(at == AxisType::Reduce, "group is for reduce"))
      return false;
    newType = AxisType::GroupReduce;
    top = o.op == tg::OptOps::GroupTop;
    break;
  case tg::OptOps::Thread: {
    if (!check(target.hasThreads, "target does not support threads") ||
        !check(amt <= target.globalMax[0], "too many threads"))
      return false;
    for (UOpRef r : rs)
      if (!check(axisType(r) != AxisType::Thread, "already threaded"))
        return false;
    if (!check(llvm::is_contained(globalizableRngs(), rng), "can't apply range to this dim"))
      return false;
    newType = AxisType::Thread;
    top = true;
    break;
  }
  default:
    return check(false, "unsupported opt");
  }
  if (!check(amt > 0 && ctx.divides(rng->src[0], amt) != nullptr, "amount can't divide the axis"))
    return false;
  shiftTo(rng, amt, newType, top);
  if (append)
    applied.push_back(o);
  return true;
}

} // namespace mlir::tinygrad::opt
