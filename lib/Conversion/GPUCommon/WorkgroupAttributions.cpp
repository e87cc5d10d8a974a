//===- WorkgroupAttributions.cpp - workgroup allocs to attributions -------===//
//
// NVVM and ROCDL lower workgroup memory only as gpu.func workgroup
// attributions; SPIR-V only as memref.alloc in the Workgroup space
// (docs/Design.md, "NVIDIA and AMD targets"). Kernels written (or emitted)
// in the SPIR-V form are moved to the attribution form here, so that the
// NVVM/ROCDL conversions never see an allocation they would miscompile.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPUWORKGROUPATTRIBUTIONS
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

namespace {

bool isWorkgroup(MemRefType type) {
  return gpu::GPUDialect::isWorkgroupMemoryAddressSpace(type.getMemorySpace());
}

struct GPUWorkgroupAttributions
    : mlir::tinygrad::impl::GPUWorkgroupAttributionsBase<GPUWorkgroupAttributions> {
  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    SmallVector<Operation *> allocs;
    func.walk([&](Operation *op) {
      if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
          isWorkgroup(cast<MemRefType>(op->getResult(0).getType())))
        allocs.push_back(op);
    });
    for (Operation *op : allocs) {
      auto type = cast<MemRefType>(op->getResult(0).getType());
      if (!func.isKernel()) {
        op->emitError("workgroup memory allocated outside a kernel (the NVVM/ROCDL conversions "
                      "lower it only as a kernel's workgroup attribution)");
        return signalPassFailure();
      }
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() || op->getNumOperands() != 0) {
        op->emitError("workgroup memory must have a static shape and identity layout to become "
                      "a workgroup attribution, got ")
            << type;
        return signalPassFailure();
      }
      if (op->getBlock() != &func.getBody().front()) {
        op->emitError("workgroup memory allocated inside a region: one buffer is shared by the "
                      "whole workgroup, allocate it at the top of the kernel");
        return signalPassFailure();
      }
      // (Collected first: erasing a user while walking the use list skips
      // or revisits uses.)
      SmallVector<Operation *> deallocs;
      for (Operation *user : op->getResult(0).getUsers())
        if (isa<memref::DeallocOp>(user))
          deallocs.push_back(user);
      for (Operation *dealloc : deallocs)
        dealloc->erase();
      BlockArgument buffer = func.addWorkgroupAttribution(type, op->getLoc());
      op->getResult(0).replaceAllUsesWith(buffer);
      op->erase();
    }
  }
};

} // namespace
