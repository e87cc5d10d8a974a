//===- AddBuffers.cpp - stage to store (pm_add_buffers) -------------------===//
//
// A global STAGE becomes a fresh BUFFER written by `buf[idx] = x` under END
// of the stage's ranges, read back through `buf.after(store)`. Multi-range
// stages are flattened to one linear index first. PARAMs and RANGEs are
// tagged so the kernel split can tell the graph's own from the ones it
// creates.
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
struct SlotCounter {
  int64_t next;
};

UOpRef flattenBufferize(Match &m) {
  UOpRef x = m[n::x];
  if (x->src.size() == 2)
    return nullptr;
  Shape xs = *shapeOf(x);
  int64_t total = 1;
  for (int64_t d : xs)
    total *= d;
  MArg arg;
  arg.shape = xs;
  auto flat = applyMovementOp(m.ctx, sym::Op::RESHAPE, {total}, arg, x->src.drop_front());
  if (!flat || flat->size() != 1)
    return fail(m.ctx, "flatten_bufferize", "cannot flatten the stage index");
  UOpRef ret = reshape(m.ctx, stage(m.ctx, x->src[0], *flat, stageOpts(x)), xs);
  // A range of symbolic length stages its bound's worth (the shape is the
  // ranges' largest sizes) and is read back shrunk to its length: sizes
  // the ranges' ends, 1 for an index that is no range, as tinygrad has it.
  ArrayRef<UOpRef> rngs = x->src.drop_front();
  if (llvm::none_of(rngs, [](UOpRef r) { return r->op == sym::Op::RANGE && r->src[0]->op != sym::Op::CONST; }))
    return ret;
  SmallVector<UOpRef, 4> sizes;
  Shape typed;
  for (UOpRef r : rngs) {
    if (r->op != sym::Op::CONST && r->src.empty())
      return fail(m.ctx, "flatten_bufferize", "a stage index without a size");
    sizes.push_back(r->op != sym::Op::CONST ? r->src[0] : m.ctx.constInt(1));
    typed.push_back(sizes.back()->intVal() ? (int64_t)*sizes.back()->intVal() : tg::kDynamic);
  }
  tg::ValueInfo vi = tg::getValueInfo(ret->type);
  return m.ctx.get(sym::Op::SHRINK, tg::makeValueType(vi.elementType, typed, vi.addrspace),
                   {ret, shapeArg(m.ctx, Shape(typed.size(), 0)), sizes.size() == 1 ? sizes[0] : m.ctx.stack(sizes)});
}

UOpRef bufferizeToStore(Match &m) {
  Context &ctx = m.ctx;
  UOpRef x = m[n::x], idx = m[n::idx];
  Shape xs = *shapeOf(x);
  int64_t size = 1;
  for (int64_t d : xs)
    size *= d;
  if (size <= 0)
    return fail(ctx, "bufferize_to_store", "no zero sized buffers " + formatShape(xs));
  DType dt = strongDType(x->dtype);
  Ranges rngs(rangeCache().ranges(idx));
  llvm::stable_sort(rngs, rangeArgLess);
  if (x->src[0]->op == sym::Op::AFTER)
    return fail(ctx, "bufferize_to_store", "staging an AFTER (assign) is not supported yet");
  auto o = stageOpts(x);
  if (o.getAddrspace() != tg::AddrSpace::Global)
    return nullptr;
  MLIRContext *mc = ctx.getMLIRContext();
  auto pa = tg::ParamAttr::get(mc, m.state<SlotCounter>().next++, ctx.typeFor(dt), {}, std::nullopt,
                               {}, tg::AddrSpace::Global, std::nullopt, o.getDevice(), false,
                               std::nullopt);
  UOpRef buf = storage(ctx, sym::Op::BUFFER, {size}, pa);
  UOpRef st = end(ctx, store(ctx, index(ctx, buf, {idx}), py::cast(ctx, x->src[0], dt)), rngs);
  return py::cast(ctx, after(ctx, buf, {st}), x->dtype);
}

bool isNoopAfterDep(UOpRef x) {
  return (x->op == sym::Op::NOOP && x->src.empty()) || (x->op == sym::Op::END && isNoopAfterDep(x->src[0]));
}

UOpRef removeNoopAfters(Match &m) {
  UOpRef x = m[n::x];
  llvm::SmallVector<UOpRef, 4> src{x->src[0]};
  for (UOpRef s : x->src.drop_front())
    if (!isNoopAfterDep(s))
      src.push_back(s);
  if (src.size() == x->src.size())
    return nullptr;
  return src.size() == 1 ? src[0] : m.ctx.get(sym::Op::AFTER, x->type, src, x->arg);
}
} // namespace

const sym::PatternMatcher &sched::addBuffers() {
  static const sym::PatternMatcher pm = [] {
    sym::PatternMatcher m = pmMops();
    m.add({
        {"flatten_bufferize", op(sym::Op::STAGE, n::x), flattenBufferize},
        {"bufferize_to_store", up(sym::Op::STAGE, {var(), var(n::idx)}, n::x), bufferizeToStore},
        {"INDEX through the weak cast", up(sym::Op::INDEX, {up(sym::Op::CAST, {var(n::buf)}, {}, weakDTypes())}, n::u).allowAnyLen(),
         [](Match &m) -> UOpRef {
           UOpRef u = m[n::u];
           llvm::SmallVector<UOpRef, 4> idx(u->src.begin() + 1, u->src.end());
           return py::cast(m.ctx, index(m.ctx, m[n::buf], idx), u->dtype);
         }},
        {"remove invalid writes", up(sym::Op::STORE, {var(), cinvalid()}),
         [](Match &m) -> UOpRef { return noop(m.ctx); }},
        {"remove invalid contiguous writes", up(sym::Op::STORE, {var(), up(sym::Op::CONTIGUOUS, {cinvalid()})}),
         [](Match &m) -> UOpRef { return noop(m.ctx); }},
        {"remove noop afters", op(sym::Op::AFTER, n::x), removeNoopAfters},
        // pm_add_param_range_tags
        {"tag PARAM/RANGE", op({sym::Op::PARAM, sym::Op::RANGE}, n::x), [](Match &m) -> UOpRef {
           return withAttr(m.ctx, m[n::x], "tg.tag", ArrayAttr::get(m.ctx.getMLIRContext(), {}));
         }},
    });
    return m;
  }();
  return pm;
}

namespace mlir::tinygrad::sched {
UOpRef stageToStore(Context &ctx, UOpRef sink, int64_t firstSlot) {
  SlotCounter c{firstSlot};
  return sym::graphRewriteBottomUp(ctx, sink, addBuffers(), &c);
}
} // namespace mlir::tinygrad::sched
