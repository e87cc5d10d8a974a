//===- EarliestRewrites.cpp - earliest_rewrites (schedule/rangeify.py) ----===//
//
// Cleanups on the tensor graph before rangeify. The rules whose conditions
// the corpus programs never meet (large-reduce splitting, size-0 tensors,
// copies) decline with a diagnostic instead of
// silently producing a graph tinygrad would not.
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

static int64_t numel(llvm::ArrayRef<int64_t> s) {
  int64_t p = 1;
  for (int64_t d : s)
    p *= d;
  return p;
}

/// The mixin's `x.reshape(shape)`: x itself when the shape is unchanged.
static UOpRef reshapeOrSelf(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape) {
  return llvm::ArrayRef<int64_t>(*shapeOf(x)) == shape ? x : reshape(ctx, x, shape);
}

/// `x._rop(op, axis)`: reduced axes permuted to the front, size-1 axes
/// dropped by a reshape.
static UOpRef rop(Context &ctx, UOpRef x, tg::ReduceKind kind, llvm::ArrayRef<int64_t> axis) {
  Shape s = *shapeOf(x);
  llvm::SmallVector<int64_t> ax(axis.begin(), axis.end()), red;
  llvm::sort(ax);
  for (int64_t a : ax)
    if (s[a] != 1)
      red.push_back(a);
  Shape kept;
  for (int64_t i = 0; i < int64_t(s.size()); ++i)
    if (!llvm::is_contained(ax, i))
      kept.push_back(s[i]);
  if (red.empty())
    return reshapeOrSelf(ctx, x, kept);
  llvm::SmallVector<int64_t> perm(red);
  for (int64_t i = 0; i < int64_t(s.size()); ++i)
    if (!llvm::is_contained(red, i))
      perm.push_back(i);
  UOpRef r = reduceAxes(ctx, permute(ctx, x, perm), kind, red.size());
  return ax != red ? reshapeOrSelf(ctx, r, kept) : r;
}

/// split_reduceop: a reduction of 32768:1 or more becomes two kernels, the
/// first reducing a split-off factor of one reduced axis into a buffer.
static UOpRef splitReduceop(Match &m) {
  Context &ctx = m.ctx;
  UOpRef reduce = m[n::reduce], x = m[n::x];
  auto rs = shapeOf(reduce), xs = shapeOf(x);
  if (!rs || !xs || numel(*rs) == 0 || numel(*xs) / numel(*rs) < 32768)
    return nullptr;
  auto kind = dyn_cast_or_null<tg::ReduceKindAttr>(reduce->arg.attrs.get("kind"));
  auto nattr = dyn_cast_or_null<IntegerAttr>(reduce->arg.attrs.get("n"));
  if (!kind || !nattr)
    return nullptr;
  // which axes of x reach the base as ranges (the others are expanded)
  Ranges rngs;
  for (auto [i, s] : llvm::enumerate(*xs))
    rngs.push_back(s > 1 ? range(ctx, s, i) : ctx.constInt(0));
  for (UOpRef u = x; sym::isMovement(u->op); u = u->src[0]) {
    auto marg = margOf(u);
    auto ss = shapeOf(u->src[0]);
    if (!marg || !ss)
      return nullptr;
    auto in = applyMovementOp(ctx, u->op, *ss, *marg, rngs);
    if (!in)
      return nullptr;
    rngs = *in;
  }
  llvm::SmallVector<int64_t> used;
  RangeCache local;
  if (!rngs.empty())
    for (UOpRef r : local.ranges(sink(ctx, rngs)))
      used.push_back(rangeIds(r)[0]);
  int64_t maxd = std::min<int64_t>(256, (int64_t(1) << 22) / numel(*rs));
  int64_t dim = -1, divisor = 0;
  for (int64_t i = 0; i < nattr.getInt() && dim < 0; ++i)
    for (int64_t d = maxd; d >= 8; --d)
      if ((*xs)[i] % d == 0 && llvm::is_contained(used, i)) {
        dim = i;
        divisor = d;
        break;
      }
  if (dim < 0)
    return nullptr;
  Shape split(xs->begin(), xs->begin() + dim);
  split.push_back(divisor);
  split.push_back((*xs)[dim] / divisor);
  split.append(xs->begin() + dim + 1, xs->end());
  llvm::SmallVector<int64_t> perm;
  for (int64_t d = 0; d < int64_t(split.size()); ++d)
    if (d != dim)
      perm.push_back(d);
  perm.push_back(dim);
  UOpRef splitted = permute(ctx, reshapeOrSelf(ctx, x, split), perm);
  llvm::SmallVector<int64_t> first;
  for (int64_t i = 0; i < nattr.getInt(); ++i)
    first.push_back(i);
  UOpRef r1 = rop(ctx, splitted, kind.getValue(), first);
  // .contiguous(): weak values and existing buffers stay as they are
  UOpRef c = r1->op == sym::Op::CONTIGUOUS || isWeak(r1->dtype) ? r1
             : ctx.get(sym::Op::CONTIGUOUS, r1->type, {r1});
  UOpRef r2 = rop(ctx, c, kind.getValue(), {int64_t(rs->size())});
  return reshapeOrSelf(ctx, r2, *rs);
}

/// fix_store_hazard: the destination is read through a reordering view in
/// the value being stored, so the value is materialized first.
static UOpRef fixStoreHazard(Match &m) {
  UOpRef target = m[n::target], src = m[n::src];
  UOpRef base = baseOf(target);
  auto all = toposort(src);
  if (!llvm::is_contained(all, base))
    return nullptr;
  bool shrinkUnsafe = false;
  for (UOpRef u : toposort(target))
    shrinkUnsafe |= u->op == sym::Op::SHRINK;
  llvm::DenseMap<UOpRef, bool> reaches;
  for (UOpRef s : toposort(src, [](UOpRef x) { return x->op != sym::Op::CONTIGUOUS; })) {
    bool r = s == base;
    for (UOpRef c : s->src)
      r |= reaches.lookup(c);
    reaches[s] = r;
    bool unsafe = s->op == sym::Op::PERMUTE || s->op == sym::Op::FLIP ||
                  (shrinkUnsafe && s->op == sym::Op::SHRINK);
    if (r && unsafe && !(s == target && s->op == sym::Op::SHRINK))
      return store(m.ctx, target, m.ctx.get(sym::Op::CONTIGUOUS, src->type, {src}));
  }
  return nullptr;
}

/// `x.bitcast(dt)`: x itself for the same dtype.
static UOpRef bitcastTo(Context &ctx, UOpRef x, DType dt) {
  if (x->dtype == dt)
    return x;
  tg::ValueInfo i = tg::getValueInfo(x->type);
  MLIRContext *mc = ctx.getMLIRContext();
  auto d = attrs(ctx, {NamedAttribute(StringAttr::get(mc, "dtype"), TypeAttr::get(ctx.typeFor(dt)))});
  return ctx.get(sym::Op::BITCAST, tg::makeValueType(ctx.typeFor(dt), i.shape, i.addrspace), {x},
                 sym::Arg{Scalar(), d});
}

static DType uintOfBytes(int bytes) {
  switch (bytes) {
  case 1: return DType::UInt8;
  case 2: return DType::UInt16;
  case 4: return DType::UInt32;
  default: return DType::UInt64;
  }
}

/// expand_bitcast: a BITCAST to a wider dtype packs `rate` source elements
/// of the last axis into one (shifts and adds over uint views), one to a
/// narrower dtype splits each element into parts (shifts, a STACK).
static UOpRef expandBitcast(Match &m) {
  Context &ctx = m.ctx;
  UOpRef bc = m[n::x], x = bc->src[0];
  int ns = getInfo(bc->dtype).itemsize, os = getInfo(x->dtype).itemsize;
  if (ns == os)
    return nullptr;
  if (auto dev = dyn_cast_or_null<StringAttr>(deviceOf(x)))
    if (dev.getValue().starts_with("DISK") || dev.getValue().starts_with("TINYFS"))
      return nullptr;
  auto xs = shapeOf(x);
  if (ns < os) {
    // Narrower: each element splits into os/ns parts, the low bytes first
    // (tmp >> 8*i*ns, stacked on a new last axis, flattened into it).
    if (!xs || xs->empty())
      return fail(ctx, "expand_bitcast", "BITCAST of a 0-d tensor to a narrower dtype");
    UOpRef tmp = bitcastTo(ctx, x, uintOfBytes(os));
    llvm::SmallVector<UOpRef, 8> parts;
    for (int i = 0; i < os / ns; ++i)
      parts.push_back(py::binopI(ctx, sym::Op::SHR, tmp, 8 * i * ns));
    UOpRef stacked = ctx.stack(parts);
    llvm::SmallVector<int64_t> perm;
    for (int64_t d = 1; d <= (int64_t)xs->size(); ++d)
      perm.push_back(d);
    perm.push_back(0);
    Shape flat(xs->begin(), xs->end() - 1);
    flat.push_back(xs->back() * (os / ns));
    UOpRef split = reshape(ctx, permute(ctx, stacked, perm), flat);
    return bitcastTo(ctx, py::cast(ctx, split, uintOfBytes(ns)), bc->dtype);
  }
  if (!xs || xs->empty() || (*xs).back() % (ns / os))
    return fail(ctx, "expand_bitcast", "BITCAST of shape " + formatShape(xs ? *xs : Shape{}) +
                                           " does not split into " + llvm::Twine(ns / os) + "s");
  int rate = ns / os;
  DType newUint = uintOfBytes(ns);
  Shape ts(xs->begin(), xs->end() - 1);
  ts.push_back(xs->back() / rate);
  ts.push_back(rate);
  UOpRef tmp = reshape(ctx, bitcastTo(ctx, x, uintOfBytes(os)), ts);
  UOpRef sum = nullptr;
  for (int i = 0; i < rate; ++i) {
    llvm::SmallVector<std::pair<int64_t, int64_t>> b;
    for (size_t k = 0; k + 1 < ts.size(); ++k)
      b.push_back({0, ts[k]});
    b.push_back({i, i + 1});
    UOpRef part = py::binopI(ctx, sym::Op::SHL, py::cast(ctx, shrink(ctx, tmp, b), newUint), 8 * i * os);
    sum = sum ? py::add(ctx, sum, part) : part;
  }
  Shape sq(ts.begin(), ts.end() - 1);
  return bitcastTo(ctx, reshape(ctx, sum, sq), bc->dtype);
}

static UOpRef sizeZero(Match &m) {
  UOpRef x = m[n::x];
  if (x->op == sym::Op::SINK)
    return nullptr;
  auto s = shapeOf(x);
  if (!s || !llvm::is_contained(*s, 0))
    return nullptr;
  return fail(m.ctx, "earliest_rewrites", sym::getOpName(x->op) + " of size 0 " +
                                              formatShape(*s) + " is not supported yet");
}

const sym::PatternMatcher &sched::earliestRewrites() {
  static const sym::PatternMatcher pm = [] {
    sym::PatternMatcher m(sym::rules::mopCleanupRules());
    m.add({
        {"split_reduceop", up(sym::Op::REDUCE, {var(n::x)}, n::reduce), splitReduceop},
        {"remove DETACH/CONTIGUOUS_BACKWARD", op({sym::Op::DETACH, sym::Op::CONTIGUOUS_BACKWARD}, n::x),
         [](Match &m) { return m[n::x]->src[0]; }},
        {"SINK only references the base", op(sym::Op::SINK, n::x), [](Match &m) -> UOpRef {
           llvm::SmallVector<UOpRef, 4> src;
           for (UOpRef s : m[n::x]->src)
             src.push_back(s->op == sym::Op::UNSHARD ? baseOf(s->src[0]) : baseOf(s));
           return m.ctx.replaceSrc(m[n::x], src);
         }},
        // ** copy rules **
        {"COPY of a resized or reordered view", up(sym::Op::COPY, {op({sym::Op::SHRINK, sym::Op::PERMUTE, sym::Op::EXPAND, sym::Op::PAD, sym::Op::FLIP}, n::r)}, n::c),
         [](Match &m) -> UOpRef {
           return fail(m.ctx, "earliest_rewrites",
                       "COPY of a " + sym::getOpName(m[n::r]->op) + " view is not supported yet");
         }},
        {"copy to same device is a no-op", up(sym::Op::COPY, {var(n::x)}, n::c), [](Match &m) -> UOpRef {
           return deviceOf(m[n::x]) == deviceOf(m[n::c]) ? m[n::x] : nullptr;
         }},
        {"copy on reshape is reshape on copy", up(sym::Op::COPY, {op(sym::Op::RESHAPE, n::x)}, n::c),
         [](Match &m) -> UOpRef {
           UOpRef shp = m[n::x], c = m[n::c];
           UOpRef inner = shp->src[0];
           tg::ValueInfo i = tg::getValueInfo(inner->type);
           UOpRef cp = m.ctx.get(sym::Op::COPY, tg::makeValueType(i.elementType, i.shape, i.addrspace),
                                 {inner}, c->arg);
           return reshape(m.ctx, cp, *shapeOf(shp));
         }},
        {"reshaping on STORE can be a NOOP",
         up(sym::Op::STORE, {up(sym::Op::RESHAPE, {var(n::dest)}).allowAnyLen(),
                        up(sym::Op::RESHAPE, {var(n::src)}).allowAnyLen()}),
         [](Match &m) -> UOpRef {
           return shapeOf(m[n::dest]) == shapeOf(m[n::src]) ? store(m.ctx, m[n::dest], m[n::src])
                                                            : nullptr;
         }},
        // ** store rules **
        {"fix store hazard", up(sym::Op::STORE, {var(n::target), var(n::src)}), fixStoreHazard},
        {"dedup two stores of the same value",
         up(sym::Op::AFTER, {up(sym::Op::AFTER, {var(n::buf), up(sym::Op::STORE, {var(n::buf), var(n::src)})}, n::a1),
                             up(sym::Op::STORE, {var(n::a1), var(n::src)})}),
         to(n::a1)},
        {"store a buffer's own contents back",
         up(sym::Op::AFTER, {var(n::buf), up(sym::Op::STORE, {var(n::buf),
             up(sym::Op::AFTER, {var(n::buf), up(sym::Op::STORE, {var(n::buf), var(n::src)})}, n::a1)})}),
         to(n::a1)},
        {"move bitcast from store dest to source",
         up(sym::Op::STORE, {up(sym::Op::BITCAST, {var(n::target)}), var(n::src)}),
         [](Match &m) -> UOpRef {
           return fail(m.ctx, "earliest_rewrites", "STORE into a BITCAST is not supported yet");
         }},
        {"expand_bitcast", op(sym::Op::BITCAST, n::x), expandBitcast},
        {"handle size 0", op(allOps(), n::x), sizeZero},
    });
    return m;
  }();
  return pm;
}
