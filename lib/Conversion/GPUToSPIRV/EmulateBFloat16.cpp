//===- EmulateBFloat16.cpp - tg-gpu-emulate-bfloat16 -----------------------===//
//
// bfloat16 as its 16 bits in an i16, with tinygrad's manual casts (why:
// GPUPasses.td).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPUEMULATEBFLOAT16
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {

bool isBF16(Type t) { return getElementTypeOrSelf(t).isBF16(); }

/// `t` with bf16 (as a scalar, or the element of a memref or vector) as i16.
Type asBits(Type t) {
  Type i16 = IntegerType::get(t.getContext(), 16);
  if (auto m = dyn_cast<MemRefType>(t))
    return m.getElementType().isBF16() ? MemRefType::get(m.getShape(), i16, m.getLayout(), m.getMemorySpace()) : t;
  if (auto v = dyn_cast<VectorType>(t))
    return v.getElementType().isBF16() ? v.clone(i16) : t;
  return t.isBF16() ? i16 : t;
}

/// A constant of `like`'s shape (scalar or vector) of integer type `t`.
Value intConst(OpBuilder &b, Location loc, Value like, IntegerType t, uint64_t v) {
  TypedAttr a = b.getIntegerAttr(t, APInt(t.getWidth(), v));
  if (auto vt = dyn_cast<VectorType>(like.getType()))
    return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt.clone(t), a));
  return arith::ConstantOp::create(b, loc, a);
}

Type sameShape(Type like, Type elem) {
  if (auto vt = dyn_cast<VectorType>(like))
    return vt.clone(elem);
  return elem;
}

/// tinygrad's cast_float_to_bf16 (renderer/cstyle.py) on f32 `x`: round to
/// nearest even, a NaN kept a NaN; the 16 bits as an i16.
Value floatToBits(OpBuilder &b, Location loc, Value x) {
  IntegerType i32 = b.getI32Type(), i16 = b.getIntegerType(16);
  auto c = [&](uint64_t v) { return intConst(b, loc, x, i32, v); };
  Value u = arith::BitcastOp::create(b, loc, sameShape(x.getType(), i32), x);
  Value neg = arith::SubIOp::create(b, loc, c(0), u);
  Value finite = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                       arith::AndIOp::create(b, loc, neg, c(0x7f800000)), c(0));
  Value odd = arith::AndIOp::create(b, loc, arith::ShRUIOp::create(b, loc, u, c(16)), c(1));
  Value rounded = arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, u, odd), c(0x7fff));
  Value lowSet = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, arith::AndIOp::create(b, loc, u, c(0xffff)),
                                       c(0));
  Value quiet = arith::SelectOp::create(b, loc, lowSet, arith::OrIOp::create(b, loc, u, c(0x10000)), u);
  Value r = arith::SelectOp::create(b, loc, finite, rounded, quiet);
  return arith::TruncIOp::create(b, loc, sameShape(x.getType(), i16), arith::ShRUIOp::create(b, loc, r, c(16)));
}

/// The f32 whose top 16 bits are `bits` (tinygrad's bf16 -> float cast).
Value bitsToFloat(OpBuilder &b, Location loc, Value bits) {
  IntegerType i32 = b.getI32Type();
  Value w = arith::ExtUIOp::create(b, loc, sameShape(bits.getType(), i32), bits);
  Value s = arith::ShLIOp::create(b, loc, w, intConst(b, loc, w, i32, 16));
  return arith::BitcastOp::create(b, loc, sameShape(bits.getType(), b.getF32Type()), s);
}

struct GPUEmulateBFloat16 : mlir::tinygrad::impl::GPUEmulateBFloat16Base<GPUEmulateBFloat16> {
  void runOnOperation() override {
    gpu::GPUFuncOp fn = getOperation();
    // 1. Casts to and from bfloat16 become integer code on the bits, through
    //    f32 (their bf16 side still typed bf16 until step 3).
    SmallVector<Operation *> casts;
    fn.walk([&](Operation *op) {
      if ((isa<arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp, arith::ConstantOp>(op) &&
           isBF16(op->getResult(0).getType())) ||
          (isa<arith::ExtFOp, arith::FPToSIOp, arith::FPToUIOp>(op) && isBF16(op->getOperand(0).getType())))
        casts.push_back(op);
    });
    for (Operation *op : casts) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Type result = op->getResult(0).getType();
      Value r;
      if (isa<arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(op)) {
        // To bfloat16 through f32, as tinygrad's casts (x.cast(float).cast(bf16)).
        Value in = op->getOperand(0);
        Type f32 = sameShape(in.getType(), b.getF32Type());
        Value f = in;
        if (isa<arith::SIToFPOp>(op))
          f = arith::SIToFPOp::create(b, loc, f32, in);
        else if (isa<arith::UIToFPOp>(op))
          f = arith::UIToFPOp::create(b, loc, f32, in);
        else if (!getElementTypeOrSelf(in.getType()).isF32())
          f = getElementTypeOrSelf(in.getType()).getIntOrFloatBitWidth() > 32
                  ? arith::TruncFOp::create(b, loc, f32, in).getResult()
                  : arith::ExtFOp::create(b, loc, f32, in).getResult();
        r = floatToBits(b, loc, f);
      } else if (isa<arith::ExtFOp, arith::FPToSIOp, arith::FPToUIOp>(op)) {
        // From bfloat16 through f32.
        Value f = bitsToFloat(b, loc, op->getOperand(0));
        Type to = getElementTypeOrSelf(result);
        if (isa<arith::FPToSIOp>(op))
          r = arith::FPToSIOp::create(b, loc, result, f);
        else if (isa<arith::FPToUIOp>(op))
          r = arith::FPToUIOp::create(b, loc, result, f);
        else
          r = to.isF32() ? f : arith::ExtFOp::create(b, loc, result, f).getResult();
      } else {
        auto c = cast<arith::ConstantOp>(op);
        TypedAttr bits;
        if (auto f = dyn_cast<FloatAttr>(c.getValue()))
          bits = b.getIntegerAttr(b.getIntegerType(16), f.getValue().bitcastToAPInt());
        else if (auto d = dyn_cast<DenseFPElementsAttr>(c.getValue()))
          bits = d.bitcast(b.getIntegerType(16));
        if (!bits) {
          op->emitError("tg-gpu-emulate-bfloat16: a bfloat16 constant it cannot read");
          return signalPassFailure();
        }
        r = arith::ConstantOp::create(b, loc, bits);
      }
      // Until step 3 the new bits stand in for a bf16 value.
      if (isBF16(result))
        r.setType(result);
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    }
    // 2. What is left may only move bf16 bits (memory, selects, loops,
    //    bitcasts, the casts' own integer ops): anything computing in it is
    //    an error, never retyped into different arithmetic.
    WalkResult w = fn.walk([&](Operation *op) {
      bool has = llvm::any_of(op->getOperandTypes(), isBF16) || llvm::any_of(op->getResultTypes(), isBF16);
      if (has && !isa<memref::LoadOp, memref::StoreOp, memref::AllocaOp, memref::AllocOp, arith::SelectOp,
                      arith::BitcastOp, arith::TruncIOp, arith::ExtUIOp, arith::ConstantOp, scf::ForOp, scf::IfOp,
                      scf::WhileOp, scf::YieldOp, scf::ConditionOp>(op)) {
        op->emitError("tg-gpu-emulate-bfloat16: '")
            << op->getName() << "' computes in bfloat16, which has no SPIR-V arithmetic (the emitter computes it "
                                "in f32)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (w.wasInterrupted())
      return signalPassFailure();
    // 3. Every bf16 value (arguments, memory, loop-carried values, selects,
    //    bitcasts) is retyped to its bits.
    for (BlockArgument a : fn.getArguments())
      a.setType(asBits(a.getType()));
    fn.walk([&](Operation *op) {
      for (Region &r : op->getRegions())
        for (Block &blk : r)
          for (BlockArgument a : blk.getArguments())
            a.setType(asBits(a.getType()));
      for (OpResult res : op->getResults())
        res.setType(asBits(res.getType()));
      if (auto bc = dyn_cast<arith::BitcastOp>(op))
        if (bc.getIn().getType() == bc.getType()) // bf16 <-> i16: now the bits themselves
          bc.getResult().replaceAllUsesWith(bc.getIn());
    });
    // Bitcasts made identities by the retyping are gone.
    fn.walk([](arith::BitcastOp bc) {
      if (bc.getIn().getType() == bc.getType() && bc.use_empty())
        bc.erase();
    });
    SmallVector<Type> args;
    for (BlockArgument a : fn.getArguments())
      args.push_back(a.getType());
    fn.setFunctionType(FunctionType::get(&getContext(), args, fn.getFunctionType().getResults()));
  }
};

} // namespace
