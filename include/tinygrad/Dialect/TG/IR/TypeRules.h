//===- TypeRules.h - tinygrad's derived dtype/shape rules -------*- C++ -*-===//
//
// tinygrad derives every node's dtype, shape and addrspace from (op, src,
// arg). Here those rules are functions over MLIR types so that every dialect
// (tg, tgt, tgk, hcq) infers result types the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_DIALECT_TG_IR_TYPERULES_H
#define TINYGRAD_DIALECT_TG_IR_TYPERULES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "tinygrad/Support/DType.h"
#include "tinygrad/Support/ScalarALU.h"
#include <optional>

namespace mlir::tinygrad::tg {

enum class AddrSpace : uint32_t;

/// Dimension size that is symbolic (tinygrad sint) or unknown.
constexpr int64_t kDynamic = ShapedType::kDynamic;

//===----------------------------------------------------------------------===//
// dtype <-> MLIR element type
//===----------------------------------------------------------------------===//

/// The tinygrad dtype of an element type (or of a whole value type).
std::optional<DType> getDType(Type type);
/// The MLIR element type for a dtype (`!tg.void` for void).
Type getTypeForDType(MLIRContext *ctx, DType dtype);

//===----------------------------------------------------------------------===//
// Value types: (dtype, shape, addrspace)
//===----------------------------------------------------------------------===//

struct ValueInfo {
  Type elementType;               ///< null for void
  SmallVector<int64_t> shape;     ///< () for scalars
  std::optional<AddrSpace> addrspace;
  bool isVoid = false;

  std::optional<DType> dtype() const {
    return isVoid ? std::optional<DType>(DType::Void) : getDType(elementType);
  }
};

ValueInfo getValueInfo(Type type);
/// Scalar element type, `tensor<shape x elem>`, plus `#tg.addrspace` encoding
/// for memory that is not ALU.
Type makeValueType(Type elementType, ArrayRef<int64_t> shape,
                   std::optional<AddrSpace> addrspace = std::nullopt);
Type getElementTypeOrSelf(Type type);
bool isVoidType(Type type);
bool isWeakType(Type type);
bool isBoolType(Type type);
bool isIntDType(Type type);   ///< dtypes.is_int (weakint and bool excluded? no: ints only)
bool isFloatDType(Type type); ///< dtypes.is_float (includes weakfloat)

/// tinygrad's `x.base.is_invalid`: an Invalid CONST seen through movement ops.
bool isInvalidValue(Value value);
/// tinygrad's `matches_dtype(x, dt)`.
bool matchesDType(Value value, Type elementType);
/// Elementwise result shape: numpy-style right-aligned broadcast.
std::optional<SmallVector<int64_t>> broadcastShapes(ArrayRef<int64_t> a,
                                                    ArrayRef<int64_t> b);
/// `as_shape` of a shape operand: a CONST (one dim), or a STACK of CONST /
/// symbolic elements (dims that are not constants are kDynamic). An empty
/// STACK is the scalar shape (). nullopt if `value` cannot be a shape.
std::optional<SmallVector<int64_t>> getShapeOperand(Value value);
/// The integer value of a CONST, if `value` is one.
std::optional<int64_t> getConstInt(Value value);

std::string formatShape(ArrayRef<int64_t> shape);

//===----------------------------------------------------------------------===//
// Shared rules used by ODS-generated ops
//===----------------------------------------------------------------------===//

LogicalResult inferALUType(MLIRContext *ctx, std::optional<Location> loc,
                           ALUOp op, ValueRange operands,
                           SmallVectorImpl<Type> &results);
/// spec_shared rules for an ALU op (operand dtypes vs result dtype).
LogicalResult verifyALUSpec(Operation *op, ALUOp kind);
/// Constant evaluation with tinygrad's exact scalar semantics.
OpFoldResult foldALU(Operation *op, ALUOp kind, ArrayRef<Attribute> operands);

/// A Scalar from a CONST value attribute; nullopt for anything else.
std::optional<Scalar> getScalar(Attribute attr);
/// The CONST value attribute for `s` (null if it cannot be represented).
Attribute getScalarAttr(MLIRContext *ctx, const Scalar &s);

/// Emit a located spec error: "spec_<phase>[<rule>]: <message>".
InFlightDiagnostic emitSpecError(Operation *op, StringRef rule);

} // namespace mlir::tinygrad::tg

#endif
