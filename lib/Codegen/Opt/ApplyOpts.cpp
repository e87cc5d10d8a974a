//===- ApplyOpts.cpp - tinygrad's apply_opts and the CPU thread dims -------===//
#include "tinygrad/Codegen/Opts.h"

#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include <optional>
#include <string>

namespace mlir::tinygrad::opt {
using sym::Op;
using sym::UOpRef;

OptMode optModeFromEnv() {
  const char *e = std::getenv("TG_OPTS");
  if (!e)
    return OptMode::Ours;
  llvm::StringRef s(e);
  if (s == "tinygrad")
    return OptMode::Tinygrad;
  if (s == "none" || s == "0")
    return OptMode::None;
  return OptMode::Ours;
}

static bool decodeOpt(Attribute a, Opt &o) {
  auto oa = dyn_cast_or_null<tg::OptAttr>(a);
  if (!oa)
    return false;
  o.op = oa.getOp();
  o.axis = oa.getAxis();
  o.arg = 0;
  if (auto i = dyn_cast_or_null<IntegerAttr>(oa.getArg()))
    o.arg = i.getInt();
  else if (oa.getArg() && !isa<UnitAttr>(oa.getArg()))
    return false; // tuple args (TC, PADTO's pairs) are not CPU opts
  return true;
}

UOpRef applyOpts(sym::Context &ctx, UOpRef sink, tg::KernelInfoAttr info, const TargetDescription &target,
                 OptMode mode, llvm::SmallVectorImpl<Opt> *applied, std::string *error) {
  // A tagged AST is tinygrad's "already optimized / don't touch".
  if (sink->arg.attrs && sink->arg.attrs.get("tg.tag"))
    return sink;
  if (!info && sink->arg.attrs)
    info = dyn_cast_or_null<tg::KernelInfoAttr>(sink->arg.attrs.get("arg"));
  Scheduler k(ctx, sink, target);
  k.convertLoopToGlobal();
  // The kernel the opts gave: `k`, or a retry of them from its state before.
  std::optional<Scheduler> retried;
  Scheduler *result = &k;
  // An AST holding a STAGE gets no heuristic, and its opts no packing.
  bool staged = false;
  forEachNode(sink, [&](UOpRef u) { return !(staged = u->op == Op::STAGE); });
  if (info && info.getOptsToApply()) {
    // Our heuristic's steps that no Opt names, repeated for opts given where
    // it would have run, so its own opts (BEAM's first candidate) give its
    // kernel and the candidates around it keep those steps: a reduce's mask
    // hoisted before the opts (hoistReduceMask, ResNet's stem in the max
    // pool's padding), a long reduce split into lanes between them
    // (Scheduler::unnamedSteps: sums, softmax's and layernorm's reduces, a
    // llama's projections) and a reused operand packed into a LOCAL panel
    // after them (stageReducePanel). Without them the same opts gave another
    // kernel (mnist's conv weight gradient r_32_5_5_512_32_20_20 unpacked:
    // 317 ms against the heuristic's 111 at 2 threads) and every candidate
    // of such a kernel was timed without them.
    std::optional<Scheduler> heuristic;
    if (mode == OptMode::Ours && target.heuristic != OptHeuristic::TinygradHandCoded && !staged &&
        !k.reduceOps().empty()) {
      heuristic.emplace(ctx, sink, target);
      heuristic->convertLoopToGlobal();
      ourOptimizations(*heuristic);
      if (heuristic->hoistedMask)
        hoistReduceMask(k);
    }
    // Its steps between its opts (a reduce split into lanes) are repeated
    // where the opts given are its opts and maybe more (its kernel, and
    // BEAM's candidates grown from it), each after as many opts as it took
    // before the step, on the heuristic's kernel at that point. Other opts
    // get none: the search sized and checked them on the kernel without.
    llvm::SmallVector<Opt, 8> given;
    for (auto [i, a] : llvm::enumerate(info.getOptsToApply())) {
      if (!decodeOpt(a, given.emplace_back())) {
        if (error)
          *error = "opts_to_apply[" + std::to_string(i) + "] is not an opt this target applies";
        return nullptr;
      }
    }
    bool extendsHeuristic = heuristic && given.size() >= heuristic->applied.size() &&
                            llvm::equal(heuristic->applied, llvm::ArrayRef<Opt>(given).take_front(heuristic->applied.size()));
    // An opt after a step may not apply to the stepped kernel (an UNROLL of
    // the reduce the attention scores' step made lanes whole, a split's
    // shorter reduce): BEAM proposed it on the kernel without the steps, so
    // such opts are applied without them, as they were chosen.
    const Scheduler before = k;
    auto applyGiven = [&](Scheduler &s, bool withSteps, size_t &failedAt, bool &stepped) {
      size_t nextStep = 0;
      auto repeatStepsAfter = [&](size_t i) {
        for (; withSteps && nextStep < heuristic->unnamedSteps.size() && heuristic->unnamedSteps[nextStep].after == i;
             ++nextStep, stepped = true)
          heuristic->unnamedSteps[nextStep].redo(s);
      };
      for (auto [i, o] : llvm::enumerate(given)) {
        repeatStepsAfter(i);
        if (!s.applyOpt(o)) {
          failedAt = i;
          return false;
        }
      }
      repeatStepsAfter(given.size());
      return true;
    };
    size_t failedAt = 0;
    bool stepped = false;
    bool ok = applyGiven(k, extendsHeuristic, failedAt, stepped);
    // BEAM bounds a candidate's upcast and unrolled lanes (BEAM_UPCAST_MAX,
    // read here as the search reads it) on the kernel without the steps:
    // opts beyond the heuristic's whose stepped kernel is wider than that
    // bound and than the heuristic's own are applied without the steps too,
    // as they were sized (softmax's sum split into 32 lanes under 32 upcast
    // rows: vectors of 1024 floats, 0.25 s of LLVM's register allocation
    // for each such candidate).
    bool tooWide = ok && stepped && given.size() > heuristic->applied.size() &&
                   k.upcastSize() > std::max(beamUpcastMax(), heuristic->upcastSize());
    if ((!ok && stepped) || tooWide) {
      result = &retried.emplace(before);
      ok = applyGiven(*result, false, failedAt, stepped);
    }
    if (!ok) {
      if (error)
        *error = "opts_to_apply[" + std::to_string(failedAt) + "] " + toString(given[failedAt]) + ": " + result->error;
      return nullptr;
    }
    if (heuristic && heuristic->stagedPanel)
      stageReducePanel(*result, *heuristic->stagedPanel);
  } else if (mode != OptMode::None && (!info || info.getAppliedOpts().empty())) {
    if (!staged) {
      // The target says whose heuristic "ours" means (OptHeuristic).
      if (mode == OptMode::Tinygrad || target.heuristic == OptHeuristic::TinygradHandCoded)
        handCodedOptimizations(k);
      else
        ourOptimizations(k);
    }
  }
  if (applied)
    applied->assign(result->applied.begin(), result->applied.end());
  // get_optimized_ast: shift_to leaves REDUCE/END closing expressions
  // (r*4 + u); rules after the opts (reduce_mul_chain) need the RANGEs.
  return sym::graphRewrite(ctx, result->ast, sym::pmFlattenRange());
}

UOpRef lowerThreadRanges(sym::Context &ctx, UOpRef sink) {
  llvm::DenseMap<UOpRef, UOpRef> map;
  forEachNode(sink, [&](UOpRef u) {
    if (u->op == Op::RANGE && Scheduler::axisType(u) == tg::AxisType::Thread)
      if (auto n = Scheduler::size(u))
        map[u] = ctx.variable("core_id", 0, *n - 1);
    return true;
  });
  return map.empty() ? sink : sym::substitute(ctx, sink, map);
}

UOpRef applyThreadHeuristic(sym::Context &ctx, UOpRef sink, unsigned maxThreads) {
  if (maxThreads < 2 || (sink->arg.attrs && sink->arg.attrs.get("tg.tag")))
    return sink;
  bool threaded = false;
  forEachNode(sink, [&](UOpRef u) {
    threaded = u->op == Op::PARAM && u->param().isALU && u->param().name == "core_id";
    return !threaded;
  });
  if (threaded)
    return sink;
  Scheduler k(ctx, sink, TargetDescription::host(maxThreads));
  applyThreadOpt(k);
  return lowerThreadRanges(ctx, k.ast);
}

} // namespace mlir::tinygrad::opt
