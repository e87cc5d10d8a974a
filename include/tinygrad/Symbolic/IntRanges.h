//===- IntRanges.h - tinygrad vmin/vmax as InferIntRangeInterface -*- C++ -*-===//
//
// Our ops implement upstream's InferIntRangeInterface with tinygrad's
// `UOp._min_max` rules, without a second copy of those rules: for each op a
// one-node graph is built in a fresh sym::Context whose sources are leaves
// carrying the argument ranges (a CONST for a single value, else a variable
// PARAM with vmin_vmax, or a PARAM without bounds, i.e. the dtype's range,
// when nothing is known), and the node's vmin()/vmax() (lib/Symbolic/
// Bounds.cpp) is converted back to a ConstantIntRanges.
//
// Ranges are given to values of integer dtype in registers (not to memory):
//   - `!tg.weakint` (an unbounded Python int) as 128-bit signed APInts,
//   - si8..si64 / ui8..ui64 at their width (unsigned bounds from the signed
//     ones where non-negative, and vice versa for ui*),
//   - bool (i1) as 1-bit APInts (False = 0, True = 1 unsigned).
// A tinygrad bound outside what the type can hold (tinygrad bounds are the
// unwrapped mathematical ones, e.g. int32 ADD past 2**31-1) becomes the
// type's full range, since at run time the value wraps; an empty range
// (vmin > vmax, e.g. RANGE of 0) is reported as the full range too.
//
// Float ranges are out of scope for the MLIR interface: tinygrad's float
// bounds are almost always the dtype's (-inf, inf) (only CONST, CAST of an
// int and a few comparisons are tighter), and the interface only models
// integers. The symbolic engine keeps its float bounds for its own rules.
//
// Layering: lib/Dialect/TG must not depend on lib/Symbolic (which depends on
// TG), so the interface is attached as external models from here and
// registered by registerAllDialects (lib/InitAll).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SYMBOLIC_INTRANGES_H
#define TINYGRAD_SYMBOLIC_INTRANGES_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include <optional>

namespace mlir::tinygrad {

/// Bit width of the ranges of `type` (128 for weakint, the width of
/// si*/ui*, 1 for bool); nullopt for values that get no integer range
/// (floats, void, memory, _uint128/_uint256).
std::optional<unsigned> getIntRangeBitwidth(Type type);

/// tinygrad's vmin/vmax of `op`'s result given its operands' ranges
/// (`std::nullopt`: nothing known beyond the operand's dtype). Calls
/// `setResultRange` for each result that has an integer range; ops that
/// are not tinygrad UOps get none.
void inferIntRanges(Operation *op,
                    ArrayRef<std::optional<ConstantIntRanges>> argRanges,
                    function_ref<void(Value, const ConstantIntRanges &)>
                        setResultRange);

/// Attaches InferIntRangeInterface to every tg ALU op, tg.const, tg.param,
/// tg.buffer, tg.cast, tg.stack, tg.after, tgk.range, tgk.special and
/// tgk.index.
void registerIntRangeInterfaceExternalModels(DialectRegistry &registry);

} // namespace mlir::tinygrad

#endif
