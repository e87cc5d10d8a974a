//===- Schedule.cpp - --tg-callify, --tg-create-schedule, --tg-schedule ----===//
//
// The scheduler's steps as passes over a module holding one UOp graph (its
// root is the last op, as the JSON importer lays graphs out): the graph is
// imported into the interned engine, rewritten there, and the result
// materialized in place of the old graph.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Dialect/HCQ/IR/HCQ.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TGK/IR/TGK.h"
#include "tinygrad/Dialect/TGT/IR/TGT.h"
#include "tinygrad/Schedule/Callify.h"
#include "tinygrad/Schedule/CreateSchedule.h"
#include "tinygrad/Schedule/KernelGraph.h"
#include "tinygrad/Schedule/SchedulePipeline.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_CALLIFY
#define GEN_PASS_DEF_CREATESCHEDULE
#define GEN_PASS_DEF_SCHEDULE
#include "tinygrad/Transforms/Passes.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;
using namespace mlir::tinygrad;

namespace {
/// Imports the module's root, runs `step` on it and replaces the graph by
/// the result; `step` reports its own diagnostics and returns null on error.
LogicalResult rewriteRoot(ModuleOp module, llvm::StringRef pass,
                          llvm::function_ref<sym::UOpRef(sym::Context &, sym::UOpRef, Operation *)> step) {
  Block &body = *module.getBody();
  Value root = body.empty() || body.back().getNumResults() != 1 ? Value() : body.back().getResult(0);
  if (!root)
    return module.emitError(pass) << ": the module has no UOp graph";
  Operation *rootOp = root.getDefiningOp();
  sym::Context ctx(module.getContext());
  sym::UOpRef in = sym::Importer(ctx).import(root);
  if (!in)
    return failure();
  sym::UOpRef out = step(ctx, in, rootOp);
  if (!out)
    return failure();
  SmallVector<Operation *> old;
  for (Operation &op : body)
    old.push_back(&op);
  OpBuilder builder = OpBuilder::atBlockEnd(&body);
  sym::Materializer(builder, rootOp->getLoc()).materialize(out);
  for (Operation *op : llvm::reverse(old))
    op->erase();
  return success();
}

struct CallifyPass : public mlir::tinygrad::impl::CallifyBase<CallifyPass> {
  void runOnOperation() override {
    auto step = [](sym::Context &ctx, sym::UOpRef in, Operation *at) -> sym::UOpRef {
      int64_t next = sched::nextFreeBufferSlot(in);
      auto r = sched::callify(ctx, in, next);
      if (!r) {
        at->emitError(llvm::toString(r.takeError()));
        return nullptr;
      }
      return r->call;
    };
    if (failed(rewriteRoot(getOperation(), "tg-callify", step)))
      signalPassFailure();
  }
};

struct CreateSchedulePass : public mlir::tinygrad::impl::CreateScheduleBase<CreateSchedulePass> {
  void runOnOperation() override {
    auto step = [](sym::Context &ctx, sym::UOpRef in, Operation *at) -> sym::UOpRef {
      auto r = sched::createSchedule(ctx, in);
      if (!r) {
        at->emitError(llvm::toString(r.takeError()));
        return nullptr;
      }
      return *r;
    };
    if (failed(rewriteRoot(getOperation(), "tg-create-schedule", step)))
      signalPassFailure();
  }
};

struct SchedulePass : public mlir::tinygrad::impl::ScheduleBase<SchedulePass> {
  void runOnOperation() override {
    auto step = [](sym::Context &ctx, sym::UOpRef in, Operation *at) -> sym::UOpRef {
      auto kernelGraph = [&](sym::UOpRef body) -> llvm::Expected<sym::UOpRef> {
        ctx.errors.clear();
        if (sym::UOpRef kg = sched::getKernelGraph(ctx, body))
          return kg;
        std::string why;
        for (const std::string &e : ctx.errors)
          why += (why.empty() ? "" : "; ") + e;
        return llvm::createStringError(llvm::inconvertibleErrorCode(), "get_kernel_graph: " + why);
      };
      auto r = sched::scheduleProgram(ctx, in, kernelGraph);
      if (!r) {
        at->emitError(llvm::toString(r.takeError()));
        return nullptr;
      }
      at->emitRemark() << "memory plan: " << r->plan.plannedBuffers << " intermediate buffers, peak "
                       << r->plan.plannedBytes << " bytes planned vs " << r->plan.unplannedBytes
                       << " unplanned";
      return r->linear;
    };
    if (failed(rewriteRoot(getOperation(), "tg-schedule", step)))
      signalPassFailure();
  }
};
} // namespace
