//===- Graph.cpp - tinygrad's UOp properties and constructors -------------===//
#include "tinygrad/Schedule/Graph.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

std::optional<Shape> sched::shapeOf(UOpRef u) {
  switch (u->op) {
  case sym::Op::STORE:
  case sym::Op::END:
  case sym::Op::AFTER:
  case sym::Op::NOOP:
    return u->src.empty() ? std::nullopt : shapeOf(u->src[0]);
  case sym::Op::SINK:
  case sym::Op::CALL:
  case sym::Op::GROUP:
  case sym::Op::TUPLE:
  case sym::Op::FUNCTION:
  case sym::Op::LINEAR:
    return std::nullopt;
  default:
    break;
  }
  tg::ValueInfo info = tg::getValueInfo(u->type);
  if (info.isVoid)
    return std::nullopt;
  return Shape(info.shape.begin(), info.shape.end());
}

UOpRef sched::baseOf(UOpRef u) {
  while (sym::isMovement(u->op) || u->op == sym::Op::DETACH)
    u = u->src[0];
  return u;
}

tg::ParamAttr sched::paramArg(UOpRef u) {
  if ((u->op != sym::Op::PARAM && u->op != sym::Op::BUFFER) || !u->arg.attrs)
    return {};
  return dyn_cast_or_null<tg::ParamAttr>(u->arg.attrs.get("arg"));
}

tg::BufferizeOptsAttr sched::stageOpts(UOpRef u) {
  if (u->op != sym::Op::STAGE || !u->arg.attrs)
    return {};
  return dyn_cast_or_null<tg::BufferizeOptsAttr>(u->arg.attrs.get("opts"));
}

Attribute sched::deviceOf(UOpRef u) {
  // Iterative over the first-src chain; tinygrad's recursion is the same walk.
  llvm::DenseMap<UOpRef, Attribute> memo;
  std::function<Attribute(UOpRef)> go = [&](UOpRef x) -> Attribute {
    if (auto it = memo.find(x); it != memo.end())
      return it->second;
    Attribute r;
    if (auto p = paramArg(x))
      r = p.getDevice();
    else if (auto o = stageOpts(x))
      r = o.getDevice();
    else if (x->op == sym::Op::AFTER)
      r = go(x->src[0]);
    else if (x->op == sym::Op::COPY && x->arg.attrs)
      r = x->arg.attrs.get("device");
    else
      for (UOpRef s : x->src)
        if ((r = go(s)))
          break;
    memo[x] = r;
    return r;
  };
  return go(u);
}

std::optional<tg::AddrSpace> sched::addrspaceOf(UOpRef u) {
  if (auto p = paramArg(u))
    return p.getAddrspace();
  switch (u->op) {
  case sym::Op::SPECIAL:
  case sym::Op::RANGE:
  case sym::Op::LOAD:
    return tg::AddrSpace::ALU;
  case sym::Op::INDEX:
  case sym::Op::CAST:
  case sym::Op::AFTER:
  case sym::Op::REDUCE:
  case sym::Op::STORE:
  case sym::Op::MSTACK:
  case sym::Op::MSELECT:
  case sym::Op::END:
  case sym::Op::UNSHARD:
    return addrspaceOf(u->src[0]);
  default:
    break;
  }
  if (sym::isMovement(u->op))
    return addrspaceOf(u->src[0]);
  if (u->op == sym::Op::STACK || u->op == sym::Op::WMMA || u->op == sym::Op::GROUP ||
      sym::isALU(u->op) || u->op == sym::Op::BITCAST) {
    std::optional<tg::AddrSpace> r;
    for (UOpRef s : u->src) {
      auto a = addrspaceOf(s);
      if (!a)
        continue;
      if (r && *r != *a)
        return std::nullopt;
      r = a;
    }
    return r;
  }
  return std::nullopt;
}

UOpRef sched::bufUOp(Context &ctx, UOpRef u) {
  if (u->op == sym::Op::BUFFER || u->op == sym::Op::PARAM)
    return u;
  if (baseOf(u)->op == sym::Op::AFTER)
    return baseOf(bufUOp(ctx, baseOf(u)->src[0]));
  UOpRef s = u;
  while (!s->src.empty() && s->op != sym::Op::BUFFER && s->op != sym::Op::PARAM &&
         s->op != sym::Op::STAGE && s->op != sym::Op::MSTACK)
    s = s->src[0];
  return s;
}

bool sched::isVariable(UOpRef u) {
  auto p = paramArg(u);
  if (u->op != sym::Op::BUFFER || !p || !p.getVminVmax() ||
      p.getAddrspace() != tg::AddrSpace::ALU)
    return false;
  auto s = shapeOf(u);
  return s && s->empty();
}

bool sched::isBoundVar(UOpRef u) {
  return u->op == sym::Op::AFTER && u->src.size() == 2 && isVariable(u->src[0]) &&
         u->src[1]->op == sym::Op::STORE && u->src[1]->src[0] == u->src[0] &&
         u->src[1]->src[1]->op == sym::Op::CONST;
}

llvm::ArrayRef<int64_t> sched::rangeIds(UOpRef r) {
  if (!r->arg.attrs)
    return {};
  if (auto a = dyn_cast_or_null<DenseI64ArrayAttr>(r->arg.attrs.get("ids")))
    return a.asArrayRef();
  return {};
}

tg::AxisType sched::rangeType(UOpRef r) {
  if (r->arg.attrs)
    if (auto a = dyn_cast_or_null<tg::AxisTypeAttr>(r->arg.attrs.get("axis_type")))
      return a.getValue();
  return tg::AxisType::Weak;
}

bool sched::rangeArgLess(UOpRef a, UOpRef b) {
  auto ia = rangeIds(a), ib = rangeIds(b);
  if (ia != ib)
    return std::lexicographical_compare(ia.begin(), ia.end(), ib.begin(), ib.end());
  return static_cast<uint32_t>(rangeType(a)) < static_cast<uint32_t>(rangeType(b));
}

Attribute sched::tagOf(UOpRef u) {
  return u->arg.attrs ? u->arg.attrs.get("tg.tag") : Attribute();
}

/// `as_shape` of a shape operand: constant dims as numbers, symbolic ones
/// (a variable or an expression) as kDynamic.
static std::optional<Shape> constShape(UOpRef s) {
  Shape r;
  auto dim = [](UOpRef e) -> int64_t {
    return e->intVal() ? static_cast<int64_t>(*e->intVal()) : tg::kDynamic;
  };
  if (s->op != sym::Op::STACK) {
    if (!isInt(s->dtype))
      return std::nullopt;
    r.push_back(dim(s));
    return r;
  }
  for (UOpRef e : s->src) {
    if (!isInt(e->dtype))
      return std::nullopt;
    r.push_back(dim(e));
  }
  return r;
}

/// The node of dim `i` of a shape operand.
static UOpRef shapeOperandDim(UOpRef s, unsigned i) {
  return s->op == sym::Op::STACK ? s->src[i] : s;
}

UOpRef sched::dimOf(Context &ctx, UOpRef u, unsigned i) {
  auto s = shapeOf(u);
  if (!s || i >= s->size())
    return nullptr;
  if ((*s)[i] != tg::kDynamic)
    return ctx.constInt((*s)[i]);
  // follow tinygrad's _shape rules to the operand that holds the dim
  switch (u->op) {
  case sym::Op::RESHAPE:
  case sym::Op::EXPAND:
    return shapeOperandDim(u->src[1], i);
  case sym::Op::PAD:
  case sym::Op::SHRINK:
    return shapeOperandDim(u->src[2], i);
  case sym::Op::PARAM:
  case sym::Op::BUFFER:
    return shapeOperandDim(u->src[0], i);
  case sym::Op::PERMUTE:
    if (auto m = margOf(u))
      return dimOf(ctx, u->src[0], m->perm[i]);
    return nullptr;
  case sym::Op::REDUCE:
    if (auto n = u->arg.attrs ? dyn_cast_or_null<IntegerAttr>(u->arg.attrs.get("n")) : IntegerAttr())
      return dimOf(ctx, u->src[0], i + n.getInt());
    return nullptr;
  default:
    break;
  }
  // elementwise and pass-through ops: a source with this dim, right-aligned
  for (UOpRef src : u->src) {
    auto ss = shapeOf(src);
    if (!ss || ss->size() + i < s->size())
      continue;
    unsigned j = i - (s->size() - ss->size());
    if ((*ss)[j] == tg::kDynamic)
      return dimOf(ctx, src, j);
  }
  return nullptr;
}

/// The source's dims as nodes, where one is symbolic (a RESHAPE's sizes,
/// a PAD's bound or a FLIP's last index need them).
static void fillSymbolicInDims(UOpRef u, MArg &m) {
  if (auto ss = shapeOf(u->src[0]); ss && llvm::is_contained(*ss, tg::kDynamic))
    for (unsigned i = 0; i < ss->size(); ++i)
      m.inDims.push_back(dimOf(u->ctx(), u->src[0], i));
}

std::optional<MArg> sched::margOf(UOpRef u) {
  MArg m;
  switch (u->op) {
  case sym::Op::RESHAPE:
  case sym::Op::EXPAND: {
    auto s = constShape(u->src[1]);
    if (!s)
      return std::nullopt;
    m.shape = *s;
    for (unsigned i = 0; i < s->size(); ++i)
      m.shapeNodes.push_back(shapeOperandDim(u->src[1], i));
    if (u->op == sym::Op::RESHAPE)
      fillSymbolicInDims(u, m);
    return m;
  }
  case sym::Op::PAD:
  case sym::Op::SHRINK: {
    auto a = constShape(u->src[1]), b = constShape(u->src[2]);
    if (!a || !b || a->size() != b->size())
      return std::nullopt;
    for (size_t i = 0; i < a->size(); ++i) {
      m.pairs.push_back({(*a)[i], (*b)[i]});
      m.offsets.push_back(shapeOperandDim(u->src[1], i));
    }
    fillSymbolicInDims(u, m);
    return m;
  }
  case sym::Op::PERMUTE:
    if (auto p = u->arg.attrs ? dyn_cast_or_null<DenseI64ArrayAttr>(u->arg.attrs.get("perm"))
                              : DenseI64ArrayAttr()) {
      m.perm.assign(p.asArrayRef().begin(), p.asArrayRef().end());
      return m;
    }
    return std::nullopt;
  case sym::Op::FLIP:
    if (auto f = u->arg.attrs ? dyn_cast_or_null<DenseBoolArrayAttr>(u->arg.attrs.get("flags"))
                              : DenseBoolArrayAttr()) {
      for (bool b : f.asArrayRef())
        m.perm.push_back(b);
      fillSymbolicInDims(u, m);
      return m;
    }
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

llvm::SmallVector<unsigned> sched::broadcastAxes(llvm::ArrayRef<int64_t> src,
                                                 llvm::ArrayRef<int64_t> out) {
  llvm::SmallVector<unsigned> r;
  if (out.size() < src.size())
    return r;
  unsigned nleft = out.size() - src.size();
  for (unsigned i = 0; i < nleft; ++i)
    r.push_back(i);
  for (unsigned i = 0; i < src.size(); ++i)
    if (src[i] == 1 && out[nleft + i] != 1)
      r.push_back(nleft + i);
  return r;
}

// One per thread: a ScopedRangeCache is its thread's (BEAM compiles candidates on
// several threads at once; a shared pointer handed one thread the other's cache).
static thread_local RangeCache *activeCache = nullptr;
RangeCache &sched::rangeCache() {
  // Outside get_kernel_graph (unit tests of a single pass) a fresh cache
  // per thread is still correct: nodes are immutable.
  static thread_local RangeCache fallback;
  return activeCache ? *activeCache : fallback;
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

Type sched::valueType(Context &ctx, DType dt, llvm::ArrayRef<int64_t> shape,
                      std::optional<tg::AddrSpace> as) {
  return tg::makeValueType(ctx.typeFor(dt), shape, as);
}

Type sched::voidType(Context &ctx) { return ctx.typeFor(DType::Void); }

DictionaryAttr sched::attrs(Context &ctx, llvm::ArrayRef<NamedAttribute> a) {
  return a.empty() ? DictionaryAttr() : DictionaryAttr::get(ctx.getMLIRContext(), a);
}

UOpRef sched::withAttr(Context &ctx, UOpRef u, llvm::StringRef name, Attribute value) {
  NamedAttrList l(u->arg.attrs);
  if (value)
    l.set(name, value);
  else
    l.erase(name);
  DictionaryAttr d = l.empty() ? DictionaryAttr() : l.getDictionary(ctx.getMLIRContext());
  return ctx.get(u->op, u->type, u->src, sym::Arg{u->arg.value, d});
}

UOpRef sched::withSrc(Context &ctx, UOpRef u, llvm::ArrayRef<UOpRef> src) {
  if (u->op == sym::Op::INDEX) // dtype/shape derive from the new sources
    return index(ctx, src[0], src.drop_front());
  return ctx.replaceSrc(u, src);
}

UOpRef sched::index(Context &ctx, UOpRef buf, llvm::ArrayRef<UOpRef> idx) {
  tg::ValueInfo b = tg::getValueInfo(buf->type);
  Shape shape;
  for (UOpRef s : idx) {
    auto si = shapeOf(s);
    if (si)
      shape.append(si->begin(), si->end());
  }
  if (idx.size() < b.shape.size())
    shape.append(b.shape.begin() + idx.size(), b.shape.end());
  llvm::SmallVector<UOpRef, 4> all{buf};
  all.append(idx.begin(), idx.end());
  Type elem = b.isVoid ? voidType(ctx) : b.elementType;
  return ctx.get(sym::Op::INDEX, tg::makeValueType(elem, shape, addrspaceOf(buf)), all);
}

UOpRef sched::store(Context &ctx, UOpRef dst, UOpRef val) {
  return ctx.get(sym::Op::STORE, voidType(ctx), {dst, val});
}

UOpRef sched::end(Context &ctx, UOpRef x, llvm::ArrayRef<UOpRef> rngs) {
  if (rngs.empty())
    return x;
  llvm::SmallVector<UOpRef, 4> all{x};
  all.append(rngs.begin(), rngs.end());
  return ctx.get(sym::Op::END, voidType(ctx), all);
}

UOpRef sched::after(Context &ctx, UOpRef x, llvm::ArrayRef<UOpRef> deps) {
  if (deps.empty())
    return x;
  llvm::SmallVector<UOpRef, 4> all{x};
  all.append(deps.begin(), deps.end());
  return ctx.get(sym::Op::AFTER, x->type, all);
}

UOpRef sched::sink(Context &ctx, llvm::ArrayRef<UOpRef> src, Attribute arg) {
  DictionaryAttr d;
  if (arg)
    d = attrs(ctx, {NamedAttribute(StringAttr::get(ctx.getMLIRContext(), "arg"), arg)});
  return ctx.get(sym::Op::SINK, voidType(ctx), src, sym::Arg{Scalar(), d});
}

UOpRef sched::noop(Context &ctx, llvm::ArrayRef<UOpRef> src) {
  return ctx.get(sym::Op::NOOP, src.empty() ? voidType(ctx) : src[0]->type, src);
}

UOpRef sched::range(Context &ctx, int64_t endv, int64_t id, tg::AxisType at) {
  MLIRContext *mc = ctx.getMLIRContext();
  auto d = attrs(ctx, {NamedAttribute(StringAttr::get(mc, "axis_type"), tg::AxisTypeAttr::get(mc, at)),
                       NamedAttribute(StringAttr::get(mc, "ids"), DenseI64ArrayAttr::get(mc, {id}))});
  return ctx.get(sym::Op::RANGE, ctx.typeFor(DType::WeakInt), {ctx.constInt(endv)},
                 sym::Arg{Scalar(), d});
}

UOpRef sched::stage(Context &ctx, UOpRef src, llvm::ArrayRef<UOpRef> rngs,
                    tg::BufferizeOptsAttr opts) {
  Shape shape;
  for (UOpRef r : rngs)
    shape.push_back(static_cast<int64_t>(r->vmax().isInt() ? r->vmax().i + 1 : 1));
  // STAGE's shape is its ranges' sizes followed by its source's shape; the
  // source is a per-element (scalar) expression once rangeify is applied,
  // which is when this shape is read.
  llvm::SmallVector<UOpRef, 4> all{src};
  all.append(rngs.begin(), rngs.end());
  auto d = attrs(ctx, {NamedAttribute(StringAttr::get(ctx.getMLIRContext(), "opts"), opts)});
  return ctx.get(sym::Op::STAGE, valueType(ctx, src->dtype, shape, opts.getAddrspace()), all,
                 sym::Arg{Scalar(), d});
}

UOpRef sched::reduceRanged(Context &ctx, UOpRef src, llvm::ArrayRef<UOpRef> rngs,
                           tg::ReduceKind kind) {
  MLIRContext *mc = ctx.getMLIRContext();
  auto d = attrs(ctx, {NamedAttribute(StringAttr::get(mc, "kind"), tg::ReduceKindAttr::get(mc, kind)),
                       NamedAttribute(StringAttr::get(mc, "n"),
                                      IntegerAttr::get(IntegerType::get(mc, 64), 0))});
  llvm::SmallVector<UOpRef, 4> all{src};
  all.append(rngs.begin(), rngs.end());
  // the element's type: after rangeify the source is a scalar expression
  tg::ValueInfo i = tg::getValueInfo(src->type);
  return ctx.get(sym::Op::REDUCE, tg::makeValueType(i.elementType, {}, i.addrspace), all,
                 sym::Arg{Scalar(), d});
}

UOpRef sched::shapeArg(Context &ctx, llvm::ArrayRef<int64_t> shape) {
  if (shape.size() == 1)
    return ctx.constInt(shape[0]);
  llvm::SmallVector<UOpRef, 4> e;
  for (int64_t s : shape)
    e.push_back(ctx.constInt(s));
  return ctx.stack(e);
}

static UOpRef withShape(Context &ctx, sym::Op op, UOpRef x, llvm::ArrayRef<UOpRef> extra,
                        llvm::ArrayRef<int64_t> shape) {
  tg::ValueInfo i = tg::getValueInfo(x->type);
  llvm::SmallVector<UOpRef, 3> all{x};
  all.append(extra.begin(), extra.end());
  return ctx.get(op, tg::makeValueType(i.elementType, shape, i.addrspace), all);
}

UOpRef sched::reshape(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape) {
  return withShape(ctx, sym::Op::RESHAPE, x, {shapeArg(ctx, shape)}, shape);
}

UOpRef sched::expand(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape) {
  return withShape(ctx, sym::Op::EXPAND, x, {shapeArg(ctx, shape)}, shape);
}

UOpRef sched::shrink(Context &ctx, UOpRef x,
                     llvm::ArrayRef<std::pair<int64_t, int64_t>> bounds) {
  Shape off, sz;
  for (auto [a, b] : bounds) {
    off.push_back(a);
    sz.push_back(b - a);
  }
  return withShape(ctx, sym::Op::SHRINK, x, {shapeArg(ctx, off), shapeArg(ctx, sz)}, sz);
}

UOpRef sched::permute(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> perm) {
  bool ident = true;
  for (size_t i = 0; i < perm.size(); ++i)
    ident &= perm[i] == int64_t(i);
  if (ident)
    return x;
  auto s = shapeOf(x);
  Shape ns;
  for (int64_t p : perm)
    ns.push_back((*s)[p]);
  tg::ValueInfo i = tg::getValueInfo(x->type);
  MLIRContext *mc = ctx.getMLIRContext();
  auto d = attrs(ctx, {NamedAttribute(StringAttr::get(mc, "perm"), DenseI64ArrayAttr::get(mc, perm))});
  return ctx.get(sym::Op::PERMUTE, tg::makeValueType(i.elementType, ns, i.addrspace), {x},
                 sym::Arg{Scalar(), d});
}

UOpRef sched::reduceAxes(Context &ctx, UOpRef x, tg::ReduceKind kind, int64_t n) {
  MLIRContext *mc = ctx.getMLIRContext();
  auto d = attrs(ctx, {NamedAttribute(StringAttr::get(mc, "kind"), tg::ReduceKindAttr::get(mc, kind)),
                       NamedAttribute(StringAttr::get(mc, "n"),
                                      IntegerAttr::get(IntegerType::get(mc, 64), n))});
  tg::ValueInfo i = tg::getValueInfo(x->type);
  Shape out(i.shape.begin() + n, i.shape.end());
  return ctx.get(sym::Op::REDUCE, tg::makeValueType(i.elementType, out, i.addrspace), {x},
                 sym::Arg{Scalar(), d});
}

UOpRef sched::storage(Context &ctx, sym::Op op, llvm::ArrayRef<int64_t> shape, tg::ParamAttr arg) {
  auto d = attrs(ctx, {NamedAttribute(StringAttr::get(ctx.getMLIRContext(), "arg"), arg)});
  Type t = tg::makeValueType(arg.getDtype(), shape, arg.getAddrspace());
  llvm::SmallVector<UOpRef, 1> src;
  src.push_back(shape.empty() ? ctx.stack({}) : shapeArg(ctx, shape));
  return ctx.get(op, t, src, sym::Arg{Scalar(), d});
}

UOpRef sched::valid(Context &ctx, UOpRef x, UOpRef cond) {
  return ctx.where(cond, x, ctx.cnst(Scalar::invalid(), x->dtype));
}

UOpRef sched::getIdx(UOpRef x) {
  return x->op == sym::Op::WHERE && x->src[2]->isInvalid() ? x->src[1] : x;
}

UOpRef sched::getValid(Context &ctx, UOpRef x) {
  if (x->op == sym::Op::WHERE && x->src[2]->isInvalid())
    return x->src[0];
  return ctx.constBool(!x->isInvalid());
}

UOpRef sched::fail(Context &ctx, llvm::StringRef where, const llvm::Twine &what) {
  ctx.errors.push_back((where + ": " + what).str());
  return nullptr;
}

std::string sched::formatShape(llvm::ArrayRef<int64_t> s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

ScopedRangeCache::ScopedRangeCache() : prev(activeCache) { activeCache = &cache; }
ScopedRangeCache::~ScopedRangeCache() { activeCache = prev; }

sym::pat::OpSet sched::allOps() {
  sym::pat::OpSet s;
  for (unsigned i = 0; i < sym::kNumOps; ++i)
    s.insert(static_cast<sym::Op>(i));
  return s;
}
