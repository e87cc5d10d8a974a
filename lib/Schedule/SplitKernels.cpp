//===- SplitKernels.cpp - split_kernels: one CALL per closed store --------===//
//
// Every STORE/END with no open ranges is a kernel. Its graph is rewritten
// locally (to_define_global + pm_flatten_range + rangeify_codegen): buffers
// become PARAMs numbered in visit order, ranges are renumbered from 0 so
// identical kernels are identical graphs, and CONTIGUOUS's opts are lifted
// into KernelInfo.opts_to_apply. The kernel is `SINK(arg=KernelInfo).call(*bufs)`.
//
//===----------------------------------------------------------------------===//
#include "Passes.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sym::pat;
namespace n = mlir::tinygrad::sym::pat::names;

namespace {
struct LocalAddBufferContext {
  int64_t dg = 0;
  llvm::MapVector<UOpRef, UOpRef> map;
  int64_t range = 0;
  ArrayAttr opts;
};

bool hasEmptyTag(UOpRef u) {
  auto t = dyn_cast_or_null<ArrayAttr>(tagOf(u));
  return t && t.empty();
}

UOpRef debuf(Match &m, UOpRef buf) {
  auto &c = m.state<LocalAddBufferContext>();
  Context &ctx = m.ctx;
  if (isVariable(buf))
    return ctx.get(sym::Op::PARAM, buf->type, buf->src, buf->arg);
  auto pa = paramArg(buf);
  if (!pa)
    return fail(ctx, "split_kernels", sym::getOpName(buf->op) + " is not supported as a kernel buffer yet");
  Shape shape = *shapeOf(buf);
  int64_t size = 1;
  for (int64_t d : shape)
    size *= d;
  auto npa = tg::ParamAttr::get(ctx.getMLIRContext(), c.dg, pa.getDtype(), {}, std::nullopt, {},
                                pa.getAddrspace(), std::nullopt, pa.getDevice(), false, std::nullopt);
  UOpRef param = storage(ctx, sym::Op::PARAM, {size}, npa);
  UOpRef ret = shape.size() == 1 ? param : reshape(ctx, param, shape);
  if (!c.map.count(buf))
    c.map[buf] = buf;
  ++c.dg;
  return ret;
}

const sym::PatternMatcher &kernelSplitRules() {
  static const sym::PatternMatcher toDefineGlobal({
      {"debuf BUFFER", op({sym::Op::BUFFER, sym::Op::MSTACK, sym::Op::MSELECT}, n::buf),
       [](Match &m) { return debuf(m, m[n::buf]); }},
      {"variable PARAM slot -1", op(sym::Op::PARAM, n::v), [](Match &m) -> UOpRef {
         auto pa = paramArg(m[n::v]);
         if (!pa || !pa.getName() || !pa.getVminVmax() || pa.getSlot() == -1)
           return nullptr;
         auto npa = tg::ParamAttr::get(m.ctx.getMLIRContext(), -1, pa.getDtype(), pa.getVminVmax(),
                                       pa.getMultipleOf(), pa.getName(), pa.getAddrspace(),
                                       pa.getAxis(), pa.getDevice(), pa.getIsVolatile(), pa.getSize());
         return withAttr(m.ctx, m[n::v], "arg", npa);
       }},
      {"renumber the params", op(sym::Op::PARAM, n::buf), [](Match &m) -> UOpRef {
         UOpRef b = m[n::buf];
         auto pa = paramArg(b);
         if (!hasEmptyTag(b) || !pa || pa.getName() || !shapeOf(b))
           return nullptr;
         return debuf(m, b);
       }},
      {"ALU params are scalars", up(sym::Op::INDEX, {op(sym::Op::PARAM, n::v)}), [](Match &m) -> UOpRef {
         return addrspaceOf(m[n::v]) == tg::AddrSpace::ALU ? m[n::v] : nullptr;
       }},
      {"bound Variable", op(sym::Op::AFTER, n::b), [](Match &m) -> UOpRef {
         return isBoundVar(m[n::b]) ? m[n::b]->src[0] : nullptr;
       }},
      {"handle_after", op(sym::Op::AFTER, n::after), [](Match &m) -> UOpRef {
         UOpRef a = m[n::after];
         if (addrspaceOf(a) == tg::AddrSpace::Local)
           return nullptr;
         UOpRef buf = bufUOp(m.ctx, a);
         auto &c = m.state<LocalAddBufferContext>();
         if (!c.map.count(buf))
           c.map[buf] = a;
         return buf;
       }},
      {"remove device from local STAGE", op(sym::Op::STAGE, n::b), [](Match &m) -> UOpRef {
         auto o = stageOpts(m[n::b]);
         if (!o || !o.getDevice())
           return nullptr;
         return withAttr(m.ctx, m[n::b], "opts",
                         tg::BufferizeOptsAttr::get(m.ctx.getMLIRContext(), {}, o.getAddrspace(),
                                                    o.getRemovable()));
       }},
      {"renumber the ranges", op(sym::Op::RANGE, n::r), [](Match &m) -> UOpRef {
         UOpRef r = m[n::r];
         if (!hasEmptyTag(r))
           return nullptr;
         auto &c = m.state<LocalAddBufferContext>();
         llvm::SmallVector<int64_t> ids(rangeIds(r));
         if (ids.empty())
           return nullptr;
         ids[0] = c.range++;
         UOpRef nr = withAttr(m.ctx, r, "ids", DenseI64ArrayAttr::get(m.ctx.getMLIRContext(), ids));
         return withAttr(m.ctx, nr, "tg.tag", {});
       }},
  });
  static const sym::PatternMatcher rangeifyCodegen({
      // rangeify_codegen
      {"get_contiguous", op(sym::Op::CONTIGUOUS, n::x), [](Match &m) -> UOpRef {
         UOpRef x = m[n::x];
         if (x->arg.attrs)
           if (auto a = dyn_cast_or_null<ArrayAttr>(x->arg.attrs.get("arg")))
             if (llvm::all_of(a, [](Attribute e) { return isa<tg::OptAttr>(e); }))
               m.state<LocalAddBufferContext>().opts = a;
         return x->src[0];
       }},
      {"no NOOP in the kernel graph", op(sym::Op::NOOP, n::x), [](Match &m) -> UOpRef {
         return m[n::x]->src.empty() ? nullptr : m[n::x]->src[0];
       }},
  });
  static const sym::PatternMatcher pm = toDefineGlobal + sym::pmFlattenRange() + rangeifyCodegen;
  return pm;
}

/// The kernel roots already built: the bottom-up walk continues into each
/// CALL it creates, whose own END must not become a kernel again (tinygrad's
/// rewrite does not enter CALL bodies).
using BuiltKernels = llvm::DenseSet<UOpRef>;

UOpRef splitStore(Match &m) {
  Context &ctx = m.ctx;
  UOpRef x = m[n::x];
  auto &built = m.state<BuiltKernels>();
  if (built.count(x))
    return nullptr;
  for (UOpRef r : rangeCache().ranges(x))
    if (rangeType(r) != tg::AxisType::Device)
      return nullptr;
  UOpRef st = x->op == sym::Op::END ? x->src[0] : x;
  if (st->op == sym::Op::STORE && isVariable(st->src[0]))
    return nullptr;
  LocalAddBufferContext lctx;
  UOpRef ret = sym::graphRewriteBottomUp(ctx, x, kernelSplitRules(), &lctx);
  if (!ret)
    return nullptr;
  built.insert(ret);
  MLIRContext *mc = ctx.getMLIRContext();
  auto ki = tg::KernelInfoAttr::get(mc, "test", ArrayAttr::get(mc, {}), false, ArrayAttr::get(mc, {}),
                                    lctx.opts, {}, 0);
  llvm::SmallVector<UOpRef, 4> callSrc{sink(ctx, {ret}, ki)};
  for (auto &kv : lctx.map)
    callSrc.push_back(kv.second);
  auto ci = tg::CallInfoAttr::get(mc, {}, {}, false, false, {});
  return ctx.get(sym::Op::CALL, voidType(ctx), callSrc,
                 sym::Arg{Scalar(), attrs(ctx, {NamedAttribute(StringAttr::get(mc, "arg"), ci)})});
}

UOpRef noIndexingCalls(Match &m) {
  UOpRef u = m[n::u];
  llvm::SmallVector<UOpRef, 4> src;
  for (UOpRef x : u->src) {
    if (x->op == sym::Op::INDEX) {
      src.push_back(x->src[0]);
    } else if (x->op == sym::Op::SHRINK) {
      auto marg = margOf(x);
      bool zero = marg && llvm::all_of(marg->pairs, [](auto p) { return p.first == 0; });
      src.push_back(zero ? x->src[0] : x);
    } else {
      src.push_back(x);
    }
  }
  return m.ctx.get(u->op, u->type, src, u->arg);
}
} // namespace

UOpRef sched::splitKernels(Context &ctx, UOpRef tsink) {
  static const sym::PatternMatcher split({{"split_store", op({sym::Op::STORE, sym::Op::END}, n::x), splitStore}});
  static const sym::PatternMatcher noIdx({{"no_indexing_calls", op(sym::Op::CALL, n::u), noIndexingCalls}});
  BuiltKernels built;
  UOpRef r = sym::graphRewriteBottomUp(ctx, tsink, split, &built);
  return r ? sym::graphRewrite(ctx, r, noIdx) : nullptr;
}
