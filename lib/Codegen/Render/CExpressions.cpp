//===- CExpressions.cpp - float chains in the order tinygrad's C evaluates --===//
#include "tinygrad/Codegen/CExpressions.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tinygrad::codegen {

using sym::Op;
using sym::UOpRef;

sym::UOpRef cEvaluationOrder(sym::Context &ctx, sym::UOpRef sink) {
  std::vector<UOpRef> order = sym::toposort(sink);
  // tinygrad inlines an ALU node used once (cstyle.py's child_count == 1):
  // only then is its rendering a parenthesized expression to strip.
  llvm::DenseMap<UOpRef, unsigned> uses;
  for (UOpRef u : order)
    for (UOpRef s : u->src)
      ++uses[s];
  // bfloat16 ops are each a float op cast back (create_non_native_float_pats):
  // the casts keep them apart, no chain to flatten.
  auto isChain = [](UOpRef u) {
    return (u->op == Op::ADD || u->op == Op::MUL) && isFloat(u->dtype) && u->dtype != DType::BFloat16;
  };
  llvm::DenseMap<UOpRef, UOpRef> rebuilt;
  // A chain node's operands as C sees them, left to right (rebuilt nodes).
  llvm::DenseMap<UOpRef, llvm::SmallVector<UOpRef, 4>> operands;
  for (UOpRef u : order) {
    llvm::SmallVector<UOpRef, 4> src;
    bool changed = false;
    for (UOpRef s : u->src) {
      UOpRef r = rebuilt.lookup(s);
      src.push_back(r ? r : s);
      changed |= r && r != s;
    }
    if (!isChain(u) || u->src.size() != 2) {
      rebuilt[u] = changed ? ctx.replaceSrc(u, src) : u;
      continue;
    }
    llvm::SmallVector<UOpRef, 4> flat;
    bool rightInlined = false;
    for (auto [i, s] : llvm::enumerate(u->src)) {
      if (s->op == u->op && s->dtype == u->dtype && uses.lookup(s) == 1 && operands.count(s)) {
        const auto &inner = operands[s];
        flat.append(inner.begin(), inner.end());
        rightInlined |= i == 1;
      } else {
        flat.push_back(src[i]);
      }
    }
    UOpRef r;
    if (!rightInlined) {
      // A rebuilt left source is already the left fold of its operands.
      r = changed ? ctx.replaceSrc(u, src) : u;
    } else {
      r = flat[0];
      for (size_t i = 1; i < flat.size() && r; ++i)
        r = ctx.alu(u->op, {r, flat[i]});
      if (!r || r->dtype != u->dtype)
        return nullptr;
    }
    operands[u] = std::move(flat);
    rebuilt[u] = r;
  }
  UOpRef out = rebuilt.lookup(sink);
  return out ? out : sink;
}

} // namespace mlir::tinygrad::codegen
