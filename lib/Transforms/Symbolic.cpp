//===- Symbolic.cpp - tinygrad's symbolic simplifier as passes ------------===//
//
// The rules run on the interned UOp graph (lib/Symbolic): tinygrad's rules
// rely on hash-consing and on rebuilding users when a node changes, which
// MLIR's in-place RAUW does not give. Each pass imports the graph roots of
// a block, rewrites them with tinygrad's graph_rewrite semantics and
// materializes the result in place of the old graph.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Decompositions.h"
#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Codegen/Simplify.h"
#include "tinygrad/Codegen/Steps.h"
#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_SYMBOLICSIMPLE
#define GEN_PASS_DEF_SYMBOLIC
#define GEN_PASS_DEF_SIMPLIFYVALID
#define GEN_PASS_DEF_DECOMPOSECPU
#define GEN_PASS_DEF_DECOMPOSEDTYPES
#define GEN_PASS_DEF_CPUTHREADS
#define GEN_PASS_DEF_APPLYOPTS
#define GEN_PASS_DEF_SPLITRANGES
#define GEN_PASS_DEF_SIMPLIFYRANGES
#define GEN_PASS_DEF_RESOLVEUNSHARDS
#define GEN_PASS_DEF_EARLYMOVEMENTOPS
#define GEN_PASS_DEF_DEVICETOVAR
#define GEN_PASS_DEF_ADDLOCALBUFFERS
#include "tinygrad/Transforms/Passes.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

bool isUOp(Operation *op) {
  return !getTinygradOpName(op->getName().getStringRef()).empty();
}

/// Rewrites the UOp graphs of one block. Fails (with diagnostics) on
/// rewrite errors such as division by zero or rule cycles.
using GraphRewrite = llvm::function_ref<sym::UOpRef(sym::Context &, sym::UOpRef)>;

LogicalResult rewriteBlock(Block &block, GraphRewrite rewrite) {
  SmallVector<Operation *> uops, roots;
  for (Operation &op : block) {
    if (!isUOp(&op))
      continue;
    uops.push_back(&op);
    for (Operation *user : op.getUsers())
      if (!isUOp(user))
        return user->emitError("symbolic: a UOp value used by a non-UOp op is "
                               "not supported");
    if (op.use_empty())
      roots.push_back(&op);
  }
  if (roots.empty())
    return success();
  sym::Context ctx(block.getParent()->getContext());
  sym::Importer importer(ctx);
  SmallVector<sym::UOpRef> results;
  for (Operation *root : roots) {
    sym::UOpRef in = importer.import(root->getResult(0));
    if (!in)
      return failure();
    sym::UOpRef out = rewrite(ctx, in);
    if (!out) {
      InFlightDiagnostic diag = root->emitError("symbolic rewrite failed");
      for (const std::string &e : ctx.errors)
        diag.attachNote() << e;
      return failure();
    }
    results.push_back(out);
  }
  if (!ctx.errors.empty()) {
    InFlightDiagnostic diag = roots.back()->emitError("symbolic rewrite failed");
    for (const std::string &e : ctx.errors)
      diag.attachNote() << e;
    return failure();
  }
  OpBuilder builder = OpBuilder::atBlockEnd(&block);
  if (Operation *term = block.empty() ? nullptr : &block.back())
    if (term->hasTrait<OpTrait::IsTerminator>())
      builder.setInsertionPoint(term);
  Location loc = roots.back()->getLoc();
  sym::Materializer materializer(builder, loc);
  for (sym::UOpRef r : results)
    materializer.materialize(r);
  // The old graph is now dead: erase it users-first.
  for (Operation *op : llvm::reverse(uops))
    op->erase();
  return success();
}

/// Rewrites every block under `root`; false on failure.
bool runOnBlocks(Operation *root, GraphRewrite rewrite) {
  bool ok = true;
  root->walk([&](Block *block) {
    if (ok && failed(rewriteBlock(*block, rewrite)))
      ok = false;
  });
  return ok;
}
bool runOnBlocks(Operation *root, const sym::PatternMatcher &pm) {
  return runOnBlocks(root, [&](sym::Context &ctx, sym::UOpRef u) { return sym::graphRewrite(ctx, u, pm); });
}

struct SymbolicSimplePass
    : public mlir::tinygrad::impl::SymbolicSimpleBase<SymbolicSimplePass> {
  void runOnOperation() override {
    if (!runOnBlocks(getOperation(), sym::symbolicSimple()))
      signalPassFailure();
  }
};

struct SymbolicPass
    : public mlir::tinygrad::impl::SymbolicBase<SymbolicPass> {
  void runOnOperation() override {
    if (!runOnBlocks(getOperation(), sym::symCastWeak()))
      signalPassFailure();
  }
};

struct SimplifyValidPass
    : public mlir::tinygrad::impl::SimplifyValidBase<SimplifyValidPass> {
  void runOnOperation() override {
    if (!runOnBlocks(getOperation(), sym::symMoveWhereOnLoadIndexing()))
      signalPassFailure();
  }
};

struct DecomposeCPUPass : public mlir::tinygrad::impl::DecomposeCPUBase<DecomposeCPUPass> {
  void runOnOperation() override {
    if (!runOnBlocks(getOperation(), decomp::transcendentalPatterns()))
      signalPassFailure();
  }
};

/// Runs `fn` on each kernel SINK (other roots are left alone).
bool runOnKernels(Operation *root, sym::UOpRef (*fn)(sym::Context &, sym::UOpRef)) {
  return runOnBlocks(root, [&](sym::Context &ctx, sym::UOpRef u) {
    return u->op == sym::Op::SINK ? fn(ctx, u) : u;
  });
}

struct DecomposeDTypesPass : public mlir::tinygrad::impl::DecomposeDTypesBase<DecomposeDTypesPass> {
  void runOnOperation() override {
    if (!runOnKernels(getOperation(), decomp::dtypeDecompositions))
      signalPassFailure();
  }
};

struct ResolveUnshardsPass : public mlir::tinygrad::impl::ResolveUnshardsBase<ResolveUnshardsPass> {
  void runOnOperation() override {
    if (!runOnKernels(getOperation(), codegen::resolveUnshards))
      signalPassFailure();
  }
};

struct EarlyMovementOpsPass : public mlir::tinygrad::impl::EarlyMovementOpsBase<EarlyMovementOpsPass> {
  void runOnOperation() override {
    if (!runOnKernels(getOperation(), codegen::earlyMovementOps))
      signalPassFailure();
  }
};

struct AddLocalBuffersPass : public mlir::tinygrad::impl::AddLocalBuffersBase<AddLocalBuffersPass> {
  void runOnOperation() override {
    if (!runOnKernels(getOperation(), codegen::addLocalBuffers))
      signalPassFailure();
  }
};

struct DeviceToVarPass : public mlir::tinygrad::impl::DeviceToVarBase<DeviceToVarPass> {
  void runOnOperation() override {
    if (!runOnKernels(getOperation(), codegen::deviceToVar))
      signalPassFailure();
  }
};

struct SplitRangesPass : public mlir::tinygrad::impl::SplitRangesBase<SplitRangesPass> {
  void runOnOperation() override {
    if (!runOnKernels(getOperation(), codegen::splitRanges))
      signalPassFailure();
  }
};

struct SimplifyRangesPass : public mlir::tinygrad::impl::SimplifyRangesBase<SimplifyRangesPass> {
  void runOnOperation() override {
    auto both = [](sym::Context &ctx, sym::UOpRef u) -> sym::UOpRef {
      sym::UOpRef k = codegen::initialSymbolic(ctx, u);
      return k ? codegen::simplifyRanges(ctx, k) : k;
    };
    if (!runOnKernels(getOperation(), both))
      signalPassFailure();
  }
};

struct ApplyOptsPass : public mlir::tinygrad::impl::ApplyOptsBase<ApplyOptsPass> {
  using ApplyOptsBase::ApplyOptsBase;
  void runOnOperation() override {
    opt::OptMode m = mode == "tinygrad" ? opt::OptMode::Tinygrad
                     : mode == "none"   ? opt::OptMode::None
                                        : opt::OptMode::Ours;
    if (mode != "tinygrad" && mode != "none" && mode != "ours") {
      getOperation()->emitError("tg-apply-opts: mode must be ours, tinygrad or none, not '") << mode << "'";
      return signalPassFailure();
    }
    std::string why;
    bool failedOpt = false;
    auto apply = [&](sym::Context &ctx, sym::UOpRef u) -> sym::UOpRef {
      if (u->op != sym::Op::SINK)
        return u;
      sym::UOpRef r = opt::applyOpts(ctx, u, nullptr, TargetDescription::host(threads), m, nullptr, &why);
      if (!r) {
        failedOpt = true;
        return u;
      }
      return opt::lowerThreadRanges(ctx, r);
    };
    if (!runOnBlocks(getOperation(), apply) || failedOpt) {
      if (failedOpt)
        getOperation()->emitError("tg-apply-opts: ") << why;
      signalPassFailure();
    }
  }
};

struct CPUThreadsPass : public mlir::tinygrad::impl::CPUThreadsBase<CPUThreadsPass> {
  using CPUThreadsBase::CPUThreadsBase;
  void runOnOperation() override {
    unsigned n = threads;
    auto split = [&](sym::Context &ctx, sym::UOpRef u) {
      return u->op == sym::Op::SINK ? opt::applyThreadHeuristic(ctx, u, n) : u;
    };
    if (!runOnBlocks(getOperation(), split))
      signalPassFailure();
  }
};

} // namespace
