// tg-gpu-to-rocdl: a kernel's gpu.module in upstream dialects to ROCDL + llvm.
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/add.mlir --tg-gpu-to-rocdl=chip=gfx90a | FileCheck %s --check-prefix=ADD
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/reduce.mlir --tg-gpu-to-rocdl="chip=gfx1100 wave64=false" | FileCheck %s --check-prefix=REDUCE
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/math.mlir --tg-gpu-to-rocdl | FileCheck %s --check-prefix=MATH
// RUN: tinygrad-opt %S/../../Target/GPU/Inputs/alloc.mlir --tg-gpu-to-rocdl | FileCheck %s --check-prefix=ALLOC

// Code object v5 (abi 500), not MLIR's default v6; the launch bounds come
// from known_block_size; block_dim is folded (no __ockl_get_local_size,
// which would need the device library and COV5 hidden arguments).
// ADD: gpu.module @kernels [#rocdl.target<O = 3, chip = "gfx90a", abi = "500">]
// ADD: llvm.func @add(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// ADD-SAME: rocdl.flat_work_group_size = "64,64"
// ADD-SAME: rocdl.kernel
// ADD-SAME: rocdl.reqd_work_group_size = array<i32: 64, 1, 1>
// ADD-DAG: rocdl.workgroup.id.x : i32
// ADD-DAG: rocdl.workitem.id.x
// ADD-NOT: __ockl
// ADD-NOT: scf.

// RDNA: 32-wide waves; workgroup attributions are LDS (address space 3).
// REDUCE: #rocdl.target<O = 3, chip = "gfx1100", abi = "500", flags = {no_wave64}>
// REDUCE: llvm.mlir.global internal @__wg_reduce_0() {addr_space = 3 : i32} : !llvm.array<64 x f32>
// REDUCE: rocdl.barrier

// exp2/log2/sin are ocml calls; sqrt is LLVM's (correctly rounded) intrinsic.
// MATH-DAG: llvm.func @__ocml_exp2_f32(f32) -> f32
// MATH-DAG: llvm.func @__ocml_log2_f32(f32) -> f32
// MATH-DAG: llvm.func @__ocml_sin_f32(f32) -> f32
// MATH: llvm.intr.sqrt
// MATH-NOT: math.

// ALLOC: llvm.mlir.global internal @__wg_alloc_0() {addr_space = 3 : i32} : !llvm.array<32 x f32>
// ALLOC-NOT: malloc
