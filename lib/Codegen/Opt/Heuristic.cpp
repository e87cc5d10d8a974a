//===- Heuristic.cpp - tinygrad's hand_coded_optimizations ------------------===//
//
// heuristic.py's steps in its order, for any target without tensor cores or
// images: the matvec grouping, GROUPTOP for small outputs (and nothing
// more when grouped), masked small axes upcast whole, upcasts of axes some
// buffer does not stride over, the unroll of the last reduce axis, a
// default UPCAST 4, LOCAL groups, then the THREAD split. On a target
// without locals (the CPU) GROUP/GROUPTOP/LOCAL fail as KernelOptError makes
// them no-ops there; on one without threads THREAD does.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Symbolic/Ranges.h"

#include "llvm/ADT/DenseSet.h"
#include <algorithm>
#include <cstdlib>
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

namespace {
/// MV_BLOCKSIZE, MV_THREADS_PER_ROW, MV_ROWS_PER_THREAD (tinygrad's getenv
/// defaults; the same variables override them).
int64_t envInt(const char *name, int64_t dflt) {
  const char *e = std::getenv(name);
  return e && *e ? std::strtoll(e, nullptr, 10) : dflt;
}

/// The matvec step: GROUP the reduce over threads of a row, LOCAL and
/// UPCAST the output. True when it applied (the heuristic stops there).
bool matvec(Scheduler &k) {
  int64_t block = envInt("MV_BLOCKSIZE", 4), perRow = envInt("MV_THREADS_PER_ROW", 8),
          rows = envInt("MV_ROWS_PER_THREAD", 4);
  if (!k.target.hasLocal || !k.target.hasShared || envInt("MV", 1) == 0 ||
      !(block > 1 || perRow > 1 || rows > 1) || k.rngs().size() < 2)
    return false;
  auto reds = k.reduceOps();
  if (reds.empty())
    return false;
  UOpRef red = reds.front();
  auto kind = red->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(red->arg.attrs.get("kind"))
                             : tg::ReduceKindAttr();
  UOpRef mul = red->src[0];
  if (!kind || kind.getValue() != tg::ReduceKind::Add || mul->op != Op::MUL || mul->src[0]->op != Op::INDEX ||
      mul->src[1]->op != Op::INDEX)
    return false;
  UOpRef idx0 = indexOf(mul->src[0]), idx1 = indexOf(mul->src[1]);
  auto rs = k.rngs();
  auto redAxes = k.axesOf({AxisType::Reduce});
  if (redAxes.empty())
    return false;
  UOpRef first = rs[redAxes.front()];
  llvm::SmallVector<UOpRef, 8> terms;
  k.ctx.splitUOp(idx0, Op::ADD, terms);
  if (!llvm::is_contained(terms, first))
    return false;
  sym::RangeCache rc;
  for (UOpRef r : rc.ranges(idx0))
    if (!rc.inRanges(r, idx1))
      return false;
  for (unsigned g : k.axesOf({AxisType::Global})) {
    auto n = Scheduler::size(rs[g]);
    if (!k.ctx.divides(first->src[0], perRow) || !n || *n % (block * rows) != 0)
      continue;
    if (perRow > 1)
      k.applyOpt({tg::OptOps::Group, 0, perRow});
    if (block > 1)
      k.applyOpt({tg::OptOps::Local, (int64_t)g, block});
    if (rows > 1)
      k.applyOpt({tg::OptOps::Upcast, (int64_t)g, rows});
    return true;
  }
  return false;
}

/// The LOCAL step: up to three output axes get local sizes (expand axes
/// first), at most 128 threads in all.
void localGroups(Scheduler &k) {
  if (!k.target.hasLocal)
    return;
  if (envInt("NOLOCALS", 0)) {
    k.applyOpt({tg::OptOps::NoLocals, std::nullopt, 0});
    return;
  }
  sym::Context &ctx = k.ctx;
  auto rs = k.rngs();
  auto bufs = k.bufs();
  llvm::SmallVector<std::pair<bool, unsigned>, 8> ranking;
  for (unsigned axis : k.axesOf({AxisType::Global, AxisType::Weak})) {
    if (rs[axis]->src[0]->op != Op::CONST)
      continue;
    bool expand = llvm::any_of(bufs, [&](UOpRef b) { return !inSliceBelow(ctx, rs[axis], indexOf(b)); });
    ranking.push_back({expand, axis});
  }
  llvm::stable_sort(ranking, [](auto a, auto b) {
    return std::make_pair(-(int)a.first, -(int)a.second) < std::make_pair(-(int)b.first, -(int)b.second);
  });
  llvm::SmallVector<std::pair<unsigned, int64_t>, 4> toLocal;
  for (auto [expand, axis] : ranking) {
    int64_t localSize = 1;
    for (auto [a, sz] : toLocal)
      localSize *= sz;
    int64_t n = *Scheduler::size(rs[axis]);
    llvm::SmallVector<int64_t, 6> cands;
    if (axis == 0)
      cands.push_back(32);
    cands.append({16, 8, 4, 3, 2});
    for (int64_t x : cands)
      if (n % x == 0 && localSize * x <= 128) {
        toLocal.push_back({axis, x});
        break;
      }
  }
  if (toLocal.size() > 3)
    toLocal.resize(3);
  llvm::sort(toLocal);
  unsigned deleted = 0;
  for (auto [axis0, sz] : toLocal) {
    unsigned axis = axis0 - deleted;
    bool willDelete = sz == *Scheduler::size(k.rngs()[axis]);
    k.applyOpt({tg::OptOps::Local, (int64_t)axis, sz});
    if (willDelete)
      ++deleted;
  }
}
} // namespace

void handCodedOptimizations(Scheduler &k) {
  sym::Context &ctx = k.ctx;
  if (matvec(k))
    return;
  // Are we grouping? (small outputs: a GROUPTOP of 16 over the reduce)
  {
    auto rs = k.rngs();
    if (prodSizes(k, rs, k.upcastableDims(), true) <= (envInt("NOLOCALS", 0) ? 240 : 2048))
      for (int64_t axis : {0, 1, 2})
        if (k.applyOpt({tg::OptOps::GroupTop, axis, 16}))
          break;
    if (!k.axesOf({AxisType::GroupReduce}).empty())
      return;
  }
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

  localGroups(k);
  applyThreadOpt(k);
}

/// The threading step: about 128K ops per thread, the first WEAK axis that
/// divides by the largest thread count that fits.
void applyThreadOpt(Scheduler &k) {
  if (k.target.hasThreads && k.target.globalMax[0] >= 1) {
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
      if (threads > k.target.globalMax[0] || symbolic || full / (128 << 10) < threads)
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
