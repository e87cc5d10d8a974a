//===- Ranges.h - tinygrad's ranges, ended_ranges and pm_flatten_range -*- C++ -*-===//
//
// The range properties both the scheduler and codegen read off a node
// (tinygrad's UOp.ranges / ended_ranges, uop/ops.py) and the rule that
// keeps a REDUCE/END closing exactly the real ranges it ends
// (pm_flatten_range, codegen/simplify.py).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SYMBOLIC_RANGES_H
#define TINYGRAD_SYMBOLIC_RANGES_H

#include "tinygrad/Symbolic/Rewrite.h"
#include "llvm/ADT/DenseMap.h"
#include <functional>
#include <vector>

namespace mlir::tinygrad::sym {

using Ranges = llvm::SmallVector<UOpRef, 4>;

/// tinygrad's `toposort(gate)`: depth-first, sources in order, post-order.
/// `gate(u)` false leaves u (and what only it reaches) out.
std::vector<UOpRef> toposort(UOpRef root, const std::function<bool(UOpRef)> &gate = nullptr);

/// `x.ranges` (insertion-ordered like tinygrad's dict), memoized; nodes are
/// immutable, so one cache stays valid for as long as it lives.
class RangeCache {
public:
  const Ranges &ranges(UOpRef u);
  /// `x.ended_ranges`.
  static llvm::ArrayRef<UOpRef> endedRanges(UOpRef u, Ranges &scratch);
  bool inRanges(UOpRef r, UOpRef u) { return llvm::is_contained(ranges(u), r); }

private:
  llvm::DenseMap<UOpRef, Ranges> memo;
};

/// pm_flatten_range: a REDUCE/END's real ranges become the ranges of their
/// sink (nested expressions flattened to RANGEs), backedges kept last.
const PatternMatcher &pmFlattenRange();

/// reduce_unparented: a REDUCE over ranges its source does not use keeps
/// the used ones; an ADD over the others becomes a product with their
/// sizes. Null when every range is used, or (with ctx.errors) for a MUL
/// reduce over an unused range (tinygrad's `**`, not ported).
UOpRef reduceUnparented(Context &ctx, UOpRef red, RangeCache &rc);
/// pm_reduce_unparented (a fresh RangeCache per match).
const PatternMatcher &pmReduceUnparented();

} // namespace mlir::tinygrad::sym

#endif
