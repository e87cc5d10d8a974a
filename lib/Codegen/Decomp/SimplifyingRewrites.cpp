//===- SimplifyingRewrites.cpp - tinygrad's "early decompositions" --------===//
//
// get_simplifying_rewrite_patterns (tinygrad/codegen/decomp/op.py) with
// symbolic_simple, as tinygrad's "early decompositions" rewrite runs them.
// Of that list only THREEFRY changes what a kernel computes in: no target
// has the op, and threefry2x32 computes it in 32-bit halves, so the 64-bit
// packing around it (Tensor.rand's counter and key, the halves taken from
// its result) folds away under symbolic_simple and the kernel is 32-bit
// code, loop-invariant key schedule included (test_randomness'
// test_threefry_doesnt_use_long). Its FLOORDIV/FLOORMOD/MAX rules give the
// values the emitter's own lowering of those ops gives; they are not
// repeated here.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/Decompositions.h"

namespace mlir::tinygrad::decomp {
using sym::Op;
using sym::UOpRef;
using namespace sym::pat;
namespace n = sym::pat::names;

/// threefry2x32(x, key): Threefry-2x32 with 20 rounds on the two 32-bit
/// halves of x, keyed by key's halves; the result packed back to 64 bits.
static UOpRef threefry2x32(sym::Context &ctx, UOpRef x, UOpRef key) {
  auto u32 = [&](uint32_t c) { return ctx.cnst(Scalar::fromInt(c), DType::UInt32); };
  auto u64 = [&](uint64_t c) { return ctx.cnst(Scalar::fromInt(c), DType::UInt64); };
  auto op = [&](Op o, UOpRef a, UOpRef b) { return ctx.alu(o, {a, b}); };
  auto lo = [&](UOpRef v) { return ctx.cast(v, DType::UInt32); };
  auto hi = [&](UOpRef v) { return ctx.cast(op(Op::SHR, v, u64(32)), DType::UInt32); };
  UOpRef x0 = lo(x), x1 = hi(x), key0 = lo(key), key1 = hi(key);
  const int rotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  UOpRef ks[3] = {key1, op(Op::XOR, op(Op::XOR, key0, key1), u32(0x1BD11BDA)), key0};
  UOpRef xr[2] = {op(Op::ADD, x0, ks[2]), op(Op::ADD, x1, ks[0])};
  for (int i = 0; i < 5; ++i) {
    for (int r : rotations[i % 2]) {
      UOpRef sum = op(Op::ADD, xr[0], xr[1]);
      UOpRef rotl = op(Op::ADD, op(Op::SHL, xr[1], u32(r)), op(Op::SHR, xr[1], u32(32 - r)));
      xr[1] = op(Op::XOR, sum, rotl);
      xr[0] = sum;
    }
    xr[0] = op(Op::ADD, xr[0], ks[i % 3]);
    xr[1] = op(Op::ADD, op(Op::ADD, xr[1], ks[(i + 1) % 3]), u32(i + 1));
  }
  return op(Op::OR, op(Op::SHL, ctx.cast(xr[1], DType::UInt64), u64(32)), ctx.cast(xr[0], DType::UInt64));
}

std::vector<sym::pat::Rule> simplifyingRewriteRules() {
  return {
      // no real hardware supports THREEFRY
      {"threefry2x32", up(Op::THREEFRY, {var(n::x), var(n::y)}, Name::None, DTypeSet{DType::UInt64}),
       [](Match &m) { return threefry2x32(m.ctx, m[n::x], m[n::y]); }},
  };
}

const sym::PatternMatcher &earlyDecompositionPatterns() {
  static const sym::PatternMatcher pm = sym::symbolicSimple() + sym::PatternMatcher(simplifyingRewriteRules());
  return pm;
}

} // namespace mlir::tinygrad::decomp
