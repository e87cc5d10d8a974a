//===- Simplify.cpp - pm_split_ranges and pm_simplify_ranges ----------------===//
#include "tinygrad/Codegen/Simplify.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include <optional>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

// In sym: its Op, not mlir::Op.
namespace mlir::tinygrad::sym {
namespace {
/// The rewrite's ctx dict: range -> its new size (split: the modulus).
using RangeMap = llvm::MapVector<UOpRef, UOpRef>;

tg::AxisType axisTypeOf(UOpRef r) {
  if (r->arg.attrs)
    if (auto a = dyn_cast_or_null<tg::AxisTypeAttr>(r->arg.attrs.get("axis_type")))
      return a.getValue();
  return tg::AxisType::Weak;
}
/// r.replace(src=(size,)) with `ids` appended by `sub` (split ranges' arg[0:-1]+(sub, type)).
UOpRef withSize(Context &ctx, UOpRef r, UOpRef size, std::optional<int64_t> sub = std::nullopt) {
  sym::Arg arg = r->arg;
  if (sub) {
    llvm::SmallVector<int64_t> ids;
    if (auto a = dyn_cast_or_null<DenseI64ArrayAttr>(r->arg.attrs.get("ids")))
      ids.assign(a.asArrayRef().begin(), a.asArrayRef().end());
    ids.push_back(*sub);
    NamedAttrList l(r->arg.attrs);
    l.set("ids", DenseI64ArrayAttr::get(ctx.getMLIRContext(), ids));
    arg.attrs = l.getDictionary(ctx.getMLIRContext());
  }
  return ctx.get(Op::RANGE, r->type, {size}, arg);
}
/// do_substitute: apply the collected map (ctx cleared), simplified.
UOpRef doSubstitute(Context &ctx, RangeMap &marks, UOpRef x,
                    llvm::function_ref<UOpRef(UOpRef, UOpRef)> fn) {
  llvm::DenseMap<UOpRef, UOpRef> map;
  for (auto &[k, v] : marks)
    if (v)
      map[k] = fn(k, v);
  marks.clear();
  UOpRef ret = substitute(ctx, x, map);
  return ret == x ? nullptr : simplify(ctx, ret);
}

const PatternMatcher &pmSplitRanges() {
  static const PatternMatcher pm({
      {"mark_range_mod", mod(op(Op::RANGE, n::r), cvar(n::c)), [](Match &m) -> UOpRef {
         auto &marks = m.state<RangeMap>();
         UOpRef r = m[n::r], c = m[n::c];
         tg::AxisType t = axisTypeOf(r);
         // ranges that aren't looped over can't be split
         if (!marks.count(r) && t != tg::AxisType::Warp && t != tg::AxisType::Device &&
             r->src[0]->op == Op::CONST && c->val().isInt() && m.ctx.divides(r->src[0], c->val().i))
           marks[r] = c;
         return nullptr;
       }},
      {"split marked ranges", op(Op::SINK, n::x), [](Match &m) -> UOpRef {
         Context &ctx = m.ctx;
         return doSubstitute(ctx, m.state<RangeMap>(), m[n::x], [&](UOpRef k, UOpRef v) {
           UOpRef outer = withSize(ctx, k, ctx.floordiv(k->src[0], v), 0);
           return ctx.add(ctx.mul(outer, v), withSize(ctx, k, v, 1));
         });
       }},
  });
  return pm;
}

size_t countDivmod(UOpRef x) {
  size_t n = 0;
  for (UOpRef u : toposort(x))
    n += u != x && (u->op == Op::FLOORDIV || u->op == Op::FLOORMOD);
  return n;
}

/// _substitute + symbolic + pm_flatten_range, the check_merge rewrite.
const PatternMatcher &checkMergeMatcher() {
  static const PatternMatcher pm = [] {
    OpSet all;
    for (unsigned i = 0; i < kNumOps; ++i)
      all.insert(Op(i));
    PatternMatcher subst({{"_substitute", op(all, n::x), [](Match &m) -> UOpRef {
                             return m.state<llvm::DenseMap<UOpRef, UOpRef>>().lookup(m[n::x]);
                           }}});
    return subst + symbolic() + pmFlattenRange();
  }();
  return pm;
}

/// simplify_merge_adjacent: merge two ranges of an END (adjacent ones) or a
/// REDUCE (any two) when the index math does not get more divisions.
UOpRef mergeAdjacent(Match &m) {
  Context &ctx = m.ctx;
  UOpRef u = m[n::u];
  Ranges scratch;
  Ranges ended(RangeCache::endedRanges(u, scratch));
  if (!llvm::all_of(ended, [](UOpRef r) { return r->op == Op::RANGE; }))
    return nullptr;
  RangeCache rc;
  llvm::SmallVector<Ranges, 4> reduceRanges;
  for (UOpRef x : toposort(u))
    if (x->op == Op::REDUCE)
      reduceRanges.push_back(rc.ranges(x));
  llvm::SmallVector<std::pair<UOpRef, UOpRef>, 8> pairs;
  if (u->op == Op::END) {
    for (size_t i = 0; i + 1 < ended.size(); ++i)
      pairs.push_back({ended[i], ended[i + 1]});
  } else {
    for (UOpRef a : ended)
      for (UOpRef b : ended)
        if (a != b)
          pairs.push_back({a, b});
  }
  for (auto [r0, r1] : pairs) {
    if (axisTypeOf(r0) != axisTypeOf(r1))
      continue;
    if (!llvm::all_of(reduceRanges, [&](const Ranges &rs) {
          return llvm::is_contained(rs, r0) == llvm::is_contained(rs, r1);
        }))
      continue;
    UOpRef s0 = r0->src[0], s1 = r1->src[0];
    UOpRef merged = withSize(ctx, r0, ctx.mul(s0, s1));
    llvm::DenseMap<UOpRef, UOpRef> map{{r0, ctx.floordiv(merged, s1)},
                                       {r1, ctx.floormod(merged, s1)}};
    UOpRef nidx = graphRewrite(ctx, u, checkMergeMatcher(), &map);
    if (!nidx)
      return nullptr;
    if (countDivmod(nidx) <= countDivmod(u))
      u = nidx;
  }
  return u;
}

const PatternMatcher &pmSimplifyRanges() {
  static const PatternMatcher pm({
      {"simplify_merge_adjacent", op({Op::END, Op::REDUCE}, n::u), mergeAdjacent},
      {"mark_gated", op(Op::INDEX, n::idx), [](Match &m) -> UOpRef {
         auto &marks = m.state<RangeMap>();
         UOpRef idx = m[n::idx], x = idx;
         llvm::MapVector<UOpRef, UOpRef> guards;
         if (idx->src.size() > 1 && idx->src[1]->op == Op::WHERE) {
           UOpRef w = idx->src[1];
           bool valid = w->src[2]->isInvalid();
           x = valid ? w->src[1] : w;
           if (valid) {
             // guards "r < c" for a RANGE r and a CONST c
             llvm::SmallVector<UOpRef, 4> conds;
             m.ctx.splitUOp(w->src[0], Op::AND, conds);
             for (UOpRef v : conds)
               if (v->op == Op::CMPLT && v->src[0]->op == Op::RANGE && v->src[1]->op == Op::CONST)
                 guards[v->src[0]] = v->src[1];
           }
         }
         // the largest c over every guard of r
         for (auto &[r, c] : guards) {
           auto it = marks.find(r);
           if (it == marks.end() || (it->second->op == Op::CONST && it->second->val().i < c->val().i))
             marks[r] = c;
         }
         // a range that is ever ungated cannot shrink
         RangeCache rc;
         for (UOpRef r : rc.ranges(x))
           if (!guards.count(r))
             marks[r] = r->src[0];
         return nullptr;
       }},
      {"reduce ranges can't be shrunk", op(Op::REDUCE, n::red), [](Match &m) -> UOpRef {
         auto &marks = m.state<RangeMap>();
         for (UOpRef r : m[n::red]->src.drop_front())
           marks[r] = r->src[0];
         return nullptr;
       }},
      {"shrink gated ranges", op(Op::SINK, n::x), [](Match &m) -> UOpRef {
         Context &ctx = m.ctx;
         return doSubstitute(ctx, m.state<RangeMap>(), m[n::x],
                             [&](UOpRef r, UOpRef c) { return withSize(ctx, r, c); });
       }},
  });
  return pm;
}
} // namespace
} // namespace mlir::tinygrad::sym

UOpRef codegen::splitRanges(Context &ctx, UOpRef sink) {
  static const PatternMatcher pm = pmSplitRanges() + pmFlattenRange();
  RangeMap marks;
  return graphRewrite(ctx, sink, pm, &marks);
}

UOpRef codegen::initialSymbolic(Context &ctx, UOpRef sink) {
  static const PatternMatcher pm = symMatcher() + pmFlattenRange();
  return graphRewrite(ctx, sink, pm);
}

UOpRef codegen::simplifyRanges(Context &ctx, UOpRef sink) {
  static const PatternMatcher pm = pmFlattenRange() + pmSimplifyRanges();
  RangeMap marks;
  return graphRewrite(ctx, sink, pm, &marks);
}

UOpRef codegen::postOptSymbolic(Context &ctx, UOpRef sink) {
  static const PatternMatcher pm = symMoveWhereOnLoad() + pmFlattenRange() + pmReduceUnparented();
  return graphRewrite(ctx, sink, pm);
}
