//===- LinearIndex.h - an index as base + strides over lane ranges -*- C++ -*-===//
//
// The emitter asks how an INDEX's element index moves along each
// UPCAST/UNROLL range to choose between one vector load, per-row loads, a
// broadcast and per-lane loads, without emitting the index per lane; our
// heuristic asks the same of every range to find a panel worth staging.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_LINEARINDEX_H
#define TINYGRAD_CODEGEN_LINEARINDEX_H

#include "tinygrad/Symbolic/UOp.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::tinygrad {

/// index = offset + sum(scale * term) + sum(stride * laneRange), where no
/// term depends on a lane range.
struct LinearIndex {
  llvm::SmallVector<std::pair<sym::UOpRef, int64_t>, 4> terms;
  int64_t offset = 0;
  llvm::SmallVector<std::pair<sym::UOpRef, int64_t>, 2> strides;

  int64_t strideOf(sym::UOpRef r) const {
    for (auto [s, k] : strides)
      if (s == r)
        return k;
    return 0;
  }
};

/// The linear form of integer index `i` over the ranges `isLane` accepts
/// (`hasLanes`: whether a node depends on any of them); nullopt when a lane
/// range reaches the index through anything but ADD, SUB, MUL by a
/// constant, or a bounded integer CAST.
std::optional<LinearIndex> linearizeIndex(sym::UOpRef i,
                                          llvm::function_ref<bool(sym::UOpRef)> isLane,
                                          llvm::function_ref<bool(sym::UOpRef)> hasLanes);

/// Strides that explain per-lane offsets: lanes laid out row-major over
/// ranges of `sizes` (the last fastest), lane l at `offsets[l]`, a lane whose
/// offset is unknown (`std::nullopt`: statically masked off) free. Returns
/// {base, stride per range} with offsets[l] = base + sum(stride_r * coord_r)
/// for every known lane, or nullopt when no such strides exist.
std::optional<std::pair<int64_t, llvm::SmallVector<int64_t, 4>>>
fitLaneStrides(llvm::ArrayRef<std::optional<int64_t>> offsets, llvm::ArrayRef<int64_t> sizes);

} // namespace mlir::tinygrad

#endif
