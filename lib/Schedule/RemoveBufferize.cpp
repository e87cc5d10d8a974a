//===- RemoveBufferize.cpp - un-staging by tinygrad's cost rules ----------===//
//
// After rangeify every realized value is a STAGE read through an INDEX.
// Staging that only reorders data is undone by substituting the consumer's
// index into the staged expression (recompute instead of store), unless the
// expression reads more than three buffers or a reduce in it reads a buffer.
// Dead axes are dropped from stages, constant stages fold away
// (pm_const_buffer_folding), and reduces over ranges their source does not
// use collapse (pm_reduce_unparented).
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "../Symbolic/Rules/Rules.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;
namespace py = mlir::tinygrad::sym::rules::py;

static bool alwaysRun(sym::Op op) { return op == sym::Op::CONTIGUOUS || op == sym::Op::NOOP; }

/// The mixin's `x.expand(shape)`: squeeze the 1s being expanded, EXPAND on
/// the left, permute back.
static UOpRef broadcastTo(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> ns) {
  Shape xs = *shapeOf(x);
  if (llvm::ArrayRef<int64_t>(xs) == ns)
    return x;
  unsigned nleft = ns.size() - xs.size();
  llvm::SmallVector<unsigned> expandAt, kept;
  for (unsigned i : broadcastAxes(xs, ns))
    if (i >= nleft)
      expandAt.push_back(i - nleft);
  for (unsigned i = 0; i < xs.size(); ++i)
    if (!llvm::is_contained(expandAt, i))
      kept.push_back(i);
  Shape sq;
  for (unsigned i : kept)
    sq.push_back(xs[i]);
  UOpRef r = sq == xs ? x : reshape(ctx, x, sq);
  Shape pre(ns.begin(), ns.begin() + nleft);
  for (unsigned i : expandAt)
    pre.push_back(ns[nleft + i]);
  if (!pre.empty()) {
    Shape full = pre;
    full.append(sq.begin(), sq.end());
    tg::ValueInfo i = tg::getValueInfo(r->type);
    r = ctx.get(sym::Op::EXPAND, tg::makeValueType(i.elementType, full, i.addrspace),
                {r, shapeArg(ctx, pre)});
  }
  llvm::SmallVector<int64_t> perm;
  for (unsigned i = 0; i < nleft; ++i)
    perm.push_back(i);
  for (unsigned i = 0; i < xs.size(); ++i) {
    auto it = llvm::find(expandAt, i);
    perm.push_back(nleft + (it != expandAt.end() ? it - expandAt.begin()
                                                 : expandAt.size() + (llvm::find(kept, i) - kept.begin())));
  }
  bool ident = true;
  for (unsigned i = 0; i < perm.size(); ++i)
    ident &= perm[i] == int64_t(i);
  return ident ? r : permute(ctx, r, perm);
}

static UOpRef cleanupDeadAxes(Match &m) {
  UOpRef b = m[n::b];
  auto o = stageOpts(b);
  if (!o || !o.getRemovable() || alwaysRun(b->src[0]->op) || b->src[0]->op == sym::Op::AFTER)
    return nullptr;
  Shape bs = *shapeOf(b);
  Ranges keep;
  Shape rs;
  bool hit = false;
  RangeCache &rc = rangeCache();
  for (size_t i = 0; i + 1 < b->src.size() && i < bs.size(); ++i) {
    UOpRef rng = b->src[i + 1];
    if (rng->op == sym::Op::RANGE && rng->src[0]->op != sym::Op::CONST)
      return nullptr;
    if (rng->op == sym::Op::CONST || (rng->op == sym::Op::RANGE && !rc.inRanges(rng, b->src[0]))) {
      rs.push_back(1);
      hit = true;
    } else {
      rs.push_back(bs[i]);
      keep.push_back(rng);
    }
  }
  if (!hit)
    return nullptr;
  UOpRef nb = stage(m.ctx, b->src[0], keep, o);
  Shape full = rs;
  full.append(bs.begin() + rs.size(), bs.end());
  return broadcastTo(m.ctx, reshape(m.ctx, nb, full), bs);
}

static UOpRef removeNoopBufferize(Match &m) {
  UOpRef idx = m[n::idx], b2 = m[n::b2];
  if (idx->src.drop_front() != b2->src.drop_front())
    return nullptr;
  Shape s = *shapeOf(b2);
  if (s.empty())
    return idx->src[0];
  llvm::SmallVector<std::pair<int64_t, int64_t>> bounds;
  for (int64_t d : s)
    bounds.push_back({0, d});
  UOpRef x = idx->src[0];
  if (shapeOf(x) == std::optional<Shape>(s))
    return x; // a full shrink is the identity
  return shrink(m.ctx, x, bounds);
}

/// The cost function: null keeps the stage.
static UOpRef removeBufferizeCost(Match &m) {
  UOpRef src = m[n::src], buf = m[n::buf], idx = m[n::idx];
  auto o = stageOpts(buf);
  if (buf->src.size() != idx->src.size() || alwaysRun(src->op) || !o || !o.getRemovable())
    return nullptr;
  llvm::SetVector<UOpRef> accessed;
  llvm::SmallVector<UOpRef, 4> reduces;
  toposort(src, [&](UOpRef x) {
    if (x->op == sym::Op::AFTER) {
      accessed.insert(bufUOp(m.ctx, x));
      return false;
    }
    auto so = stageOpts(x);
    if ((so && so.getAddrspace() == tg::AddrSpace::Global) || x->op == sym::Op::MSTACK) {
      accessed.insert(x);
      return false;
    }
    if (x->op == sym::Op::STORE)
      return false;
    if (x->op == sym::Op::PARAM)
      accessed.insert(x);
    if (x->op == sym::Op::REDUCE)
      reduces.push_back(x);
    return true;
  });
  if (accessed.size() > 3)
    return nullptr;
  bool bufferInReduce = false;
  for (UOpRef r : reduces)
    toposort(r->src[0], [&](UOpRef x) {
      if (x->op == sym::Op::PARAM || x->op == sym::Op::STAGE || x->op == sym::Op::AFTER)
        bufferInReduce = true;
      return !bufferInReduce;
    });
  if (bufferInReduce)
    return nullptr;
  llvm::DenseMap<UOpRef, UOpRef> replaced;
  for (size_t i = 1; i < buf->src.size(); ++i) {
    UOpRef k = buf->src[i], v = idx->src[i];
    if (k->op != sym::Op::CONST && !v->isInvalid())
      replaced[k] = v;
  }
  return sym::substitute(m.ctx, src, replaced);
}

/// pm_reduce_unparented: ranges a REDUCE's source does not use.
static UOpRef reduceUnparented(Match &m) {
  return sym::reduceUnparented(m.ctx, m[n::red], rangeCache());
}

const sym::PatternMatcher &sched::removeBufferize() {
  static const sym::PatternMatcher pm = [] {
    sym::PatternMatcher m = sym::symbolic();
    m.add({{"reduce_unparented", op(sym::Op::REDUCE, n::red), reduceUnparented}});
    m += pmReduceSimplify();
    m += pmMops();
    m.add({
        {"cleanup_dead_axes", op(sym::Op::STAGE, n::b), cleanupDeadAxes},
        {"remove noop bufferize",
         up(sym::Op::STAGE, {op(sym::Op::INDEX, n::idx)}, n::b2).allowAnyLen(), removeNoopBufferize},
        {"no buffers for const", up(sym::Op::STAGE, {cvar(n::c)}, n::b).allowAnyLen(),
         [](Match &m) -> UOpRef {
           UOpRef c = m[n::c], b = m[n::b];
           UOpRef k = m.ctx.cnst(c->val(), b->dtype);
           Shape s = *shapeOf(b);
           // const_like: the scalar EXPANDed to the stage's shape
           if (s.empty())
             return k;
           return m.ctx.get(sym::Op::EXPAND, valueType(m.ctx, b->dtype, s), {k, shapeArg(m.ctx, s)});
         }},
        {"indexing a const is a const", up(sym::Op::INDEX, {cvar(n::c)}), to(n::c)},
        {"noop const", up(sym::Op::NOOP, {cvar(n::c)}), to(n::c)},
        {"remove_bufferize",
         up(sym::Op::INDEX, {up(sym::Op::STAGE, {var(n::src)}, n::buf).allowAnyLen()}, n::idx).allowAnyLen(),
         removeBufferizeCost},
        {"STORE to self is NOOP", up(sym::Op::STORE, {var(n::x), var(n::x)}),
         [](Match &m) -> UOpRef { return noop(m.ctx); }},
        {"END on NOOP is NOOP", up(sym::Op::END, {op(sym::Op::NOOP, n::x)}).allowAnyLen(), to(n::x)},
    });
    return m;
  }();
  return pm;
}
