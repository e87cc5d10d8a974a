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

def GPUScalarizeVectors : Pass<"tg-gpu-scalarize-vectors", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Every vector value of a kernel as its scalar lanes";
  let description = [{
    The kernel emitter gives a node with n lanes one `vector<n x T>` value.
    SPIR-V for Vulkan has vectors of 2, 3 and 4 lanes only (wider ones need
    the Vector16 capability and still not 12 or 32 lanes), and a GPU thread
    computes lanes one after another anyway. This pass rewrites every
    vector value into its lanes: elementwise arith/math ops one op per
    lane, `arith.constant` dense vectors, `vector.broadcast`,
    `vector.from_elements`, `vector.extract`/`insert` at constant
    positions, `vector.shuffle`, and `scf.if` results and yields. Any other
    op on a vector (a vector memory access, a reduction) is an error at the
    op, never left for the conversion to reject or miscompile.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUSignExtendByShifts : Pass<"tg-gpu-sign-extend-by-shifts", "::mlir::gpu::GPUFuncOp"> {
  let summary = "arith.extsi as a zero extension and two shifts";
  let description = [{
    Mesa's lavapipe (22.3, the Vulkan device `make test` runs on) returns
    wrong values for SPIR-V's OpSConvert from a 32-bit to a 64-bit integer
    that convert-gpu-to-spirv emits for `arith.extsi`: the corpus kernel
    gather_dim1 read no element through its sign-extended index (all its
    gates false), and ran correctly with the same module where only that
    OpSConvert was an OpUConvert (measured by hand-editing the SPIR-V).
    This pass writes every `arith.extsi` of an N-bit to an M-bit integer as
    `(zext(x) << (M-N)) >>s (M-N)`, the same value through ops the device
    gets right.

    `arith.index_cast` is a sign extension too once `index` has its SPIR-V
    width (`index-bitwidth`, 32 in tg-gpu-to-spirv): `index -> i64` became
    the same OpSConvert, and lavapipe got it wrong where a loop's induction
    variable fed it (test_ops' masked_select on DEV=VULKAN, a 112-trip loop
    unrolled by tg-gpu-loop-budget into a chain of `i + sext(iv) > 110`:
    every output read the element before its own; correct with only that
    OpSConvert an OpUConvert, measured by hand-editing the SPIR-V). Such a
    cast becomes an index_cast to the index's own width (the identity) and
    the shifts; `iN -> index` with N narrower likewise. Part of
    tg-gpu-to-spirv only.
  }];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", /*default=*/"0",
           "the width `index` is lowered to (0: unknown; index_cast left alone)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GPULegalizeArithForSPIRV : Pass<"tg-gpu-legalize-arith-for-spirv", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Arith ops convert-arith-to-spirv has no pattern for, in ops it has";
  let description = [{
    convert-arith-to-spirv leaves `arith.floordivsi` and `arith.ceildivsi`
    unlegalized, and lowers integer arithmetic on `i1` to SPIR-V ops that
    take no booleans (OpIMul, OpIAdd, OpGL.UMax, ... on a bool: invalid
    IR), where tinygrad computes on bools (`all` is a MUL reduce of bools,
    bool MAX is `any`). This pass expands the floor and ceil divisions
    (upstream's arith expansion patterns) and rewrites each integer op on
    `i1` operands that SPIR-V has no bool form of (add, sub, mul, div, rem,
    min, max, shifts, signed comparisons) as the same op on `i32`: the
    operands zero-extended, or sign-extended for the signed ops (true is
    -1 as an i1), and the result truncated back to `i1`. and/or/xor,
    select and eq/ne/unsigned comparisons have bool forms and stay. A
    signed remainder becomes `a - (a / b) * b`: convert-arith-to-spirv's
    emulation of `arith.remsi` (OpUMod of the operands' absolute values,
    negated unless `a == abs(a)`) gave INT_MIN's remainder the wrong sign,
    abs(INT_MIN) being INT_MIN.
    Part of tg-gpu-to-spirv, before tg-gpu-sign-extend-by-shifts.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GPUEmulateBFloat16 : Pass<"tg-gpu-emulate-bfloat16", "::mlir::gpu::GPUFuncOp"> {
  let summary = "bfloat16 as its 16 bits in an i16, cast by integer code";
  let description = [{
    SPIR-V has no bfloat16 (without SPV_KHR_bfloat16, which lavapipe lacks):
    the SPIR-V type converter turned it into f32, so a BITCAST of a
    bfloat16 to a half became an invalid 32-to-16-bit OpBitcast
    (test_dtype's test_bitcast_bf16_from_cast) and a bf16 buffer was
    refused. tinygrad's renderers without the type do what this pass does
    (create_non_native_float_pats + pm_manual_bf16_cast): the emitter
    already computes bfloat16 ALUs in f32, rounding each result through the
    storage type; here the storage type becomes i16 (buffers, private and
    workgroup memory, loop-carried values), `arith.truncf` f32 -> bf16
    tinygrad's cast_float_to_bf16 on the bits (round to nearest even, a NaN
    kept a NaN) and `arith.extf` bf16 -> f32 the bits shifted into the top
    half of an f32. An op that would compute in bfloat16 itself is an
    error. Part of tg-gpu-to-spirv, first of its legalizations.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GPUWidenBoolMemory : Pass<"tg-gpu-widen-bool-memory", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Private and workgroup memrefs of i1 as memrefs of i32";
  let description = [{
    The SPIR-V type converter stores an `i1` memref element as an 8-bit
    integer, which needs the Int8 capability; without it a `memref.store`
    to a bool accumulator (a REDUCE of bools: `any`, `all`, scatter_reduce's
    masks) failed to legalize. Global buffers of bool are already bytes
    (the emitter's memory type); this pass rewrites every `memref.alloca`
    and `memref.alloc` of `i1` elements in the kernel to `i32` elements:
    each `memref.store` zero-extends its value and each `memref.load`
    truncates the word back to `i1`. Any other use of such a memref is an
    error at the allocation, never left to be miscompiled. Part of
    tg-gpu-to-spirv only.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def GPULoopBudget : Pass<"tg-gpu-loop-budget", "::mlir::gpu::GPUFuncOp"> {
  let summary = "Unroll loops until one thread's loop iterations fit the device's budget";
  let description = [{
    Mesa's lavapipe (llvmpipe's gallivm, the Vulkan device `make test` runs
    on) guards shaders against infinite loops with one counter per
    invocation, set to 65535 at entry and decremented at every loop
    iteration of every loop: once it reaches zero, every loop exits. A
    thread whose loops iterate more often in all silently computes with
    its remaining iterations skipped (measured: two nested 320-iteration
    loops counted 204 outer iterations, the budget spent; test_ops'
    masked_select, a triple reduce of 320 per thread, read index 0
    everywhere). The budget is the target description's
    `maxLoopIterations` (0: none). This pass counts one thread's iterations
    at most (every `scf.for`, its trip count times those of the loops
    around it; a loop whose bound is a variable's by the maximum the
    emitter recorded, `tg.max_trip_count`, tinygrad's vmax) and, while they
    exceed the budget, unrolls the innermost constant-trip loop that
    iterates most (completely when its unrolled body stays within 4096
    ops, else by the largest factor dividing its trip count that does). A
    kernel still over the budget, or with a loop nothing bounds (a
    do-while, a bound without a maximum), is an error naming the budget
    and the count, never left to run cut short.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "uint64_t", /*default=*/"65535",
           "loop iterations one invocation may run in all (0: no limit)">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"];
}

#endif
