//===- StoreFolding.cpp - sym's load/store folding on implicit loads --------===//
//
// tinygrad's `sym` folds a STORE of the value just loaded from the same
// INDEX (to nothing) and a STORE of `gate.where(alt, that load)` (to a
// store of `alt` gated by `gate`). It can only fire once pm_add_loads has
// made the loads explicit ("early symbolic"), so the scheduler's graphs
// never see it; our kernels keep loads implicit (an INDEX read as a value)
// up to the emitter, so the same two rules match the INDEX itself here, at
// that point of the pipeline. `x[i] = c ? v : x[i]` then stores only where c.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Steps.h"

#include "tinygrad/Symbolic/Pattern.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

// In sym: its Op, not mlir::Op.
namespace mlir::tinygrad::sym {
namespace {
/// `UOp.store(index.src[0].index(index.src[1].valid(gate)), val)`.
UOpRef gatedStore(Match &m, UOpRef gate, UOpRef val) {
  Context &ctx = m.ctx;
  UOpRef index = m[n::index];
  if (index->src.size() != 2)
    return nullptr;
  UOpRef i = index->src[1];
  UOpRef valid = ctx.where(gate, i, ctx.cnst(Scalar::invalid(), i->dtype));
  return ctx.get(Op::STORE, m.root->type, {ctx.get(Op::INDEX, index->type, {index->src[0], valid}, index->arg), val},
                 m.root->arg);
}

const PatternMatcher &pmStoreFolding() {
  static const PatternMatcher pm({
      {"store_of_own_load", op(Op::INDEX, n::index).store({op(Op::INDEX, n::index)}),
       [](Match &m) { return m.ctx.get(Op::NOOP, m.ctx.typeFor(DType::Void), {}); }},
      {"store_where_own_load",
       op(Op::INDEX, n::index).store({var(n::gate).where(var(n::alt), op(Op::INDEX, n::index))}),
       [](Match &m) { return gatedStore(m, m[n::gate], m[n::alt]); }},
  });
  return pm;
}
} // namespace
} // namespace mlir::tinygrad::sym

sym::UOpRef codegen::foldStoresOfOwnLoads(sym::Context &ctx, sym::UOpRef sink) {
  return sym::graphRewrite(ctx, sink, sym::pmStoreFolding());
}
