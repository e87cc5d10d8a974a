//===- LoopBudget.cpp - tg-gpu-loop-budget ----------------------------------===//
//
// One thread's loop iterations within the device's budget, by unrolling
// (why: GPUPasses.td).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"

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

std::optional<int64_t> tripCount(scf::ForOp f) {
  auto lb = constantThroughCasts(f.getLowerBound()), ub = constantThroughCasts(f.getUpperBound()),
       st = constantThroughCasts(f.getStep());
  if (!lb || !ub || !st || *st <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : (*ub - *lb + *st - 1) / *st;
}

struct Count {
  int64_t iterations = 0;    ///< of the loops whose trip counts are known
  Operation *unknown = nullptr; ///< a loop whose trip count is not a constant
  scf::ForOp hottest;          ///< the innermost loop that iterates most
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
      std::optional<int64_t> n = tripCount(f);
      if (!n) {
        c.unknown = c.unknown ? c.unknown : f.getOperation();
        count(&o, outer, c);
        continue;
      }
      int64_t its = outer * *n;
      c.iterations += its;
      bool innermost = !f.getBody()->walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted();
      if (innermost && *n > 1 && its > c.hottestIterations) {
        c.hottest = f;
        c.hottestIterations = its;
      }
      count(&o, its, c);
    }
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
      if (c.iterations <= budget)
        return;
      if (c.unknown || !c.hottest) {
        Operation *at = c.unknown ? c.unknown : fn.getOperation();
        at->emitError() << "one thread runs " << c.iterations << " loop iterations"
                        << (c.unknown ? " (and a loop whose trip count is not a constant)" : "")
                        << ", more than the device's loop budget of " << budget
                        << " (lavapipe exits every loop once its budget is spent), and unrolling cannot fit it";
        return signalPassFailure();
      }
      int64_t n = *tripCount(c.hottest), ops = std::max<int64_t>(1, bodyOps(c.hottest));
      // A factor that divides the trip count: otherwise the unroll leaves an
      // epilogue loop whose bounds are not constants, which the count cannot
      // see (masked_select's 320-trip loop unrolled by 136 kept a 48-trip
      // epilogue per outer iteration, 307k iterations counted as none).
      int64_t factor = std::min<int64_t>(n, std::max<int64_t>(1, kMaxUnrolledOps / ops));
      while (factor > 1 && n % factor)
        --factor;
      if (factor < 2 || failed(loopUnrollByFactor(c.hottest, factor))) {
        c.hottest->emitError() << "one thread runs " << c.iterations
                               << " loop iterations, more than the device's loop budget of " << budget
                               << " (lavapipe exits every loop once its budget is spent), and this loop's body ("
                               << ops << " ops) is too large to unroll";
        return signalPassFailure();
      }
    }
    fn.emitError() << "tg-gpu-loop-budget: the loops still exceed the budget of " << budget << " after 256 unrollings";
    signalPassFailure();
  }
};

} // namespace
