//===- Heuristic.cpp - tinygrad's hand_coded_optimizations for the CPU -----===//
//
// The steps of heuristic.py that can fire for tinygrad's CPU renderer (no
// locals, no tensor cores, threads up to NUM_CPU_THREADS), in its order:
// masked small axes upcast whole, upcasts of axes some buffer does not
// stride over, the unroll of the last reduce axis, a default UPCAST 4, then
// the THREAD split. GROUPTOP and LOCAL need locals and fail on a CPU,
// exactly as KernelOptError makes them no-ops there.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Opts.h"

#include "llvm/ADT/DenseSet.h"
#include <algorithm>
#include <tuple>

namespace mlir::tinygrad::opt {
using sym::Op;
using sym::UOpRef;
using tg::AxisType;

namespace {
/// tinygrad's backward_slice: every node below `x`, not `x` itself.
bool inSliceBelow(sym::Context &ctx, UOpRef needle, UOpRef x) {
  return needle != x && ctx.inBackwardSlice(needle, x);
}
int64_t prodSizes(const Scheduler &k, llvm::ArrayRef<UOpRef> rs, llvm::ArrayRef<unsigned> axes,
                  bool outputShape) {
  int64_t p = 1;
  for (unsigned a : axes) {
    AxisType t = Scheduler::axisType(rs[a]);
    if (outputShape && (t == AxisType::Reduce || t == AxisType::Unroll || t == AxisType::GroupReduce))
      continue;
    p *= Scheduler::size(rs[a]).value_or(1);
  }
  return p;
}
} // namespace

void handCodedOptimizations(Scheduler &k) {
  sym::Context &ctx = k.ctx;
  // Masked small axes (from stack/pad): upcast them whole.
  {
    // The RANGEs under any WHERE's condition (UOp.ranges of the gate).
    llvm::DenseSet<UOpRef> gateRngs;
    forEachNode(k.ast, [&](UOpRef u) {
      if (u->op == Op::WHERE)
        forEachNode(u->src[0], [&](UOpRef r) {
          if (r->op == Op::RANGE)
            gateRngs.insert(r);
          return true;
        });
      return true;
    });
    auto rs = k.rngs();
    llvm::SmallVector<unsigned, 4> toUpcast;
    for (unsigned axis : k.upcastableDims()) {
      int64_t n = *Scheduler::size(rs[axis]);
      int64_t p = 1;
      for (unsigned j : toUpcast)
        p *= *Scheduler::size(rs[j]);
      if (n <= 7 && gateRngs.count(rs[axis]) && p * n <= 7 * 7)
        toUpcast.push_back(axis);
    }
    for (unsigned axis : llvm::reverse(toUpcast))
      k.applyOpt({tg::OptOps::Upcast, (int64_t)axis, 0});
  }

  // More upcasts of output axes that some buffer does not stride over.
  llvm::DenseSet<unsigned> upcasted;
  while (true) {
    auto rs = k.rngs();
    auto ud = k.upcastableDims();
    if (!(prodSizes(k, rs, ud, true) >= 1024 && k.upcastSize() < 32))
      break;
    llvm::SmallVector<UOpRef, 4> upRngs;
    for (unsigned a : k.axesOf({AxisType::Upcast, AxisType::Unroll}))
      upRngs.push_back(rs[a]);
    auto bufs = k.bufs();
    llvm::SmallVector<std::tuple<int64_t, int64_t, unsigned, int64_t>, 8> choices;
    for (unsigned axis : ud) {
      for (int64_t amt : {3, 4}) {
        if (upcasted.count(axis) || *Scheduler::size(rs[axis]) % amt != 0)
          continue;
        UOpRef rng = rs[axis];
        bool any = false;
        for (UOpRef b : bufs) {
          UOpRef idx = indexOf(b);
          if (inSliceBelow(ctx, rng, idx))
            continue;
          if (llvm::all_of(upRngs, [&](UOpRef r2) { return inSliceBelow(ctx, r2, idx); })) {
            any = true;
            break;
          }
        }
        if (!any)
          continue;
        int64_t num = 0, sum = 0;
        for (UOpRef b : bufs) {
          UOpRef idx = indexOf(b);
          if (inSliceBelow(ctx, rng, idx))
            ++num;
          llvm::SmallVector<UOpRef, 8> terms;
          ctx.splitUOp(idx, Op::ADD, terms);
          for (UOpRef c : terms) {
            if (c == rng)
              sum += 1;
            if (c->op == Op::MUL && c->src[0] == rng && c->src[1]->op == Op::CONST)
              sum += (int64_t)c->src[1]->val().i;
            if (c->op == Op::MUL && c->src[1] == rng && c->src[0]->op == Op::CONST)
              sum += (int64_t)c->src[0]->val().i;
          }
        }
        choices.push_back({num, sum, axis, amt});
      }
    }
    if (choices.empty())
      break;
    llvm::sort(choices);
    auto [n, s, axis, amt] = choices.front();
    k.applyOpt({tg::OptOps::Upcast, (int64_t)axis, amt});
    upcasted.insert(axis);
  }

  // Unroll the last reduce axis when small(ish); failures are fine.
  {
    auto ud = k.unrollableDims();
    if (!ud.empty() && (k.upcastSize() <= 4 || k.axesOf({AxisType::Unroll}).empty()) &&
        k.upcastSize() < 64) {
      int64_t s = *Scheduler::size(k.rngs()[ud.back()]);
      if (s <= 32) {
        if (k.applyOpt({tg::OptOps::Unroll, (int64_t)ud.size() - 1, 0})) {
          auto ud2 = k.unrollableDims();
          if (!ud2.empty() && s <= 3 && *Scheduler::size(k.rngs()[ud2.back()]) <= 3)
            k.applyOpt({tg::OptOps::Unroll, (int64_t)ud2.size() - 1, 0});
        }
      } else if (s % 4 == 0) {
        k.applyOpt({tg::OptOps::Unroll, (int64_t)ud.size() - 1, 4});
      }
    }
  }

  // Nothing upcast yet: upcast the last output axis by 4 if it divides.
  {
    auto ud = k.upcastableDims();
    if (k.axesOf({AxisType::Upcast, AxisType::Unroll}).empty() && !ud.empty() &&
        *Scheduler::size(k.rngs()[ud.back()]) % 4 == 0)
      k.applyOpt({tg::OptOps::Upcast, (int64_t)ud.back(), 4});
  }

  applyThreadOpt(k);
}

/// The threading step: about 128K ops per thread, the first WEAK axis that
/// divides by the largest thread count that fits.
void applyThreadOpt(Scheduler &k) {
  if (k.target.maxThreads >= 1) {
    auto rs = k.rngs();
    __int128 full = 1;
    bool symbolic = false;
    for (UOpRef r : rs) {
      if (auto n = Scheduler::size(r))
        full *= *n;
      else
        symbolic = true;
    }
    for (unsigned threads : {32u, 16u, 12u, 8u, 6u, 5u, 4u, 3u, 2u}) {
      if (threads > k.target.maxThreads || symbolic || full / (128 << 10) < threads)
        continue;
      bool done = false;
      auto rs2 = k.rngs();
      for (unsigned axis : k.axesOf({AxisType::Weak})) {
        auto n = Scheduler::size(rs2[axis]);
        if (n && *n % threads == 0) {
          done = k.applyOpt({tg::OptOps::Thread, (int64_t)axis, (int64_t)threads});
          break;
        }
      }
      if (done)
        break;
    }
  }
}

} // namespace mlir::tinygrad::opt
