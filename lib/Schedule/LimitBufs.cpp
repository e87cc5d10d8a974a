//===- LimitBufs.cpp - pm_limit_bufs (schedule/rangeify.py) ---------------===//
//
// A kernel may read at most the device's buffer limit (31 on CPU, one of
// them the output). An elementwise op whose sources reach more buffers than
// that stages each elementwise source into its own buffer over fresh WEAK
// ranges, so the reads are split across kernels.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

namespace {
constexpr unsigned kCPUMaxBufs = 31;

struct LimitBufsContext {
  int64_t rangeIdx;
  llvm::DenseMap<UOpRef, llvm::SmallPtrSet<UOpRef, 8>> bufCache;

  const llvm::SmallPtrSet<UOpRef, 8> &bufs(UOpRef root) {
    for (UOpRef u : toposort(root, [&](UOpRef x) { return !bufCache.count(x); })) {
      llvm::SmallPtrSet<UOpRef, 8> s;
      switch (u->op) {
      case sym::Op::STAGE:
      case sym::Op::AFTER:
      case sym::Op::PARAM:
      case sym::Op::MSELECT:
      case sym::Op::MSTACK:
        s.insert(u);
        break;
      default:
        for (UOpRef c : u->src)
          s.insert(bufCache[c].begin(), bufCache[c].end());
      }
      bufCache[u] = std::move(s);
    }
    return bufCache[root];
  }
};

bool elementwise(sym::Op op) { return sym::isALU(op) || op == sym::Op::CAST || op == sym::Op::BITCAST; }

UOpRef limitBufsRule(Match &m) {
  Context &ctx = m.ctx;
  UOpRef root = m[n::root];
  Attribute dev = deviceOf(root);
  auto sdev = dyn_cast_or_null<StringAttr>(dev);
  if (!dev)
    return nullptr;
  if (auto arr = dyn_cast<ArrayAttr>(dev); arr && !arr.empty())
    sdev = dyn_cast<StringAttr>(arr[0]);
  if (!sdev || sdev.getValue().split(':').first != "CPU")
    return nullptr; // only the CPU limit is known here
  auto &c = m.state<LimitBufsContext>();
  if (c.bufs(root).size() <= kCPUMaxBufs - 1)
    return nullptr;
  llvm::SmallVector<UOpRef, 3> srcs;
  RangeCache &rc = rangeCache();
  for (UOpRef s : root->src) {
    if (elementwise(s->op) && deviceOf(s)) {
      Ranges orig(rc.ranges(s)), ended;
      llvm::DenseMap<UOpRef, UOpRef> sub;
      for (UOpRef r : orig) {
        UOpRef e = r;
        if (r->op == sym::Op::RANGE && rangeType(r) != tg::AxisType::Device) {
          llvm::SmallVector<int64_t> ids(rangeIds(r));
          ids[0] = c.rangeIdx++;
          MLIRContext *mc = ctx.getMLIRContext();
          e = withAttr(ctx, withAttr(ctx, r, "ids", DenseI64ArrayAttr::get(mc, ids)), "axis_type",
                       tg::AxisTypeAttr::get(mc, tg::AxisType::Weak));
        }
        sub[r] = e;
        ended.push_back(e);
      }
      auto opts = tg::BufferizeOptsAttr::get(ctx.getMLIRContext(), deviceOf(s), tg::AddrSpace::Global, true);
      s = index(ctx, stage(ctx, sym::substitute(ctx, s, sub), ended, opts), orig);
    }
    srcs.push_back(s);
  }
  return ctx.replaceSrc(root, srcs);
}
} // namespace

UOpRef sched::limitBufs(Context &ctx, UOpRef sink) {
  static const sym::PatternMatcher pm(
      {{"limit buffers", op(binaryOps() | ternaryOps(), n::root), limitBufsRule}});
  LimitBufsContext c;
  c.rangeIdx = 0;
  for (UOpRef u : toposort(sink))
    if (u->op == sym::Op::RANGE && !rangeIds(u).empty())
      c.rangeIdx = std::max(c.rangeIdx, rangeIds(u)[0] + 1);
  return sym::graphRewrite(ctx, sink, pm, &c);
}
