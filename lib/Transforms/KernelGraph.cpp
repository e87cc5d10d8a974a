//===- KernelGraph.cpp - --tg-kernel-graph --------------------------------===//
//
// Drives sched::getKernelGraph on the module's root graph: the MLIR graph is
// imported into the interned engine, scheduled there, and the kernel graph is
// materialized in place of the program.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Schedule/KernelGraph.h"
#include "mlir/IR/BuiltinOps.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_KERNELGRAPH
#include "tinygrad/Transforms/Passes.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;
using namespace mlir::tinygrad;

namespace {
struct KernelGraphPass : public mlir::tinygrad::impl::KernelGraphBase<KernelGraphPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // The root is the last op's result, as the JSON importer lays graphs out.
    Block &body = *module.getBody();
    Value root = body.empty() || body.back().getNumResults() != 1 ? Value() : body.back().getResult(0);
    if (!root) {
      module.emitError("tg-kernel-graph: the module has no UOp graph");
      return signalPassFailure();
    }
    Operation *rootOp = root.getDefiningOp();
    sym::Context ctx(module.getContext());
    sym::Importer importer(ctx);
    sym::UOpRef in = importer.import(root);
    if (!in)
      return signalPassFailure();
    if (in->op == sym::Op::CALL)
      in = in->src[0];
    sym::UOpRef out = sched::getKernelGraph(ctx, in);
    if (!out) {
      InFlightDiagnostic d = rootOp->emitError("get_kernel_graph failed");
      for (const std::string &e : ctx.errors)
        d.attachNote() << e;
      return signalPassFailure();
    }
    SmallVector<Operation *> old;
    for (Operation &op : body)
      old.push_back(&op);
    OpBuilder builder = OpBuilder::atBlockEnd(&body);
    sym::Materializer(builder, rootOp->getLoc()).materialize(out);
    for (Operation *op : llvm::reverse(old))
      op->erase();
  }
};
} // namespace
