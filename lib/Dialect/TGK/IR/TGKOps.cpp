//===- TGKOps.cpp - tinygrad kernel-level UOps ----------------------------===//
#include "tinygrad/Dialect/TGK/IR/TGK.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;
using namespace mlir::tinygrad::tgk;

#define TGK_INFER(OP)                                                          \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,      \
      DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,       \
      SmallVectorImpl<Type> &results)


/// RANGE/SPECIAL bounds: a scalar int (or void for a bound-less loop).
static LogicalResult verifyBound(Operation *op, Value end, bool allowVoid,
                                 StringRef rule) {
  Type t = end.getType();
  if (allowVoid && isVoidType(t))
    return success();
  ValueInfo info = getValueInfo(t);
  if (!info.shape.empty() || !isIntDType(t))
    return emitSpecError(op, rule)
           << "the bound (operand #0) must be a scalar int, got " << t;
  return success();
}

//===----------------------------------------------------------------------===//
// RANGE / END / SPECIAL
//===----------------------------------------------------------------------===//

TGK_INFER(RangeOp) {
  results.push_back(operands[0].getType()); // dtype = end dtype
  return success();
}

LogicalResult RangeOp::verify() {
  if (getIds().empty())
    return emitSpecError(*this, "spec_shared.range")
           << "arg needs at least one axis id before the AxisType";
  return verifyBound(*this, getEnd(), /*allowVoid=*/true, "spec_shared.range");
}


LogicalResult EndOp::verify() {
  // END(body, RANGE(void), cond:bool) is a loop back-edge.
  if (getRanges().size() == 2 && isVoidType(getRanges()[0].getType()) &&
      isBoolType(getRanges()[1].getType()))
    return success();
  return success();
}

TGK_INFER(SpecialOp) {
  results.push_back(operands[0].getType());
  return success();
}

LogicalResult SpecialOp::verify() {
  return verifyBound(*this, getEnd(), /*allowVoid=*/false, "spec_tensor.special");
}

//===----------------------------------------------------------------------===//
// INDEX / LOAD / STORE
//===----------------------------------------------------------------------===//

/// tinygrad's is_image_shape: (h, w, 4) storage is read as float.
static bool isImageShape(ArrayRef<int64_t> shape) {
  return shape.size() == 3 && shape[2] == 4;
}

TGK_INFER(IndexOp) {
  Adaptor a(operands, attrs, props, regions);
  ValueInfo buf = getValueInfo(a.getBuf().getType());
  if (buf.isVoid)
    return emitOptionalError(loc, "cannot index a void value");
  SmallVector<int64_t> shape;
  for (Value idx : a.getIndices()) {
    ValueInfo info = getValueInfo(idx.getType());
    shape.append(info.shape); // ()-shaped removes a dim, (k,) makes it k
  }
  size_t consumed = std::min(a.getIndices().size(), buf.shape.size());
  shape.append(buf.shape.begin() + consumed, buf.shape.end());
  Type elem = buf.elementType;
  Operation *def = a.getBuf().getDefiningOp();
  if (def && isa<ParamOp>(def) && isImageShape(buf.shape))
    elem = Float32Type::get(ctx);
  results.push_back(makeValueType(elem, shape, buf.addrspace));
  return success();
}

LogicalResult IndexOp::verify() {
  for (auto [i, idx] : llvm::enumerate(getIndices()))
    if (!isIntDType(idx.getType()) && !isInvalidValue(idx))
      return emitSpecError(*this, "spec_shared.index")
             << "index operand #" << i + 1 << " must be an int, got "
             << idx.getType();
  return success();
}

TGK_INFER(LoadOp) {
  Adaptor a(operands, attrs, props, regions);
  ValueInfo idx = getValueInfo(a.getIdx().getType());
  if (idx.isVoid)
    return emitOptionalError(loc, "cannot load from a void value");
  results.push_back(makeValueType(idx.elementType, idx.shape)); // lives in ALU
  return success();
}

LogicalResult LoadOp::verify() {
  if (bool(getAlt()) != bool(getGate()))
    return emitSpecError(*this, "spec_shared.load")
           << "a gated load needs both an alternative and a gate";
  if (Value gate = getGate()) {
    if (!isBoolType(gate.getType()))
      return emitSpecError(*this, "spec_shared.load")
             << "the gate must be bool, got " << gate.getType();
    if (!matchesDType(getAlt(), getElementTypeOrSelf(getType())))
      return emitSpecError(*this, "spec_shared.load")
             << "the alternative has dtype " << getAlt().getType()
             << " but the load produces " << getType();
  }
  return success();
}


LogicalResult StoreOp::verify() {
  if (Value gate = getGate())
    if (!isBoolType(gate.getType()))
      return emitSpecError(*this, "spec_shared.store")
             << "the gate must be bool, got " << gate.getType();
  if (isVoidType(getTarget().getType()))
    return emitSpecError(*this, "spec_shared.store")
           << "the target must be a buffer or index, not a void value";
  return success();
}

//===----------------------------------------------------------------------===//
// IF / ENDIF / BARRIER / WMMA
//===----------------------------------------------------------------------===//


LogicalResult IfOp::verify() {
  if (!isBoolType(getGate().getType()))
    return emitSpecError(*this, "spec_program.if")
           << "the gate (operand #0) must be bool, got " << getGate().getType();
  return success();
}

LogicalResult EndIfOp::verify() {
  if (!getIf_().getDefiningOp<IfOp>())
    return emitSpecError(*this, "spec_program.endif")
           << "operand #0 must be an IF";
  return success();
}

LogicalResult BarrierOp::verify() { return success(); }

TGK_INFER(WmmaOp) {
  Adaptor a(operands, attrs, props, regions);
  ValueInfo A = getValueInfo(a.getA().getType());
  ValueInfo B = getValueInfo(a.getB().getType());
  ValueInfo C = getValueInfo(a.getAcc().getType());
  if (A.shape.empty() || B.shape.empty() || C.shape.empty())
    return emitOptionalError(loc, "wmma operands must be shaped");
  auto drop = [](ArrayRef<int64_t> s) { return s.drop_back(); };
  auto ab = broadcastShapes(drop(A.shape), drop(B.shape));
  auto abc = ab ? broadcastShapes(*ab, drop(C.shape)) : std::nullopt;
  if (!abc)
    return emitOptionalError(loc, "wmma operand shapes do not broadcast");
  abc->push_back(C.shape.back());
  results.push_back(makeValueType(C.elementType, *abc));
  return success();
}

LogicalResult WmmaOp::verify() {
  if (getArg().size() != 5)
    return emitSpecError(*this, "spec_shared.wmma")
           << "arg must be a 5-tuple (dims, dtype_in, device, threads, "
           << "upcast_axes), got " << getArg().size() << " elements";
  return success();
}

#define GET_OP_CLASSES
#include "tinygrad/Dialect/TGK/IR/TGKOps.cpp.inc"
