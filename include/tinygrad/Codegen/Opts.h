//===- Opts.h - tinygrad's kernel opts on the interned graph -----*- C++ -*-===//
//
// tinygrad/codegen/opt: the structural choices (which axis becomes threads,
// upcast, unrolled) that tinygrad's heuristics make for a target. Each opt
// is a substitution on the kernel AST before the lowering, exactly as
// tinygrad's Scheduler.shift_to does it, so the opts tinygrad picks (or a
// kernel's opts_to_apply) give tinygrad's structure.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_OPTS_H
#define TINYGRAD_CODEGEN_OPTS_H

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/UOp.h"
#include "tinygrad/Target/TargetDescription.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <functional>
#include <optional>
#include <string>

namespace mlir::tinygrad::opt {

/// One tinygrad Opt(op, axis, arg). `arg` is the amount (0: the whole axis).
struct Opt {
  tg::OptOps op;
  std::optional<int64_t> axis;
  int64_t arg = 0;
  bool operator==(const Opt &o) const { return op == o.op && axis == o.axis && arg == o.arg; }
};
/// tinygrad's BEAM_UPCAST_MAX default: the upcast and unrolled elements a
/// BEAM candidate may have (search.py's get_kernel_actions).
inline constexpr int64_t kBeamUpcastMax = 256;
/// BEAM_UPCAST_MAX as tinygrad reads it (getenv, kBeamUpcastMax unless
/// set to a positive number): one bound for the search's candidates and for
/// the compile of the opts it found (ApplyOpts' steps rule).
int64_t beamUpcastMax();
/// The OptOps member's name, "UPCAST".
const char *optName(tg::OptOps op);
/// "Opt(op=OptOps.UPCAST, axis=1, arg=4)", tinygrad's repr.
std::string toString(const Opt &o);
std::string toString(llvm::ArrayRef<Opt> opts);

/// A RANGE of `size` like `like` (its dtype) with axis id `id` and type `t`.
sym::UOpRef makeRange(sym::Context &ctx, sym::UOpRef like, int64_t size, int64_t id, tg::AxisType t);

/// tinygrad's toposort of `root` (sources first, in source order).
void toposort(sym::UOpRef root, llvm::SmallVectorImpl<sym::UOpRef> &out);
/// Calls `fn` once on every node of `root` (any order) until it says stop.
void forEachNode(sym::UOpRef root, llvm::function_ref<bool(sym::UOpRef)> fn);
/// An INDEX's index without its validity (tinygrad's get_idx); `gated`
/// tells whether it had one.
sym::UOpRef indexOf(sym::UOpRef bidx, bool *gated = nullptr);

/// tinygrad's postrange.Scheduler over the interned graph: the opt axes
/// (`rngs`, ordered by axis_to_pos then id) and apply_opt for the opts a
/// CPU target has (UPCAST, UNROLL, THREAD, NOLOCALS; LOCAL/GROUP/TC fail as
/// they do for tinygrad's CPU renderer; PADTO pads with a validity gate).
class Scheduler {
public:
  Scheduler(sym::Context &ctx, sym::UOpRef ast, const TargetDescription &target);

  sym::Context &ctx;
  sym::UOpRef ast;
  /// What tinygrad's Scheduler reads off its Renderer (has_local,
  /// global_max, shared_max, ...), plus the sizes our heuristic tiles for.
  TargetDescription target;
  llvm::SmallVector<Opt, 8> applied;
  bool dontUseLocals = false;
  /// Set where our heuristic packed a reduce operand into a panel
  /// (stageReducePanel), to the `windowed` it packed with: a step no Opt
  /// names, which opts_to_apply for the same kernel repeat (applyOpts).
  std::optional<bool> stagedPanel;
  /// Set where our heuristic hoisted a reduce's per-output mask out of it
  /// (hoistReduceMask) before its opts: repeated before opts_to_apply too.
  bool hoistedMask = false;
  /// A step of our heuristic no Opt names, taken between its opts (a long
  /// reduce split into lanes folded pairwise), with how many of its opts
  /// came before it: opts_to_apply that extend the heuristic's opts (start
  /// with all of them) repeat it at that point (applyOpts), on a kernel then
  /// identical to the heuristic's. Recorded only by a tile that keeps it
  /// (its last step before returning true; the rollback after a hoisted
  /// mask no tile took clears them).
  struct UnnamedStep {
    size_t after;
    std::function<void(Scheduler &)> redo;
  };
  llvm::SmallVector<UnnamedStep, 1> unnamedSteps;
  /// Takes `step` on this kernel and records it (UnnamedStep).
  void takeUnnamedStep(std::function<void(Scheduler &)> step) {
    unnamedSteps.push_back({applied.size(), step});
    step(*this);
  }

  llvm::SmallVector<sym::UOpRef, 8> rngs() const;
  /// ssimplify(range.src[0]) when it is a constant.
  static std::optional<int64_t> size(sym::UOpRef rng);
  static tg::AxisType axisType(sym::UOpRef rng);
  static int64_t axisId(sym::UOpRef rng);
  llvm::SmallVector<unsigned, 8> axesOf(std::initializer_list<tg::AxisType> types) const;
  llvm::SmallVector<unsigned, 8> upcastableDims() const;
  llvm::SmallVector<unsigned, 8> unrollableDims() const;
  int64_t upcastSize() const;
  /// INDEX nodes, reverse toposort (tinygrad's `bufs`).
  llvm::SmallVector<sym::UOpRef, 8> bufs() const;
  llvm::SmallVector<sym::UOpRef, 4> reduceOps() const;
  llvm::SmallVector<sym::UOpRef, 4> globalizableRngs() const;

  /// convert_loop_to_global: on targets with locals, the WEAK ranges every
  /// output is indexed by become GLOBAL (the launch grid).
  void convertLoopToGlobal();
  /// apply_opt: false (with `error` set, the AST unchanged) where tinygrad
  /// raises KernelOptError.
  bool applyOpt(const Opt &o, bool append = true);
  std::string error;
  /// An axis id no range of the kernel has, nor any range made since
  /// (tinygrad's maxarg + 1): for every new range, the opts' and those of
  /// the steps no Opt names (a reduce split into lanes, a panel's fill). A
  /// range is interned by its size, id and type, so a step's id taken again
  /// by a later opt's range of the same size and type made them one range:
  /// the attention scores' reduce as lanes, a pair of them of size 2, and
  /// an UPCAST of 2 after it were one axis, half its lanes lost.
  int64_t newRangeId();

private:
  int64_t nextRangeId;
  bool check(bool cond, const char *why) {
    if (!cond)
      error = why;
    return cond;
  }
  void shiftTo(sym::UOpRef rng, int64_t amount, tg::AxisType type, bool top);
};

/// heuristic.hand_coded_optimizations for the CPU renderer.
void handCodedOptimizations(Scheduler &k);
/// Its last step alone: the THREAD opt.
void applyThreadOpt(Scheduler &k);

/// Ours: tinygrad's structure retuned for the vector lowering (wider
/// upcasts sized to the vector registers, more accumulators).
void ourOptimizations(Scheduler &k);
/// REDUCE ADD(WHERE(c, x, Invalid)) with c free of the reduce's ranges as
/// WHERE(c, REDUCE ADD(x), 0) (the same sum in the same order where c
/// holds), where every load of x that reads c's ranges is gated by c's
/// terms; false (nothing changed) where no reduce is so.
bool hoistReduceMask(Scheduler &k);
/// On a REDUCE's arg: it folds lanes our heuristic split off (independent
/// accumulators), whose order tinygrad never fixed, so the lowering may sum
/// them pairwise instead of one after another.
inline constexpr const char *kPairwiseFoldAttr = "pairwise";

/// BLAS-style packing on the kernel IR: a reduce operand that a loop of the
/// output does not index (the rows of a matmul, for B) and that reads a
/// block of lanes at a large stride along the reduce is copied once per
/// outer iteration into a contiguous LOCAL buffer (BUFFER + STORE + END +
/// AFTER, tinygrad's staging vocabulary), and the loops it does not depend
/// on move inside, so every row reuses the packed panel from cache. Each
/// reduce sums the same values in the same order (StagePanel.cpp: one
/// kernel's results still moved in the last bits).
/// `windowed`: an operand whose index is no linear form of ranges (a
/// transposed convolution's tap, t // 25) is staged too, the panel holding
/// a row for every value of that part (and its gate kept on the reads).
bool stageReducePanel(Scheduler &k, bool windowed = false);

enum class OptMode {
  Tinygrad, ///< tinygrad's hand-coded heuristic, unchanged
  Ours,     ///< ours: tinygrad's choices retuned for our vector lowering
  None,     ///< NOOPT
};
/// From TG_OPTS=tinygrad|ours|none (default: ours).
OptMode optModeFromEnv();

/// apply_opts: `opts_to_apply` when the kernel has them, else the heuristic
/// of `mode` (unless the AST is tagged, already optimized or staged), then
/// THREAD axes stay THREAD ranges (lowerThreadRanges makes them core_id).
/// `info` null: the SINK's own KernelInfo. `applied` receives the opts.
/// Null (with ctx.errors) when an opt of opts_to_apply fails.
sym::UOpRef applyOpts(sym::Context &ctx, sym::UOpRef sink, tg::KernelInfoAttr info,
                      const TargetDescription &target, OptMode mode, llvm::SmallVectorImpl<Opt> *applied = nullptr,
                      std::string *error = nullptr);

/// THREAD RANGE(n) -> `core_id` in [0, n) (tinygrad's CPU thread dims).
sym::UOpRef lowerThreadRanges(sym::Context &ctx, sym::UOpRef sink);

/// The THREAD opt alone, lowered to core_id (tg-cpu-threads): tagged
/// ASTs, kernels already threaded and symbolic sizes are left alone.
sym::UOpRef applyThreadHeuristic(sym::Context &ctx, sym::UOpRef sink, unsigned maxThreads);

} // namespace mlir::tinygrad::opt

#endif
