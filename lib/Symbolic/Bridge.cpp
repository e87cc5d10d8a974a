//===- Bridge.cpp - MLIR values <-> interned UOps -------------------------===//
#include "tinygrad/Symbolic/Bridge.h"

#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sym;

UOpRef Importer::import(Value root) {
  // Iterative post-order: kernel graphs can be deeper than the C++ stack.
  llvm::SmallVector<std::pair<Value, bool>, 32> stack{{root, false}};
  while (!stack.empty()) {
    auto [v, expanded] = stack.pop_back_val();
    if (memo.count(v))
      continue;
    Operation *op = v.getDefiningOp();
    StringRef name = op ? getTinygradOpName(op->getName().getStringRef()) : "";
    auto kind = parseOpName(name);
    if (!kind) {
      if (op)
        op->emitError("symbolic: not a tinygrad UOp");
      else
        mlir::emitError(v.getLoc(), "symbolic: block arguments are not UOps");
      return nullptr;
    }
    if (!expanded) {
      stack.push_back({v, true});
      for (Value s : llvm::reverse(op->getOperands()))
        if (!memo.count(s))
          stack.push_back({s, false});
      continue;
    }
    llvm::SmallVector<UOpRef, 4> src;
    for (Value s : op->getOperands())
      src.push_back(memo.lookup(s));
    Arg arg;
    if (*kind == Op::CONST) {
      auto s = tg::getScalar(cast<tg::ConstOp>(op).getValue());
      if (!s) {
        op->emitError("symbolic: CONST value out of range");
        return nullptr;
      }
      arg.value = *s;
    } else {
      // An empty dictionary and no dictionary must intern the same, or an
      // imported node never equals the one a rule rebuilds.
      DictionaryAttr attrs = op->getAttrDictionary();
      if (!attrs.empty())
        arg.attrs = attrs;
    }
    memo[v] = ctx.get(*kind, v.getType(), src, arg);
  }
  return memo.lookup(root);
}

Value Materializer::materialize(UOpRef root) {
  llvm::SmallVector<std::pair<UOpRef, bool>, 32> stack{{root, false}};
  while (!stack.empty()) {
    auto [u, expanded] = stack.pop_back_val();
    if (memo.count(u))
      continue;
    if (!expanded) {
      stack.push_back({u, true});
      for (UOpRef s : llvm::reverse(u->src))
        if (!memo.count(s))
          stack.push_back({s, false});
      continue;
    }
    OperationState state(loc, getMLIROpName(getOpName(u->op)));
    for (UOpRef s : u->src)
      state.operands.push_back(memo.lookup(s));
    if (u->op == Op::CONST)
      state.addAttribute("value", tg::getScalarAttr(builder.getContext(), u->val()));
    else if (u->arg.attrs)
      state.addAttributes(u->arg.attrs.getValue());
    state.addTypes(u->type);
    memo[u] = builder.create(state)->getResult(0);
  }
  return memo.lookup(root);
}
