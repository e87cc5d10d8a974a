//===- Estimates.cpp - Estimates.from_uops ----------------------------------===//
#include "tinygrad/Codegen/Estimates.h"

#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::tinygrad;
using sym::UOpRef;
using K = sym::Op;

namespace {
/// tinygrad's sint arithmetic: ints stay CONSTs, a variable makes an
/// expression.
struct Sint {
  sym::Context &ctx;
  UOpRef lit(__int128 v) { return ctx.constInt(v); }
  bool isInt(UOpRef x) { return x->op == K::CONST && x->val().isInt(); }
  UOpRef add(UOpRef a, UOpRef b) {
    return isInt(a) && isInt(b) ? lit(a->val().i + b->val().i) : ctx.add(a, b);
  }
  UOpRef mul(UOpRef a, UOpRef b) {
    return isInt(a) && isInt(b) ? lit(a->val().i * b->val().i) : ctx.mul(a, b);
  }
  /// smin: UOp.minimum on weakint, ((a ^ k) max (b ^ k)) ^ k with k =
  /// dt.min + dt.max = -1.
  UOpRef min(UOpRef a, UOpRef b) {
    if (isInt(a) && isInt(b))
      return lit(std::min(a->val().i, b->val().i));
    UOpRef k = lit(-1);
    return ctx.alu(K::XOR, {ctx.maximum(ctx.alu(K::XOR, {a, k}), ctx.alu(K::XOR, {b, k})), k});
  }
};

/// ALU ops one lane of `op` counts (THREEFRY is decomposed before the
/// program exists, as in tinygrad's).
int64_t aluOps(K op) { return op == K::MULACC ? 2 : 1; }

int64_t itemsize(DType dt) { return dt == DType::Void ? 0 : getInfo(dt).itemsize; }

bool isParamOfAddrspace(UOpRef u, tg::AddrSpace as) {
  auto pa = u->arg.attrs ? dyn_cast_or_null<tg::ParamAttr>(u->arg.attrs.get("arg")) : tg::ParamAttr();
  return pa && pa.getAddrspace() == as;
}

/// `u.src[0].addrspace` for a LOAD/STORE: the INDEX's buffer, through AFTERs.
bool inRegisters(UOpRef u) {
  UOpRef b = u->src.empty() ? nullptr : u->src[0];
  while (b && (b->op == K::INDEX || b->op == K::AFTER || b->op == K::CAST) && !b->src.empty())
    b = b->src[0];
  return b && (b->op == K::BUFFER || b->op == K::PARAM) && isParamOfAddrspace(b, tg::AddrSpace::Reg);
}
} // namespace

codegen::Estimates codegen::estimatesFromUOps(sym::Context &ctx, llvm::ArrayRef<UOpRef> uops,
                                              llvm::ArrayRef<unsigned> lanes) {
  Sint s{ctx};
  UOpRef flops = s.lit(0), lds = s.lit(0), mults = s.lit(1);
  llvm::SmallVector<UOpRef, 8> multStack;
  llvm::MapVector<std::pair<UOpRef, K>, UOpRef> mem;
  // ignore_indexing: everything an INDEX's index math reaches (not through an END)
  llvm::DenseSet<UOpRef> excluded;
  for (UOpRef u : uops)
    if (u->op == K::INDEX || u->op == K::SHRINK)
      for (UOpRef i : u->src.drop_front())
        for (UOpRef x : sym::toposort(i, [](UOpRef y) { return y->op != K::END; }))
          excluded.insert(x);
  for (auto [u, n] : llvm::zip(uops, lanes)) {
    if (u->op == K::LOAD || u->op == K::STORE) {
      UOpRef buf = u;
      while (!buf->src.empty() && buf->op != K::PARAM)
        buf = buf->src[0];
      if (buf->op == K::PARAM && !u->src.empty()) {
        // u.src[0] is INDEX, cap at buffer size for re-reads (e.g. matmul)
        UOpRef idx = u->src[0];
        std::pair<UOpRef, K> key{buf, u->op};
        UOpRef prev = mem.count(key) ? mem[key] : s.lit(0);
        // (the INDEX is as wide as the access)
        UOpRef accessed = s.add(prev, s.mul(s.lit((__int128)n * itemsize(idx->dtype)), mults));
        const Scalar &numel = buf->src.empty() ? Scalar::fromInt(1) : buf->src[0]->vmax();
        mem[key] = numel.isInt() ? s.min(accessed, s.lit(numel.i * itemsize(buf->dtype))) : accessed;
      }
    }
    if (u->op == K::RANGE) {
      multStack.push_back(mults);
      if (u->dtype != DType::Void) {
        mults = s.mul(mults, u->src[0]);
        // A loop bound that names a launch id: the SPECIALs are counted in
        // mults already, so they are 0 there (tinygrad's from_uops).
        llvm::DenseMap<UOpRef, UOpRef> specials;
        for (UOpRef x : sym::toposort(mults))
          if (x->op == K::SPECIAL)
            specials[x] = ctx.constLike(x, Scalar::fromInt(0));
        if (!specials.empty())
          mults = sym::substitute(ctx, mults, specials);
      }
    } else if (u->op == K::SPECIAL) {
      // A GPU launch id: every access and op below it runs once per id
      // (not pushed: a launch dimension never ends).
      mults = s.mul(mults, u->src[0]);
    } else if (u->op == K::END) {
      if (!multStack.empty())
        mults = multStack.pop_back_val();
    } else if (u->op == K::PARAM && isParamOfAddrspace(u, tg::AddrSpace::ALU) && u->param().name == "core_id") {
      if (u->vmax().isInt())
        mults = s.mul(mults, s.lit(u->vmax().i + 1));
    } else if (u->op == K::LOAD && !inRegisters(u)) {
      lds = s.add(lds, s.mul(s.lit((__int128)n * itemsize(u->dtype)), mults));
    } else if (u->op == K::STORE && !inRegisters(u) && u->src.size() > 1) {
      lds = s.add(lds, s.mul(s.lit((__int128)n * itemsize(u->src[1]->dtype)), mults));
    } else if (sym::isALU(u->op) && !excluded.count(u)) {
      flops = s.add(flops, s.mul(s.mul(mults, s.lit(aluOps(u->op))), s.lit(n)));
    }
  }
  UOpRef total = s.lit(0);
  for (auto &kv : mem)
    total = s.add(total, kv.second);
  auto simplify = [&](UOpRef x) {
    UOpRef r = s.isInt(x) ? x : sym::graphRewrite(ctx, x, sym::symbolic());
    return r ? r : x;
  };
  return {simplify(flops), simplify(lds), simplify(total)};
}
