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

def GPUCheckLimits : Pass<"tg-gpu-check-limits", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Kernels within the target's threads and workgroup memory";
  let description = [{
    A kernel whose `known_block_size` asks for more threads than the target
    runs in a workgroup (per dimension or in all), or whose workgroup
    attributions need more memory than a workgroup has, is an error naming
    the target and the limit here, before any binary exists: otherwise
    ptxas would refuse it much later, or the driver at launch, or (on some
    stacks) it would run wrong. The limits come from the target description
    (`GPUToNVVMOptions`/`GPUToROCDLOptions::forTarget`).
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"gpu\"", "the target's name, for messages">,
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"1024", "threads per workgroup">,
    Option<"maxX", "max-x", "int64_t", /*default=*/"1024", "threads per workgroup in x">,
    Option<"maxY", "max-y", "int64_t", /*default=*/"1024", "threads per workgroup in y">,
    Option<"maxZ", "max-z", "int64_t", /*default=*/"64", "threads per workgroup in z">,
    Option<"sharedBytes", "shared-bytes", "int64_t", /*default=*/"49152", "workgroup memory bytes">
  ];
}

#endif
