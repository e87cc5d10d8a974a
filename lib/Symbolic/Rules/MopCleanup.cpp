//===- MopCleanup.cpp - mop_cleanup (tinygrad/uop/movement.py) ------------===//
//
// The pattern matchers that strictly clean up movement ops: adjacent
// RESHAPEs/PERMUTEs merge, noop ones vanish, a STACK of constant INDEXes is
// its source, and INDEX chains fold into one INDEX.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

#include "tinygrad/Dialect/TG/IR/TG.h"

namespace mlir::tinygrad::sym::rules {
namespace {

/// The static shape of a value type; nullopt for void or symbolic dims.
std::optional<llvm::SmallVector<int64_t>> staticShape(UOpRef u) {
  tg::ValueInfo info = tg::getValueInfo(u->type);
  if (info.isVoid || u->dtype == DType::Void)
    return std::nullopt;
  for (int64_t d : info.shape)
    if (d == tg::kDynamic)
      return std::nullopt;
  return info.shape;
}
std::optional<llvm::ArrayRef<int64_t>> permOf(UOpRef u) {
  if (!u->arg.attrs)
    return std::nullopt;
  auto p = dyn_cast_or_null<DenseI64ArrayAttr>(u->arg.attrs.get("perm"));
  if (!p)
    return std::nullopt;
  return p.asArrayRef();
}

/// `s.src[c.val]`: Python tuple indexing by a CONST.
UOpRef srcAt(Context &ctx, UOpRef s, UOpRef c, const char *rule) {
  auto iv = cint(c);
  if (!iv)
    return py::fail(ctx, rule, "tuple indices must be integers");
  I n = s->src.size(), i = *iv < 0 ? *iv + n : *iv;
  if (i < 0 || i >= n)
    return py::fail(ctx, rule, "tuple index out of range");
  return s->src[static_cast<size_t>(i)];
}

/// `self.index(*srcs)` (UOp.index): a single CONST index into a STACK is
/// that element; otherwise an INDEX typed as tinygrad derives it (dtype of
/// the buffer, float for an image PARAM; the index shapes, then the
/// buffer's dims that are not indexed).
UOpRef indexOf(Context &ctx, UOpRef self, llvm::ArrayRef<UOpRef> srcs, const char *rule) {
  if (srcs.size() == 1 && srcs[0]->op == Op::CONST && self->op == Op::STACK)
    return srcAt(ctx, self, srcs[0], rule);
  tg::ValueInfo buf = tg::getValueInfo(self->type);
  if (buf.isVoid)
    return py::fail(ctx, rule, "cannot index a void value");
  llvm::SmallVector<int64_t> shape;
  for (UOpRef s : srcs) {
    tg::ValueInfo info = tg::getValueInfo(s->type);
    if (info.isVoid)
      return py::fail(ctx, rule, "shape requested of a void index");
    shape.append(info.shape);
  }
  shape.append(buf.shape.begin() + std::min(srcs.size(), buf.shape.size()), buf.shape.end());
  Type elem = buf.elementType;
  if (self->op == Op::PARAM && buf.shape.size() == 3 && buf.shape[2] == 4) // is_image_shape
    elem = tg::getTypeForDType(ctx.getMLIRContext(), DType::Float32);
  llvm::SmallVector<UOpRef, 4> all{self};
  all.append(srcs.begin(), srcs.end());
  return ctx.get(Op::INDEX, tg::makeValueType(elem, shape, buf.addrspace), all);
}

/// `len(x.shape)`; nullopt (tinygrad raises) for a node without a shape.
std::optional<size_t> rank(UOpRef x) {
  tg::ValueInfo info = tg::getValueInfo(x->type);
  if (info.isVoid)
    return std::nullopt;
  return info.shape.size();
}

UOpRef mergePermutes(Match &m) { // x2.replace(arg=tuple(x2.arg[i] for i in x.arg))
  UOpRef x = m[n::x], x2 = m[n::x2];
  auto outer = permOf(x), inner = permOf(x2);
  if (!outer || !inner)
    return nullptr;
  llvm::SmallVector<int64_t> merged;
  for (int64_t i : *outer) {
    int64_t sz = inner->size();
    if (i < -sz || i >= sz)
      return py::fail(m.ctx, "merge PERMUTEs", "tuple index out of range");
    merged.push_back((*inner)[i < 0 ? i + sz : i]);
  }
  MLIRContext *mc = m.ctx.getMLIRContext();
  NamedAttrList attrs(x2->arg.attrs);
  attrs.set("perm", DenseI64ArrayAttr::get(mc, merged));
  return m.ctx.get(Op::PERMUTE, x->type, x2->src, Arg{x2->arg.value, attrs.getDictionary(mc)});
}
UOpRef noopPermute(Match &m) { // x.src[0] if list(x.arg) == list(range(len(x.arg)))
  UOpRef x = m[n::x];
  auto p = permOf(x);
  if (!p)
    return nullptr;
  for (size_t i = 0; i < p->size(); ++i)
    if ((*p)[i] != static_cast<int64_t>(i))
      return nullptr;
  return x->src[0];
}
UOpRef stackOfIndexConst(Match &m) { // src if stk.shape == src.shape and range(len(stk.src)) == [x.src[1].val ...]
  UOpRef stk = m[n::stk], src = m[n::src];
  auto a = staticShape(stk), b = staticShape(src);
  if (!a || !b || *a != *b)
    return nullptr;
  for (size_t i = 0; i < stk->src.size(); ++i)
    if (!py::eq(stk->src[i]->src[1]->val(), Scalar::fromInt(static_cast<I>(i))))
      return nullptr;
  return src;
}
UOpRef indexIntoStack(Match &m) { // a.src[i.val] if len(idx.src) <= 2 else a.src[i.val].index(*idx.src[2:])
  const char *R = "INDEX(STACK, c)";
  UOpRef e = srcAt(m.ctx, m[n::a], m[n::i], R);
  UOpRef idx = m[n::idx];
  if (!e || idx->src.size() <= 2)
    return e;
  return indexOf(m.ctx, e, idx->src.drop_front(2), R);
}
UOpRef indexOnIndex(Match &m) { // idx1.src[0].index(*idx1.src[1:], *idx2.src[1:]) if all shapes are ()
  const char *R = "INDEX on INDEX";
  UOpRef idx1 = m[n::idx1], idx2 = m[n::idx2];
  llvm::SmallVector<UOpRef, 4> srcs(idx1->src.begin() + 1, idx1->src.end());
  srcs.append(idx2->src.begin() + 1, idx2->src.end());
  for (UOpRef s : srcs) {
    auto r = rank(s);
    if (!r)
      return py::fail(m.ctx, R, "shape requested of a node without one");
    if (*r != 0)
      return nullptr;
  }
  return indexOf(m.ctx, idx1->src[0], srcs, R);
}
UOpRef indexOnShapedIndex(Match &m) { // buf.index(idx1_arg.index(*idx2.src[1:])) if len(idx1_arg.shape) == len(idx2.src[1:])
  const char *R = "INDEX on shaped INDEX";
  UOpRef arg = m[n::idx1_arg], idx2 = m[n::idx2];
  auto r = rank(arg);
  if (!r)
    return py::fail(m.ctx, R, "shape requested of a node without one");
  if (*r != idx2->src.size() - 1)
    return nullptr;
  UOpRef inner = indexOf(m.ctx, arg, idx2->src.drop_front(), R);
  return inner ? indexOf(m.ctx, m[n::buf], {inner}, R) : nullptr;
}

} // namespace

std::vector<pat::Rule> mopCleanupRules() {
  return {
      // merge adjacent RESHAPES
      {"merge RESHAPEs", up(Op::RESHAPE, {op(Op::RESHAPE, n::x2), var()}, n::x), [](Match &m) {
         UOpRef x = m[n::x];
         return m.ctx.get(Op::RESHAPE, x->type, {m[n::x2]->src[0], x->src[1]}, x->arg);
       }},
      // remove noop RESHAPEs
      {"noop RESHAPE", up(Op::RESHAPE, {var(n::x2), var()}, n::x), [](Match &m) {
         auto a = staticShape(m[n::x2]), b = staticShape(m[n::x]);
         return a && b && *a == *b ? m[n::x2] : nullptr;
       }},
      {"merge PERMUTEs", up(Op::PERMUTE, {op(Op::PERMUTE, n::x2)}, n::x), mergePermutes},
      {"noop PERMUTE", op(Op::PERMUTE, n::x), noopPermute},
      // STACK on INDEX CONST
      {"STACK of INDEX CONST -> src", upRepeat(Op::STACK, up(Op::INDEX, {var(n::src), cvar()}), n::stk),
       stackOfIndexConst},
      // const INDEX into STACK is src
      {"INDEX(STACK, c) -> src[c]", up(Op::INDEX, {op(Op::STACK, n::a), cvar(n::i)}, n::idx).allowAnyLen(),
       indexIntoStack},
      // INDEX on INDEX is INDEX
      {"INDEX on INDEX", up(Op::INDEX, {op(Op::INDEX, n::idx1)}, n::idx2).allowAnyLen(), indexOnIndex},
      // INDEX on shaped INDEX (TODO: this can be more generic)
      {"INDEX on shaped INDEX",
       up(Op::INDEX, {up(Op::INDEX, {var(n::buf), var(n::idx1_arg)})}, n::idx2).allowAnyLen(),
       indexOnShapedIndex},
  };
}

} // namespace mlir::tinygrad::sym::rules
