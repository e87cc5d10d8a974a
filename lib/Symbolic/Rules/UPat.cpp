//===- UPat.cpp - a small matcher with tinygrad's UPat semantics ----------===//
#include "UPat.h"

#include <algorithm>

namespace mlir::tinygrad::sym::rules::upat {
namespace {
bool argEq(const Scalar &want, const Scalar &have) { return py::eq(want, have); }


bool matchSeq(const P &p, UOpRef u, llvm::ArrayRef<unsigned> perm, size_t i,
              Binds &b, llvm::function_ref<bool()> k) {
  if (i == u->src.size())
    return k();
  const P &sp = p.kind == P::Repeat ? p.src[0] : p.src[perm[i]];
  return match(sp, u->src[i], b,
               [&] { return matchSeq(p, u, perm, i + 1, b, k); });
}

} // namespace

bool match(const P &p, UOpRef u, Binds &b, llvm::function_ref<bool()> k) {
  if (!p.ops.empty() && !llvm::is_contained(p.ops, u->op))
    return false;
  if (!p.dts.empty() && !llvm::is_contained(p.dts, u->dtype))
    return false;
  if (p.arg && !(u->op == Op::CONST && argEq(*p.arg, u->val())))
    return false;
  bool bound = false;
  if (p.name != kNone) {
    if (b[p.name]) {
      if (b[p.name] != u)
        return false;
    } else {
      b[p.name] = u;
      bound = true;
    }
  }
  bool res = false;
  switch (p.kind) {
  case P::AnySrc:
    res = k();
    break;
  case P::Repeat:
    res = matchSeq(p, u, {}, 0, b, k);
    break;
  case P::Tuple:
  case P::List: {
    if (u->src.size() != p.src.size())
      break;
    llvm::SmallVector<unsigned, 3> perm;
    for (unsigned i = 0; i < p.src.size(); ++i)
      perm.push_back(i);
    do {
      if ((res = matchSeq(p, u, perm, 0, b, k)))
        break;
    } while (p.kind == P::List && std::next_permutation(perm.begin(), perm.end()));
    break;
  }
  }
  if (bound)
    b[p.name] = nullptr;
  return res;
}


} // namespace mlir::tinygrad::sym::rules::upat
