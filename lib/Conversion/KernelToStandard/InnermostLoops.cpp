//===- InnermostLoops.cpp - innermost loops LLVM's loop vectorizer would widen -===//
//
// The kept-loops pipeline (cpu::kKeepLoopsAttr) trusts our vectors: it has
// no loop vectorizer. Opts that put the lanes on a strided axis only (a
// BEAM candidate upcasting rows of a row-major elementwise kernel, or
// tinygrad's own opts) leave the innermost loop walking a buffer one
// element per iteration, where clang -O2 widens tinygrad's C along it
// (layernorm 4096x1024's normalize kernel under THREAD and a 2-row
// upcast: 0.90 ms as our 2-lane loop, tinygrad's C 0.46 ms with 16
// columns a step). Such a kernel is scalarized and given O2 instead.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <optional>

namespace mlir::tinygrad::kernel_emitter {

/// How far `v` moves per step of `loop`'s induction variable, where the
/// index arithmetic says (casts, sums, products by constants); nullopt
/// where it does not.
static std::optional<int64_t> stepOf(Value v, scf::ForOp loop, int depth = 0) {
  if (v == loop.getInductionVar())
    return 1;
  if (depth > 16)
    return std::nullopt;
  if (loop.isDefinedOutsideOfLoop(v))
    return 0; // invariant in the loop
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt; // an iter_arg, or an argument of a region inside the loop
  if (isa<arith::IndexCastOp, arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp>(def))
    return stepOf(def->getOperand(0), loop, depth + 1);
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    auto a = stepOf(def->getOperand(0), loop, depth + 1), b = stepOf(def->getOperand(1), loop, depth + 1);
    if (!a || !b)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *a + *b : *a - *b;
  }
  if (isa<arith::MulIOp>(def)) {
    for (int i = 0; i < 2; ++i) {
      APInt c;
      if (matchPattern(def->getOperand(1 - i), m_ConstantInt(&c)))
        if (auto s = stepOf(def->getOperand(i), loop, depth + 1))
          return *s * c.getSExtValue();
    }
  }
  return std::nullopt;
}

static bool isAlloca(Value memref) { return memref.getDefiningOp<memref::AllocaOp>() != nullptr; }

bool innermostLoopsWalkContiguousScalars(FunctionOpInterface fn) {
  SmallVector<scf::ForOp> innermost;
  fn->walk([&](scf::ForOp loop) {
    bool nested = loop.getBody()->walk([](scf::ForOp) { return WalkResult::interrupt(); }).wasInterrupted();
    if (!nested)
      innermost.push_back(loop);
  });
  if (innermost.empty())
    return false;
  for (scf::ForOp loop : innermost) {
    bool contiguous = false, widenable = true;
    loop.getBody()->walk([&](Operation *op) {
      // our lanes already load or store vectors here: LLVM would not widen the loop
      if (isa<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp, vector::MaskedStoreOp, vector::GatherOp,
              vector::TransferReadOp, vector::TransferWriteOp>(op)) {
        widenable = false;
        return WalkResult::interrupt();
      }
      Value memref;
      ValueRange indices;
      if (auto l = dyn_cast<memref::LoadOp>(op))
        memref = l.getMemRef(), indices = l.getIndices();
      else if (auto s = dyn_cast<memref::StoreOp>(op))
        memref = s.getMemRef(), indices = s.getIndices();
      if (!memref)
        return WalkResult::advance();
      if (isAlloca(memref)) { // an accumulator (a reduction LLVM may not reassociate) or a register tile
        widenable = false;
        return WalkResult::interrupt();
      }
      if (auto s = indices.size() == 1 ? stepOf(indices[0], loop) : std::nullopt; s && *s == 1)
        contiguous = true;
      return WalkResult::advance();
    });
    if (!widenable || !contiguous)
      return false;
  }
  return true;
}

} // namespace mlir::tinygrad::kernel_emitter
