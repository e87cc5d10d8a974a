//===- DerivedType.cpp - the type a rebuilt node takes from its sources ---===//
//
// tinygrad stores a UOp's dtype but derives its shape (`_shape`) and its
// addrspace (`addrspace`) from the sources whenever they are asked for, so
// `x.replace(src=...)` keeps the dtype and the rest follows the new sources.
// Our node type holds all three (element type, shape, #tg.addrspace), and
// the dialects derive the same parts when the IR is parsed (the printed form
// states operand types only). A rebuilt node that kept its old shape or
// addrspace would be a type no parser gives back: the library and the
// textual pipeline (tinygrad-opt steps printed and parsed between them)
// would hold different graphs. So the rebuild derives them here, with the
// dialects' rules (TGTOps.cpp, TGKOps.cpp, TGOps.cpp), keeping the dtype.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Symbolic/UOp.h"

#include "tinygrad/Dialect/TG/IR/TG.h"

namespace mlir::tinygrad::sym {

namespace {
/// `as_shape` of a shape operand, as tg::getShapeOperand reads a value: a
/// CONST is one dim, a STACK one dim per source (symbolic ones unknown), the
/// empty STACK the scalar shape; nullopt if `s` is no shape.
std::optional<SmallVector<int64_t>> shapeOperand(UOpRef s) {
  if (isa<tg::VoidType>(s->type))
    return SmallVector<int64_t>{};
  tg::ValueInfo info = tg::getValueInfo(s->type);
  if (!tg::isIntDType(info.elementType))
    return std::nullopt;
  if (info.shape.empty()) {
    if (auto v = s->intVal())
      return SmallVector<int64_t>{(int64_t)*v};
    return SmallVector<int64_t>{tg::kDynamic};
  }
  if (info.shape.size() != 1 || info.shape[0] == tg::kDynamic)
    return std::nullopt;
  SmallVector<int64_t> dims(info.shape[0], tg::kDynamic);
  if (s->op == Op::STACK)
    for (auto [i, d] : llvm::enumerate(s->src))
      if (auto v = d->intVal())
        dims[i] = (int64_t)*v;
  return dims;
}

template <typename A> A attrOf(UOpRef x, llvm::StringRef name) {
  return x->arg.attrs ? dyn_cast_or_null<A>(x->arg.attrs.get(name)) : A();
}
} // namespace

Type derivedType(UOpRef x, llvm::ArrayRef<UOpRef> src) {
  if (src.empty())
    return nullptr;
  if (x->op == Op::AFTER || x->op == Op::NOOP) // the source's type as it is
    return src[0]->type;
  tg::ValueInfo in = tg::getValueInfo(src[0]->type), old = tg::getValueInfo(x->type);
  if (old.isVoid || (in.isVoid && x->op != Op::PARAM && x->op != Op::BUFFER))
    return nullptr;
  Type elem = old.elementType; // the dtype is stored: replace keeps it
  auto withShape = [&](ArrayRef<int64_t> shape, std::optional<tg::AddrSpace> as) {
    return tg::makeValueType(elem, shape, as);
  };
  switch (x->op) {
  // The source's shape and addrspace.
  case Op::CONTIGUOUS:
  case Op::CONTIGUOUS_BACKWARD:
  case Op::DETACH:
  case Op::COPY:
  case Op::MSELECT:
  case Op::MSTACK:
  case Op::ALLREDUCE:
  case Op::FLIP:
    return withShape(in.shape, in.addrspace);
  // The shape operand's dims (PAD/SHRINK: their sizes), EXPAND prepending
  // them to the source's.
  case Op::RESHAPE:
  case Op::EXPAND:
  case Op::PAD:
  case Op::SHRINK: {
    UOpRef shapeSrc = x->op == Op::RESHAPE || x->op == Op::EXPAND ? (src.size() > 1 ? src[1] : nullptr)
                                                                  : (src.size() > 2 ? src[2] : nullptr);
    auto dims = shapeSrc ? shapeOperand(shapeSrc) : std::nullopt;
    if (!dims)
      return nullptr;
    if (x->op == Op::EXPAND)
      dims->append(in.shape);
    return withShape(*dims, in.addrspace);
  }
  case Op::PERMUTE: {
    auto perm = attrOf<DenseI64ArrayAttr>(x, "perm");
    if (!perm || perm.size() != (int64_t)in.shape.size())
      return nullptr;
    SmallVector<int64_t> shape;
    for (int64_t p : perm.asArrayRef()) {
      if (p < 0 || p >= (int64_t)in.shape.size())
        return nullptr;
      shape.push_back(in.shape[p]);
    }
    return withShape(shape, in.addrspace);
  }
  case Op::REDUCE: {
    if (src.size() > 1) // ranged (kernel) REDUCE: the element's type
      return src[0]->type;
    auto n = attrOf<IntegerAttr>(x, "n");
    if (!n || n.getInt() < 0 || n.getInt() > (int64_t)in.shape.size())
      return nullptr;
    return withShape(ArrayRef<int64_t>(in.shape).drop_front(n.getInt()), in.addrspace);
  }
  case Op::INDEX: {
    // Each index removes a dim (or makes one of its own shape); the buffer
    // gives the dtype where the node's is void, and the addrspace.
    SmallVector<int64_t> shape;
    for (UOpRef s : src.drop_front())
      shape.append(tg::getValueInfo(s->type).shape);
    if (src.size() - 1 < in.shape.size())
      shape.append(in.shape.begin() + (src.size() - 1), in.shape.end());
    if (!elem || isa<tg::VoidType>(elem))
      elem = in.elementType;
    return withShape(shape, in.addrspace ? in.addrspace : old.addrspace);
  }
  case Op::LOAD: // the index's shape, in ALU
    return withShape(in.shape, std::nullopt);
  case Op::BITCAST: { // same-size bitcast: the source's shape
    if (!in.elementType || getInfo(x->dtype).itemsize != getInfo(src[0]->dtype).itemsize)
      return nullptr;
    return withShape(in.shape, in.addrspace);
  }
  case Op::PARAM:
  case Op::BUFFER: { // the shape operand's dims, the arg's addrspace
    if (src[0]->op == Op::NOOP)
      return nullptr;
    auto dims = shapeOperand(src[0]);
    return dims ? withShape(*dims, old.addrspace) : nullptr;
  }
  default:
    return nullptr;
  }
}

} // namespace mlir::tinygrad::sym
