//===- CheckLimits.cpp - kernels within the target's launch limits --------===//
//
// The target description's launch limits (threads per workgroup, per
// dimension and in all; workgroup memory) checked on each kernel before it
// is converted, so that a kernel the hardware cannot run is an error naming
// the target and the limit, not a ptxas or launch failure later.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"
#include "tinygrad/Target/TargetDescription.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPUCHECKLIMITS
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

GPUCheckLimitsOptions mlir::tinygrad::limitsOf(const TargetDescription &target) {
  GPUCheckLimitsOptions o;
  o.target = target.name;
  o.maxThreads = target.localProdMax;
  o.maxX = target.localMax[0];
  o.maxY = target.localMax[1];
  o.maxZ = target.localMax[2];
  o.sharedBytes = target.sharedMaxBytes;
  return o;
}

namespace {

struct GPUCheckLimits : mlir::tinygrad::impl::GPUCheckLimitsBase<GPUCheckLimits> {
  using GPUCheckLimitsBase::GPUCheckLimitsBase;
  void runOnOperation() override {
    gpu::GPUFuncOp func = getOperation();
    if (!func.isKernel())
      return;
    if (std::optional<ArrayRef<int32_t>> size = func.getKnownBlockSize()) {
      int64_t limits[3] = {maxX, maxY, maxZ}, threads = 1;
      for (auto [d, n] : llvm::enumerate(*size)) {
        threads *= n;
        if (d < 3 && n > limits[d]) {
          func.emitError() << "kernel @" << func.getName() << " asks for " << n << " threads in dimension "
                           << "xyz"[d] << ", " << target << " allows " << limits[d];
          return signalPassFailure();
        }
      }
      if (threads > maxThreads) {
        func.emitError() << "kernel @" << func.getName() << " asks for " << threads
                         << " threads per workgroup, " << target << " allows " << static_cast<int64_t>(maxThreads);
        return signalPassFailure();
      }
    }
    int64_t bytes = 0;
    for (BlockArgument buffer : func.getWorkgroupAttributions()) {
      auto type = cast<MemRefType>(buffer.getType());
      bytes += type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
    }
    if (bytes > sharedBytes) {
      func.emitError() << "kernel @" << func.getName() << " needs " << bytes << " bytes of workgroup memory, "
                       << target << " has " << static_cast<int64_t>(sharedBytes);
      return signalPassFailure();
    }
  }
};

} // namespace
