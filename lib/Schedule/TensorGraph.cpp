//===- TensorGraph.cpp - tinygrad's UOp properties on tensor graphs -------===//
#include "tinygrad/Schedule/TensorGraph.h"

#include "tinygrad/Schedule/Graph.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sched::tgraph;

static constexpr llvm::StringLiteral kTag = "tg.tag";

Tag tgraph::getTag(UOpRef u) {
  if (!u->arg.attrs)
    return std::nullopt;
  auto arr = dyn_cast_or_null<ArrayAttr>(u->arg.attrs.get(kTag));
  if (!arr)
    return std::nullopt;
  llvm::SmallVector<int64_t, 2> out;
  for (Attribute a : arr)
    if (auto i = dyn_cast<IntegerAttr>(a))
      out.push_back(i.getInt());
  return out;
}

UOpRef tgraph::withTag(Context &ctx, UOpRef u, const Tag &t) {
  MLIRContext *m = ctx.getMLIRContext();
  NamedAttrList attrs;
  if (u->arg.attrs)
    attrs.append(u->arg.attrs.getValue());
  attrs.erase(kTag);
  if (t) {
    llvm::SmallVector<Attribute> elems;
    for (int64_t i : *t)
      elems.push_back(IntegerAttr::get(IntegerType::get(m, 64), i));
    attrs.set(kTag, ArrayAttr::get(m, elems));
  }
  sym::Arg arg = u->arg;
  arg.attrs = attrs.empty() ? DictionaryAttr() : attrs.getDictionary(m);
  return ctx.get(u->op, u->type, u->src, arg);
}

tg::ParamAttr tgraph::paramAttr(UOpRef u) {
  if ((u->op != Op::BUFFER && u->op != Op::PARAM) || !u->arg.attrs)
    return {};
  return dyn_cast_or_null<tg::ParamAttr>(u->arg.attrs.get("arg"));
}

llvm::SmallVector<int64_t> tgraph::shapeOf(UOpRef u) {
  return tg::getValueInfo(u->type).shape;
}

UOpRef tgraph::dimNode(Context &ctx, UOpRef u, unsigned i) { return sched::dimOf(ctx, u, i); }

bool tgraph::hasStaticShape(UOpRef u) {
  return llvm::none_of(shapeOf(u), [](int64_t d) { return d == tg::kDynamic; });
}

std::optional<tg::AddrSpace> tgraph::typeAddrSpace(UOpRef u) {
  return tg::getValueInfo(u->type).addrspace;
}

Type tgraph::elementType(UOpRef u) {
  return tg::getElementTypeOrSelf(u->type);
}

std::optional<llvm::SmallVector<int64_t>> tgraph::constInts(UOpRef s) {
  llvm::SmallVector<int64_t> out;
  if (auto v = s->intVal())
    return llvm::SmallVector<int64_t>{int64_t(*v)};
  if (s->op != Op::STACK)
    return std::nullopt;
  for (UOpRef e : s->src) {
    auto v = e->intVal();
    if (!v)
      return std::nullopt;
    out.push_back(int64_t(*v));
  }
  return out;
}

void tgraph::forEachNode(UOpRef root, llvm::function_ref<void(UOpRef)> fn) {
  llvm::DenseSet<UOpRef> seen;
  llvm::SmallVector<UOpRef, 64> stack{root};
  while (!stack.empty()) {
    UOpRef u = stack.pop_back_val();
    if (!seen.insert(u).second)
      continue;
    fn(u);
    stack.append(u->src.begin(), u->src.end());
  }
}

Attribute tgraph::Props::device(UOpRef u) {
  if (auto it = devMemo.find(u); it != devMemo.end())
    return it->second;
  Attribute d;
  switch (u->op) {
  case Op::PARAM:
  case Op::BUFFER:
    if (auto p = paramAttr(u))
      d = p.getDevice();
    break;
  case Op::COPY:
    d = u->arg.attrs ? u->arg.attrs.get("device") : Attribute();
    break;
  case Op::AFTER:
    d = device(u->src[0]);
    break;
  default:
    for (UOpRef s : u->src)
      if ((d = device(s)))
        break;
  }
  devMemo[u] = d;
  return d;
}

llvm::StringRef tgraph::Props::deviceName(UOpRef u) {
  if (auto s = dyn_cast_or_null<StringAttr>(device(u)))
    return s.getValue();
  return "";
}

std::optional<tg::AddrSpace> tgraph::Props::addrspace(UOpRef u) {
  if (auto it = asMemo.find(u); it != asMemo.end())
    return it->second;
  std::optional<tg::AddrSpace> r;
  switch (u->op) {
  case Op::PARAM:
  case Op::BUFFER:
    if (auto p = paramAttr(u))
      r = p.getAddrspace();
    break;
  case Op::SPECIAL:
  case Op::RANGE:
  case Op::LOAD:
    r = tg::AddrSpace::ALU;
    break;
  case Op::INDEX:
  case Op::CAST:
  case Op::AFTER:
  case Op::REDUCE:
  case Op::STORE:
  case Op::MSTACK:
  case Op::MSELECT:
  case Op::END:
  case Op::UNSHARD:
    r = addrspace(u->src[0]);
    break;
  default:
    if (sym::isMovement(u->op)) {
      r = addrspace(u->src[0]);
    } else if (u->op == Op::STACK || u->op == Op::WMMA || u->op == Op::GROUP ||
               sym::isALU(u->op)) {
      // tinygrad: the common addrspace of the sources that have one
      bool mixed = false;
      for (UOpRef s : u->src) {
        auto a = addrspace(s);
        if (!a)
          continue;
        if (r && *r != *a)
          mixed = true;
        r = a;
      }
      if (mixed)
        r.reset();
    }
  }
  asMemo[u] = r;
  return r;
}

UOpRef tgraph::base(UOpRef u) {
  while (sym::isMovement(u->op) || u->op == Op::DETACH)
    u = u->src[0];
  return u;
}

bool tgraph::isVirtual(Props &p, UOpRef u) {
  return !p.device(u) || u->dtype == DType::WeakInt || u->dtype == DType::WeakFloat;
}

bool tgraph::hasBufferIdentity(UOpRef u, bool afterOk) {
  while (u->op == Op::RESHAPE || u->op == Op::UNSHARD || u->op == Op::MSELECT ||
         (afterOk && u->op == Op::AFTER))
    u = u->src[0];
  return u->op == Op::BUFFER || u->op == Op::PARAM;
}

bool tgraph::isVariable(UOpRef u) {
  auto p = paramAttr(u);
  return u->op == Op::BUFFER && p && p.getVminVmax() &&
         p.getAddrspace() == tg::AddrSpace::ALU && shapeOf(u).empty();
}

bool tgraph::isBoundVar(UOpRef u) {
  return u->op == Op::AFTER && u->src.size() == 2 && isVariable(u->src[0]) &&
         u->src[1]->op == Op::STORE && u->src[1]->src[0] == u->src[0] &&
         u->src[1]->src[1]->op == Op::CONST;
}

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

UOpRef tgraph::shapeArg(Context &ctx, llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<UOpRef, 4> dims;
  for (int64_t d : shape)
    dims.push_back(ctx.constInt(d));
  return dims.size() == 1 ? dims[0] : ctx.stack(dims);
}

UOpRef tgraph::newBuffer(Context &ctx, Attribute device, int64_t size, Type dtype,
                        int64_t slot) {
  MLIRContext *m = ctx.getMLIRContext();
  auto p = tg::ParamAttr::get(m, slot, dtype, {}, std::nullopt, {},
                              tg::AddrSpace::Global, std::nullopt, device,
                              false, std::nullopt);
  auto attrs = DictionaryAttr::get(m, {NamedAttribute(StringAttr::get(m, "arg"), p)});
  return ctx.get(Op::BUFFER, tg::makeValueType(dtype, {size}, tg::AddrSpace::Global),
                 {shapeArg(ctx, {size})}, sym::Arg{Scalar(), attrs});
}

UOpRef tgraph::reshape(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape) {
  if (llvm::equal(shapeOf(x), shape))
    return x;
  Type t = tg::makeValueType(elementType(x), shape, typeAddrSpace(x));
  return ctx.get(Op::RESHAPE, t, {x, shapeArg(ctx, shape)});
}

UOpRef tgraph::shrink(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> starts,
                     llvm::ArrayRef<int64_t> ends) {
  llvm::SmallVector<int64_t> in = shapeOf(x), out;
  bool same = true;
  for (size_t i = 0; i < in.size(); ++i) {
    out.push_back(ends[i] - starts[i]);
    same &= starts[i] == 0 && ends[i] == in[i];
  }
  if (same)
    return x;
  Type t = tg::makeValueType(elementType(x), out, typeAddrSpace(x));
  // tinygrad's SHRINK operands are the offsets and the sizes
  return ctx.get(Op::SHRINK, t, {x, shapeArg(ctx, starts), shapeArg(ctx, out)});
}

UOpRef tgraph::shrinkTo(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> zeros(shape.size(), 0);
  return shrink(ctx, x, zeros, shape);
}

UOpRef tgraph::shrinkToDims(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<UOpRef> dims) {
  llvm::SmallVector<int64_t> zeros(shape.size(), 0);
  Type t = tg::makeValueType(elementType(x), shape, typeAddrSpace(x));
  UOpRef sizes = dims.size() == 1 ? dims[0] : ctx.stack(dims);
  return ctx.get(Op::SHRINK, t, {x, shapeArg(ctx, zeros), sizes});
}

UOpRef tgraph::bitcast(Context &ctx, UOpRef x, Type dtype) {
  if (elementType(x) == dtype)
    return x;
  auto from = tg::getDType(elementType(x)), to = tg::getDType(dtype);
  llvm::SmallVector<int64_t> shape = shapeOf(x);
  int64_t in = getInfo(*from).itemsize, out = getInfo(*to).itemsize;
  if (in != out && !shape.empty())
    shape.back() = shape.back() * in / out;
  MLIRContext *m = ctx.getMLIRContext();
  auto attrs = DictionaryAttr::get(m, {NamedAttribute(StringAttr::get(m, "dtype"), TypeAttr::get(dtype))});
  return ctx.get(Op::BITCAST, tg::makeValueType(dtype, shape, typeAddrSpace(x)), {x},
                 sym::Arg{Scalar(), attrs});
}

UOpRef tgraph::contiguous(Context &ctx, UOpRef x, const Tag &tag) {
  return withTag(ctx, ctx.get(Op::CONTIGUOUS, x->type, {x}), tag);
}

UOpRef tgraph::store(Context &ctx, UOpRef target, UOpRef value) {
  return ctx.get(Op::STORE, ctx.typeFor(DType::Void), {target, value});
}

UOpRef tgraph::after(Context &ctx, UOpRef x, llvm::ArrayRef<UOpRef> deps,
                    const Tag &tag) {
  if (deps.empty())
    return x;
  llvm::SmallVector<UOpRef, 4> src{x};
  src.append(deps.begin(), deps.end());
  return withTag(ctx, ctx.get(Op::AFTER, x->type, src), tag);
}

UOpRef tgraph::sink(Context &ctx, llvm::ArrayRef<UOpRef> srcs) {
  return ctx.get(Op::SINK, ctx.typeFor(DType::Void), srcs);
}

UOpRef tgraph::param(Context &ctx, int64_t slot, Type dtype,
                    llvm::ArrayRef<int64_t> shape, Attribute device,
                    tg::AddrSpace addrspace) {
  MLIRContext *m = ctx.getMLIRContext();
  auto p = tg::ParamAttr::get(m, slot, dtype, {}, std::nullopt, {}, addrspace,
                              std::nullopt, device, false, std::nullopt);
  auto attrs = DictionaryAttr::get(m, {NamedAttribute(StringAttr::get(m, "arg"), p)});
  return ctx.get(Op::PARAM, tg::makeValueType(dtype, shape, addrspace),
                 {shapeArg(ctx, shape)}, sym::Arg{Scalar(), attrs});
}

UOpRef tgraph::call(Context &ctx, UOpRef body, llvm::ArrayRef<UOpRef> args) {
  MLIRContext *m = ctx.getMLIRContext();
  auto info = tg::CallInfoAttr::get(m, {}, {}, false, false, {});
  auto attrs = DictionaryAttr::get(m, {NamedAttribute(StringAttr::get(m, "arg"), info)});
  llvm::SmallVector<UOpRef, 8> src{body};
  src.append(args.begin(), args.end());
  return ctx.get(Op::CALL, ctx.typeFor(DType::Void), src, sym::Arg{Scalar(), attrs});
}
