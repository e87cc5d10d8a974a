//===- SignExtendByShifts.cpp - tg-gpu-sign-extend-by-shifts ---------------===//
//
// arith.extsi as zext, shl, shrsi (why: GPUPasses.td).
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
struct GPUSignExtendByShifts : mlir::tinygrad::impl::GPUSignExtendByShiftsBase<GPUSignExtendByShifts> {
  void runOnOperation() override {
    SmallVector<arith::ExtSIOp> exts;
    getOperation().walk([&](arith::ExtSIOp op) { exts.push_back(op); });
    for (arith::ExtSIOp op : exts) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Type to = op.getType();
      unsigned n = getElementTypeOrSelf(op.getIn().getType()).getIntOrFloatBitWidth();
      unsigned m = getElementTypeOrSelf(to).getIntOrFloatBitWidth();
      Value shift = arith::ConstantOp::create(b, loc, b.getIntegerAttr(getElementTypeOrSelf(to), m - n));
      if (auto vt = dyn_cast<VectorType>(to))
        shift = arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, b.getIntegerAttr(vt.getElementType(), m - n)));
      Value z = arith::ExtUIOp::create(b, loc, to, op.getIn());
      Value r = arith::ShRSIOp::create(b, loc, arith::ShLIOp::create(b, loc, z, shift), shift);
      op.replaceAllUsesWith(r);
      op.erase();
    }
  }
};
} // namespace
