//===- LoopBudget.cpp - tg-gpu-loop-budget ----------------------------------===//
//
// One thread's loop iterations within the device's budget, by unrolling
// (why: GPUPasses.td).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Conversion/LoopAttributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

#include <limits>
#include <optional>

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPULOOPBUDGET
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {

/// Ops an unrolled body may have (the code one unrolled loop may grow to).
constexpr int64_t kMaxUnrolledOps = 4096;

/// `v` as a constant, through the integer casts the emitter puts between
/// a constant and a loop bound (`index_cast %c320_i64`, not folded before
/// this pass: such loops counted as unknown and were not counted at all).
std::optional<int64_t> constantThroughCasts(Value v) {
  while (Operation *d = v.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(d))
      break;
    v = d->getOperand(0);
  }
  return getConstantIntValue(v);
}

/// The loop's trip count when its bounds are constants.
std::optional<int64_t> tripCount(scf::ForOp f) {
  auto lb = constantThroughCasts(f.getLowerBound()), ub = constantThroughCasts(f.getUpperBound()),
       st = constantThroughCasts(f.getStep());
  if (!lb || !ub || !st || *st <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : (*ub - *lb + *st - 1) / *st;
}

/// The most times a loop whose bound is a variable's can iterate: the
/// emitter's record of tinygrad's vmax (kMaxTripCountAttr).
std::optional<int64_t> maxTripCount(scf::ForOp f) {
  if (auto a = f->getAttrOfType<IntegerAttr>(tinygrad::kMaxTripCountAttr))
    return std::max<int64_t>(0, a.getInt());
  return std::nullopt;
}

struct Count {
  int64_t iterations = 0;      ///< at most, counting bounded loops by their maximum
  Operation *unknown = nullptr; ///< a loop whose trip count has no bound
  int64_t bounded = 0;          ///< loops counted by a variable's maximum
  scf::ForOp hottest;           ///< the innermost loop that iterates most
  int64_t hottestIterations = 0;
};

/// Iterations of the loops in `op`'s regions, each run `outer` times.
void count(Operation *op, int64_t outer, Count &c) {
  for (Region &r : op->getRegions())
    for (Operation &o : r.getOps()) {
      if (isa<scf::WhileOp>(o) && !c.unknown)
        c.unknown = &o;
      auto f = dyn_cast<scf::ForOp>(o);
      if (!f) {
        count(&o, outer, c);
        continue;
      }
      std::optional<int64_t> n = tripCount(f), max = n ? n : maxTripCount(f);
      if (!max) {
        c.unknown = c.unknown ? c.unknown : f.getOperation();
        count(&o, outer, c);
        continue;
      }
      c.bounded += n ? 0 : 1;
      // Saturating: a product past int64 is far over any budget anyway.
      int64_t its = *max && outer > std::numeric_limits<int64_t>::max() / *max
                        ? std::numeric_limits<int64_t>::max() / 2
                        : outer * *max;
      c.iterations = std::min(c.iterations + its, std::numeric_limits<int64_t>::max() / 2);
      bool innermost = !f.getBody()->walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted();
      if (innermost && *max > 1 && its > c.hottestIterations) {
        c.hottest = f;
        c.hottestIterations = its;
      }
      count(&o, its, c);
    }
}

/// The unroll factor for the hottest loop (`n` its constant trip count, or
/// none and `max` its maximum): the smallest that brings the count within
/// the budget, else the one up to `cap` that leaves the fewest iterations
/// (another round unrolls more). A constant trip count takes a factor that
/// divides it (no epilogue) where one fits within twice the smallest, else
/// any factor (a prime trip count, 257 in random-kernels seed 2213 #16, was
/// refused): its epilogue is a loop of constant bounds running `n % factor`
/// times, as the bounds were folded to constants first (masked_select's
/// 320-trip loop unrolled by 136 kept a 48-trip epilogue of non-constant
/// bounds before that fold). A variable's loop takes any factor: its
/// epilogue runs fewer than `factor` times.
int64_t pickFactor(const Count &c, std::optional<int64_t> n, int64_t max, int64_t cap, int64_t budget) {
  int64_t outer = c.hottestIterations / std::max<int64_t>(1, max), rest = c.iterations - c.hottestIterations;
  // The hottest loop's iterations after unrolling by `f`, epilogue included.
  auto after = [&](int64_t f) { return n ? outer * (*n / f + *n % f) : outer * (max / f + f - 1); };
  auto fits = [&](int64_t f) { return rest + after(f) <= budget; };
  int64_t best = 1;
  for (int64_t f = 2; f <= cap; ++f) {
    if (fits(f)) {
      for (int64_t d = f; n && d <= std::min(cap, 2 * f); ++d)
        if (*n % d == 0 && fits(d))
          return d;
      return f;
    }
    if (after(f) < after(best))
      best = f;
  }
  return best;
}

int64_t bodyOps(scf::ForOp f) {
  int64_t n = 0;
  f.getBody()->walk([&](Operation *) { ++n; });
  return n;
}

struct GPULoopBudget : mlir::tinygrad::impl::GPULoopBudgetBase<GPULoopBudget> {
  using Base::Base;
  void runOnOperation() override {
    if (maxIterations == 0)
      return;
    gpu::GPUFuncOp fn = getOperation();
    int64_t budget = static_cast<int64_t>(maxIterations);
    // Bounds that are constants behind casts become constants, so that
    // upstream's unroller sees the trip count (else it emits a dynamic
    // epilogue loop this count cannot bound).
    fn.walk([](scf::ForOp f) {
      OpBuilder b(f);
      for (OpOperand *o : {&f.getLowerBoundMutable(), &f.getUpperBoundMutable(), &f.getStepMutable()})
        if (std::optional<int64_t> v = constantThroughCasts(o->get()); v && !getConstantIntValue(o->get()))
          o->set(arith::ConstantIndexOp::create(b, f.getLoc(), *v));
    });
    for (int round = 0; round < 256; ++round) {
      Count c;
      count(fn, 1, c);
      // A loop nothing bounds could run past the budget, cut short with no
      // error: refused, whatever the rest counts.
      if (c.unknown) {
        c.unknown->emitError() << "this loop's trip count has no bound (not a constant, no variable maximum), "
                               << "so one thread's loop iterations cannot be held within the device's loop budget of "
                               << budget << " (lavapipe exits every loop once its budget is spent)";
        return signalPassFailure();
      }
      if (c.iterations <= budget)
        return;
      if (!c.hottest) {
        fn.emitError() << "one thread runs up to " << c.iterations << " loop iterations"
                       << (c.bounded ? " (loops bounded by a variable counted at its maximum)" : "")
                       << ", more than the device's loop budget of " << budget
                       << " (lavapipe exits every loop once its budget is spent), and unrolling cannot fit it";
        return signalPassFailure();
      }
      std::optional<int64_t> n = tripCount(c.hottest);
      int64_t max = n ? *n : *maxTripCount(c.hottest), ops = std::max<int64_t>(1, bodyOps(c.hottest));
      int64_t factor = pickFactor(c, n, max, std::min<int64_t>(max, std::max<int64_t>(1, kMaxUnrolledOps / ops)),
                                  budget);
      FailureOr<UnrolledLoopInfo> unrolled = failure();
      if (factor >= 2)
        unrolled = loopUnrollByFactor(c.hottest, factor);
      if (failed(unrolled)) {
        c.hottest->emitError() << "one thread runs up to " << c.iterations
                               << " loop iterations, more than the device's loop budget of " << budget
                               << " (lavapipe exits every loop once its budget is spent), and this loop's body ("
                               << ops << " ops) is too large to unroll";
        return signalPassFailure();
      }
      // A variable's loop keeps its bound by maximum: the unrolled loop runs
      // at most max/factor times, its epilogue fewer than `factor`.
      if (!n) {
        Builder b(c.hottest);
        if (unrolled->mainLoopOp)
          (*unrolled->mainLoopOp)->setAttr(tinygrad::kMaxTripCountAttr, b.getI64IntegerAttr(max / factor));
        if (unrolled->epilogueLoopOp)
          (*unrolled->epilogueLoopOp)->setAttr(tinygrad::kMaxTripCountAttr, b.getI64IntegerAttr(factor - 1));
      }
    }
    fn.emitError() << "tg-gpu-loop-budget: the loops still exceed the budget of " << budget << " after 256 unrollings";
    signalPassFailure();
  }
};

} // namespace
