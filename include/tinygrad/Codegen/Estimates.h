//===- Estimates.h - tinygrad's Estimates of a linearized kernel -*- C++ -*-===//
//
// tinygrad/renderer/__init__.py Estimates.from_uops(ignore_indexing=True),
// which codegen's do_estimates runs on a program's LINEAR: the ALU ops,
// bytes loaded and stored, and bytes of each buffer touched (capped at its
// size). tinygrad reads them back from every compiled program
// (GlobalCounters, DEBUG=2, BEAM), so they are counted on the kernel as we
// compiled it (KernelSignature::linear), not on the AST we were given.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_ESTIMATES_H
#define TINYGRAD_CODEGEN_ESTIMATES_H

#include "tinygrad/Symbolic/UOp.h"

namespace mlir::tinygrad::codegen {

/// ops, lds, mem as weakint expressions (CONSTs unless a loop bound is a
/// variable), simplified.
struct Estimates {
  sym::UOpRef ops = nullptr, lds = nullptr, mem = nullptr;
};

/// Estimates.from_uops over `uops` (a program in linear order; `lanes[i]`
/// is the vector width of uops[i], what tinygrad's devectorized program has
/// as that many scalar ops): RANGE multiplies the trip count until its END,
/// the core_id variable by the thread count, an ALU op not in an INDEX's
/// index math counts lanes x trips (MULACC twice,
/// THREEFRY as the 123 ops of its decomposition), a LOAD/STORE not in REG
/// memory lanes x itemsize x trips bytes, and per PARAM buffer and
/// direction the bytes accessed, at most the buffer's size.
Estimates estimatesFromUOps(sym::Context &ctx, llvm::ArrayRef<sym::UOpRef> uops, llvm::ArrayRef<unsigned> lanes);

} // namespace mlir::tinygrad::codegen

#endif
