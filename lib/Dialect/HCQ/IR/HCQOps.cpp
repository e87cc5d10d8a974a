//===- HCQOps.cpp - hardware command queue ops ----------------------------===//
#include "tinygrad/Dialect/HCQ/IR/HCQ.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;
using namespace mlir::tinygrad::hcq;

LogicalResult ProgramOp::verify() {
  if (getSrcs().empty())
    return emitOpError() << "needs at least its SINK (or the buffer holding "
                         << "the program)";
  return success();
}

LogicalResult BinaryOp::inferReturnTypes(MLIRContext *ctx,
                                         std::optional<Location>, ValueRange,
                                         DictionaryAttr attrs,
                                         OpaqueProperties props, RegionRange regions,
                                         SmallVectorImpl<Type> &results) {
  Adaptor a(ValueRange{}, attrs, props, regions);
  int64_t n = a.getData().size();
  results.push_back(makeValueType(getTypeForDType(ctx, DType::UInt8), {n}));
  return success();
}

LogicalResult GetAddrOp::inferReturnTypes(MLIRContext *ctx,
                                          std::optional<Location>, ValueRange,
                                          DictionaryAttr, OpaqueProperties,
                                          RegionRange,
                                          SmallVectorImpl<Type> &results) {
  results.push_back(getTypeForDType(ctx, DType::UInt64));
  return success();
}

LogicalResult GetAddrOp::verify() {
  auto isStr = [](Attribute x) { return isa<StringAttr>(x); };
  auto arr = dyn_cast<ArrayAttr>(getDevice());
  if (!isStr(getDevice()) && !(arr && llvm::all_of(arr, isStr)))
    return emitSpecError(*this, "spec_hcq.getaddr")
           << "device must be a string or an array of strings";
  if (isVoidType(getSrc().getType()))
    return emitSpecError(*this, "spec_hcq.getaddr")
           << "operand #0 must be a buffer";
  return success();
}

LogicalResult AllocOp::verify() {
  // I64Attr getters are uint64_t: read the signed value.
  int64_t size = getSizeAttr().getInt();
  if (size <= 0)
    return emitOpError() << "size must be positive, got " << size;
  return success();
}

LogicalResult ExecOp::verify() {
  for (auto dims : {getGlobalSize(), getLocalSize()}) {
    if (dims.empty() || dims.size() > 3)
      return emitOpError() << "launch dims need 1 to 3 entries, got "
                           << dims.size();
    for (int64_t d : dims)
      if (d <= 0)
        return emitOpError() << "launch dims must be positive, got " << d;
  }
  return success();
}

LogicalResult CopyOp::verify() {
  int64_t size = getSizeAttr().getInt();
  if (size < 0)
    return emitOpError() << "size must be non-negative, got " << size;
  return success();
}

#define GET_OP_CLASSES
#include "tinygrad/Dialect/HCQ/IR/HCQOps.cpp.inc"
