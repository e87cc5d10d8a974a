//===- Callify.cpp - tinygrad's transform_to_call on the interned graph ---===//
//
// Four rewrites in tinygrad's order (tensor.py): number the nodes that must
// be realized (bottom-up), break the tensor graph (CONTIGUOUS -> buffer +
// store, DETACH removal, buffer views), collect the assigns and the final
// buffer map, and replace buffers by positional PARAMs (bottom-up). Tags are
// the node's `tg.tag` attribute, so tagged nodes intern apart from untagged
// ones exactly as tinygrad's hash-consing keys on the tag.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Schedule/Callify.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Schedule/TensorGraph.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sched::tgraph;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;
using sym::PatternMatcher;

namespace {
using Op = sym::Op;
using sym::pat::Match;

/// tinygrad's AllocCtx, plus what the C++ side needs to report.
struct AllocCtx {
  AllocCtx(Context &ctx, int64_t &nextSlot) : ctx(ctx), nextSlot(nextSlot) {}
  Context &ctx;
  int64_t &nextSlot;
  Props props;
  std::vector<UOpRef> uopList;
  llvm::DenseMap<UOpRef, UOpRef> bufferMap;
  llvm::DenseSet<UOpRef> bases;
  std::vector<UOpRef> assigns;
  std::vector<UOpRef> replacements;
  llvm::DenseSet<UOpRef> views;
  std::string error;

  /// The first unsupported construct wins; builders decline after it.
  UOpRef fail(UOpRef at, const llvm::Twine &msg) {
    if (error.empty())
      error = ("callify: " + sym::getOpName(at->op) + ": " + msg).str();
    return nullptr;
  }
};

AllocCtx &state(Match &m) { return m.state<AllocCtx>(); }

OpSet allOps() {
  OpSet s;
  for (unsigned i = 0; i < sym::kNumOps; ++i)
    s.insert(Op(i));
  return s;
}
OpSet allOpsBut(std::initializer_list<Op> ops) {
  OpSet s;
  for (unsigned i = 0; i < sym::kNumOps; ++i)
    if (!llvm::is_contained(ops, Op(i)))
      s.insert(Op(i));
  return s;
}

bool startsWithAny(llvm::StringRef s, std::initializer_list<llvm::StringRef> ps) {
  return llvm::any_of(ps, [&](llvm::StringRef p) { return s.starts_with(p); });
}
bool diskLike(AllocCtx &c, UOpRef u) {
  return startsWithAny(c.props.deviceName(u), {"DISK", "TINYFS"});
}

UOpRef tagUOp(AllocCtx &c, UOpRef x) {
  if (getTag(x))
    return nullptr;
  c.uopList.push_back(x);
  return withTag(c.ctx, x, llvm::SmallVector<int64_t, 2>{int64_t(c.uopList.size() - 1)});
}

Tag concatTags(const Tag &a, const Tag &b) {
  llvm::SmallVector<int64_t, 2> r;
  if (a)
    r.append(a->begin(), a->end());
  if (b)
    r.append(b->begin(), b->end());
  return r;
}

/// Bytes of one element of `u`'s dtype.
int64_t itemBytes(UOpRef u) { return getInfo(*tg::getDType(elementType(u))).itemsize; }

/// tinygrad's `contiguous_view` for views without a mask: the chain of
/// movement ops (and BITCASTs) from `src` down to its BUFFER is followed as
/// (shape, strides, offset); the view is contiguous when the strides of the
/// final shape are row-major (size-1 dims aside). tinygrad proves the same
/// by simplifying the flattened index symbolically; without masks (PAD) or
/// negative strides (FLIP) both describe the same affine index, so the
/// answers agree. A BITCAST reinterprets a contiguous range as elements of
/// another size (its shape's last axis rescaled): the offset is carried in
/// the new elements, and must land on one. Returns (buffer, offset in the
/// buffer's elements).
std::optional<std::pair<UOpRef, int64_t>> contiguousView(UOpRef src) {
  llvm::SmallVector<UOpRef, 8> chain;
  UOpRef b = src;
  while (sym::isMovement(b->op) || b->op == Op::BITCAST) {
    chain.push_back(b);
    b = b->src[0];
  }
  if (b->op != Op::BUFFER)
    return std::nullopt;
  llvm::SmallVector<int64_t> shape = shapeOf(b), strides{1};
  int64_t offset = 0, bytes = itemBytes(b);
  auto rowMajor = [](llvm::ArrayRef<int64_t> sh) {
    llvm::SmallVector<int64_t> st(sh.size());
    int64_t acc = 1;
    for (size_t i = sh.size(); i-- > 0;) {
      st[i] = acc;
      acc *= sh[i];
    }
    return st;
  };
  auto isContig = [&](llvm::ArrayRef<int64_t> sh, llvm::ArrayRef<int64_t> st) {
    llvm::SmallVector<int64_t> rm = rowMajor(sh);
    for (size_t i = 0; i < sh.size(); ++i)
      if (sh[i] != 1 && st[i] != rm[i])
        return false;
    return true;
  };
  for (UOpRef op : llvm::reverse(chain)) {
    llvm::SmallVector<int64_t> out = shapeOf(op);
    switch (op->op) {
    case Op::RESHAPE:
      if (!isContig(shape, strides))
        return std::nullopt;
      shape = out;
      strides = rowMajor(out);
      break;
    case Op::BITCAST: {
      int64_t to = itemBytes(op);
      if (!isContig(shape, strides) || (offset * bytes) % to != 0)
        return std::nullopt;
      offset = offset * bytes / to;
      bytes = to;
      shape = out;
      strides = rowMajor(out);
      break;
    }
    case Op::PERMUTE: {
      auto perm = dyn_cast_or_null<DenseI64ArrayAttr>(op->arg.attrs.get("perm"));
      if (!perm)
        return std::nullopt;
      llvm::SmallVector<int64_t> st;
      for (int64_t p : perm.asArrayRef())
        st.push_back(strides[p]);
      shape = out;
      strides = st;
      break;
    }
    case Op::EXPAND: {
      // new leading axes broadcast (stride 0); existing axes keep theirs
      size_t added = out.size() - shape.size();
      llvm::SmallVector<int64_t> st(added, 0);
      st.append(strides.begin(), strides.end());
      for (size_t i = added; i < out.size(); ++i)
        if (out[i] != shape[i - added])
          st[i] = 0;
      shape = out;
      strides = st;
      break;
    }
    case Op::SHRINK: {
      auto starts = constInts(op->src[1]);
      if (!starts || starts->size() != strides.size())
        return std::nullopt;
      for (size_t i = 0; i < starts->size(); ++i)
        offset += (*starts)[i] * strides[i];
      shape = out;
      break;
    }
    case Op::PAD: {
      auto lo = constInts(op->src[1]), hi = constInts(op->src[2]);
      if (!lo || !hi || llvm::any_of(*lo, [](int64_t v) { return v != 0; }) ||
          llvm::any_of(*hi, [](int64_t v) { return v != 0; }))
        return std::nullopt;
      break;
    }
    case Op::FLIP: {
      auto flags = dyn_cast_or_null<DenseBoolArrayAttr>(op->arg.attrs.get("flags"));
      if (!flags)
        return std::nullopt;
      for (auto [i, f] : llvm::enumerate(flags.asArrayRef()))
        if (f && shape[i] != 1)
          return std::nullopt;
      break;
    }
    default:
      return std::nullopt;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1 && strides[i] == 0)
      return std::nullopt;
  if (!isContig(shape, strides) || (offset * bytes) % itemBytes(b) != 0)
    return std::nullopt;
  return std::make_pair(b, offset * bytes / itemBytes(b));
}

/// `contiguous_mops_to_view`: MOPS(BUFFER) -> SHRINK when the movement ops
/// collapse to a contiguous range of the buffer.
UOpRef contiguousMopsToView(Match &m) {
  AllocCtx &c = state(m);
  UOpRef cop = m[n::c], src = m[n::src];
  UOpRef buf = base(src);
  while (buf->op == Op::BITCAST)
    buf = base(buf->src[0]);
  if (buf->op == Op::UNSHARD)
    return c.fail(cop, "views of multi-device (UNSHARD) buffers are not supported");
  if (buf->op != Op::BUFFER || !hasStaticShape(cop))
    return nullptr;
  auto cv = contiguousView(src);
  if (!cv) // as tinygrad: no view; the kernel reads (and bitcasts) the values
    return nullptr;
  // _make_buffer_view: the view's bytes, counted in the buffer's elements.
  int64_t size = 1;
  for (int64_t d : shapeOf(src))
    size *= d;
  size = size * itemBytes(src) / itemBytes(cv->first);
  UOpRef view = shrink(c.ctx, cv->first, {cv->second}, {cv->second + size});
  view = bitcast(c.ctx, view, elementType(src));
  c.views.insert(view);
  view = reshape(c.ctx, view, shapeOf(cop));
  if (cop->op == Op::COPY || cop->op == Op::STORE) {
    llvm::SmallVector<UOpRef, 4> s{view};
    s.append(cop->src.begin() + 1, cop->src.end());
    return c.ctx.replaceSrc(cop, s);
  }
  return view;
}

//===----------------------------------------------------------------------===//
// add_tags (bottom-up): CONTIGUOUS and AFTER and the realized bases
//===----------------------------------------------------------------------===//

UOpRef diskCopyIsBuffer(Match &m) {
  AllocCtx &c = state(m);
  UOpRef u = m[n::u];
  if (diskLike(c, u))
    return c.fail(u, "copies to DISK/TINYFS are not supported");
  if (startsWithAny(c.props.deviceName(u->src[0]), {"NPY", "DISK", "PYTHON", "TINYFS"}))
    return tagUOp(c, u);
  return nullptr;
}

UOpRef mergeCopyTagIntoAfter(Match &m) {
  AllocCtx &c = state(m);
  UOpRef a = m[n::a], cp = m[n::c];
  Tag at = getTag(a), ct = getTag(cp);
  if (!at || at->empty() || !ct || ct->empty())
    return nullptr;
  UOpRef st = store(c.ctx, m[n::dest], withTag(c.ctx, cp, llvm::SmallVector<int64_t, 2>{}));
  UOpRef r = c.ctx.replaceSrc(a, {a->src[0], st});
  return withTag(c.ctx, r, concatTags(at, ct));
}

const PatternMatcher &addTags() {
  static const PatternMatcher pm{
      {"disk_copy_is_buffer", op(Op::COPY, n::u), diskCopyIsBuffer},
      {"merge COPY tag into AFTER",
       up(Op::AFTER, {var(), up(Op::STORE, {var(n::dest), op(Op::COPY, n::c)})}, n::a),
       mergeCopyTagIntoAfter},
      {"tag_uop CONTIGUOUS/AFTER", op({Op::CONTIGUOUS, Op::AFTER}, n::x),
       [](Match &m) { return tagUOp(state(m), m[n::x]); }},
      {"tag_uop bases", op(allOps(), n::x), [](Match &m) -> UOpRef {
         AllocCtx &c = state(m);
         return c.bases.count(m[n::x]) ? tagUOp(c, m[n::x]) : nullptr;
       }},
  };
  return pm;
}

//===----------------------------------------------------------------------===//
// pm_early_transform_tensor_graph
//===----------------------------------------------------------------------===//

UOpRef replaceContigWithStoreAfter(Match &m) {
  AllocCtx &c = state(m);
  UOpRef u = m[n::u];
  // can't allocate a buffer for a virtual value
  if (isVirtual(c.props, u))
    return nullptr;
  llvm::SmallVector<int64_t> shape = shapeOf(u);
  if (llvm::is_contained(shape, 0))
    return u->src[0];
  if (diskLike(c, u))
    return c.fail(u, "DISK/TINYFS tensors are not supported");
  auto dev = c.props.device(u);
  if (!isa_and_nonnull<StringAttr>(dev))
    return c.fail(u, "multi-device buffers are not supported");
  // empty_like (Tensor.empty): a strong dtype of the value, a buffer of the
  // shape's maximum (a symbolic dim's vmax), reshaped to that and shrunk
  // to the shape
  Type dt = elementType(u);
  if (tg::isWeakType(dt))
    return c.fail(u, "cannot create storage for a weak dtype");
  llvm::SmallVector<int64_t> maxShape(shape);
  llvm::SmallVector<UOpRef, 4> dims;
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d != tg::kDynamic) {
      dims.push_back(c.ctx.constInt(d));
      continue;
    }
    UOpRef dim = dimNode(c.ctx, u, i);
    if (!dim || !dim->vmax().isInt() || dim->vmax().i < 0 || dim->vmax().i > INT32_MAX)
      return c.fail(u, "realizing a symbolic shape: dim " + std::to_string(i) + " has no bounded maximum");
    maxShape[i] = (int64_t)dim->vmax().i;
    dims.push_back(dim);
  }
  int64_t size = 1;
  for (int64_t d : maxShape)
    size *= d;
  UOpRef buf = reshape(c.ctx, newBuffer(c.ctx, dev, size, dt, c.nextSlot++), maxShape);
  if (maxShape != shape)
    buf = shrinkToDims(c.ctx, buf, shape, dims);
  return after(c.ctx, buf, {store(c.ctx, buf, u->src[0])}, getTag(u));
}

UOpRef replaceStoreAfterWithContig(Match &m) {
  AllocCtx &c = state(m);
  UOpRef u = m[n::u];
  UOpRef assignedTo = u;
  while (assignedTo->op == Op::BITCAST || assignedTo->op == Op::AFTER ||
         assignedTo->op == Op::UNSHARD)
    assignedTo = base(assignedTo->src[0]);
  if (assignedTo->op != Op::BUFFER)
    return contiguous(c.ctx, m[n::src], getTag(u));
  return nullptr;
}

UOpRef addContiguousToTagged(Match &m) {
  AllocCtx &c = state(m);
  UOpRef x = m[n::x];
  Tag t = getTag(x);
  if (!t)
    return nullptr;
  if (t->empty())
    return withTag(c.ctx, x, std::nullopt);
  return contiguous(c.ctx, withTag(c.ctx, x, std::nullopt), t);
}

UOpRef removeContiguousOnAfter(Match &m) {
  UOpRef a = m[n::a], cp = m[n::c];
  if (!hasBufferIdentity(a->src[0]))
    return nullptr;
  return withTag(state(m).ctx, a, concatTags(getTag(a), getTag(cp)));
}

const PatternMatcher &earlyTransformTensorGraph() {
  static const PatternMatcher pm{
      {"transform_precompiled_call", op(Op::FUNCTION, n::c), [](Match &m) {
         return state(m).fail(m[n::c], "precompiled FUNCTIONs are not supported yet");
       }},
      {"resolve TUPLE+GETTUPLE", up(Op::GETTUPLE, {op(Op::TUPLE, n::t)}, n::g),
       [](Match &m) -> UOpRef {
         auto idx = dyn_cast_or_null<IntegerAttr>(m[n::g]->arg.attrs.get("index"));
         UOpRef t = m[n::t];
         if (!idx || idx.getInt() < 0 || idx.getInt() >= (int64_t)t->src.size())
           return state(m).fail(m[n::g], "GETTUPLE index out of range");
         return t->src[idx.getInt()];
       }},
      {"contiguous_mops_to_view (COPY/CONTIGUOUS)",
       up({Op::COPY, Op::CONTIGUOUS}, {op(movementOps() | OpSet(Op::BITCAST), n::src)}, n::c),
       contiguousMopsToView},
      {"contiguous_mops_to_view (STORE)",
       up(Op::STORE, {op(Op::BITCAST, n::src), var()}, n::c).allowAnyLen(),
       contiguousMopsToView},
      // the two DISK copy rules of tinygrad need DISK devices: copies to disk
      // are rejected by add_tags above
      {"add CONTIGUOUS to tagged UOps",
       op(allOpsBut({Op::CONTIGUOUS, Op::AFTER, Op::STORE}), n::x), addContiguousToTagged},
      {"remove extra CONTIGUOUS on AFTER", up(Op::CONTIGUOUS, {op(Op::AFTER, n::a)}, n::c),
       removeContiguousOnAfter},
      {"replace AFTER+STORE with CONTIGUOUS",
       up(Op::AFTER, {var(), up(Op::STORE, {var(), var(n::src)})}, n::u),
       replaceStoreAfterWithContig},
      {"replace CONTIGUOUS with STORE+AFTER", op(Op::CONTIGUOUS, n::u),
       replaceContigWithStoreAfter},
      {"remove DETACH/CONTIGUOUS_BACKWARD",
       op({Op::DETACH, Op::CONTIGUOUS_BACKWARD}, n::x),
       [](Match &m) { return m[n::x]->src[0]; }},
  };
  return pm;
}

//===----------------------------------------------------------------------===//
// pm_finalize_call: assigns and the buffer map
//===----------------------------------------------------------------------===//

UOpRef finalizeAfter(Match &m) {
  AllocCtx &c = state(m);
  UOpRef x = m[n::x];
  // bound Variables are call inputs, not assigns
  if (isBoundVar(x))
    return nullptr;
  Tag t = getTag(x);
  if (!t) {
    c.assigns.push_back(x);
    return nullptr;
  }
  UOpRef ret = withTag(c.ctx, x, std::nullopt);
  UOpRef r = ret;
  llvm::SmallVector<UOpRef, 4> views;
  while (sym::isMovement(r->op) || r->op == Op::UNSHARD || r->op == Op::BITCAST ||
         r->op == Op::AFTER) {
    if (r->op != Op::AFTER)
      views.push_back(r);
    r = r->src[0];
  }
  for (UOpRef v : llvm::reverse(views)) {
    llvm::SmallVector<UOpRef, 4> s{r};
    s.append(v->src.begin() + 1, v->src.end());
    r = c.ctx.replaceSrc(v, s);
  }
  for (int64_t i : *t) {
    if (i < 0 || i >= (int64_t)c.uopList.size())
      return c.fail(x, "tag out of range");
    UOpRef orig = c.uopList[i];
    c.bufferMap[orig] = hasStaticShape(orig) ? shrinkTo(c.ctx, r, shapeOf(orig)) : r;
  }
  return ret;
}

const PatternMatcher &finalizeCall() {
  static const PatternMatcher pm{
      {"finalize_after", op(Op::AFTER, n::x), finalizeAfter},
  };
  return pm;
}

//===----------------------------------------------------------------------===//
// pm_replace_buf (bottom-up): buffers -> positional PARAMs
//===----------------------------------------------------------------------===//

UOpRef replaceInputBuffer(AllocCtx &c, UOpRef b) {
  c.replacements.push_back(b);
  int64_t slot = c.replacements.size() - 1;
  if (isBoundVar(b) || isVariable(b)) {
    // param_like: the variable's PARAM; the stored value stays in the args
    UOpRef v = b->op == Op::AFTER ? b->src[0] : b;
    tg::ParamAttr p = paramAttr(v);
    MLIRContext *mctx = c.ctx.getMLIRContext();
    auto np = tg::ParamAttr::get(mctx, slot, p.getDtype(), p.getVminVmax(), p.getMultipleOf(),
                                 StringAttr::get(mctx, "p" + llvm::Twine(slot)),
                                 p.getAddrspace(), p.getAxis(), p.getDevice(),
                                 p.getIsVolatile(), p.getSize());
    auto attrs = DictionaryAttr::get(mctx, {NamedAttribute(StringAttr::get(mctx, "arg"), np)});
    return c.ctx.get(Op::PARAM, v->type, v->src, sym::Arg{Scalar(), attrs});
  }
  auto as = c.props.addrspace(b);
  return param(c.ctx, slot, elementType(b), shapeOf(b), c.props.device(b),
               as ? *as : tg::AddrSpace::Global);
}

const PatternMatcher &replaceBuf() {
  static const PatternMatcher pm{
      {"BUFFER -> PARAM", up(Op::BUFFER, {var()}, n::b), [](Match &m) -> UOpRef {
         AllocCtx &c = state(m);
         auto p = paramAttr(m[n::b]);
         if (!p || p.getAddrspace() != tg::AddrSpace::Global)
           return nullptr;
         return replaceInputBuffer(c, m[n::b]);
       }},
      {"SHRINK view -> PARAM", up(Op::SHRINK, {op(Op::BUFFER)}, n::b).allowAnyLen(),
       [](Match &m) -> UOpRef {
         AllocCtx &c = state(m);
         return c.views.count(m[n::b]) ? replaceInputBuffer(c, m[n::b]) : nullptr;
       }},
      {"BITCAST view -> PARAM",
       up(Op::BITCAST, {any({up(Op::SHRINK, {op(Op::BUFFER)}).allowAnyLen(), op(Op::BUFFER)})}, n::b),
       [](Match &m) -> UOpRef {
         AllocCtx &c = state(m);
         return c.views.count(m[n::b]) ? replaceInputBuffer(c, m[n::b]) : nullptr;
       }},
      {"bound Variable -> PARAM", op(Op::AFTER, n::b), [](Match &m) -> UOpRef {
         return isBoundVar(m[n::b]) ? replaceInputBuffer(state(m), m[n::b]) : nullptr;
       }},
  };
  return pm;
}

llvm::Error fail(const std::string &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

} // namespace

int64_t sched::nextFreeBufferSlot(UOpRef root) {
  int64_t next = 0;
  forEachNode(root, [&](UOpRef u) {
    if (auto p = paramAttr(u); p && u->op == Op::BUFFER)
      next = std::max(next, p.getSlot() + 1);
  });
  return next;
}

llvm::Expected<CallifyResult> sched::callify(Context &ctx, UOpRef bigSink,
                                             int64_t &nextSlot) {
  if (!bigSink || bigSink->op != Op::SINK)
    return fail("callify: the tensor graph root must be a SINK");
  AllocCtx c(ctx, nextSlot);
  // same predicate as Tensor.realize
  for (UOpRef x : bigSink->src) {
    UOpRef b = base(x);
    if (!isVirtual(c.props, b) && !hasBufferIdentity(b) && b->op != Op::AFTER &&
        c.props.addrspace(b) != tg::AddrSpace::ALU)
      c.bases.insert(b);
  }
  auto check = [&](UOpRef r, const char *step) -> llvm::Error {
    if (!c.error.empty())
      return fail(c.error);
    if (!r)
      return fail(std::string("callify: ") + step + ": " +
                  (ctx.errors.empty() ? "rewrite failed" : ctx.errors.back()));
    return llvm::Error::success();
  };
  UOpRef g = sym::graphRewriteBottomUp(ctx, bigSink, addTags(), &c);
  if (auto e = check(g, "number the uops"))
    return std::move(e);
  g = sym::graphRewrite(ctx, g, earlyTransformTensorGraph(), &c);
  if (auto e = check(g, "early transform tensor graph"))
    return std::move(e);
  UOpRef fin = sym::graphRewrite(ctx, g, finalizeCall(), &c);
  if (auto e = check(fin, "finalize call"))
    return std::move(e);
  UOpRef body = sym::graphRewriteBottomUp(ctx, sink(ctx, c.assigns), replaceBuf(), &c);
  if (auto e = check(body, "replace bufs"))
    return std::move(e);
  CallifyResult res;
  res.call = call(ctx, body, c.replacements);
  res.bufferMap = std::move(c.bufferMap);
  return res;
}
