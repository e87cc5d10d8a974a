//===- FullRewriteToSink.cpp - the engine steps in tinygrad's order -------===//
//
// The one place the order of the codegen steps is written down: it is
// full_rewrite_to_sink's (tinygrad/codegen/__init__.py), minus the steps
// whose job the emitter does itself (expander, remove reduces,
// devectorize, linearize: lanes and loops are structure there).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Steps.h"

#include "tinygrad/Codegen/CExpressions.h"
#include "tinygrad/Codegen/Decompositions.h"
#include "tinygrad/Codegen/GPU.h"
#include "tinygrad/Codegen/Simplify.h"
#include "tinygrad/Schedule/LoadCollapse.h"

using namespace mlir;
using namespace mlir::tinygrad;
using sym::UOpRef;

UOpRef codegen::fullRewriteToSink(sym::Context &ctx, UOpRef kernel, const RewriteOptions &opts,
                                  llvm::SmallVectorImpl<opt::Opt> *applied, std::string &why) {
  // One step: null (with ctx.errors) stops the pipeline, and so does an
  // error a rule recorded while declining.
  size_t errs = ctx.errors.size();
  UOpRef k = kernel;
  const char *failed = nullptr;
  auto step = [&](const char *name, auto fn) {
    if (!k)
      return;
    k = fn(k);
    if (!k || ctx.errors.size() > errs) {
      k = nullptr;
      failed = name;
    }
  };
  // resolve UNSHARDs (in-kernel shards: fragments over a thread range)
  step("multi_pm", [&](UOpRef s) { return resolveUnshards(ctx, s); });
  // preprocess: views of buffers become index math
  step("early movement ops", [&](UOpRef s) { return earlyMovementOps(ctx, s); });
  // collapse loads reduce (indexing by a tensor)
  step("load collapse", [&](UOpRef s) { return sched::loadCollapse(ctx, s); });
  step("split ranges", [&](UOpRef s) { return splitRanges(ctx, s); });
  // symbolic (a requirement for pm_simplify_ranges to be correct)
  step("initial symbolic", [&](UOpRef s) { return initialSymbolic(ctx, s); });
  step("simplify ranges", [&](UOpRef s) { return simplifyRanges(ctx, s); });
  auto whyFailed = [&] {
    why = std::string(failed) + ": " +
          (ctx.errors.size() > errs ? ctx.errors.back() : std::string("rewrite failed"));
  };
  if (opts.stopBeforeOpts) {
    if (!k)
      whyFailed();
    return k;
  }
  // postrange optimization: opts_to_apply or a heuristic
  step("apply_opts", [&](UOpRef s) -> UOpRef {
    std::string whyOpt;
    UOpRef r = opt::applyOpts(ctx, s, opts.info, opts.target, opts.mode, applied, &whyOpt);
    if (!r && !whyOpt.empty())
      ctx.errors.push_back(whyOpt);
    return r;
  });
  step("postopt symbolic", [&](UOpRef s) { return postOptSymbolic(ctx, s); });
  step("add local buffers", [&](UOpRef s) { return addLocalBuffers(ctx, s); });
  if (opts.target.hasLocal) {
    // A target with workgroups: "remove reduces"' fix_group_for_reduce
    // (the emitter removes the other reduces), then "add gpudims": the
    // GLOBAL/LOCAL ranges become the launch's SPECIAL ids; then the
    // barriers tinygrad's linearizer adds where LOCAL memory is reused.
    step("fix group for reduce", [&](UOpRef s) { return gpu::groupForReduce(ctx, s); });
    step("add gpudims", [&](UOpRef s) -> UOpRef {
      UOpRef t = gpu::addGPUDims(ctx, s, opts.target);
      return t ? deviceToVar(ctx, t) : t;
    });
    step("implicit barriers", [&](UOpRef s) { return gpu::addImplicitBarriers(ctx, s); });
  } else {
    // "add gpudims": the CPU's thread dim is core_id, a DEVICE range the
    // _device_num variable.
    step("add gpudims", [&](UOpRef s) -> UOpRef {
      UOpRef t = opt::lowerThreadRanges(ctx, s);
      return t ? deviceToVar(ctx, t) : t;
    });
  }
  // "early symbolic"'s load/store folding, on the kernel's implicit loads
  step("fold stores of own loads", [&](UOpRef s) { return foldStoresOfOwnLoads(ctx, s); });
  // "add images", bottom up as there.
  step("add images",
       [&](UOpRef s) { return sym::graphRewriteBottomUp(ctx, s, sym::simplifyAddImageCasts()); });
  // "lower all index dtypes" commits weak literals and "final symbolic"
  // folds what that decides: a clip bound past half's range is inf there.
  step("lower all index dtypes", [&](UOpRef s) { return sym::graphRewrite(ctx, s, sym::commitWeak()); });
  step("final symbolic", [&](UOpRef s) { return sym::graphRewrite(ctx, s, sym::symbolic()); });
  // "cast float alu operands": xsin on an int operand computed in ints.
  step("cast float alu", [&](UOpRef s) { return sym::graphRewrite(ctx, s, decomp::castFloatAluPatterns()); });
  // tinygrad's order: the early decompositions (THREEFRY in 32-bit halves,
  // with symbolic_simple), dtype decomps, then the late ones (transcendentals).
  step("early decompositions",
       [&](UOpRef s) { return sym::graphRewrite(ctx, s, decomp::earlyDecompositionPatterns()); });
  step("decomp dtypes", [&](UOpRef s) { return decomp::dtypeDecompositions(ctx, s); });
  step("late decompositions",
       [&](UOpRef s) { return sym::graphRewrite(ctx, s, decomp::transcendentalPatterns()); });
  // "final rewrite" commits the literals the decompositions minted:
  // emitted at default_float and converted, a double's constants would lose
  // their low bits.
  step("final rewrite", [&](UOpRef s) { return sym::graphRewrite(ctx, s, sym::commitWeak()); });
  // Float chains in the order clang evaluates tinygrad's rendering.
  step("C evaluation order", [&](UOpRef s) { return cEvaluationOrder(ctx, s); });
  if (!k)
    whyFailed();
  return k;
}
