//===- GPUPasses.td - passes of the NVVM/ROCDL conversions --*- tablegen -*-===//
#ifndef TINYGRAD_CONVERSION_GPUPASSES_TD
#define TINYGRAD_CONVERSION_GPUPASSES_TD

include "mlir/Pass/PassBase.td"

def GPUWorkgroupAttributions
    : Pass<"tg-gpu-workgroup-attributions", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Workgroup-memory allocations to gpu.func workgroup attributions";
  let description = [{
    Upstream's conversions to NVVM and ROCDL lower workgroup memory only in
    the form of `gpu.func workgroup(...)` attributions. A
    `memref.alloc() : memref<..., #gpu.address_space<workgroup>>` (the form
    SPIR-V needs) would become a per-thread `malloc` call, and a workgroup
    `memref.alloca` private memory, both silently wrong. This pass rewrites
    every statically shaped workgroup `memref.alloc`/`memref.alloca` in the
    entry block of a kernel into a workgroup attribution of the function
    (and drops its `memref.dealloc`), so the conversions get the form they
    lower. A workgroup allocation it cannot move (dynamic shape, inside a
    loop or branch, in a non-kernel function) is an error at the
    allocation, never left to be miscompiled.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect"];
}

#endif
