//===- CopyToStore.cpp - pm_copy_to_store (schedule/rangeify.py) ----------===//
//
// A COPY becomes a store of its (flattened, contiguous) source into a buffer
// on the target device: an existing destination when the copy is stored
// into one, else a fresh BUFFER read back through AFTER and reshaped to the
// copy's shape. The store is then an ordinary kernel the schedule later
// turns back into a device copy.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

namespace {
struct Counter {
  int64_t next = 0;
};

bool hasBufferIdentity(UOpRef u, bool afterOk) {
  while (u->op == sym::Op::RESHAPE || u->op == sym::Op::UNSHARD || u->op == sym::Op::MSELECT ||
         (afterOk && u->op == sym::Op::AFTER))
    u = u->src[0];
  return u->op == sym::Op::BUFFER || u->op == sym::Op::PARAM;
}

UOpRef flatten(Context &ctx, UOpRef x) {
  Shape s = *shapeOf(x);
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return s.size() == 1 ? x : reshape(ctx, x, {n});
}

UOpRef copySource(Context &ctx, UOpRef copy) {
  UOpRef in = copy->src[0];
  if (!hasBufferIdentity(in, true))
    in = ctx.get(sym::Op::CONTIGUOUS, in->type, {in});
  return flatten(ctx, in);
}

UOpRef convertCopyToStore(Match &m) {
  Context &ctx = m.ctx;
  UOpRef copy = m[n::c], existing = m[n::buf];
  UOpRef in = copySource(ctx, copy);
  if (existing) {
    if (!hasBufferIdentity(existing, true))
      return nullptr;
    return store(ctx, flatten(ctx, existing), in);
  }
  Shape s = *shapeOf(in);
  auto pa = tg::ParamAttr::get(ctx.getMLIRContext(), m.state<Counter>().next++, ctx.typeFor(copy->dtype),
                               {}, std::nullopt, {}, tg::AddrSpace::Global, std::nullopt,
                               deviceOf(copy), false, std::nullopt);
  UOpRef buf = storage(ctx, sym::Op::BUFFER, s, pa);
  UOpRef r = after(ctx, buf, {store(ctx, buf, in)});
  Shape cs = *shapeOf(copy);
  return cs == s ? r : reshape(ctx, r, cs);
}
} // namespace

UOpRef sched::copyToStore(Context &ctx, UOpRef sink) {
  static const sym::PatternMatcher pm({
      {"store of a COPY", up(sym::Op::STORE, {var(n::buf), op(sym::Op::COPY, n::c)}), convertCopyToStore},
      {"COPY", op(sym::Op::COPY, n::c), convertCopyToStore},
  });
  Counter c;
  return sym::graphRewriteBottomUp(ctx, sink, pm, &c);
}
