//===- SignExtendByShifts.cpp - tg-gpu-sign-extend-by-shifts ---------------===//
//
// Sign extensions to a wider integer as zext, shl, shrsi, including the
// ones an index_cast becomes once `index` has its SPIR-V width (why:
// GPUPasses.td).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPUSIGNEXTENDBYSHIFTS
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {

/// `x` (an N-bit integer, scalar or vector) sign-extended to `to` (M > N
/// bits) as `(zext(x) << (M-N)) >>s (M-N)`.
Value signExtendByShifts(OpBuilder &b, Location loc, Value x, Type to) {
  unsigned n = getElementTypeOrSelf(x.getType()).getIntOrFloatBitWidth();
  unsigned m = getElementTypeOrSelf(to).getIntOrFloatBitWidth();
  TypedAttr amount = b.getIntegerAttr(getElementTypeOrSelf(to), m - n);
  if (auto vt = dyn_cast<VectorType>(to))
    amount = DenseElementsAttr::get(vt, amount);
  Value shift = arith::ConstantOp::create(b, loc, amount);
  Value z = arith::ExtUIOp::create(b, loc, to, x);
  return arith::ShRSIOp::create(b, loc, arith::ShLIOp::create(b, loc, z, shift), shift);
}

/// `t` with its element type replaced by `elem` (scalar or vector).
Type withElementType(Type t, Type elem) {
  if (auto vt = dyn_cast<VectorType>(t))
    return vt.clone(elem);
  return elem;
}

struct GPUSignExtendByShifts : mlir::tinygrad::impl::GPUSignExtendByShiftsBase<GPUSignExtendByShifts> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::ExtSIOp, arith::IndexCastOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value in = op->getOperand(0), out = op->getResult(0);
      Type inElem = getElementTypeOrSelf(in.getType()), outElem = getElementTypeOrSelf(out.getType());
      Value r;
      if (isa<arith::ExtSIOp>(op)) {
        r = signExtendByShifts(b, loc, in, out.getType());
      } else if (indexBitwidth == 0) {
        continue;
      } else if (isa<IndexType>(inElem) && outElem.getIntOrFloatBitWidth() > indexBitwidth) {
        // index -> iM, M wider than index: index_cast to the index's own
        // width (the identity once index is that wide), then extended.
        Value narrow = arith::IndexCastOp::create(
            b, loc, withElementType(out.getType(), b.getIntegerType(indexBitwidth)), in);
        r = signExtendByShifts(b, loc, narrow, out.getType());
      } else if (isa<IndexType>(outElem) && !isa<IndexType>(inElem) &&
                 inElem.getIntOrFloatBitWidth() < indexBitwidth) {
        // iN -> index, N narrower than index: extended to the index's width
        // first, then index_cast (the identity).
        Value wide = signExtendByShifts(b, loc, in, withElementType(in.getType(), b.getIntegerType(indexBitwidth)));
        r = arith::IndexCastOp::create(b, loc, out.getType(), wide);
      } else {
        continue;
      }
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
  }
};
} // namespace
