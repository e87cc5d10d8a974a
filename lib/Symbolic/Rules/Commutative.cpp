//===- Commutative.cpp - tinygrad's `commutative` (uop/symbolic.py) -------===//
//
// COMMUTATIVE flipping, only for index (weakint) math: the sources are put in
// `tuplize` order. NOTE (tinygrad): this can break merging vector math by
// only flipping some of them.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace mlir::tinygrad::sym::rules {

std::vector<pat::Rule> commutativeRules() {
  return {
      {"COMMUTATIVE flipping (only for index)", op(commutativeOps(), n::x, DType::WeakInt),
       [](Match &m) -> UOpRef {
         UOpRef x = m[n::x];
         if (m.ctx.tuplizeLess(x->src[1], x->src[0]) && !m.ctx.tuplizeLess(x->src[0], x->src[1]))
           return m.ctx.replaceSrc(x, {x->src[1], x->src[0]});
         return nullptr;
       }},
  };
}

} // namespace mlir::tinygrad::sym::rules
