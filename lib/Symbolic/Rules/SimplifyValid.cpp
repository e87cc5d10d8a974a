//===- SimplifyValid.cpp - valid simplification and the extras of `sym` ---===//
//
// tinygrad's "symbolic 2.0" layer on top of `symbolic`:
//  * pm_simplify_valid: simplify an AND of index conditions clause by clause
//    (each clause simplified under the others), and simplify a gated index
//    `cond.where(x, Invalid)` under `cond`. Both rest on uop_given_valid,
//    which turns every parsable clause into a bound on an expression, swaps
//    the expression for a fresh bounded variable, simplifies, and swaps back.
//  * the extra rules of `sym` (STACK/ALU reorder, where/cast, pow, load and
//    store folding, reciprocal forms, reduce rules, term combining),
//  * pm_clean_up_group_sink, pm_move_where_on_load (and drop_and_clauses),
//  * indexing_simplify (codegen): drop gates that are implied by the index
//    being in bounds, for buffers and images.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include <algorithm>
#include <cstdlib>
#include <limits>

namespace mlir::tinygrad::sym::rules {

namespace {

UOpRef noop(Context &ctx) { return ctx.get(Op::NOOP, ctx.typeFor(DType::Void), {}); }

llvm::SmallVector<UOpRef, 8> split(Context &ctx, UOpRef x, Op sep) {
  llvm::SmallVector<UOpRef, 8> out;
  ctx.splitUOp(x, sep, out);
  return out;
}

bool contains(llvm::ArrayRef<UOpRef> xs, UOpRef x) {
  return std::find(xs.begin(), xs.end(), x) != xs.end();
}

/// `UOp.simplify()`.
UOpRef simplifyU(Context &ctx, UOpRef x) {
  if (x->op == Op::CONST)
    return x;
  if (x->op == Op::SINK &&
      llvm::all_of(x->src, [](UOpRef s) {
        return s->op == Op::CONST || (s->op == Op::STACK && s->src.empty());
      }))
    return x;
  return simplify(ctx, x);
}

/// `x.substitute(map)` (identity entries dropped; empty map is a no-op).
UOpRef substituteU(Context &ctx, UOpRef x,
                   llvm::ArrayRef<std::pair<UOpRef, UOpRef>> pairs) {
  llvm::DenseMap<UOpRef, UOpRef> map;
  for (auto &[k, v] : pairs)
    if (k != v)
      map.insert({k, v});
  if (map.empty())
    return x;
  return substitute(ctx, x, map);
}

/// `UOp.variable(name, lo, hi, dtype, param=True)`. ParamArg bounds are
/// stored as 64-bit attributes: bounds beyond are clamped.
UOpRef fakeVar(Context &ctx, unsigned i, I lo, I hi, DType dt) {
  constexpr I kLo = std::numeric_limits<int64_t>::min();
  constexpr I kHi = std::numeric_limits<int64_t>::max();
  lo = std::clamp(lo, kLo, kHi);
  hi = std::clamp(hi, kLo, kHi);
  return ctx.variable(("fake" + std::to_string(i)), lo, hi, dt);
}

//===----------------------------------------------------------------------===//
// .ranges / .get_idx() / .get_valid()
//===----------------------------------------------------------------------===//

using RangeSet = llvm::SmallSetVector<UOpRef, 8>;

void endedRanges(UOpRef u, llvm::SmallVectorImpl<UOpRef> &out) {
  auto from = [&](size_t k) {
    for (size_t i = k; i < u->src.size(); ++i)
      out.push_back(u->src[i]);
  };
  switch (u->op) {
  case Op::STAGE: case Op::REDUCE: case Op::END: case Op::CALL: case Op::FUNCTION:
    return from(1);
  case Op::WMMA:
    return from(3);
  case Op::LINEAR:
    return from(0);
  case Op::UNSHARD:
    return from(1);
  case Op::AFTER:
    for (size_t i = 1; i < u->src.size(); ++i)
      endedRanges(u->src[i], out);
    return;
  default:
    return;
  }
}

const RangeSet &rangesOf(UOpRef u, llvm::DenseMap<UOpRef, RangeSet> &memo);

RangeSet computeRanges(UOpRef u, llvm::DenseMap<UOpRef, RangeSet> &memo) {
  RangeSet ret;
  if (u->op == Op::RANGE)
    ret.insert(u);
  RangeSet inner;
  for (UOpRef s : u->src) {
    RangeSet sr = rangesOf(s, memo); // copy: memo may rehash
    inner.insert(sr.begin(), sr.end());
  }
  llvm::SmallVector<UOpRef, 4> ended;
  endedRanges(u, ended);
  for (UOpRef er : ended) {
    if (er->op == Op::RANGE) {
      inner.remove(er);
    } else {
      RangeSet er2 = rangesOf(er, memo);
      for (UOpRef r : er2)
        inner.remove(r);
    }
  }
  ret.insert(inner.begin(), inner.end());
  return ret;
}

const RangeSet &rangesOf(UOpRef u, llvm::DenseMap<UOpRef, RangeSet> &memo) {
  auto it = memo.find(u);
  if (it != memo.end())
    return it->second;
  RangeSet r = computeRanges(u, memo);
  return memo[u] = std::move(r);
}

UOpRef getIdx(Context &ctx, UOpRef x) {
  if (x->op == Op::STACK) {
    llvm::SmallVector<UOpRef> s;
    for (UOpRef e : x->src)
      s.push_back(getIdx(ctx, e));
    return ctx.stack(s);
  }
  return x->op == Op::WHERE && x->src[2]->isInvalid() ? x->src[1] : x;
}
UOpRef getValid(Context &ctx, UOpRef x) {
  if (x->op == Op::STACK) {
    llvm::SmallVector<UOpRef> s;
    for (UOpRef e : x->src)
      s.push_back(getValid(ctx, e));
    return ctx.stack(s);
  }
  if (x->op == Op::WHERE && x->src[2]->isInvalid())
    return x->src[0];
  return ctx.constBool(!x->isInvalid());
}

/// `x.src[i]` of the 2-element STACK `st.index(i)` reads.
UOpRef stackElt(UOpRef st, unsigned i) {
  return st->op == Op::STACK && st->src.size() > i ? st->src[i] : nullptr;
}

/// Shape of a value from its MLIR type (PARAM/INDEX carry it).
llvm::SmallVector<int64_t> shapeOf(UOpRef u) {
  if (auto r = dyn_cast<RankedTensorType>(u->type))
    return llvm::SmallVector<int64_t>(r.getShape());
  return {};
}

/// The REDUCE arg (kind, n).
std::optional<std::pair<tg::ReduceKind, int64_t>> reduceArg(UOpRef r) {
  if (!r->arg.attrs)
    return std::nullopt;
  auto k = dyn_cast_or_null<tg::ReduceKindAttr>(r->arg.attrs.get("kind"));
  if (!k)
    return std::nullopt;
  int64_t n = 0;
  if (auto na = dyn_cast_or_null<IntegerAttr>(r->arg.attrs.get("n")))
    n = na.getInt();
  return std::make_pair(k.getValue(), n);
}

int imageEnv() {
  static int v = [] {
    const char *e = std::getenv("IMAGE");
    return e ? std::atoi(e) : 0;
  }();
  return v;
}

} // namespace

//===----------------------------------------------------------------------===//
// parse_valid / uop_given_valid / simplify_valid
//===----------------------------------------------------------------------===//

std::optional<ParsedValid> parseValid(UOpRef v) {
  // (X < c).ne(True) -> X >= c
  if (v->op == Op::CMPNE && v->src.size() == 2 && v->src[1]->op == Op::CONST &&
      isConstVal(v->src[1], 1) && v->src[0]->op == Op::CMPLT &&
      isInt(v->src[0]->src[0]->dtype)) {
    UOpRef s0 = v->src[0];
    return ParsedValid{s0->src[0], false, py::ib(s0->src[1]->vmin())};
  }
  if (v->op == Op::CMPLT && isInt(v->src[0]->dtype)) {
    // c < X -> X >= c+1
    if (v->src[0]->op == Op::CONST)
      return ParsedValid{v->src[1], false, py::ib(v->src[0]->val()) + 1};
    // X < c -> X <= c-1
    return ParsedValid{v->src[0], true, py::ib(v->src[1]->vmax()) - 1};
  }
  return std::nullopt;
}

UOpRef uopGivenValid(Context &ctx, UOpRef valid, UOpRef uop, bool trySimplex) {
  // {expr: [lower, upper]} in first-seen order
  struct Bound {
    UOpRef expr;
    std::optional<I> b[2];
  };
  llvm::SmallVector<Bound, 4> bounds;
  for (UOpRef stmt : split(ctx, valid, Op::AND)) {
    auto res = parseValid(stmt);
    if (!res)
      continue;
    auto it = llvm::find_if(bounds, [&](const Bound &b) { return b.expr == res->expr; });
    if (it == bounds.end()) {
      bounds.push_back({res->expr, {}});
      it = std::prev(bounds.end());
    }
    it->b[res->isUpper ? 1 : 0] = res->c;
  }

  using Cand = std::pair<UOpRef, UOpRef>;
  llvm::SmallVector<Cand, 4> allCandidates;
  for (unsigned i = 0; i < bounds.size(); ++i) {
    UOpRef expr = bounds[i].expr;
    I v0 = bounds[i].b[0] ? *bounds[i].b[0] : py::ib(expr->vmin());
    I v1 = bounds[i].b[1] ? *bounds[i].b[1] : py::ib(expr->vmax());
    allCandidates.push_back({expr, fakeVar(ctx, i, v0, v1, expr->dtype)});
    if (!trySimplex)
      continue;
    llvm::SmallVector<llvm::SmallVector<Cand, 4>, 2> candidates;
    candidates.push_back({allCandidates.back()});
    if (expr->op == Op::ADD && v0 == 1) {
      auto terms = split(ctx, expr, Op::ADD);
      if (llvm::all_of(terms, [](UOpRef u) { return isIrreducible(u->op); })) {
        llvm::SmallVector<Cand, 4> c;
        for (UOpRef xi : terms)
          c.push_back({xi, fakeVar(ctx, i, 1, py::ib(xi->vmax()), xi->dtype)});
        candidates.push_back(c);
      }
    }
    for (auto &candidate : candidates) {
      if (llvm::any_of(candidate, [&](const Cand &c) { return !ctx.inBackwardSlice(c.first, uop); }))
        continue;
      llvm::SmallVector<UOpRef, 4> newuops;
      for (auto &[X, newX] : candidate) {
        UOpRef a = simplifyU(ctx, substituteU(ctx, uop, {{X, newX}}));
        newuops.push_back(simplifyU(ctx, substituteU(ctx, a, {{newX, X}})));
      }
      if (llvm::all_equal(newuops)) {
        uop = newuops[0];
      } else if (uop->op == Op::STACK && uop->src.size() == 2) {
        bool shaped = llvm::all_of(newuops, [](UOpRef u) { return u->src.size() >= 2; });
        if (!shaped)
          continue;
        if (llvm::all_of(newuops, [&](UOpRef u) { return u->src[0] == newuops[0]->src[0]; }))
          uop = ctx.replaceSrc(uop, {newuops[0]->src[0], uop->src[1]});
        if (llvm::all_of(newuops, [&](UOpRef u) { return u->src[1] == newuops[0]->src[1]; }))
          uop = ctx.replaceSrc(uop, {uop->src[0], newuops[0]->src[1]});
      }
    }
  }

  // try all the valids together (but only the whole expressions)
  UOpRef sUop = substituteU(ctx, uop, allCandidates);
  if (sUop != uop) {
    llvm::SmallVector<Cand, 4> back;
    for (auto &[X, newX] : allCandidates)
      back.push_back({newX, X});
    uop = simplifyU(ctx, substituteU(ctx, simplifyU(ctx, sUop), back));
  }
  return uop;
}

static int validPriority(Context &ctx, UOpRef v, llvm::ArrayRef<UOpRef> valids) {
  auto res = parseValid(v);
  if (!res)
    return 0;
  int p = 0;
  for (UOpRef other : valids)
    if (ctx.inBackwardSlice(res->expr, other))
      --p;
  return p;
}

static UOpRef simplifyValidFn(Context &ctx, UOpRef valid) {
  if (ctx.opInBackwardSlice(valid, {Op::INDEX}))
    return nullptr;
  auto valids = split(ctx, valid, Op::AND);
  // Python's sorted() is stable: ties keep their original order, which the
  // position tie-breaker reproduces with a plain sort.
  llvm::SmallVector<std::tuple<int, unsigned, UOpRef>, 8> keyed;
  for (auto [i, v] : llvm::enumerate(valids))
    keyed.push_back({validPriority(ctx, v, valids), (unsigned)i, v});
  llvm::sort(keyed, [](auto &a, auto &b) {
    return std::tie(std::get<0>(a), std::get<1>(a)) <
           std::tie(std::get<0>(b), std::get<1>(b));
  });
  llvm::SmallVector<UOpRef, 8> sorted;
  for (auto &k : keyed)
    sorted.push_back(std::get<2>(k));
  llvm::SmallVector<UOpRef, 8> ret;
  llvm::SmallPtrSet<UOpRef, 8> seen;
  for (UOpRef stmt : sorted) {
    if (!seen.insert(stmt).second)
      continue;
    if (!ret.empty())
      stmt = uopGivenValid(ctx, py::uprod(ctx, ret), stmt);
    ret.push_back(stmt);
  }
  if (llvm::equal(ret, sorted))
    return nullptr;
  return py::uprod(ctx, ret);
}

static UOpRef gatedGivenValid(Context &ctx, UOpRef u) {
  UOpRef cond, x, i;
  if (!invalidGate(u, cond, x, i))
    return nullptr;
  // pure index math only
  if (x->dtype != DType::WeakInt || ctx.opInBackwardSlice(x, {Op::INDEX}))
    return nullptr;
  if (imageEnv() > 0 &&
      ctx.opInBackwardSlice(x, {Op::CDIV, Op::CMOD, Op::FLOORDIV, Op::FLOORMOD}))
    return nullptr;
  return py::where(ctx, cond, uopGivenValid(ctx, cond, x, /*trySimplex=*/false), i);
}

std::vector<LegacyRule> simplifyValidRules() {
  return {
      {"simplify_valid", {Op::AND}, simplifyValidFn},
      {"gated_given_valid", {Op::WHERE}, gatedGivenValid},
  };
}

//===----------------------------------------------------------------------===//
// pm_clean_up_group_sink
//===----------------------------------------------------------------------===//

static bool removeFromSinkLike(Op op) {
  return op == Op::NOOP || op == Op::STACK || op == Op::SINK || op == Op::GROUP;
}

std::vector<LegacyRule> cleanUpGroupSinkRules() {
  return {
      {"group_single", {Op::GROUP},
       [](Context &, UOpRef u) -> UOpRef {
         return u->src.size() == 1 ? u->src[0] : nullptr;
       }},
      {"flatten_sink_group", {Op::SINK, Op::GROUP},
       [](Context &ctx, UOpRef root) -> UOpRef {
         if (!llvm::any_of(root->src, [](UOpRef x) { return removeFromSinkLike(x->op); }))
           return nullptr;
         llvm::SmallVector<UOpRef, 8> src;
         for (UOpRef x : root->src) {
           if (removeFromSinkLike(x->op))
             src.append(x->src.begin(), x->src.end());
           else
             src.push_back(x);
         }
         return ctx.get(root->op, root->type, src, root->arg);
       }},
  };
}

//===----------------------------------------------------------------------===//
// pm_move_where_on_load / drop_and_clauses
//===----------------------------------------------------------------------===//

static UOpRef whereOnLoad(Context &ctx, UOpRef cond, UOpRef index, UOpRef orCast) {
  UOpRef buf = index->src[0], idx = index->src[1];
  auto whereClauses = split(ctx, cond, Op::AND);
  UOpRef loadValid = getValid(ctx, idx);
  auto inLoadV = split(ctx, loadValid, Op::AND);
  llvm::SmallPtrSet<UOpRef, 8> inLoad(inLoadV.begin(), inLoadV.end());
  llvm::SmallPtrSet<UOpRef, 8> idxIndex;
  {
    llvm::SmallVector<UOpRef, 16> st{idx};
    llvm::SmallPtrSet<UOpRef, 16> seen;
    while (!st.empty()) {
      UOpRef u = st.pop_back_val();
      if (!seen.insert(u).second)
        continue;
      if (u->op == Op::INDEX)
        idxIndex.insert(u);
      st.append(u->src.begin(), u->src.end());
    }
  }
  llvm::DenseMap<UOpRef, RangeSet> memo;
  RangeSet idxRanges = rangesOf(idx, memo);
  auto canMove = [&](UOpRef c) {
    RangeSet cr = rangesOf(c, memo);
    for (UOpRef r : cr)
      if (!idxRanges.count(r))
        return false;
    // no data-dependent INDEX: only idx's own INDEX nodes may appear
    llvm::SmallVector<UOpRef, 16> st{c};
    llvm::SmallPtrSet<UOpRef, 16> seen;
    while (!st.empty()) {
      UOpRef u = st.pop_back_val();
      if (!seen.insert(u).second)
        continue;
      if (u->op == Op::INDEX && !idxIndex.count(u))
        return false;
      st.append(u->src.begin(), u->src.end());
    }
    return true;
  };
  llvm::SmallVector<UOpRef, 4> moved, keep;
  for (UOpRef c : whereClauses) {
    if (inLoad.count(c))
      continue;
    (canMove(c) ? moved : keep).push_back(c);
  }
  if (keep.size() == whereClauses.size())
    return nullptr;
  llvm::SmallVector<UOpRef, 4> validParts{loadValid};
  validParts.append(moved.begin(), moved.end());
  UOpRef newIndex = ctx.replaceSrc(
      index, {buf, py::valid(ctx, getIdx(ctx, idx), py::uprod(ctx, validParts))});
  UOpRef retIdx = orCast->op == Op::CAST ? py::cast(ctx, newIndex, orCast->dtype) : newIndex;
  return py::where(ctx, py::allTrue(ctx, keep), retIdx, ctx.constLike(retIdx, 0));
}

/// `buf.index(idx).or_casted("or_cast")`: INDEX with exactly two srcs, or a
/// CAST of one. Sets `index` and `orCast`.
static bool matchIndexOrCasted(UOpRef u, UOpRef &index, UOpRef &orCast) {
  if (u->op == Op::INDEX && u->src.size() == 2) {
    index = orCast = u;
    return true;
  }
  if (u->op == Op::CAST && u->src.size() == 1 && u->src[0]->op == Op::INDEX &&
      u->src[0]->src.size() == 2) {
    index = u->src[0];
    orCast = u;
    return true;
  }
  return false;
}

std::vector<LegacyRule> moveWhereOnLoadRules() {
  return {
      {"where_on_load", {Op::WHERE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         UOpRef index, orCast;
         if (u->src.size() != 3 || !isConstVal(u->src[2], 0) ||
             !matchIndexOrCasted(u->src[1], index, orCast))
           return nullptr;
         return whereOnLoad(ctx, u->src[0], index, orCast);
       }},
      {"where_on_load_not", {Op::WHERE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         UOpRef index, orCast;
         if (u->src.size() != 3 || !isConstVal(u->src[1], 0) ||
             !matchIndexOrCasted(u->src[2], index, orCast))
           return nullptr;
         return whereOnLoad(ctx, ctx.logicalNot(py::cast(ctx, u->src[0], DType::Bool)),
                            index, orCast);
       }},
  };
}

std::vector<LegacyRule> dropAndClausesRules() {
  return {
      {"drop_and_clauses", {Op::WHERE},
       [](Context &ctx, UOpRef u) -> UOpRef {
         UOpRef cond, x, i;
         if (!invalidGate(u, cond, x, i))
           return nullptr;
         llvm::DenseMap<UOpRef, RangeSet> memo;
         RangeSet xr = rangesOf(x, memo);
         llvm::SmallVector<UOpRef, 4> keep;
         bool dropped = false;
         for (UOpRef c : split(ctx, cond, Op::AND)) {
           RangeSet cr = rangesOf(c, memo);
           if (llvm::any_of(cr, [&](UOpRef r) { return xr.count(r) != 0; }))
             keep.push_back(c);
           else
             dropped = true;
         }
         return dropped ? py::where(ctx, py::allTrue(ctx, keep), x, i) : nullptr;
       }},
  };
}

//===----------------------------------------------------------------------===//
// the extra rules of `sym`
//===----------------------------------------------------------------------===//

/// codegen/decomp/transcendental.py's xpow.
static UOpRef xpow(Context &ctx, UOpRef base, UOpRef exponent) {
  auto ltz = [&](UOpRef x) { return py::binopI(ctx, Op::CMPLT, x, 0); };
  auto constLikeF = [&](UOpRef x, double v) { return ctx.constLike(x, Scalar::fromFloat(v)); };
  // b ** e = exp2(e * log2(|b|))
  UOpRef absBase = py::where(ctx, ltz(base), py::neg(ctx, base), base);
  UOpRef ret = ctx.alu(Op::EXP2, {py::binop(ctx, Op::MUL, ctx.alu(Op::LOG2, {absBase}), exponent)});
  UOpRef nonInt = py::binop(ctx, Op::CMPNE, exponent,
                      py::cast(ctx, py::cast(ctx, exponent, DType::Int32), exponent->dtype));
  UOpRef absExp = py::where(ctx, ltz(exponent), py::neg(ctx, exponent), exponent);
  UOpRef isOdd = py::cast(ctx, py::binopI(ctx, Op::FLOORMOD, py::cast(ctx, absExp, DType::Int32), 2),
                        DType::Bool);
  UOpRef negInf = py::lit(ctx, Scalar::fromFloat(-std::numeric_limits<double>::infinity()));
  UOpRef negBase = py::where(
      ctx, nonInt,
      py::where(ctx, py::binop(ctx, Op::CMPNE, base, negInf),
             constLikeF(ret, std::numeric_limits<double>::quiet_NaN()), ret),
      py::where(ctx, isOdd, py::neg(ctx, ret), ret));
  // x ** 0 = 1
  UOpRef isZero = ctx.logicalNot(py::cast(ctx, py::binopI(ctx, Op::CMPNE, exponent, 0), DType::Bool));
  return py::where(ctx, isZero, ctx.constLike(ret, 1), py::where(ctx, ltz(base), negBase, ret));
}

/// A STORE with exactly the srcs (INDEX, value); the new INDEX keeps only
/// buf and the gated first index.
static UOpRef gatedStore(Context &ctx, UOpRef store, UOpRef index, UOpRef gate, UOpRef val) {
  UOpRef w = py::valid(ctx, index->src[1], gate);
  UOpRef newIndex = ctx.get(Op::INDEX, index->type, {index->src[0], w}, index->arg);
  return ctx.get(Op::STORE, store->type, {newIndex, val}, store->arg);
}

/// `(1+x).reciprocal()` with the given x: RECIPROCAL(ADD[1, x]).
static bool isRecipOnePlus(UOpRef d, UOpRef x) {
  if (d->op != Op::RECIPROCAL || d->src.size() != 1)
    return false;
  UOpRef a = d->src[0];
  if (a->op != Op::ADD || a->src.size() != 2)
    return false;
  return (isConstVal(a->src[0], 1) && a->src[1] == x) ||
         (a->src[0] == x && isConstVal(a->src[1], 1));
}
/// `1 - d`.
static UOpRef oneMinus(Context &ctx, UOpRef d) { return py::sub(ctx, py::ic(ctx, 1), d); }
static UOpRef recip(Context &ctx, UOpRef x) { return ctx.alu(Op::RECIPROCAL, {x}); }

static UOpRef reduceMulChain(Context &ctx, UOpRef r) {
  auto arg = reduceArg(r);
  if (!arg || (arg->first != tg::ReduceKind::Add && arg->first != tg::ReduceKind::Max))
    return nullptr;
  if (r->dtype != r->src[0]->dtype)
    return nullptr;
  llvm::ArrayRef<UOpRef> rngs = r->src.drop_front();
  bool isMax = arg->first == tg::ReduceKind::Max;
  llvm::SmallVector<UOpRef, 4> inside, outside;
  for (UOpRef m : split(ctx, r->src[0], Op::MUL)) {
    bool out = !contains(rngs, m) &&
               llvm::all_of(rngs, [&](UOpRef rr) { return !ctx.inBackwardSlice(rr, m); }) &&
               (!isMax || compareScalar(m->vmin(), Scalar::fromInt(0)) >= 0);
    (out ? outside : inside).push_back(m);
  }
  if (outside.empty())
    return nullptr;
  llvm::SmallVector<UOpRef, 4> src{inside.empty() ? ctx.constLike(r->src[0], 1)
                                                  : py::prod(ctx, inside)};
  src.append(rngs.begin(), rngs.end());
  return py::binop(ctx, Op::MUL, ctx.replaceSrc(r, src), py::prod(ctx, outside));
}

std::vector<LegacyRule> symRules() {
  return {
      // reorder ALU/STACK: ALU(STACK(x,x,..), STACK(y,y,..)) -> STACK(ALU(x,y))
      {"alu_of_broadcasts",
       {Op::ADD, Op::MUL, Op::SHL, Op::SHR, Op::CDIV, Op::MAX, Op::CMOD, Op::CMPLT,
        Op::CMPNE, Op::CMPEQ, Op::XOR, Op::OR, Op::AND, Op::THREEFRY, Op::SUB, Op::FDIV,
        Op::POW, Op::FLOORDIV, Op::FLOORMOD},
       [](Context &ctx, UOpRef alu) -> UOpRef {
         if (!isALU(alu->op) || alu->src.size() != 2)
           return nullptr;
         UOpRef a = alu->src[0], b = alu->src[1];
         if (a->op != Op::STACK || b->op != Op::STACK || a->src.empty() || b->src.empty() ||
             !llvm::all_equal(a->src) || !llvm::all_equal(b->src))
           return nullptr;
         return ctx.stack({ctx.alu(alu->op, {a->src[0], b->src[0]})});
       }},
      // push cast to where branches
      {"cast_into_where", {Op::CAST},
       [](Context &ctx, UOpRef cast) -> UOpRef {
         if (cast->src.size() != 1 || cast->src[0]->op != Op::WHERE || cast->src[0]->src.size() != 3)
           return nullptr;
         UOpRef w = cast->src[0];
         auto commit = [&](UOpRef s) {
           return s->op == Op::CONST ? ctx.cnst(s->val(), cast->dtype) : py::cast(ctx, s, cast->dtype);
         };
         return py::where(ctx, w->src[0], commit(w->src[1]), commit(w->src[2]));
       }},
      // pow
      {"xpow", {Op::POW},
       [](Context &ctx, UOpRef p) -> UOpRef {
         return p->src.size() == 2 ? xpow(ctx, p->src[0], p->src[1]) : nullptr;
       }},
      // store(index, load(index)) -> NOOP
      {"store_of_own_load", {Op::STORE},
       [](Context &ctx, UOpRef s) -> UOpRef {
         if (s->src.size() != 2 || s->src[0]->op != Op::INDEX)
           return nullptr;
         UOpRef l = s->src[1];
         if (l->op != Op::LOAD || l->src.size() != 1 || l->src[0] != s->src[0])
           return nullptr;
         return noop(ctx);
       }},
      // store(index, gate.where(alt, load(index))) -> gated store of alt
      {"store_where_own_load", {Op::STORE},
       [](Context &ctx, UOpRef s) -> UOpRef {
         if (s->src.size() != 2 || s->src[0]->op != Op::INDEX)
           return nullptr;
         UOpRef index = s->src[0], w = s->src[1];
         if (w->op != Op::WHERE || w->src.size() != 3)
           return nullptr;
         UOpRef l = w->src[2];
         if (l->op != Op::LOAD || l->src.size() != 1 || l->src[0] != index)
           return nullptr;
         return gatedStore(ctx, s, index, w->src[0], w->src[1]);
       }},
      // fold gated STORE of Invalid
      {"store_invalid", {Op::STORE},
       [](Context &ctx, UOpRef s) -> UOpRef {
         return s->src.size() == 2 && s->src[1]->isInvalid() ? noop(ctx) : nullptr;
       }},
      // store of where with invalid -> gated store
      {"store_where_invalid", {Op::STORE},
       [](Context &ctx, UOpRef s) -> UOpRef {
         if (s->src.size() != 2 || s->src[0]->op != Op::INDEX)
           return nullptr;
         UOpRef cond, val, i;
         if (!invalidGate(s->src[1], cond, val, i))
           return nullptr;
         return gatedStore(ctx, s, s->src[0], cond, val);
       }},
      // 1/(x*x) -> (1/x)*(1/x)
      {"recip_square", {Op::RECIPROCAL},
       [](Context &ctx, UOpRef r) -> UOpRef {
         if (r->src.size() != 1)
           return nullptr;
         UOpRef m = r->src[0];
         if (m->op != Op::MUL || m->src.size() != 2 || m->src[0] != m->src[1])
           return nullptr;
         UOpRef rx = recip(ctx, m->src[0]);
         return py::binop(ctx, Op::MUL, rx, rx);
       }},
      // 1/(x*x*x) -> (1/x)*(1/x)*(1/x)
      {"recip_cube", {Op::RECIPROCAL},
       [](Context &ctx, UOpRef r) -> UOpRef {
         if (r->src.size() != 1)
           return nullptr;
         UOpRef m = r->src[0];
         if (m->op != Op::MUL || m->src.size() != 2)
           return nullptr;
         auto sq = [](UOpRef u, UOpRef x) {
           return u->op == Op::MUL && u->src.size() == 2 && u->src[0] == x && u->src[1] == x;
         };
         UOpRef x = nullptr;
         if (sq(m->src[0], m->src[1]))
           x = m->src[1];
         else if (sq(m->src[1], m->src[0]))
           x = m->src[0];
         if (!x)
           return nullptr;
         UOpRef rx = recip(ctx, x);
         return py::binop(ctx, Op::MUL, py::binop(ctx, Op::MUL, rx, rx), rx);
       }},
      // 1/(x*c) -> (1/x)*(1/c)
      {"recip_mul_const", {Op::RECIPROCAL},
       [](Context &ctx, UOpRef r) -> UOpRef {
         if (r->src.size() != 1)
           return nullptr;
         UOpRef m = r->src[0];
         if (m->op != Op::MUL || m->src.size() != 2)
           return nullptr;
         UOpRef x, c;
         if (m->src[1]->op == Op::CONST) {
           x = m->src[0];
           c = m->src[1];
         } else if (m->src[0]->op == Op::CONST) {
           x = m->src[1];
           c = m->src[0];
         } else {
           return nullptr;
         }
         return py::binop(ctx, Op::MUL, recip(ctx, x), recip(ctx, c));
       }},
      // x*(1/(1+x)) -> 1-1/(1+x)
      {"x_over_one_plus_x", {Op::MUL},
       [](Context &ctx, UOpRef m) -> UOpRef {
         if (m->src.size() != 2)
           return nullptr;
         for (int p = 0; p < 2; ++p) {
           UOpRef x = m->src[p], d = m->src[1 - p];
           if (isRecipOnePlus(d, x))
             return oneMinus(ctx, d);
         }
         return nullptr;
       }},
      // x*((1/(1+x))*y) -> y*(1-1/(1+x))
      {"x_over_one_plus_x_mul", {Op::MUL},
       [](Context &ctx, UOpRef m) -> UOpRef {
         if (m->src.size() != 2)
           return nullptr;
         for (int p = 0; p < 2; ++p) {
           UOpRef x = m->src[p], in = m->src[1 - p];
           if (in->op != Op::MUL || in->src.size() != 2)
             continue;
           for (int q = 0; q < 2; ++q) {
             UOpRef d = in->src[q], y = in->src[1 - q];
             if (isRecipOnePlus(d, x))
               return py::binop(ctx, Op::MUL, y, oneMinus(ctx, d));
           }
         }
         return nullptr;
       }},
      // x*((1/(1+x))+y) -> (1-1/(1+x))+x*y
      {"x_over_one_plus_x_add", {Op::MUL},
       [](Context &ctx, UOpRef m) -> UOpRef {
         if (m->src.size() != 2)
           return nullptr;
         for (int p = 0; p < 2; ++p) {
           UOpRef x = m->src[p], in = m->src[1 - p];
           if (in->op != Op::ADD || in->src.size() != 2)
             continue;
           for (int q = 0; q < 2; ++q) {
             UOpRef d = in->src[q], y = in->src[1 - q];
             if (isRecipOnePlus(d, x))
               return py::binop(ctx, Op::ADD, oneMinus(ctx, d), py::binop(ctx, Op::MUL, x, y));
           }
         }
         return nullptr;
       }},
      // move const multiply after an ADD REDUCE
      {"reduce_add_const_mul", {Op::REDUCE},
       [](Context &ctx, UOpRef r) -> UOpRef {
         auto arg = reduceArg(r);
         if (!arg || arg->first != tg::ReduceKind::Add || arg->second != 0 || r->src.empty())
           return nullptr;
         UOpRef m = r->src[0];
         if (m->op != Op::MUL || m->src.size() != 2)
           return nullptr;
         UOpRef x, c;
         if (m->src[1]->op == Op::CONST) {
           x = m->src[0];
           c = m->src[1];
         } else if (m->src[0]->op == Op::CONST) {
           x = m->src[1];
           c = m->src[0];
         } else {
           return nullptr;
         }
         if (c->isInvalid())
           return nullptr;
         llvm::SmallVector<UOpRef, 4> src{x};
         src.append(r->src.begin() + 1, r->src.end());
         return py::binop(ctx, Op::MUL, ctx.replaceSrc(r, src), py::lit(ctx, c->val()));
       }},
      // reduce mul chain: move muls that don't depend on the ranges outside
      {"reduce_mul_chain", {Op::REDUCE},
       [](Context &ctx, UOpRef r) -> UOpRef {
         if (r->src.empty() || r->src[0]->op != Op::MUL)
           return nullptr;
         return reduceMulChain(ctx, r);
       }},
      // -(x+y) -> -x + -y
      {"neg_of_sum", {Op::MUL},
       [](Context &ctx, UOpRef m) -> UOpRef {
         if (m->src.size() != 2)
           return nullptr;
         for (int p = 0; p < 2; ++p) {
           UOpRef c = m->src[p], a = m->src[1 - p];
           if (!isConstVal(c, -1) || a->op != Op::ADD || a->src.size() != 2)
             continue;
           return py::binop(ctx, Op::ADD, py::neg(ctx, a->src[0]), py::neg(ctx, a->src[1]));
         }
         return nullptr;
       }},
      // (x+y)*c -> x*c+y*c, x weakint (float has inf*0=nan)
      {"distribute_const", {Op::MUL},
       [](Context &ctx, UOpRef m) -> UOpRef {
         if (m->src.size() != 2)
           return nullptr;
         for (int p = 0; p < 2; ++p) {
           UOpRef a = m->src[p], c = m->src[1 - p];
           if (a->op != Op::ADD || a->src.size() != 2 || c->op != Op::CONST)
             continue;
           for (int q = 0; q < 2; ++q) {
             UOpRef x = a->src[q], y = a->src[1 - q];
             if (x->dtype != DType::WeakInt)
               continue;
             return py::binop(ctx, Op::ADD, py::binop(ctx, Op::MUL, x, c), py::binop(ctx, Op::MUL, y, c));
           }
         }
         return nullptr;
       }},
  };
}

//===----------------------------------------------------------------------===//
// indexing_simplify (codegen/late/coalesce.py)
//===----------------------------------------------------------------------===//

static bool isImageShape(llvm::ArrayRef<int64_t> shape) {
  return shape.size() == 3 && shape[2] == 4;
}

/// _drop_valid_stmts: the clauses of `valid` that need not be checked
/// because `idx` (a STACK(x, y)) is out of bounds whenever they fail.
static llvm::SmallVector<UOpRef, 4> dropValidStmts(Context &ctx, UOpRef valid, UOpRef idx,
                                                   int64_t height, int64_t width) {
  llvm::SmallVector<UOpRef, 4> drop;
  auto stmts = split(ctx, valid, Op::AND);
  for (unsigned i = 0; i < stmts.size(); ++i) {
    UOpRef stmt = stmts[i];
    auto res = parseValid(stmt);
    if (!res)
      continue;
    UOpRef X = res->expr;
    I c = res->c;
    auto terms = split(ctx, X, Op::ADD);
    // X0 + X1 + ... >= 1: out of bounds when every Xi = 0?
    if (!res->isUpper && c == 1 && llvm::all_of(terms, [](UOpRef u) {
          return isIrreducible(u->op) && compareScalar(u->vmin(), Scalar::fromInt(0)) == 0;
        })) {
      UOpRef testidx = idx;
      for (UOpRef u : terms)
        testidx = substituteU(ctx, testidx, {{u, ctx.constLike(u, 0)}});
      UOpRef t0 = stackElt(testidx, 0), t1 = stackElt(testidx, 1);
      if (t0 && t1 &&
          (compareScalar(t0->vmax(), Scalar::fromInt(0)) < 0 ||
           compareScalar(t1->vmax(), Scalar::fromInt(0)) < 0)) {
        drop.push_back(stmt);
        continue;
      }
    }
    // out of bounds when X is on the wrong side of the bound?
    I lo = res->isUpper ? c + 1 : py::ib(X->vmin());
    I hi = res->isUpper ? py::ib(X->vmax()) : c - 1;
    if (lo > hi)
      continue;
    UOpRef fake = fakeVar(ctx, i, lo, hi, X->dtype);
    llvm::SmallVector<std::pair<UOpRef, UOpRef>, 2> subs{{X, fake}};
    // idx may not contain X itself: also substitute a term v -> fake - (X - v)
    UOpRef v = nullptr;
    for (UOpRef u : terms)
      if (isIrreducible(u->op) && u->op != Op::CONST) {
        v = u;
        break;
      }
    if (v) {
      llvm::SmallVector<UOpRef, 4> rest;
      for (UOpRef u : terms)
        if (u != v)
          rest.push_back(u);
      if (!rest.empty())
        subs.push_back({v, py::sub(ctx, fake, py::usum(ctx, rest))});
    }
    if (idx->op != Op::STACK)
      continue;
    int64_t bnds[2] = {width, height};
    bool out = false;
    for (auto &sub : subs) {
      for (unsigned k = 0; k < 2 && k < idx->src.size() && !out; ++k) {
        UOpRef t = graphRewrite(ctx, substituteU(ctx, idx->src[k], {sub}), symMatcher());
        if (!t)
          continue;
        out = compareScalar(t->vmin(), Scalar::fromInt(bnds[k])) >= 0 ||
              compareScalar(t->vmax(), Scalar::fromInt(0)) < 0;
      }
      if (out)
        break;
    }
    if (out)
      drop.push_back(stmt);
  }
  return drop;
}

static UOpRef simplifyValidLoad(Context &ctx, UOpRef index) {
  if (index->src.size() != 2)
    return nullptr;
  UOpRef cond, x, i;
  if (!invalidGate(index->src[1], cond, x, i))
    return nullptr;
  UOpRef idx = uopGivenValid(ctx, cond, x);
  if (idx == x || idx == simplifyU(ctx, x))
    return nullptr;
  return ctx.replaceSrc(index, {index->src[0], py::valid(ctx, idx, cond)});
}

static UOpRef simplifyValidImageLoad(Context &ctx, UOpRef index) {
  if (index->src.size() != 3)
    return nullptr;
  UOpRef buf = index->src[0], wy = index->src[1], wx = index->src[2];
  if (wy->op != Op::WHERE || wx->op != Op::WHERE || wy->src.size() != 3 || wx->src.size() != 3 ||
      wy->src[0] != wx->src[0] || !wy->src[2]->isInvalid() || !wx->src[2]->isInvalid())
    return nullptr;
  UOpRef valid = wy->src[0], idxY = wy->src[1], idxX = wx->src[1];
  auto shape = shapeOf(buf);
  if (!isImageShape(shape))
    return nullptr;
  if (idxX->dtype != idxY->dtype) {
    idxX = py::cast(ctx, idxX, DType::Int32);
    idxY = py::cast(ctx, idxY, DType::Int32);
  }
  UOpRef startIdx = ctx.stack({idxX, idxY});
  UOpRef idx = uopGivenValid(ctx, valid, startIdx);
  auto drop = dropValidStmts(ctx, valid, idx, shape[0], shape[1]);
  if (drop.empty() && idx == startIdx)
    return nullptr;
  llvm::SmallVector<UOpRef, 4> ss;
  for (UOpRef s : split(ctx, valid, Op::AND))
    if (!contains(drop, s))
      ss.push_back(s);
  UOpRef ny = stackElt(idx, 1), nx = stackElt(idx, 0);
  if (!ny || !nx)
    return nullptr;
  if (!ss.empty()) {
    UOpRef nv = py::uprod(ctx, ss);
    return ctx.replaceSrc(index, {buf, py::valid(ctx, ny, nv), py::valid(ctx, nx, nv)});
  }
  return ctx.replaceSrc(index, {buf, ny, nx});
}

std::vector<LegacyRule> indexingSimplifyRules() {
  return {
      {"simplify_valid_load", {Op::INDEX}, simplifyValidLoad},
      {"simplify_valid_image_load", {Op::INDEX}, simplifyValidImageLoad},
  };
}

} // namespace mlir::tinygrad::sym::rules
