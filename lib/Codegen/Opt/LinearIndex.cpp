//===- LinearIndex.cpp - an index as base + strides over lane ranges -----===//
#include "tinygrad/Codegen/LinearIndex.h"

#include "tinygrad/Support/DType.h"

using namespace mlir::tinygrad;
using K = sym::Op;
using sym::UOpRef;

namespace {
struct Walker {
  llvm::function_ref<bool(UOpRef)> isLane, hasLanes;
  LinearIndex out;

  static std::optional<int64_t> intConst(UOpRef u) {
    if (u->op != K::CONST || !u->val().isInt())
      return std::nullopt;
    return (int64_t)u->val().i;
  }

  bool walk(UOpRef u, int64_t scale) {
    if (scale == 0)
      return true;
    if (!hasLanes(u)) {
      if (auto c = intConst(u))
        out.offset += scale * *c;
      else
        out.terms.push_back({u, scale});
      return true;
    }
    if (isLane(u)) {
      for (auto &[r, k] : out.strides)
        if (r == u) {
          k += scale;
          return true;
        }
      out.strides.push_back({u, scale});
      return true;
    }
    switch (u->op) {
    case K::ADD:
      return walk(u->src[0], scale) && walk(u->src[1], scale);
    case K::SUB:
      return walk(u->src[0], scale) && walk(u->src[1], -scale);
    case K::MUL:
      if (auto c = intConst(u->src[1]))
        return walk(u->src[0], scale * *c);
      if (auto c = intConst(u->src[0]))
        return walk(u->src[1], scale * *c);
      return false;
    case K::CAST: {
      // The cast changes nothing when the source's bounds fit both types:
      // then the sum computed wide equals the narrow one.
      UOpRef s = u->src[0];
      if (!isInt(s->dtype) || !isInt(u->dtype) || !s->vmin().isInt() || !s->vmax().isInt() ||
          !u->vmin().isInt() || !u->vmax().isInt() || s->vmin().i != u->vmin().i ||
          s->vmax().i != u->vmax().i)
        return false;
      return walk(s, scale);
    }
    default:
      return false;
    }
  }
};
} // namespace

std::optional<LinearIndex>
mlir::tinygrad::linearizeIndex(UOpRef i, llvm::function_ref<bool(UOpRef)> isLane,
                               llvm::function_ref<bool(UOpRef)> hasLanes) {
  Walker w{isLane, hasLanes, {}};
  if (!w.walk(i, 1))
    return std::nullopt;
  return std::move(w.out);
}

std::optional<std::pair<int64_t, llvm::SmallVector<int64_t, 4>>>
mlir::tinygrad::fitLaneStrides(llvm::ArrayRef<std::optional<int64_t>> offsets, llvm::ArrayRef<int64_t> sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  if (n != (int64_t)offsets.size())
    return std::nullopt;
  auto coord = [&](int64_t l, size_t k) {
    for (size_t j = sizes.size(); j-- > k + 1;)
      l /= sizes[j];
    return l % sizes[k];
  };
  // Each range's stride: the step between two known lanes one apart along it.
  llvm::SmallVector<int64_t, 4> strides(sizes.size(), 0);
  int64_t inner = 1;
  for (size_t k = sizes.size(); k-- > 0;) {
    bool found = sizes[k] == 1;
    for (int64_t l = 0; l < n && !found; ++l)
      if (coord(l, k) + 1 < sizes[k] && offsets[l] && offsets[l + inner]) {
        strides[k] = *offsets[l + inner] - *offsets[l];
        found = true;
      }
    if (!found)
      return std::nullopt;
    inner *= sizes[k];
  }
  std::optional<int64_t> base;
  for (int64_t l = 0; l < n; ++l) {
    if (!offsets[l])
      continue;
    int64_t at = 0;
    for (size_t k = 0; k < sizes.size(); ++k)
      at += strides[k] * coord(l, k);
    if (!base)
      base = *offsets[l] - at;
    else if (*offsets[l] - at != *base)
      return std::nullopt;
  }
  if (!base)
    return std::nullopt;
  return std::make_pair(*base, strides);
}
