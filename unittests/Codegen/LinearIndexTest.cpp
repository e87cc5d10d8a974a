//===- LinearIndexTest.cpp - strides fitted to per-lane offsets ----------===//
//
// fitLaneStrides is how the emitter recovers a linear address from an index
// that is linear only lane by lane (a strided convolution's padded window:
// `//` and `%` that fold once each lane's values are in place).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/LinearIndex.h"

#include <gtest/gtest.h>

using namespace mlir::tinygrad;
using Offsets = llvm::SmallVector<std::optional<int64_t>>;

namespace {

// 2 rows (stride 28) by 3 columns of a stride-2 window (stride 2), from -29.
Offsets window() {
  Offsets o;
  for (int64_t y = 0; y < 2; ++y)
    for (int64_t x = 0; x < 3; ++x)
      o.push_back(-29 + 28 * y + 2 * x);
  return o;
}

TEST(FitLaneStrides, RecoversStridesAndBase) {
  auto fit = fitLaneStrides(window(), {2, 3});
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->first, -29);
  EXPECT_EQ(fit->second, (llvm::SmallVector<int64_t, 4>{28, 2}));
}

TEST(FitLaneStrides, MaskedOffLanesAreFree) {
  // The padded corner (lane 0) and another border lane read nothing: their
  // offsets are unknown, the strides still follow from the others.
  Offsets o = window();
  o[0] = std::nullopt;
  o[3] = std::nullopt;
  auto fit = fitLaneStrides(o, {2, 3});
  ASSERT_TRUE(fit);
  EXPECT_EQ(fit->first, -29);
  EXPECT_EQ(fit->second, (llvm::SmallVector<int64_t, 4>{28, 2}));
}

TEST(FitLaneStrides, RejectsOffsetsNoStridesExplain) {
  Offsets o = window();
  o[4] = *o[4] + 1; // one lane off the grid
  EXPECT_FALSE(fitLaneStrides(o, {2, 3}));
}

TEST(FitLaneStrides, RejectsWhenAStrideCannotBeSeen) {
  // Along the rows no two known lanes are one step apart.
  Offsets o = window();
  for (int l = 3; l < 6; ++l)
    o[l] = std::nullopt;
  EXPECT_FALSE(fitLaneStrides(o, {2, 3}));
  EXPECT_FALSE(fitLaneStrides(Offsets(6, std::nullopt), {2, 3}));
}

TEST(FitLaneStrides, RejectsAShapeThatIsNotTheLanes) { EXPECT_FALSE(fitLaneStrides(window(), {4, 2})); }

} // namespace
