//===- WidenBoolMemory.cpp - tg-gpu-widen-bool-memory -----------------------===//
//
// Private and workgroup memrefs of i1 as memrefs of i32 (why: GPUPasses.td).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPUWIDENBOOLMEMORY
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {

struct GPUWidenBoolMemory : mlir::tinygrad::impl::GPUWidenBoolMemoryBase<GPUWidenBoolMemory> {
  void runOnOperation() override {
    SmallVector<Operation *> allocs;
    getOperation().walk([&](Operation *op) {
      if (isa<memref::AllocaOp, memref::AllocOp>(op) &&
          cast<MemRefType>(op->getResult(0).getType()).getElementType().isInteger(1))
        allocs.push_back(op);
    });
    for (Operation *op : allocs) {
      Value mem = op->getResult(0);
      for (Operation *user : mem.getUsers())
        if (!isa<memref::LoadOp, memref::StoreOp, memref::DeallocOp>(user) ||
            (isa<memref::StoreOp>(user) && cast<memref::StoreOp>(user).getValueToStore() == mem)) {
          op->emitError("a memref of i1 used by '") << user->getName() << "', which tg-gpu-widen-bool-memory "
                                                        "cannot widen to i32";
          return signalPassFailure();
        }
      auto mt = cast<MemRefType>(mem.getType());
      IntegerType word = IntegerType::get(&getContext(), 32);
      mem.setType(MemRefType::get(mt.getShape(), word, mt.getLayout(), mt.getMemorySpace()));
      for (Operation *user : llvm::make_early_inc_range(mem.getUsers())) {
        OpBuilder b(user);
        if (auto st = dyn_cast<memref::StoreOp>(user)) {
          st.getValueMutable().assign(arith::ExtUIOp::create(b, st.getLoc(), word, st.getValueToStore()));
        } else if (auto ld = dyn_cast<memref::LoadOp>(user)) {
          b.setInsertionPointAfter(ld);
          Value bit = ld.getResult();
          bit.setType(word);
          auto t = arith::TruncIOp::create(b, ld.getLoc(), b.getI1Type(), bit);
          bit.replaceAllUsesExcept(t, t);
        }
      }
    }
  }
};

} // namespace
