//===- Indexing.cpp - apply_movement_op: movement ops as index math -------===//
//
// tinygrad's definition of the movement ops: the ranges that index a
// movement op's output give the ranges that index its source. RESHAPE goes
// through a linear index that the symbolic rules then simplify ("the
// replacement for the reshape view merging code"), so the rule sets here are
// the ones tinygrad names.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "../Symbolic/Rules/Rules.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
namespace py = mlir::tinygrad::sym::rules::py;

/// symbolic + pm_simplify_valid (+ pm_drop_and_clauses for reshapes).
static const sym::PatternMatcher &padMatcher() {
  static const sym::PatternMatcher pm = sym::symbolic() + sym::simplifyValid();
  return pm;
}
static const sym::PatternMatcher &reshapeMatcher() {
  static const sym::PatternMatcher pm =
      padMatcher() + sym::PatternMatcher(sym::rules::dropAndClausesRules());
  return pm;
}

/// A tinygrad sint: a Python int, or a node for a symbolic size.
struct SInt {
  int64_t v = 0;
  UOpRef u = nullptr;
};

/// _apply_reshape: flatten the output ranges row-major, split the linear
/// index over the input dims, simplify. Python's int/UOp operator mix is
/// kept exactly (`acc*src` is MUL(CONST, src) while acc is an int).
static std::optional<Ranges> applyReshape(Context &ctx, llvm::ArrayRef<SInt> inShape,
                                          llvm::ArrayRef<SInt> outShape,
                                          llvm::ArrayRef<UOpRef> rngs) {
  SInt acc{1, nullptr};
  llvm::SmallVector<UOpRef, 4> axesIn;
  for (size_t i = outShape.size(); i-- > 0;) {
    axesIn.push_back(acc.u ? py::mul(ctx, acc.u, rngs[i]) : py::rmul(ctx, acc.v, rngs[i]));
    const SInt &s = outShape[i];
    if (!acc.u && !s.u)
      acc.v *= s.v;
    else if (!acc.u)
      acc.u = py::rmul(ctx, acc.v, s.u);
    else
      acc.u = s.u ? py::mul(ctx, acc.u, s.u) : py::mul(ctx, acc.u, s.v);
  }
  UOpRef combined = py::ic(ctx, 0);
  for (UOpRef a : axesIn)
    combined = py::add(ctx, combined, a);
  llvm::SmallVector<UOpRef, 4> axesOut;
  for (size_t i = inShape.size(); i-- > 0;) {
    const SInt &s = inShape[i];
    axesOut.push_back(s.u ? py::mod(ctx, combined, s.u) : py::mod(ctx, combined, s.v));
    combined = s.u ? py::floordiv(ctx, combined, s.u) : py::floordiv(ctx, combined, s.v);
  }
  std::reverse(axesOut.begin(), axesOut.end());
  UOpRef s = sym::graphRewrite(ctx, sink(ctx, axesOut), reshapeMatcher());
  if (!s)
    return std::nullopt;
  return Ranges(s->src.begin(), s->src.end());
}

/// Dims as sints: static ones as numbers, symbolic ones from their nodes.
static std::optional<llvm::SmallVector<SInt>> sints(llvm::ArrayRef<int64_t> dims,
                                                    llvm::ArrayRef<UOpRef> nodes) {
  llvm::SmallVector<SInt> r;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != tg::kDynamic) {
      r.push_back({dims[i], nullptr});
      continue;
    }
    if (i >= nodes.size() || !nodes[i])
      return std::nullopt;
    r.push_back({0, nodes[i]});
  }
  return r;
}

static std::nullopt_t missingDim(Context &ctx, sym::Op op) {
  ctx.errors.push_back("apply_movement_op: " + sym::getOpName(op).str() +
                       " with a symbolic size that cannot be found");
  return std::nullopt;
}

std::optional<Ranges> sched::applyMovementOp(Context &ctx, sym::Op op,
                                             llvm::ArrayRef<int64_t> inShape,
                                             const MArg &arg,
                                             llvm::ArrayRef<UOpRef> rngs) {
  Ranges out;
  // A symbolic dim or pad amount is a node: the source's dims (inDims) and
  // the offsets (PAD's before) carry them.
  auto dimNode = [&](size_t i) -> UOpRef {
    if (inShape[i] != tg::kDynamic)
      return py::ic(ctx, inShape[i]);
    return i < arg.inDims.size() ? arg.inDims[i] : nullptr;
  };
  switch (op) {
  case sym::Op::SHRINK:
    for (size_t i = 0; i < rngs.size(); ++i)
      out.push_back(arg.pairs[i].first == 0 ? rngs[i] : py::add(ctx, rngs[i], arg.offsets[i]));
    return out;
  case sym::Op::PERMUTE: {
    // rngs[p] for p in argsort(perm)
    llvm::SmallVector<unsigned> order(arg.perm.size());
    for (unsigned i = 0; i < order.size(); ++i)
      order[i] = i;
    llvm::stable_sort(order, [&](unsigned a, unsigned b) { return arg.perm[a] < arg.perm[b]; });
    for (unsigned p : order)
      out.push_back(rngs[p]);
    return out;
  }
  case sym::Op::FLIP:
    for (size_t i = 0; i < rngs.size(); ++i) {
      if (!arg.perm[i]) {
        out.push_back(rngs[i]);
        continue;
      }
      if (inShape[i] != tg::kDynamic) {
        out.push_back(py::sub(ctx, py::ic(ctx, inShape[i] - 1), rngs[i]));
        continue;
      }
      UOpRef dim = dimNode(i);
      if (!dim)
        return missingDim(ctx, op);
      out.push_back(py::sub(ctx, py::sub(ctx, dim, 1), rngs[i]));
    }
    return out;
  case sym::Op::EXPAND:
    out.assign(rngs.begin() + std::min(arg.shape.size(), rngs.size()), rngs.end());
    return out;
  case sym::Op::PAD:
    for (size_t i = 0; i < rngs.size(); ++i) {
      auto [off, sz] = arg.pairs[i];
      UOpRef r = rngs[i];
      if (sz == inShape[i] && off == 0 && sz != tg::kDynamic) {
        out.push_back(r);
        continue;
      }
      // (r >= off) & (r < sh+off), simplified before the where is built;
      // off and sh nodes where symbolic (a write at a bound position)
      UOpRef offNode = off != tg::kDynamic ? py::ic(ctx, off) : i < arg.offsets.size() ? arg.offsets[i] : nullptr;
      UOpRef dim = dimNode(i);
      if (!offNode || !dim)
        return missingDim(ctx, op);
      UOpRef ge = py::ne(ctx, py::lt(ctx, r, offNode), ctx.constBool(true));
      UOpRef end = off != tg::kDynamic && inShape[i] != tg::kDynamic ? py::ic(ctx, inShape[i] + off)
                                                                      : py::add(ctx, dim, offNode);
      UOpRef cond = py::binop(ctx, sym::Op::AND, ge, py::lt(ctx, r, end));
      cond = sym::graphRewrite(ctx, cond, padMatcher());
      if (!cond)
        return std::nullopt;
      out.push_back(py::valid(ctx, py::sub(ctx, r, offNode), cond));
    }
    return out;
  case sym::Op::RESHAPE: {
    // Simplify first (commutative flips apply early), then reshape over
    // placeholder ranges so the cached reshape math is range-agnostic.
    UOpRef s = sink(ctx, rngs);
    bool allConst = llvm::all_of(rngs, [](UOpRef r) {
      return r->op == sym::Op::CONST || (r->op == sym::Op::STACK && r->src.empty());
    });
    if (!allConst && !(s = sym::graphRewrite(ctx, s, sym::symbolic())))
      return std::nullopt;
    llvm::DenseMap<UOpRef, UOpRef> sub, inv;
    RangeCache local;
    unsigned i = 0;
    for (UOpRef r : local.ranges(s)) {
      MLIRContext *mc = ctx.getMLIRContext();
      UOpRef ph = withAttr(ctx, withAttr(ctx, ctx.get(sym::Op::RANGE, r->type, r->src.take_front(1), r->arg),
                                         "ids", DenseI64ArrayAttr::get(mc, {int64_t(i)})),
                           "axis_type", tg::AxisTypeAttr::get(mc, tg::AxisType::Placeholder));
      ++i;
      sub[r] = ph;
      inv[ph] = r;
    }
    UOpRef ph = sym::substitute(ctx, s, sub);
    auto in = sints(inShape, arg.inDims), outS = sints(arg.shape, arg.shapeNodes);
    if (!in || !outS) {
      ctx.errors.push_back("apply_movement_op: RESHAPE with a symbolic size that cannot be found");
      return std::nullopt;
    }
    auto r = applyReshape(ctx, *in, *outS, ph->src);
    if (!r)
      return std::nullopt;
    UOpRef back = sym::substitute(ctx, sink(ctx, *r), inv);
    return Ranges(back->src.begin(), back->src.end());
  }
  default:
    return std::nullopt;
  }
}
