//===- ConcatLanes.cpp - vectors concatenated by same-typed shuffles ------===//
#include "tinygrad/Conversion/ConcatLanes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::tinygrad {

Value concatLanes(OpBuilder &b, Location loc, ArrayRef<Value> parts) {
  auto lanes = [](Value v) { return cast<VectorType>(v.getType()).getNumElements(); };
  SmallVector<Value> level(parts.begin(), parts.end());
  while (level.size() > 1) {
    SmallVector<Value> next;
    for (size_t i = 0; i + 1 < level.size(); i += 2) {
      Value x = level[i], y = level[i + 1];
      int64_t lx = lanes(x), ly = lanes(y);
      // The shorter operand widened to the longer's type.
      auto widen = [&](Value v, int64_t from, int64_t to) -> Value {
        SmallVector<int64_t> mask;
        for (int64_t k = 0; k < to; ++k)
          mask.push_back(k < from ? k : vector::ShuffleOp::kPoisonIndex);
        return vector::ShuffleOp::create(b, loc, v, v, mask);
      };
      Value wx = lx < ly ? widen(x, lx, ly) : x, wy = ly < lx ? widen(y, ly, lx) : y;
      int64_t w = std::max(lx, ly);
      SmallVector<int64_t> mask;
      for (int64_t k = 0; k < lx; ++k)
        mask.push_back(k);
      for (int64_t k = 0; k < ly; ++k)
        mask.push_back(w + k);
      next.push_back(vector::ShuffleOp::create(b, loc, wx, wy, mask));
    }
    if (level.size() % 2)
      next.push_back(level.back());
    level = std::move(next);
  }
  return level[0];
}

} // namespace mlir::tinygrad
