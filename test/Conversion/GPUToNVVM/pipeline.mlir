// tg-gpu-to-nvvm: a kernel's gpu.module in upstream dialects to NVVM + llvm.
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/add.mlir --tg-gpu-to-nvvm=chip=sm_80 | FileCheck %s --check-prefix=ADD
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/reduce.mlir --tg-gpu-to-nvvm | FileCheck %s --check-prefix=REDUCE
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/math.mlir --tg-gpu-to-nvvm | FileCheck %s --check-prefix=MATH
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/alloc.mlir --tg-gpu-to-nvvm | FileCheck %s --check-prefix=ALLOC
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/add.mlir --tg-gpu-to-nvvm="index-bitwidth=64" | FileCheck %s --check-prefix=I64

// The chip goes into the #nvvm.target the serialization reads; buffers are
// bare pointers, then the scalar; block_dim is folded to known_block_size
// (64), ids are i32 (index-bitwidth=32), no scf is left.
// ADD: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_80">]
// ADD: llvm.func @add(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// ADD-SAME: nvvm.kernel
// ADD-SAME: nvvm.maxntid = array<i32: 64, 1, 1>
// ADD-DAG: llvm.mlir.constant(64 : index) : i32
// ADD-DAG: nvvm.read.ptx.sreg.ctaid.x : i32
// ADD-DAG: nvvm.read.ptx.sreg.tid.x
// ADD-NOT: ntid
// ADD-NOT: scf.
// ADD: llvm.cond_br

// Workgroup attributions become a .shared global; gpu.barrier bar.sync.
// REDUCE: llvm.mlir.global internal @__wg_reduce_0() {addr_space = 3 : i32} : !llvm.array<64 x f32>
// REDUCE: nvvm.barrier0

// Math is libdevice calls (linked at serialization); sqrt too.
// MATH-DAG: llvm.func @__nv_exp2f(f32) -> f32
// MATH-DAG: llvm.func @__nv_log2f(f32) -> f32
// MATH-DAG: llvm.func @__nv_sinf(f32) -> f32
// MATH-DAG: llvm.func @__nv_sqrtf(f32) -> f32
// MATH: llvm.fdiv
// MATH-NOT: math.

// The SPIR-V form of workgroup memory (memref.alloc in the workgroup
// space) is moved to an attribution: .shared, never a malloc call.
// ALLOC: llvm.mlir.global internal @__wg_alloc_0() {addr_space = 3 : i32} : !llvm.array<32 x f32>
// ALLOC-NOT: malloc
// ALLOC-NOT: memref.

// I64: llvm.func @add({{.*}}%{{.*}}: i32)
// I64: llvm.getelementptr {{.*}} : (!llvm.ptr, i64) -> !llvm.ptr, f32
