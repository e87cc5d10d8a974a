//===- ALUFolding.cpp - constant evaluation of tinygrad ALU ops -----------===//
//
// Folding delegates to the scalar model in Support/ScalarALU, which mirrors
// tinygrad's exec_alu bit for bit (C vs Python division, wraparound,
// fp16/bf16/fp8 rounding, nan/inf, Invalid propagation).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Dialect/TG/IR/TG.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;

std::optional<Scalar> tg::getScalar(Attribute attr) {
  if (!attr)
    return std::nullopt;
  if (isa<InvalidAttr>(attr))
    return Scalar::invalid();
  if (auto b = dyn_cast<BoolAttr>(attr))
    return Scalar::fromBool(b.getValue());
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    APInt v = i.getValue();
    if (v.getSignificantBits() > 128)
      return std::nullopt;
    v = v.sextOrTrunc(128);
    unsigned __int128 raw = ((unsigned __int128)v.extractBitsAsZExtValue(64, 64) << 64) |
                            v.extractBitsAsZExtValue(64, 0);
    return Scalar::fromInt((__int128)raw);
  }
  if (auto f = dyn_cast<FloatAttr>(attr))
    return Scalar::fromFloat(f.getValueAsDouble());
  return std::nullopt;
}

Attribute tg::getScalarAttr(MLIRContext *ctx, const Scalar &s) {
  switch (s.kind) {
  case Scalar::Invalid:
    return InvalidAttr::get(ctx);
  case Scalar::Bool:
    return BoolAttr::get(ctx, s.b);
  case Scalar::Float:
    // dtype.const canonicalizes every NaN to math.nan (positive, quiet).
    return FloatAttr::get(Float64Type::get(ctx),
                          std::isnan(s.f) ? std::nan("") : s.f);
  case Scalar::Int: {
    unsigned __int128 raw = (unsigned __int128)s.i;
    uint64_t words[2] = {(uint64_t)raw, (uint64_t)(raw >> 64)};
    return IntegerAttr::get(IntegerType::get(ctx, 128), APInt(128, words));
  }
  }
  return {};
}

/// Whether a CONST of `s` may carry `dtype` (the spec_shared CONST rule).
static bool fitsDType(const Scalar &s, DType dtype) {
  switch (s.kind) {
  case Scalar::Invalid:
  case Scalar::Bool:
    return dtype == DType::Bool;
  case Scalar::Int:
    return !isFloat(dtype) && dtype != DType::Bool && dtype != DType::Void;
  case Scalar::Float:
    return isFloat(dtype);
  }
  return false;
}

OpFoldResult tg::foldALU(Operation *op, ALUOp kind,
                         ArrayRef<Attribute> operands) {
  Type resultType = op->getResult(0).getType();
  ValueInfo info = getValueInfo(resultType);
  auto dtype = info.dtype();
  if (!dtype || !info.shape.empty())
    return {};
  SmallVector<Scalar> args;
  for (Attribute a : operands) {
    auto s = getScalar(a);
    if (!s)
      return {};
    args.push_back(*s);
  }
  auto r = execALU(kind, *dtype, args);
  if (!r || !fitsDType(*r, *dtype))
    return {};
  return getScalarAttr(op->getContext(), *r);
}
