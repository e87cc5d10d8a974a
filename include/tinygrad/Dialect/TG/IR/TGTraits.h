//===- TGTraits.h - op traits shared by the tinygrad dialects ---*- C++ -*-===//
#ifndef TINYGRAD_DIALECT_TG_IR_TGTRAITS_H
#define TINYGRAD_DIALECT_TG_IR_TGTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::OpTrait::tinygrad {

/// GroupOp.Movement: the op is a view of operand #0 (RESHAPE, EXPAND,
/// PERMUTE, PAD, SHRINK, FLIP). tinygrad's `base` strips these.
template <typename ConcreteType>
class Movement : public TraitBase<ConcreteType, Movement> {};

} // namespace mlir::OpTrait::tinygrad

#endif
