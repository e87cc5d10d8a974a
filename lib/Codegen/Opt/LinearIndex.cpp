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
