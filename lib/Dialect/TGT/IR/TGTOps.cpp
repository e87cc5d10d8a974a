//===- TGTOps.cpp - tinygrad tensor-level UOps ----------------------------===//
//
// Shape rules are tinygrad's `_shape` for movement ops, REDUCE and friends.
// Shape operands may be symbolic: such dims are `?` and checks that need a
// number are skipped (tinygrad would resolve them with ssimplify).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Dialect/TGT/IR/TGT.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;
using namespace mlir::tinygrad::tgt;

namespace {
/// Shared prologue of every tgt inference: the source must have a shape.
struct SrcShape {
  ValueInfo info;
  LogicalResult status = success();
  SrcShape(std::optional<Location> loc, Value src, StringRef opName) {
    info = getValueInfo(src.getType());
    if (info.isVoid) {
      status = emitOptionalError(loc, opName, " requires a shaped source, got ",
                                 src.getType());
    }
  }
};

/// The operand as a shape, or a located error.
FailureOr<SmallVector<int64_t>> shapeOf(std::optional<Location> loc, Value v,
                                        StringRef what) {
  auto s = getShapeOperand(v);
  if (!s)
    return emitOptionalError(loc, what, " operand of type ", v.getType(),
                             " is not a shape (CONST or STACK of ints)");
  return *s;
}

bool isStatic(int64_t d) { return d != kDynamic; }

/// vmax+1 of a range-like value: its constant end, when known.
int64_t rangeExtent(Value r) {
  Operation *def = r.getDefiningOp();
  if (def && def->getName().getStringRef() == "tgk.range")
    if (auto end = getConstInt(def->getOperand(0)))
      return *end;
  if (auto c = getConstInt(r))
    return *c + 1;
  return kDynamic;
}
} // namespace

#define TGT_INFER(OP)                                                          \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,      \
      DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,       \
      SmallVectorImpl<Type> &results)

//===----------------------------------------------------------------------===//
// Movement
//===----------------------------------------------------------------------===//

TGT_INFER(ReshapeOp) {
  Adaptor a(operands, attrs, props, regions);
  SrcShape src(loc, a.getSrc(), "reshape");
  if (failed(src.status))
    return failure();
  auto dims = shapeOf(loc, a.getShape(), "reshape shape");
  if (failed(dims))
    return failure();
  results.push_back(makeValueType(src.info.elementType, *dims, src.info.addrspace));
  return success();
}

LogicalResult ReshapeOp::verify() {
  ValueInfo in = getValueInfo(getSrc().getType());
  ValueInfo out = getValueInfo(getType());
  int64_t a = 1, b = 1;
  bool known = true;
  for (int64_t d : in.shape)
    known &= isStatic(d), a *= isStatic(d) ? d : 1;
  for (int64_t d : out.shape) {
    if (isStatic(d) && d < 0)
      return emitOpError() << "reshape to a negative dim " << d;
    known &= isStatic(d), b *= isStatic(d) ? d : 1;
  }
  if (known && a != b)
    return emitOpError() << "reshape from " << formatShape(in.shape) << " to "
                         << formatShape(out.shape) << " changes the element "
                         << "count (" << a << " vs " << b << ")";
  return success();
}

TGT_INFER(ExpandOp) {
  Adaptor a(operands, attrs, props, regions);
  SrcShape src(loc, a.getSrc(), "expand");
  if (failed(src.status))
    return failure();
  auto dims = shapeOf(loc, a.getShape(), "expand shape");
  if (failed(dims))
    return failure();
  SmallVector<int64_t> shape = *dims; // EXPAND prepends the new axes
  shape.append(src.info.shape);
  results.push_back(makeValueType(src.info.elementType, shape, src.info.addrspace));
  return success();
}

LogicalResult ExpandOp::verify() { return success(); }

TGT_INFER(PermuteOp) {
  Adaptor a(operands, attrs, props, regions);
  SrcShape src(loc, a.getSrc(), "permute");
  if (failed(src.status))
    return failure();
  ArrayRef<int64_t> perm = a.getPerm();
  size_t rank = src.info.shape.size();
  SmallVector<bool> seen(rank, false);
  if (perm.size() != rank)
    return emitOptionalError(loc, "permutation of length ", perm.size(),
                             " for a rank-", rank, " value");
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= (int64_t)rank || seen[p])
      return emitOptionalError(loc, "perm is not a permutation of 0..",
                               rank - 1);
    seen[p] = true;
    shape.push_back(src.info.shape[p]);
  }
  results.push_back(makeValueType(src.info.elementType, shape, src.info.addrspace));
  return success();
}

LogicalResult PermuteOp::verify() { return success(); }

TGT_INFER(FlipOp) {
  Adaptor a(operands, attrs, props, regions);
  SrcShape src(loc, a.getSrc(), "flip");
  if (failed(src.status))
    return failure();
  if (a.getFlags().size() != src.info.shape.size())
    return emitOptionalError(loc, "flip needs one flag per axis: ",
                             a.getFlags().size(), " flags for rank ",
                             src.info.shape.size());
  results.push_back(a.getSrc().getType());
  return success();
}

LogicalResult FlipOp::verify() { return success(); }

/// PAD and SHRINK share the (offsets, sizes) encoding; the result has `sizes`.
static LogicalResult inferPadShrink(std::optional<Location> loc, Value srcV,
                                    Value offsets, Value sizes, StringRef name,
                                    SmallVectorImpl<Type> &results) {
  SrcShape src(loc, srcV, name);
  if (failed(src.status))
    return failure();
  auto off = shapeOf(loc, offsets, "offsets");
  auto sz = shapeOf(loc, sizes, "sizes");
  if (failed(off) || failed(sz))
    return failure();
  if (off->size() != sz->size())
    return emitOptionalError(loc, "violates spec rule 'spec_tensor.pad_shrink':"
                             " offsets have ", off->size(), " entries but sizes ",
                             sz->size());
  if (sz->size() != src.info.shape.size())
    return emitOptionalError(loc, name, " of ", sz->size(), " axes on a rank-",
                             src.info.shape.size(), " value");
  results.push_back(makeValueType(src.info.elementType, *sz, src.info.addrspace));
  return success();
}

TGT_INFER(PadOp) {
  Adaptor a(operands, attrs, props, regions);
  return inferPadShrink(loc, a.getSrc(), a.getOffsets(), a.getSizes(), "pad",
                        results);
}

TGT_INFER(ShrinkOp) {
  Adaptor a(operands, attrs, props, regions);
  return inferPadShrink(loc, a.getSrc(), a.getOffsets(), a.getSizes(), "shrink",
                        results);
}

/// Static bounds: SHRINK keeps [o, o+s) inside the source; PAD places the
/// source at o inside s.
static LogicalResult verifyBounds(Operation *op, Value src, Value offsets,
                                  Value sizes, bool isPad) {
  ValueInfo in = getValueInfo(src.getType());
  auto off = getShapeOperand(offsets);
  auto sz = getShapeOperand(sizes);
  if (!off || !sz)
    return success();
  for (size_t i = 0; i < in.shape.size() && i < off->size(); ++i) {
    int64_t o = (*off)[i], s = (*sz)[i], n = in.shape[i];
    if (!isStatic(o) || !isStatic(s) || !isStatic(n))
      continue;
    bool ok = isPad ? (o >= 0 && o + n <= s) : (o >= 0 && s >= 0 && o + s <= n);
    if (!ok)
      return op->emitOpError()
             << "axis " << i << ": offset " << o << " and size " << s
             << (isPad ? " cannot hold" : " fall outside") << " a dim of " << n;
  }
  return success();
}

LogicalResult PadOp::verify() {
  return verifyBounds(*this, getSrc(), getOffsets(), getSizes(), true);
}
LogicalResult ShrinkOp::verify() {
  return verifyBounds(*this, getSrc(), getOffsets(), getSizes(), false);
}

TGT_INFER(UnshardOp) {
  Adaptor a(operands, attrs, props, regions);
  SrcShape src(loc, a.getSrc(), "unshard");
  if (failed(src.status))
    return failure();
  ArrayRef<int64_t> axes = a.getAxes();
  if (axes.size() != a.getRanges().size())
    return emitOptionalError(loc, "violates spec rule 'spec_tensor.unshard': ",
                             axes.size(), " axes but ", a.getRanges().size(),
                             " ranges");
  SmallVector<int64_t> shape = src.info.shape;
  for (auto [axis, r] : llvm::zip(axes, a.getRanges())) {
    if (axis < 0 || axis >= (int64_t)shape.size())
      return emitOptionalError(loc, "unshard axis ", axis, " out of range");
    int64_t n = rangeExtent(r);
    shape[axis] = isStatic(n) && isStatic(shape[axis]) ? shape[axis] * n : kDynamic;
  }
  results.push_back(makeValueType(src.info.elementType, shape, src.info.addrspace));
  return success();
}

LogicalResult UnshardOp::verify() {
  for (auto [i, r] : llvm::enumerate(getRanges()))
    if (!isWeakType(r.getType()))
      return emitSpecError(*this, "spec_tensor.unshard")
             << "range #" << i << " must be weakint, got " << r.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce
//===----------------------------------------------------------------------===//

TGT_INFER(ReduceOp) {
  Adaptor a(operands, attrs, props, regions);
  SrcShape src(loc, a.getSrc(), "reduce");
  if (failed(src.status))
    return failure();
  uint64_t n = a.getN();
  if (n > src.info.shape.size())
    return emitOptionalError(loc, "reduce of the first ", n,
                             " axes of a rank-", src.info.shape.size(), " value");
  ArrayRef<int64_t> shape = ArrayRef<int64_t>(src.info.shape).drop_front(n);
  results.push_back(makeValueType(src.info.elementType, shape, src.info.addrspace));
  return success();
}

LogicalResult ReduceOp::verify() {
  for (auto [i, r] : llvm::enumerate(getRanges())) {
    auto dt = getDType(r.getType());
    if (!(dt == DType::WeakInt || dt == DType::Int32))
      return emitSpecError(*this, "spec_tensor.reduce")
             << "range operand #" << i + 1 << " must be weakint or int32, got "
             << r.getType();
  }
  return success();
}

TGT_INFER(AllReduceOp) {
  Adaptor a(operands, attrs, props, regions);
  results.push_back(a.getSrc().getType());
  return success();
}

static bool isDevice(Attribute a) {
  auto isStr = [](Attribute x) { return isa<StringAttr>(x); };
  auto arr = dyn_cast_or_null<ArrayAttr>(a);
  return isStr(a) || (arr && llvm::all_of(arr, isStr));
}

LogicalResult AllReduceOp::verify() {
  if (!isDevice(getDevice()))
    return emitSpecError(*this, "spec_tensor.allreduce")
           << "device must be a string or an array of strings";
  return success();
}

//===----------------------------------------------------------------------===//
// Markers, staging, copies, multi-device
//===----------------------------------------------------------------------===//

#define TGT_PASSTHROUGH(OP)                                                    \
  TGT_INFER(OP) {                                                              \
    results.push_back(operands[0].getType());                                  \
    return success();                                                          \
  }
TGT_PASSTHROUGH(ContiguousOp)
TGT_PASSTHROUGH(ContiguousBackwardOp)
TGT_PASSTHROUGH(DetachOp)
TGT_PASSTHROUGH(CopyOp)
TGT_PASSTHROUGH(MSelectOp)
TGT_PASSTHROUGH(MStackOp)
#undef TGT_PASSTHROUGH

LogicalResult ContiguousOp::verify() {
  if (auto arg = getArgAttr())
    if (!isa<ArrayAttr>(arg))
      return emitOpError() << "arg must be an array of #tg.opt";
  return success();
}
LogicalResult ContiguousBackwardOp::verify() { return success(); }
LogicalResult DetachOp::verify() { return success(); }

LogicalResult CopyOp::verify() {
  if (!isDevice(getDevice()))
    return emitSpecError(*this, "spec_tensor.copy")
           << "device must be a string or an array of strings";
  return success();
}

LogicalResult MSelectOp::verify() { return success(); }

LogicalResult MStackOp::verify() {
  if (getSrcs().empty())
    return emitOpError() << "needs at least one source";
  for (auto [i, v] : llvm::enumerate(getSrcs()))
    if (v.getType() != getSrcs()[0].getType())
      return emitOpError() << "operand #" << i << " has type " << v.getType()
                           << " but operand #0 has " << getSrcs()[0].getType();
  return success();
}

TGT_INFER(StageOp) {
  Adaptor a(operands, attrs, props, regions);
  SrcShape src(loc, a.getSrc(), "stage");
  if (failed(src.status))
    return failure();
  SmallVector<int64_t> shape; // STAGE prepends the range extents
  for (Value r : a.getRanges())
    shape.push_back(rangeExtent(r));
  shape.append(src.info.shape);
  std::optional<AddrSpace> as;
  if (auto opts = a.getOpts())
    as = opts.getAddrspace();
  results.push_back(makeValueType(src.info.elementType, shape, as));
  return success();
}

LogicalResult StageOp::verify() { return success(); }

#define GET_OP_CLASSES
#include "tinygrad/Dialect/TGT/IR/TGTOps.cpp.inc"
