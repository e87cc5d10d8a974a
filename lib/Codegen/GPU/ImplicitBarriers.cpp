//===- ImplicitBarriers.cpp - tinygrad's pm_implicit_barriers --------------===//
//
// codegen/__init__.py (seed 003): kernels order workgroup memory with AFTER,
// never with explicit barriers, and the barriers follow from the graph.
// * read after write: an AFTER of a LOCAL buffer whose dependencies store to
//   LOCAL memory becomes AFTER(buffer, BARRIER(dependencies)), so every
//   thread's stores are done before any thread reads;
// * write after read: a loop (REDUCE, WEAK or LOOP range) whose body both
//   stores to a LOCAL buffer and reads it ends with a BARRIER over the body
//   and those reads, so no thread overwrites what another still reads.
// Our kernels read a buffer by using its INDEX as a value (tinygrad's LOAD
// before pm_add_loads), so a read is an INDEX that is not a store's target.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/GPU.h"

#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Symbolic/Rewrite.h"

#include "llvm/ADT/DenseSet.h"

namespace mlir::tinygrad::gpu {
using opt::Scheduler;
using sym::Op;
using sym::UOpRef;
using tg::AxisType;

namespace {

bool isLocal(UOpRef u) { return tg::getValueInfo(u->type).addrspace == tg::AddrSpace::Local; }

/// The BUFFER an address (INDEX of a buffer or of an AFTER of one) is in.
UOpRef bufferOf(UOpRef u) {
  while (u && u->op != Op::BUFFER && u->op != Op::PARAM && !u->src.empty())
    u = u->src[0];
  return u;
}

bool isLocalStore(UOpRef x) { return x->op == Op::STORE && isLocal(x->src[0]); }

UOpRef rawBarrier(sym::Context &ctx, UOpRef after) {
  if (!isLocal(after))
    return nullptr;
  llvm::SmallVector<UOpRef, 4> deps(after->src.begin() + 1, after->src.end());
  if (deps.empty())
    return nullptr;
  // One walk over all the deps, not through barriers already there.
  bool stores = false;
  llvm::SmallVector<UOpRef, 16> stack(deps.begin(), deps.end());
  llvm::DenseSet<UOpRef> seen;
  while (!stack.empty() && !stores) {
    UOpRef u = stack.pop_back_val();
    if (!seen.insert(u).second || u->op == Op::BARRIER)
      continue;
    stores = isLocalStore(u);
    stack.append(u->src.begin(), u->src.end());
  }
  if (!stores)
    return nullptr;
  UOpRef barrier = ctx.get(Op::BARRIER, ctx.typeFor(DType::Void), deps);
  return ctx.get(Op::AFTER, after->type, {after->src[0], barrier}, after->arg);
}

UOpRef warBarrier(sym::Context &ctx, UOpRef end) {
  llvm::SmallVector<UOpRef, 4> loops;
  for (UOpRef r : end->src.drop_front())
    if (r->op == Op::RANGE && r->vmax().isInt() && r->vmax().i > 0) {
      AxisType t = Scheduler::axisType(r);
      if (t == AxisType::Reduce || t == AxisType::Weak || t == AxisType::Loop)
        loops.push_back(r);
    }
  UOpRef body = end->src[0];
  if (loops.empty() || body->op == Op::BARRIER)
    return nullptr;
  std::vector<UOpRef> slice = sym::toposort(body);
  sym::RangeCache rc;
  llvm::DenseSet<UOpRef> storeBufs, storeTargets;
  for (UOpRef x : slice)
    if (isLocalStore(x)) {
      storeTargets.insert(x->src[0]);
      if (llvm::any_of(loops, [&](UOpRef r) { return rc.inRanges(r, x); }))
        storeBufs.insert(bufferOf(x->src[0]));
    }
  if (storeBufs.empty())
    return nullptr;
  llvm::SmallVector<UOpRef, 4> src{body};
  for (UOpRef x : slice)
    if (x->op == Op::INDEX && !storeTargets.count(x) && storeBufs.count(bufferOf(x)))
      src.push_back(x);
  if (src.size() == 1)
    return nullptr;
  llvm::SmallVector<UOpRef, 4> endSrc{ctx.get(Op::BARRIER, ctx.typeFor(DType::Void), src)};
  endSrc.append(end->src.begin() + 1, end->src.end());
  return ctx.get(Op::END, end->type, endSrc, end->arg);
}

} // namespace

UOpRef addImplicitBarriers(sym::Context &ctx, UOpRef sink) {
  static const sym::PatternMatcher pm = [] {
    using namespace sym::pat;
    namespace n = sym::pat::names;
    return sym::PatternMatcher({
        {"add_raw_barrier", op({Op::AFTER}, n::after), [](Match &m) { return rawBarrier(m.ctx, m[n::after]); }},
        {"add_war_barrier", op({Op::END}, n::end), [](Match &m) { return warBarrier(m.ctx, m[n::end]); }},
    });
  }();
  return sym::graphRewrite(ctx, sink, pm);
}

} // namespace mlir::tinygrad::gpu
