//===- GPUDims.cpp - tinygrad's pm_add_gpudims -----------------------------===//
//
// codegen/gpudims.py: the kernel's GLOBAL (and THREAD) ranges become the
// workgroup ids and its LOCAL/WARP/GROUP_REDUCE ranges the thread ids of a
// launch. Ranges are taken in axis-id order; globals are numbered from the
// last (gidx0 is the fastest dimension, as tinygrad's reverse=True gives).
// When there are more dimensions than the target has (3) or a dimension
// exceeds its limit, neighbouring dimensions are merged (_group_dims) or a
// dimension is split by its smallest divisor into the next (_split_dims),
// and each original range is recovered from the flat id with a division
// and a modulo. A store into global memory that does not depend on some
// local id is done by the threads where that id is 0 only.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/GPU.h"

#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Symbolic/Rewrite.h"

#include "mlir/IR/Builders.h"

#include <cmath>
#include <map>
#include <optional>

namespace mlir::tinygrad::gpu {
using opt::Scheduler;
using sym::Op;
using sym::UOpRef;
using tg::AxisType;

namespace {

/// A dimension's size: a constant, or the vmax+1 of a symbolic one.
int64_t dimMax(UOpRef d) {
  if (auto v = d->intVal())
    return (int64_t)*v;
  return d->vmax().isInt() ? (int64_t)d->vmax().i + 1 : INT64_MAX;
}

/// _group_dims: merge neighbours until the dims fit `maxSizes`; nullopt
/// when no merge helps.
std::optional<llvm::SmallVector<UOpRef, 4>> groupDims(sym::Context &ctx, llvm::SmallVector<UOpRef, 4> dims,
                                                      llvm::ArrayRef<int64_t> maxSizes) {
  auto fits = [&] {
    if (dims.size() > maxSizes.size())
      return false;
    for (size_t i = 0; i < dims.size(); ++i)
      if (dimMax(dims[i]) > maxSizes[i])
        return false;
    return true;
  };
  while (!fits()) {
    bool merged = false;
    for (size_t i = 0; i < maxSizes.size(); ++i)
      if (i + 1 < dims.size() && dimMax(dims[i]) * dimMax(dims[i + 1]) <= maxSizes[i]) {
        dims[i] = sym::simplify(ctx, ctx.mul(dims[i], dims[i + 1]));
        dims.erase(dims.begin() + i + 1);
        merged = true;
        break;
      }
    if (!merged)
      return std::nullopt;
  }
  return dims;
}

/// _split_dims: a dimension over its limit gives its smallest divisor to the
/// next one (cyclically). Constant dims only; nullopt (with `why`) when a
/// dimension has no divisor to give.
std::optional<llvm::SmallVector<int64_t, 3>> splitDims(llvm::ArrayRef<int64_t> dims,
                                                       llvm::ArrayRef<int64_t> maxSizes, std::string &why) {
  llvm::SmallVector<int64_t, 3> d(dims.begin(), dims.end());
  while (d.size() < 3)
    d.push_back(1);
  for (size_t i = 0; i < d.size(); ++i)
    while (d[i] > maxSizes[i]) {
      int64_t div = 1;
      for (int64_t c = 2; c <= (int64_t)std::ceil(std::sqrt((double)d[i])); ++c)
        if (d[i] % c == 0) {
          div = c;
          break;
        }
      if (div == 1) {
        why = "cannot limit dim " + std::to_string(dims[i]) + " to " + std::to_string(maxSizes[i]);
        return std::nullopt;
      }
      d[i] /= div;
      d[(i + 1) % d.size()] *= div;
    }
  if (d[2] == 1)
    d.pop_back();
  return d;
}

UOpRef special(sym::Context &ctx, UOpRef size, llvm::StringRef name) {
  MLIRContext *m = ctx.getMLIRContext();
  NamedAttrList attrs;
  attrs.set("name", StringAttr::get(m, name));
  return ctx.get(Op::SPECIAL, ctx.typeFor(DType::WeakInt), {size}, sym::Arg{Scalar(), attrs.getDictionary(m)});
}

/// get_grouped_dims: the id expression of each of `dims`.
std::optional<llvm::SmallVector<UOpRef, 4>> groupedDims(sym::Context &ctx, llvm::StringRef prefix,
                                                        llvm::SmallVector<UOpRef, 4> dims,
                                                        llvm::ArrayRef<int64_t> maxSizes, bool reverse,
                                                        std::string &why) {
  if (reverse) {
    std::reverse(dims.begin(), dims.end());
    auto r = groupedDims(ctx, prefix, dims, maxSizes, false, why);
    if (r)
      std::reverse(r->begin(), r->end());
    return r;
  }
  llvm::SmallVector<UOpRef, 4> limited = dims;
  if (auto g = groupDims(ctx, dims, maxSizes))
    limited = *g;
  if (limited.size() > maxSizes.size()) {
    why = "cannot fit " + std::to_string(dims.size()) + " " + prefix.str() + " dims in the target's " +
          std::to_string(maxSizes.size());
    return std::nullopt;
  }
  if (limited == dims) {
    llvm::SmallVector<int64_t, 3> sizes;
    bool allConst = true;
    for (UOpRef d : dims) {
      auto v = d->intVal();
      allConst &= v.has_value();
      sizes.push_back(v ? (int64_t)*v : 0);
    }
    bool over = false;
    for (size_t i = 0; i < dims.size(); ++i)
      over |= dimMax(dims[i]) > maxSizes[i];
    if (over) {
      if (!allConst) {
        why = "a symbolic " + prefix.str() + " dim exceeds the target's limit";
        return std::nullopt;
      }
      auto split = splitDims(sizes, maxSizes, why);
      if (!split)
        return std::nullopt;
      limited.clear();
      for (int64_t s : *split)
        limited.push_back(ctx.constInt(s));
    }
  }
  llvm::SmallVector<UOpRef, 4> raw;
  for (size_t i = 0; i < limited.size(); ++i)
    raw.push_back(special(ctx, limited[i], (prefix + std::to_string(i)).str()));
  auto prodFrom = [&](llvm::ArrayRef<UOpRef> xs, size_t from) {
    UOpRef p = ctx.constInt(1);
    for (size_t j = from; j < xs.size(); ++j)
      p = ctx.mul(p, xs[j]);
    return p;
  };
  UOpRef flat = ctx.constInt(0);
  for (size_t i = 0; i < raw.size(); ++i)
    flat = ctx.add(flat, ctx.mul(raw[i], prodFrom(limited, i + 1)));
  llvm::SmallVector<UOpRef, 4> out;
  for (size_t i = 0; i < dims.size(); ++i) {
    UOpRef q = ctx.floordiv(flat, prodFrom(dims, i + 1));
    out.push_back(sym::simplify(ctx, i == 0 ? q : ctx.floormod(q, dims[i])));
  }
  return out;
}

std::optional<tg::AddrSpace> addrspace(UOpRef u) {
  while (u) {
    if (auto a = tg::getValueInfo(u->type).addrspace)
      return a;
    if (u->src.empty())
      return std::nullopt;
    u = u->src[0];
  }
  return std::nullopt;
}

using Ids = llvm::SmallVector<int64_t, 2>;
Ids idsOf(UOpRef r) {
  Ids ids;
  if (auto a = dyn_cast_or_null<DenseI64ArrayAttr>(r->arg.attrs ? r->arg.attrs.get("ids") : Attribute()))
    ids.assign(a.asArrayRef().begin(), a.asArrayRef().end());
  return ids;
}

} // namespace

UOpRef addGPUDims(sym::Context &ctx, UOpRef sink, const TargetDescription &target) {
  if (!sink->arg.attrs || !sink->arg.attrs.get("arg"))
    return sink;
  std::vector<UOpRef> topo = sym::toposort(sink);
  for (UOpRef u : topo)
    if (u->op == Op::SPECIAL)
      return sink;
  std::map<Ids, UOpRef> all;
  for (UOpRef u : topo)
    if (u->op == Op::RANGE)
      all[idsOf(u)] = u;
  llvm::SmallVector<Ids, 4> globalIds, localIds;
  for (auto &[ids, r] : all) {
    AxisType t = Scheduler::axisType(r);
    if (t == AxisType::Global || t == AxisType::Thread)
      globalIds.push_back(ids);
    else if (t == AxisType::Warp || t == AxisType::Local || t == AxisType::GroupReduce)
      localIds.push_back(ids);
  }
  if (globalIds.empty() && localIds.empty())
    return sink;
  llvm::SmallVector<UOpRef, 4> globalShape, localShape;
  for (auto &ids : globalIds)
    globalShape.push_back(sym::simplify(ctx, all[ids]->src[0]));
  for (auto &ids : localIds)
    localShape.push_back(sym::simplify(ctx, all[ids]->src[0]));

  auto info = dyn_cast<tg::KernelInfoAttr>(sink->arg.attrs.get("arg"));
  bool dontUseLocals = info && info.getDontUseLocals();
  std::string why;
  llvm::SmallVector<UOpRef, 8> idxs;
  if (dontUseLocals) {
    if (!localIds.empty()) {
      ctx.errors.push_back("add_gpudims: a kernel that uses no locals has local dims");
      return nullptr;
    }
    auto g = groupedDims(ctx, "idx", globalShape, target.globalMax, true, why);
    if (!g) {
      ctx.errors.push_back("add_gpudims: " + why);
      return nullptr;
    }
    idxs.assign(g->begin(), g->end());
  } else {
    auto l = groupedDims(ctx, "lidx", localShape, target.localMax, false, why);
    if (!l) {
      ctx.errors.push_back("add_gpudims: " + why);
      return nullptr;
    }
    // With a limit on the product, the grid shrinks by the workgroup size.
    std::array<int64_t, 3> gmax = target.globalMax;
    if (target.globalProdMax) {
      llvm::SmallVector<int64_t, 3> hwLocal;
      for (UOpRef u : *l)
        if (u->op == Op::SPECIAL)
          hwLocal.push_back(dimMax(u->src[0]));
      while (hwLocal.size() < 3)
        hwLocal.push_back(1);
      for (int i = 0; i < 3; ++i)
        gmax[i] = std::min(gmax[i], target.globalProdMax / hwLocal[i]);
    }
    auto g = groupedDims(ctx, "gidx", globalShape, gmax, true, why);
    if (!g) {
      ctx.errors.push_back("add_gpudims: " + why);
      return nullptr;
    }
    idxs.assign(g->begin(), g->end());
    idxs.append(l->begin(), l->end());
  }

  llvm::DenseMap<UOpRef, UOpRef> subs;
  sym::RangeCache rc;
  for (UOpRef r : topo) {
    // A global store that no local id indexes is made by local id 0 only.
    if (r->op == Op::STORE && r->src[0]->op == Op::INDEX && addrspace(r->src[0]->src[0]) == tg::AddrSpace::Global) {
      UOpRef idx = r->src[0];
      llvm::SmallVector<UOpRef, 4> missing;
      for (auto &ids : localIds)
        if (!rc.inRanges(all[ids], idx))
          missing.push_back(all[ids]);
      if (!missing.empty() && idx->src.size() == 2) {
        llvm::SmallVector<UOpRef, 4> eqs;
        for (UOpRef x : missing)
          eqs.push_back(ctx.logicalNot(ctx.ne(x, (__int128)0)));
        UOpRef mask = ctx.uprod(eqs);
        UOpRef i = idx->src[1];
        UOpRef inval = ctx.cnst(Scalar::invalid(), i->dtype);
        UOpRef gated = i->op == Op::WHERE && i->src[2]->isInvalid()
                           ? ctx.where(ctx.andOp(i->src[0], mask), i->src[1], inval)
                           : ctx.where(mask, i, inval);
        subs[idx] = ctx.get(Op::INDEX, idx->type, {idx->src[0], gated}, idx->arg);
      }
    }
    if (r->op != Op::RANGE)
      continue;
    Ids ids = idsOf(r);
    if (Scheduler::axisType(r) == AxisType::Reduce)
      continue;
    auto gi = llvm::find(globalIds, ids);
    if (gi != globalIds.end()) {
      subs[r] = idxs[gi - globalIds.begin()];
      continue;
    }
    auto li = llvm::find(localIds, ids);
    if (li != localIds.end())
      subs[r] = idxs[globalIds.size() + (li - localIds.begin())];
  }
  return sym::substitute(ctx, sink, subs);
}

} // namespace mlir::tinygrad::gpu
