//===- ResolveUnshards.cpp - multi_pm on a kernel: in-kernel shards -------===//
//
// tinygrad/schedule/multi.py's multi_pm, as full_rewrite_to_sink runs it
// first on every kernel AST. The scheduler has resolved multi-device
// tensors by then; what is left inside a kernel is a value UNSHARDed over a
// range (a per-thread REG or LOCAL fragment over a LOCAL thread range, or
// a PARAM sharded over a DEVICE range), and every op on it becomes the op
// on the shard that range owns. The rules are multi_pm's, in its order;
// those that need a copy between shards (COPY, ALLREDUCE, resharding ALUs,
// a shrink across shards) cannot be a single kernel and are errors with
// tinygrad's message.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Steps.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Schedule/Graph.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;
using sched::Shape;
using sym::Context;
using K = sym::Op;
using sym::UOpRef;

namespace {

/// (axis, RANGE) pairs a value is UNSHARDed over (`.sharding`).
using Sharding = llvm::SmallVector<std::pair<int64_t, UOpRef>, 2>;

Sharding shardingOf(UOpRef u) {
  Sharding s;
  if (u->op != K::UNSHARD || !u->arg.attrs)
    return s;
  auto axes = dyn_cast_or_null<DenseI64ArrayAttr>(u->arg.attrs.get("axes"));
  if (!axes)
    return s;
  for (auto [i, a] : llvm::enumerate(axes.asArrayRef()))
    if (i + 1 < u->src.size())
      s.push_back({a, u->src[i + 1]});
  return s;
}

/// `int(rng.vmax)+1`: the shards a range stands for.
int64_t countOf(UOpRef rng) { return rng->vmax().isInt() ? (int64_t)rng->vmax().i + 1 : 0; }

Shape shapeOr(UOpRef u) { return sched::shapeOf(u).value_or(Shape{}); }

/// `x.unshard(axes, ranges)`: the axes sorted, each dim times its shards.
UOpRef unshard(Context &ctx, UOpRef x, Sharding s) {
  if (s.empty())
    return x;
  llvm::sort(s, [](auto &a, auto &b) { return a.first < b.first; }); // axes are distinct
  tg::ValueInfo info = tg::getValueInfo(x->type);
  Shape shape(info.shape.begin(), info.shape.end());
  llvm::SmallVector<int64_t, 2> axes;
  llvm::SmallVector<UOpRef, 3> src{x};
  for (auto [ax, rng] : s) {
    if (ax >= 0 && ax < (int64_t)shape.size() && shape[ax] != tg::kDynamic)
      shape[ax] *= countOf(rng);
    axes.push_back(ax);
    src.push_back(rng);
  }
  MLIRContext *mc = ctx.getMLIRContext();
  auto d = DictionaryAttr::get(mc, {NamedAttribute(StringAttr::get(mc, "axes"), DenseI64ArrayAttr::get(mc, axes))});
  return ctx.get(K::UNSHARD, tg::makeValueType(info.elementType, shape, info.addrspace), src,
                 sym::Arg{Scalar(), d});
}
UOpRef unshardLike(Context &ctx, UOpRef x, UOpRef multi) { return unshard(ctx, x, shardingOf(multi)); }

/// shape_to_shape_arg over simplified dims (what `_mop` builds).
UOpRef shapeArg(Context &ctx, llvm::ArrayRef<UOpRef> dims) {
  llvm::SmallVector<UOpRef, 4> s;
  for (UOpRef d : dims)
    s.push_back(sym::simplify(ctx, d));
  return s.size() == 1 ? s[0] : ctx.stack(s);
}
int64_t dimValue(UOpRef d) { return d->intVal() ? (int64_t)*d->intVal() : tg::kDynamic; }

/// `x._mop(op, marg)` with the marg's numbers as nodes: RESHAPE takes `a`
/// (the shape), EXPAND `a` (the axes it prepends), PAD and SHRINK (offset, size) take `a` and `b`,
/// PERMUTE/FLIP their attribute from `like`.
UOpRef mop(Context &ctx, K op, UOpRef x, llvm::ArrayRef<UOpRef> a, llvm::ArrayRef<UOpRef> b = {},
           UOpRef like = nullptr) {
  tg::ValueInfo info = tg::getValueInfo(x->type);
  Shape in(info.shape.begin(), info.shape.end()), out;
  llvm::SmallVector<UOpRef, 3> src{x};
  switch (op) {
  case K::RESHAPE:
  case K::EXPAND:
    if (op == K::EXPAND && a.empty())
      return x;
    src.push_back(shapeArg(ctx, a));
    for (UOpRef d : a)
      out.push_back(dimValue(sym::simplify(ctx, d)));
    if (op == K::EXPAND) // EXPAND prepends its axes
      out.append(in.begin(), in.end());
    break;
  case K::SHRINK:
  case K::PAD:
    if (a.empty())
      return x;
    src.push_back(shapeArg(ctx, a));
    src.push_back(shapeArg(ctx, b));
    // both are (offset, size) per dim: the result has the sizes
    for (size_t i = 0; i < a.size(); ++i)
      out.push_back(dimValue(sym::simplify(ctx, b[i])));
    break;
  default: { // PERMUTE, FLIP: the attribute of `like`
    auto perm = like->arg.attrs ? dyn_cast_or_null<DenseI64ArrayAttr>(like->arg.attrs.get("perm"))
                                : DenseI64ArrayAttr();
    out = in;
    if (op == K::PERMUTE && perm)
      for (auto [i, p] : llvm::enumerate(perm.asArrayRef()))
        out[i] = in[p];
    return ctx.get(op, tg::makeValueType(info.elementType, out, info.addrspace), {x}, like->arg);
  }
  }
  return ctx.get(op, tg::makeValueType(info.elementType, out, info.addrspace), src);
}

/// The marg of a movement op as nodes (RESHAPE/EXPAND: dims; PAD/SHRINK:
/// the offsets (which = 1) and sizes (which = 2)).
llvm::SmallVector<UOpRef, 4> margNodes(UOpRef u, unsigned which) {
  UOpRef s = u->src[which];
  if (s->op == K::STACK)
    return llvm::SmallVector<UOpRef, 4>(s->src.begin(), s->src.end());
  return {s};
}

/// `x._shard(axis, rng)`: the contiguous block of axis `axis` that shard
/// `rng` owns; null (with tinygrad's error) if the axis does not divide.
UOpRef shardOf(Context &ctx, UOpRef x, int64_t axis, UOpRef rng) {
  Shape s = shapeOr(x);
  if (s.empty())
    return x; // scalars broadcast, no sharding needed
  int64_t count = countOf(rng);
  if (axis < 0 || axis >= (int64_t)s.size() || s[axis] == tg::kDynamic || !count || s[axis] % count)
    return sched::fail(ctx, "multi", "multi axis uneven: shape " + sched::formatShape(s) + " axis " +
                                         std::to_string(axis) + " over " + std::to_string(count) +
                                         " shards");
  int64_t sz = s[axis] / count;
  if (sz == s[axis])
    return x; // a shrink that keeps the shape is the value itself
  llvm::SmallVector<UOpRef, 4> start, len;
  for (size_t i = 0; i < s.size(); ++i) {
    start.push_back((int64_t)i == axis ? ctx.mul(rng, sz) : ctx.constInt(0));
    len.push_back(ctx.constInt((int64_t)i == axis ? sz : s[i]));
  }
  return mop(ctx, K::SHRINK, x, start, len);
}

/// shard_subview: the sub-view of an unsharded full-shape value that
/// belongs to this shard (contiguous blocks along every sharded axis).
UOpRef shardSubview(Context &ctx, UOpRef full, UOpRef multi) {
  if (shapeOr(full) != shapeOr(multi))
    return sched::fail(ctx, "multi", "shard sub-view shape mismatch " + sched::formatShape(shapeOr(full)) +
                                         " != " + sched::formatShape(shapeOr(multi)));
  // an EXPAND of a scalar is the same broadcast on every shard
  if (full->op == K::EXPAND && shapeOr(full->src[0]).empty()) {
    llvm::SmallVector<UOpRef, 4> dims;
    for (int64_t d : shapeOr(multi->src[0]))
      dims.push_back(ctx.constInt(d));
    return mop(ctx, K::EXPAND, full->src[0], dims);
  }
  for (auto [ax, rng] : shardingOf(multi))
    if (!(full = shardOf(ctx, full, ax, rng)))
      return nullptr;
  return full;
}

/// `buf.index(*idxs)` typed as the dialect infers it: the buffer's
/// addrspace as its type carries it (an INDEX of an ALU value is ALU).
UOpRef indexNode(Context &ctx, UOpRef buf, llvm::ArrayRef<UOpRef> idxs) {
  tg::ValueInfo b = tg::getValueInfo(buf->type);
  Shape shape;
  for (UOpRef i : idxs)
    shape.append(shapeOr(i));
  shape.append(b.shape.begin() + std::min(idxs.size(), b.shape.size()), b.shape.end());
  llvm::SmallVector<UOpRef, 4> src{buf};
  src.append(idxs.begin(), idxs.end());
  return ctx.get(K::INDEX, tg::makeValueType(b.elementType, shape, b.addrspace), src);
}

/// A readable index expression for diagnostics (r<id> for ranges).
std::string formatIndex(UOpRef u) {
  if (u->op == K::CONST && u->intVal())
    return std::to_string((long long)*u->intVal());
  if (u->op == K::RANGE) {
    auto ids = sched::rangeIds(u);
    return "r" + (ids.empty() ? std::string("?") : std::to_string(ids[0]));
  }
  const char *sep = u->op == K::ADD ? "+" : u->op == K::MUL ? "*" : u->op == K::FLOORDIV ? "//"
                    : u->op == K::FLOORMOD ? "%" : nullptr;
  if (sep && u->src.size() == 2)
    return "(" + formatIndex(u->src[0]) + sep + formatIndex(u->src[1]) + ")";
  return sym::getOpName(u->op).str();
}

//===----------------------------------------------------------------------===//
// multi_pm's functions
//===----------------------------------------------------------------------===//

UOpRef paramToMulti(Match &m) {
  UOpRef p = m[n::p];
  auto pa = sched::paramArg(p);
  if (!pa || !pa.getAxis())
    return nullptr;
  auto devs = dyn_cast_or_null<ArrayAttr>(pa.getDevice());
  Shape s = shapeOr(p);
  int64_t axis = *pa.getAxis();
  if (!devs || axis < 0 || axis >= (int64_t)s.size() || s[axis] == tg::kDynamic || s[axis] % (int64_t)devs.size())
    return sched::fail(m.ctx, "param_to_multi", "a sharded PARAM needs a tuple of devices that divides its axis");
  Shape shard = s;
  shard[axis] /= (int64_t)devs.size();
  auto arg = tg::ParamAttr::get(m.ctx.getMLIRContext(), pa.getSlot(), pa.getDtype(), pa.getVminVmax(),
                                pa.getMultipleOf(), pa.getName(), pa.getAddrspace(), std::nullopt,
                                pa.getDevice(), pa.getIsVolatile(), pa.getSize());
  UOpRef local = sched::storage(m.ctx, K::PARAM, shard, arg);
  UOpRef dnum = sched::range(m.ctx, (int64_t)devs.size(), -1, tg::AxisType::Device);
  return unshard(m.ctx, local, {{axis, dnum}});
}

/// The first UNSHARD source of `root` (whose sharding an ALU or STACK takes).
UOpRef firstUnshard(UOpRef root) {
  for (UOpRef s : root->src)
    if (s->op == K::UNSHARD)
      return s;
  return nullptr;
}

UOpRef aluMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root];
  UOpRef target = firstUnshard(root);
  if (!target)
    return nullptr;
  Sharding sharding = shardingOf(target);
  auto canHandle = [&](UOpRef s) {
    if (s->op == K::UNSHARD)
      return shardingOf(s) == sharding;
    return shapeOr(s).empty() || shapeOr(s) == shapeOr(target);
  };
  if (!llvm::all_of(root->src, canHandle))
    return sched::fail(ctx, "alu_multi", "the sources of " + sym::getOpName(root->op).str() +
                                             " are sharded differently: resharding needs a copy "
                                             "between shards, which one kernel cannot do");
  llvm::SmallVector<UOpRef, 3> srcs;
  for (UOpRef s : root->src) {
    UOpRef x = s->op == K::UNSHARD ? s->src[0] : shapeOr(s).empty() ? s : shardSubview(ctx, s, target);
    if (!x)
      return nullptr;
    srcs.push_back(x);
  }
  return unshardLike(ctx, ctx.alu(root->op, srcs), target);
}

UOpRef reduceMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root], multi = m[n::multi];
  auto nAttr = root->arg.attrs ? dyn_cast_or_null<IntegerAttr>(root->arg.attrs.get("n")) : IntegerAttr();
  auto kind = root->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(root->arg.attrs.get("kind"))
                              : tg::ReduceKindAttr();
  if (!nAttr || !kind)
    return nullptr;
  int64_t numAxes = nAttr.getInt();
  Sharding remaining;
  for (auto [ax, rng] : shardingOf(multi)) {
    if (ax < numAxes)
      return sched::fail(ctx, "reduce_multi", "a REDUCE over a sharded axis is an ALLREDUCE across "
                                              "shards, which one kernel cannot do");
    remaining.push_back({ax - numAxes, rng});
  }
  return unshard(ctx, sched::reduceAxes(ctx, multi->src[0], kind.getValue(), numAxes), remaining);
}

UOpRef reshapeMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root], multi = m[n::multi];
  auto newShape = sched::margOf(root);
  Shape ms = shapeOr(multi);
  if (!newShape || llvm::is_contained(newShape->shape, tg::kDynamic) || llvm::is_contained(ms, tg::kDynamic))
    return nullptr;
  Shape ns = newShape->shape;
  auto prod = [](llvm::ArrayRef<int64_t> s) {
    int64_t p = 1;
    for (int64_t d : s)
      p *= d;
    return p;
  };
  if (prod(ms) != prod(ns))
    return sched::fail(ctx, "reshape_multi", "reshape must maintain prod(shape)");
  llvm::SmallVector<int64_t, 6> acc{1};
  for (int64_t s : ns)
    acc.push_back(acc.back() * s);
  Sharding out;
  for (auto [ax, rng] : shardingOf(multi)) {
    int64_t count = countOf(rng), target = prod(llvm::ArrayRef<int64_t>(ms).take_front(ax));
    auto it = std::find(acc.rbegin(), acc.rend(), target);
    int64_t newAx = it == acc.rend() ? -1 : (int64_t)(acc.rend() - it) - 1;
    if (newAx < 0 || newAx >= (int64_t)ns.size() || !count || ns[newAx] % count)
      return sched::fail(ctx, "reshape_multi", "reshape " + sched::formatShape(ms) + " -> " +
                                                   sched::formatShape(ns) + " moved items between shards");
    out.push_back({newAx, rng});
  }
  llvm::SmallVector<UOpRef, 4> dims;
  for (auto [a, s] : llvm::enumerate(ns)) {
    int64_t d = s;
    for (auto [ax, rng] : out)
      if (ax == (int64_t)a)
        d = s / countOf(rng);
    dims.push_back(ctx.constInt(d));
  }
  return unshard(ctx, mop(ctx, K::RESHAPE, multi->src[0], dims), out);
}

UOpRef expandMulti(Match &m) {
  UOpRef root = m[n::root], multi = m[n::multi];
  // tinygrad expands the shard to the root's marg as given (the sharded
  // axes keep their shard size there) and shifts the axes by its length.
  llvm::SmallVector<UOpRef, 4> dims = margNodes(root, 1);
  int64_t shift = (int64_t)dims.size();
  Sharding out;
  for (auto [ax, rng] : shardingOf(multi))
    out.push_back({ax + shift, rng});
  return unshard(m.ctx, mop(m.ctx, K::EXPAND, multi->src[0], dims), out);
}

UOpRef padMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root], multi = m[n::multi];
  auto marg = sched::margOf(root);
  Shape ms = shapeOr(multi), ss = shapeOr(multi->src[0]);
  if (!marg)
    return nullptr;
  llvm::SmallVector<UOpRef, 4> lo = margNodes(root, 1), hi = margNodes(root, 2);
  for (auto [ax, rng] : shardingOf(multi)) {
    if (marg->pairs[ax] != std::make_pair(int64_t(0), ms[ax]))
      return sched::fail(ctx, "pad_multi", "padding not supported on sharded axis " + std::to_string(ax));
    lo[ax] = ctx.constInt(0);
    hi[ax] = ctx.constInt(ss[ax]);
  }
  return unshardLike(ctx, mop(ctx, K::PAD, multi->src[0], lo, hi), multi);
}

UOpRef shrinkMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root], multi = m[n::multi];
  llvm::SmallVector<UOpRef, 4> start = margNodes(root, 1), len = margNodes(root, 2);
  Shape ss = shapeOr(multi->src[0]), ms = shapeOr(multi);
  Sharding remaining;
  for (auto [ax, rng] : shardingOf(multi)) {
    int64_t shardSz = ss[ax];
    UOpRef s = start[ax], l = len[ax];
    // a shrink to exactly this range's own shard resolves the UNSHARD on that axis
    UOpRef local = sym::simplify(ctx, ctx.sub(s, ctx.mul(rng, shardSz)));
    if (sym::simplify(ctx, l)->intVal() == __int128(shardSz) && local->intVal() == __int128(0)) {
      start[ax] = ctx.constInt(0);
      len[ax] = ctx.constInt(shardSz);
      continue;
    }
    remaining.push_back({ax, rng});
    if (s->intVal() == __int128(0) && l->intVal() == __int128(ms[ax])) {
      start[ax] = ctx.constInt(0); // the full axis stays sharded
      len[ax] = ctx.constInt(shardSz);
      continue;
    }
    // tinygrad selects one device's partition by a copy, only outside kernels
    return sched::fail(ctx, "shrink_multi", "shrinking not supported across the shards of axis " +
                                                std::to_string(ax) + " inside a kernel");
  }
  return unshard(ctx, mop(ctx, K::SHRINK, multi->src[0], start, len), remaining);
}

UOpRef permuteMulti(Match &m) {
  UOpRef root = m[n::root], multi = m[n::multi];
  auto marg = sched::margOf(root);
  if (!marg)
    return nullptr;
  Sharding out;
  for (auto [ax, rng] : shardingOf(multi))
    out.push_back({(int64_t)(llvm::find(marg->perm, ax) - marg->perm.begin()), rng});
  return unshard(m.ctx, mop(m.ctx, K::PERMUTE, multi->src[0], {}, {}, root), out);
}

UOpRef flipMulti(Match &m) {
  UOpRef root = m[n::root], multi = m[n::multi];
  auto marg = sched::margOf(root);
  if (!marg)
    return nullptr;
  for (auto [ax, rng] : shardingOf(multi))
    if (marg->perm[ax])
      return sched::fail(m.ctx, "flip_multi", "flipping not supported on sharded axis " + std::to_string(ax));
  return unshardLike(m.ctx, mop(m.ctx, K::FLIP, multi->src[0], {}, {}, root), multi);
}

UOpRef stackMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root];
  UOpRef first = firstUnshard(root);
  if (!first)
    return nullptr;
  Sharding sharding = shardingOf(first);
  llvm::SmallVector<UOpRef, 4> srcs;
  for (UOpRef s : root->src) {
    if (s->op == K::UNSHARD && shardingOf(s) != sharding)
      return sched::fail(ctx, "stack_multi", "the sources of a STACK are sharded differently: "
                                             "resharding needs a copy between shards");
    srcs.push_back(s->op == K::UNSHARD ? s->src[0] : s);
  }
  // STACK adds a leading axis: the sources are sharded one axis below
  Sharding out;
  for (auto [ax, rng] : sharding)
    out.push_back({ax + 1, rng});
  return unshard(ctx, ctx.stack(srcs), out);
}

UOpRef indexMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root], multi = m[n::multi];
  llvm::SmallVector<UOpRef, 4> idxs(root->src.begin() + 1, root->src.end());
  Shape ss = shapeOr(multi->src[0]);
  for (auto [ax, rng] : shardingOf(multi)) {
    if (ax >= (int64_t)idxs.size() || ax >= (int64_t)ss.size() || ss[ax] == tg::kDynamic)
      return sched::fail(ctx, "index_multi", "an INDEX of an UNSHARD needs an index for sharded axis " +
                                                 std::to_string(ax));
    int64_t shardSz = ss[ax];
    auto inShard = [&](UOpRef x) {
      return x->vmin().isInt() && x->vmax().isInt() && x->vmin().i >= 0 && x->vmax().i < shardSz;
    };
    // contiguous ownership: idx = rng*shard_sz + local
    UOpRef local = sym::simplify(ctx, ctx.sub(idxs[ax], ctx.mul(rng, shardSz)));
    if (inShard(local)) {
      idxs[ax] = local;
      continue;
    }
    // strided ownership: idx = rng + ir*shard_sz
    UOpRef diff = sym::simplify(ctx, ctx.sub(idxs[ax], rng));
    UOpRef mod = sym::simplify(ctx, ctx.floormod(diff, shardSz));
    if (mod->intVal() == __int128(0)) {
      local = sym::simplify(ctx, ctx.floordiv(diff, shardSz));
      if (inShard(local)) {
        idxs[ax] = local;
        continue;
      }
    }
    return sched::fail(ctx, "index_multi", "cannot shard index " + formatIndex(idxs[ax]) + " for UNSHARD axis " +
                                               std::to_string(ax) + " with shard size " + std::to_string(shardSz));
  }
  return indexNode(ctx, multi->src[0], idxs);
}

/// passthrough_multi: the op on the shard, its other UNSHARD sources peeled.
UOpRef passthroughMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root], multi = m[n::multi];
  llvm::SmallVector<UOpRef, 4> src{multi->src[0]};
  for (UOpRef s : root->src.drop_front())
    src.push_back(s->op == K::UNSHARD ? s->src[0] : s);
  UOpRef r;
  if (root->op == K::CAST)
    r = ctx.cast(src[0], root->dtype);
  else if (root->op == K::AFTER)
    r = sched::after(ctx, src[0], llvm::ArrayRef<UOpRef>(src).drop_front());
  else {
    // BITCAST, CONTIGUOUS, DETACH, ...: the root's dtype over the shard's shape
    tg::ValueInfo in = tg::getValueInfo(src[0]->type), out = tg::getValueInfo(root->type);
    Type t = root->op == K::CALL ? root->type
                                  : tg::makeValueType(out.elementType, in.shape, out.addrspace);
    r = ctx.get(root->op, t, src, root->arg);
  }
  return unshardLike(ctx, r, multi);
}

UOpRef storeAfterMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef dest = m[n::dest], src = m[n::src];
  return unshardLike(ctx, sched::after(ctx, dest, {sched::store(ctx, dest, src->src[0])}), src);
}

UOpRef storeValueMulti(Match &m) {
  UOpRef view = shardSubview(m.ctx, m[n::dest], m[n::multi]);
  return view ? sched::store(m.ctx, view, m[n::multi]->src[0]) : nullptr;
}

UOpRef storeDestMulti(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root], multi = m[n::multi];
  llvm::SmallVector<UOpRef, 3> srcs{multi->src[0]};
  for (UOpRef x : root->src.drop_front()) {
    UOpRef y = x->op == K::UNSHARD ? x->src[0] : shapeOr(x) == shapeOr(multi) ? shardSubview(ctx, x, multi) : x;
    if (!y)
      return nullptr;
    srcs.push_back(y);
  }
  return ctx.get(root->op, root->type, srcs, root->arg);
}

UOpRef notInKernel(Match &m) {
  return sched::fail(m.ctx, "multi_pm", sym::getOpName(m.root->op).str() +
                                            " of a sharded value moves data between shards, "
                                            "which one kernel cannot do");
}

} // namespace

const sym::PatternMatcher &codegen::multiPm() {
  static const sym::PatternMatcher pm({
      {"param_to_multi", op(K::PARAM, n::p), paramToMulti},
      {"alu_multi", op(aluOps(), n::root).earlyReject(OpSet(K::UNSHARD)), aluMulti},
      {"reduce_multi", up(K::REDUCE, {op(K::UNSHARD, n::multi)}, n::root), reduceMulti},
      {"reshape_multi", up(K::RESHAPE, {op(K::UNSHARD, n::multi), var()}, n::root), reshapeMulti},
      {"expand_multi", up(K::EXPAND, {op(K::UNSHARD, n::multi), var()}, n::root), expandMulti},
      {"pad_multi", up(K::PAD, {op(K::UNSHARD, n::multi), var(), var()}, n::root), padMulti},
      {"shrink_multi", up(K::SHRINK, {op(K::UNSHARD, n::multi), var(), var()}, n::root), shrinkMulti},
      {"permute_multi", up(K::PERMUTE, {op(K::UNSHARD, n::multi)}, n::root), permuteMulti},
      {"flip_multi", up(K::FLIP, {op(K::UNSHARD, n::multi)}, n::root), flipMulti},
      {"stack_multi", op(K::STACK, n::root).earlyReject(OpSet(K::UNSHARD)), stackMulti},
      {"index_multi", up(K::INDEX, {op(K::UNSHARD, n::multi)}, n::root).allowAnyLen(), indexMulti},
      {"store_after_multi",
       up(K::AFTER, {op(K::UNSHARD), up(K::STORE, {op(K::UNSHARD, n::dest), op(K::UNSHARD, n::src)})}),
       storeAfterMulti},
      // COPY and ALLREDUCE of a sharded value are the scheduler's (copy_multi)
      {"copy_multi", up(K::COPY, {op(K::UNSHARD)}), notInKernel},
      {"allreduce of UNSHARD", up(K::ALLREDUCE, {op(K::UNSHARD)}), notInKernel},
      // resolve TUPLE+GETTUPLE
      {"GETTUPLE of TUPLE", up(K::GETTUPLE, {op(K::TUPLE, n::t)}, n::g),
       [](Match &m) -> UOpRef {
         auto i = m[n::g]->arg.attrs ? dyn_cast_or_null<IntegerAttr>(m[n::g]->arg.attrs.get("index"))
                                     : IntegerAttr();
         if (!i || i.getInt() < 0 || i.getInt() >= (int64_t)m[n::t]->src.size())
           return nullptr;
         return m[n::t]->src[i.getInt()];
       }},
      {"CALL/AFTER of UNSHARD", up({K::CALL, K::FUNCTION, K::AFTER}, {op(K::UNSHARD, n::multi)}, n::root).allowAnyLen(),
       passthroughMulti},
      // a void CALL (a custom kernel) takes the shards
      {"void CALL strips UNSHARD", op(K::CALL, n::root, DType::Void).earlyReject(OpSet(K::UNSHARD)),
       [](Match &m) -> UOpRef {
         UOpRef root = m[n::root];
         llvm::SmallVector<UOpRef, 4> src;
         for (UOpRef s : root->src)
           src.push_back(s->op == K::UNSHARD ? s->src[0] : s);
         return m.ctx.get(root->op, root->type, src, root->arg);
       }},
      {"CAST/BITCAST/CONTIGUOUS of UNSHARD",
       up({K::CAST, K::BITCAST, K::CONTIGUOUS, K::DETACH, K::CONTIGUOUS_BACKWARD}, {op(K::UNSHARD, n::multi)}, n::root),
       passthroughMulti},
      // STORE of a sharded value into an unsharded dest (a fragment into its tile)
      {"store_value_multi", up(K::STORE, {var(n::dest), op(K::UNSHARD, n::multi)}), storeValueMulti},
      // STORE into a sharded dest: every shard stores into its own shard
      {"store_dest_multi", up(K::STORE, {op(K::UNSHARD, n::multi)}, n::root).allowAnyLen(), storeDestMulti},
  });
  return pm;
}

UOpRef codegen::resolveUnshards(Context &ctx, UOpRef sink) {
  // Most kernels have no UNSHARD and no sharded PARAM: nothing to walk.
  bool any = false;
  opt::forEachNode(sink, [&](UOpRef u) {
    auto pa = u->op == K::PARAM ? sched::paramArg(u) : tg::ParamAttr();
    any = u->op == K::UNSHARD || (pa && pa.getAxis());
    return !any;
  });
  return any ? sym::graphRewrite(ctx, sink, multiPm()) : sink;
}
