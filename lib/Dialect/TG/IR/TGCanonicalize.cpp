//===- TGCanonicalize.cpp - tinygrad local algebra as canonicalizations ---===//
//
// Registers the DRR patterns of TGCanonicalization.td (tinygrad's
// symbolic_simple identities) as the canonicalization patterns of the ops
// they are rooted at. The helpers below are the C++ side of the DRR
// constraints and NativeCodeCalls; the generated code calls them unqualified.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Dialect/TG/IR/TG.h"

#include "mlir/IR/PatternMatch.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;

namespace {

/// tinygrad's `UPat.const(v)`: a CONST whose arg == v in Python, so 0 matches
/// 0, 0.0, -0.0 and False, and 1 matches 1, 1.0 and True. Invalid never does.
bool constEquals(Attribute attr, int64_t v) {
  auto s = getScalar(attr);
  if (!s)
    return false;
  switch (s->kind) {
  case Scalar::Int:
    return s->i == (__int128)v;
  case Scalar::Float:
    return s->f == (double)v;
  case Scalar::Bool:
    return (int64_t)s->b == v;
  case Scalar::Invalid:
    return false;
  }
  return false;
}

/// A bool CONST holding `v` (not Invalid, not an int 0/1).
bool isBoolConst(Attribute attr, bool v) {
  auto b = dyn_cast_or_null<BoolAttr>(attr);
  return b && b.getValue() == v;
}

/// Whether `zero` (a CONST equal to 0) is an additive identity for values of
/// `xType`: every zero is for ints and bool; for floats only -0.0 is, since
/// -0.0 + +0.0 is +0.0 (an int 0 promotes to +0.0).
bool isAddIdentity(Type xType, Attribute zero) {
  if (!isFloatDType(xType))
    return true;
  auto f = dyn_cast<FloatAttr>(zero);
  return f && f.getValueAsDouble() == 0.0 && std::signbit(f.getValueAsDouble());
}

/// A CONST can only stand for a scalar value.
bool isScalarValue(Value v) { return !isa<ShapedType>(v.getType()); }

/// tinygrad's `x.const_like(v)`: `dtype.const(v)` with the dtype of `type`
/// (False/True for bool, v.0 for floats).
Value buildConstLike(OpBuilder &builder, Location loc, Type type, int64_t v) {
  auto dt = getDType(type);
  assert(dt && *dt != DType::Void && "const_like of a non-value");
  Scalar s = *dt == DType::Bool ? Scalar::fromBool(v != 0)
             : isFloat(*dt)     ? Scalar::fromFloat((double)v)
                                : Scalar::fromInt(v);
  return ConstOp::create(builder, loc, type,
                         getScalarAttr(builder.getContext(), s));
}

#include "tinygrad/Dialect/TG/IR/TGCanonicalization.inc"

} // namespace

// One pattern set per op: each op registers the patterns rooted at it, so
// that `--canonicalize` (which collects the patterns of every loaded op)
// gets each generated pattern exactly once.

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<AddZero, BoolAddToOr>(context);
}

void MulOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<MulOne, BoolMulToAnd>(context);
}

void ShlOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ShlZero>(context);
}

void ShrOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<ShrZero>(context);
}

void MaxOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<MaxSelf, BoolMaxToOr>(context);
}

void CmpLtOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<LtSelf>(context);
}

void CmpNeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<BoolNeFalse, BoolNotNot, NeSelf>(context);
}

void XorOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<XorZero, XorXorY0, XorXorY1, XorXorY2, XorXorY3, XorSelf>(
      context);
}

void OrOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                       MLIRContext *context) {
  results.add<OrZero, BoolOrTrue, OrSelf>(context);
}

void AndOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<BoolAndTrue, AndSelf, AndZero>(context);
}

void FloorDivOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<FloorDivSelf, FloorDivOne, FloorDivMinusOne>(context);
}

void FloorModOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<ModModY, ModSelf>(context);
}

void TruncOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<TruncInt>(context);
}

void WhereOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<WhereSame, WhereTrueCond, WhereFalseCond, WhereTrueFalse,
              WhereFalseTrue>(context);
}
