//===- MoveWhereOnLoad.cpp - pm_move_where_on_load, pm_drop_and_clauses --===//
//
// tinygrad/uop/symbolic.py: a WHERE around a load moves its conditions into
// the load's valid (dropping those already there); pm_drop_and_clauses drops
// the clauses of a gate that share no range with the gated index.
//
//===----------------------------------------------------------------------===//
#include "Valid.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tinygrad::sym::rules {
namespace {

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

/// `x.get_idx()` (valid=false) or `x.get_valid()`, elementwise over a STACK.
UOpRef getIdxOrValid(Context &ctx, UOpRef x, bool valid) {
  if (x->op == Op::STACK) {
    llvm::SmallVector<UOpRef> s;
    for (UOpRef e : x->src)
      s.push_back(getIdxOrValid(ctx, e, valid));
    return ctx.stack(s);
  }
  bool gated = x->op == Op::WHERE && x->src[2]->isInvalid();
  if (!valid)
    return gated ? x->src[1] : x;
  return gated ? x->src[0] : ctx.constBool(!x->isInvalid());
}

/// The INDEX nodes of `x.backward_slice_with_self`.
llvm::SmallPtrSet<UOpRef, 8> indexesOf(UOpRef x) {
  llvm::SmallPtrSet<UOpRef, 8> out;
  llvm::SmallVector<UOpRef, 16> st{x};
  llvm::SmallPtrSet<UOpRef, 16> seen;
  while (!st.empty()) {
    UOpRef u = st.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    if (u->op == Op::INDEX)
      out.insert(u);
    st.append(u->src.begin(), u->src.end());
  }
  return out;
}

//===----------------------------------------------------------------------===//
// pm_move_where_on_load
//===----------------------------------------------------------------------===//

/// where_on_load(cond, buf, idx, or_cast). or_casted renames its first
/// alternative: `index` is bound only under a CAST.
UOpRef whereOnLoad(pat::Match &m, UOpRef cond) {
  Context &ctx = m.ctx;
  UOpRef buf = m[n::buf], idx = m[n::idx], orCast = m[n::or_cast];
  UOpRef index = m[n::index] ? m[n::index] : orCast;
  auto whereClauses = split(ctx, cond, Op::AND);
  UOpRef loadValid = getIdxOrValid(ctx, idx, /*valid=*/true);
  auto inLoadV = split(ctx, loadValid, Op::AND);
  llvm::SmallPtrSet<UOpRef, 8> inLoad(inLoadV.begin(), inLoadV.end());
  llvm::SmallPtrSet<UOpRef, 8> idxIndex = indexesOf(idx);
  llvm::DenseMap<UOpRef, RangeSet> memo;
  RangeSet idxRanges = rangesOf(idx, memo);
  auto canMove = [&](UOpRef c) {
    RangeSet cr = rangesOf(c, memo);
    for (UOpRef r : cr)
      if (!idxRanges.count(r))
        return false;
    // no data-dependent INDEX: only idx's own INDEX nodes may appear
    return llvm::all_of(indexesOf(c), [&](UOpRef u) { return idxIndex.count(u) != 0; });
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
  UOpRef newIdx = getIdxOrValid(ctx, idx, /*valid=*/false);
  UOpRef newIndex = ctx.replaceSrc(index, {buf, py::valid(ctx, newIdx, py::uprod(ctx, validParts))});
  UOpRef retIdx = orCast->op == Op::CAST ? py::cast(ctx, newIndex, orCast->dtype) : newIndex;
  return py::where(ctx, py::allTrue(ctx, keep), retIdx, ctx.constLike(retIdx, 0));
}

/// `UPat.var("buf").index(UPat.var("idx")).or_casted("or_cast")`.
Pat indexOrCasted() { return var(n::buf).index({var(n::idx)}, n::index).orCasted(n::or_cast); }

} // namespace

std::vector<pat::Rule> moveWhereOnLoadRules() {
  return {
      {"where_on_load", var(n::cond).where(indexOrCasted(), cnum(0)),
       [](pat::Match &m) { return whereOnLoad(m, m[n::cond]); }},
      {"where_on_load_not", var(n::cond).where(cnum(0), indexOrCasted()),
       [](pat::Match &m) {
         return whereOnLoad(m, m.ctx.logicalNot(py::cast(m.ctx, m[n::cond], DType::Bool)));
       }},
  };
}

//===----------------------------------------------------------------------===//
// pm_drop_and_clauses
//===----------------------------------------------------------------------===//

/// drop_and_clauses(cond, x, i).
static UOpRef dropAndClauses(pat::Match &m) {
  Context &ctx = m.ctx;
  UOpRef x = m[n::x];
  llvm::DenseMap<UOpRef, RangeSet> memo;
  RangeSet xr = rangesOf(x, memo);
  llvm::SmallVector<UOpRef, 4> keep;
  bool dropped = false;
  for (UOpRef c : split(ctx, m[n::cond], Op::AND)) {
    RangeSet cr = rangesOf(c, memo);
    if (llvm::any_of(cr, [&](UOpRef r) { return xr.count(r) != 0; }))
      keep.push_back(c);
    else
      dropped = true;
  }
  return dropped ? py::where(ctx, py::allTrue(ctx, keep), x, m[n::i]) : nullptr;
}

std::vector<pat::Rule> dropAndClausesRules() {
  return {{"drop_and_clauses", invalidGatePat(), dropAndClauses}};
}

} // namespace mlir::tinygrad::sym::rules
