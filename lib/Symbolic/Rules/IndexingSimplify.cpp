//===- IndexingSimplify.cpp - indexing_simplify (codegen/late/coalesce.py) ===//
//
// Simplify a gated index under its gate; for images, also drop the clauses
// of the gate that the index being out of bounds already implies.
//
//===----------------------------------------------------------------------===//
#include "Valid.h"

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tinygrad::sym::rules {

/// Shape of a value from its MLIR type (PARAM/INDEX carry it).
static llvm::SmallVector<int64_t> shapeOf(UOpRef u) {
  if (auto r = dyn_cast<RankedTensorType>(u->type))
    return llvm::SmallVector<int64_t>(r.getShape());
  return {};
}

/// `st.index(i)` of a 2-element STACK: its i-th source.
static UOpRef stackElt(UOpRef st, unsigned i) {
  return st->op == Op::STACK && st->src.size() > i ? st->src[i] : nullptr;
}

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

/// simplify_valid_load(buf, start_idx, valid).
static UOpRef simplifyValidLoad(pat::Match &m) {
  Context &ctx = m.ctx;
  UOpRef x = m[n::x], cond = m[n::cond];
  UOpRef idx = uopGivenValid(ctx, cond, x);
  if (idx == x || idx == simplifyU(ctx, x))
    return nullptr;
  return ctx.replaceSrc(m.root, {m[n::buf], py::valid(ctx, idx, cond)});
}

/// simplify_valid_image_load(buf, idx_y, idx_x, valid).
static UOpRef simplifyValidImageLoad(pat::Match &m) {
  Context &ctx = m.ctx;
  UOpRef buf = m[n::buf], valid = m[n::valid], idxY = m[n::idx_y], idxX = m[n::idx_x];
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
    if (!llvm::is_contained(drop, s))
      ss.push_back(s);
  UOpRef ny = stackElt(idx, 1), nx = stackElt(idx, 0);
  if (!ny || !nx)
    return nullptr;
  if (!ss.empty()) {
    UOpRef nv = py::uprod(ctx, ss);
    return ctx.replaceSrc(m.root, {buf, py::valid(ctx, ny, nv), py::valid(ctx, nx, nv)});
  }
  return ctx.replaceSrc(m.root, {buf, ny, nx});
}

std::vector<pat::Rule> indexingSimplifyRules() {
  return {
      // image load valid idx simplification
      {"simplify_valid_load", up(Op::INDEX, {var(n::buf), invalidGatePat()}), simplifyValidLoad},
      {"simplify_valid_image_load",
       up(Op::INDEX, {var(n::buf), var(n::valid).where(var(n::idx_y), cinvalid()),
                      var(n::valid).where(var(n::idx_x), cinvalid())}),
       simplifyValidImageLoad},
  };
}

std::vector<pat::Rule> simplifyAddImageCastRules() {
  return {
      // pm_simplify_add_image runs on every kernel, images or not: a float
      // rounded through half and back is the float (tinygrad's C never
      // rounds it; half outputs of a fused kernel stay full precision).
      {"x.cast(half).cast(float) -> x",
       var(n::x, DType::Float32).cast(DType::Float16).cast(DType::Float32),
       [](pat::Match &m) { return m[n::x]; }},
  };
}

} // namespace mlir::tinygrad::sym::rules
