//===- Ranges.cpp - tinygrad's ranges, ended_ranges and pm_flatten_range --===//
#include "tinygrad/Symbolic/Ranges.h"

#include "Rules/PyOps.h"
#include "tinygrad/Dialect/TG/IR/TG.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

std::vector<UOpRef> sym::toposort(UOpRef root,
                                    const std::function<bool(UOpRef)> &gate) {
  std::vector<UOpRef> out;
  llvm::DenseSet<UOpRef> seen;
  llvm::SmallVector<std::pair<UOpRef, bool>, 64> stack{{root, false}};
  while (!stack.empty()) {
    auto [u, expanded] = stack.pop_back_val();
    if (expanded) {
      out.push_back(u);
      continue;
    }
    if (!seen.insert(u).second)
      continue;
    if (gate && !gate(u)) // tinygrad: a gated node is left out with its sources
      continue;
    stack.push_back({u, true});
    for (UOpRef s : llvm::reverse(u->src))
      if (!seen.count(s))
        stack.push_back({s, false});
  }
  return out;
}

llvm::ArrayRef<UOpRef> RangeCache::endedRanges(UOpRef u, Ranges &scratch) {
  unsigned start;
  switch (u->op) {
  case sym::Op::STAGE:
  case sym::Op::REDUCE:
  case sym::Op::END:
  case sym::Op::CALL:
  case sym::Op::FUNCTION:
    start = 1;
    break;
  case sym::Op::WMMA:
    start = 3;
    break;
  case sym::Op::LINEAR:
    start = 0;
    break;
  case sym::Op::AFTER:
    scratch.clear();
    for (UOpRef s : u->src.drop_front()) {
      Ranges inner;
      auto e = endedRanges(s, inner);
      scratch.append(e.begin(), e.end());
    }
    return scratch;
  case sym::Op::UNSHARD:
    return u->src.drop_front();
  default:
    return {};
  }
  return u->src.size() > start ? u->src.drop_front(start) : llvm::ArrayRef<UOpRef>();
}

const Ranges &RangeCache::ranges(UOpRef root) {
  if (auto it = memo.find(root); it != memo.end())
    return it->second;
  // Post-order over the graph so every source is cached before its user.
  for (UOpRef u : toposort(root, [&](UOpRef x) { return !memo.count(x); })) {
    if (memo.count(u))
      continue;
    llvm::SetVector<UOpRef, Ranges> r;
    for (UOpRef s : u->src)
      for (UOpRef x : memo[s])
        r.insert(x);
    Ranges scratch;
    for (UOpRef er : endedRanges(u, scratch)) {
      if (er->op == sym::Op::RANGE)
        r.remove(er);
      else
        for (UOpRef x : memo[er])
          r.remove(x);
    }
    Ranges out;
    if (u->op == sym::Op::RANGE)
      out.push_back(u);
    for (UOpRef x : r)
      if (x != u)
        out.push_back(x);
    memo[u] = std::move(out);
  }
  return memo[root];
}

const PatternMatcher &sym::pmFlattenRange() {
  static const PatternMatcher pm({
      {"flatten_range", op({Op::REDUCE, Op::END}, n::r), [](Match &m) -> UOpRef {
         UOpRef r = m[n::r];
         auto rngs = r->src.drop_front();
         if (rngs.empty())
           return nullptr;
         // Ranges in a condition (void/bool backedges) must not be ended.
         Ranges real, backedge;
         for (UOpRef x : rngs)
           (x->dtype == DType::Void || x->dtype == DType::Bool ? backedge : real).push_back(x);
         RangeCache local;
         llvm::SmallVector<UOpRef, 4> src{r->src[0]};
         if (!real.empty()) {
           UOpRef s = m.ctx.get(Op::SINK, m.ctx.typeFor(DType::Void), real);
           auto &rr = local.ranges(s);
           src.append(rr.begin(), rr.end());
         }
         src.append(backedge.begin(), backedge.end());
         return m.ctx.get(r->op, r->type, src, r->arg);
       }},
  });
  return pm;
}

UOpRef sym::reduceUnparented(Context &ctx, UOpRef red, RangeCache &rc) {
  auto kindAttr = red->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(red->arg.attrs.get("kind"))
                                 : tg::ReduceKindAttr();
  if (!kindAttr)
    return nullptr;
  Ranges parented, unparented;
  for (UOpRef r : red->src.drop_front())
    (rc.inRanges(r, red->src[0]) ? parented : unparented).push_back(r);
  if (unparented.empty())
    return nullptr;
  UOpRef ret = red->src[0];
  if (!parented.empty() || red->dtype != red->src[0]->dtype) {
    llvm::SmallVector<UOpRef, 4> src{red->src[0]};
    src.append(parented.begin(), parented.end());
    ret = ctx.get(Op::REDUCE, red->type, src, red->arg);
  }
  // A sum over n equal terms is x*n, a product x**n (symbolic's
  // simplify_pow multiplies it out for a constant n); MAX is x.
  for (UOpRef r : unparented) {
    if (kindAttr.getValue() == tg::ReduceKind::Add)
      ret = rules::py::mul(ctx, ret, r->src[0]);
    else if (kindAttr.getValue() == tg::ReduceKind::Mul)
      ret = rules::py::binop(ctx, Op::POW, ret, r->src[0]);
  }
  return ret;
}

const PatternMatcher &sym::pmReduceUnparented() {
  static const PatternMatcher pm({
      {"reduce_unparented", op(Op::REDUCE, n::red), [](Match &m) -> UOpRef {
         RangeCache rc;
         return reduceUnparented(m.ctx, m[n::red], rc);
       }},
  });
  return pm;
}
