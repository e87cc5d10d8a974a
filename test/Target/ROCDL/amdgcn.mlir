// --emit-amdgcn: the ISA the kernels become.
// REQUIRES: rocm-device-libs
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-rocdl=chip=gfx942 | tinygrad-translate --emit-amdgcn | FileCheck %s --check-prefix=MATH
// (64 threads are two waves of 32 on gfx1100; on a wave64 chip LLVM drops
// the barrier of a one-wave workgroup, which needs none.)
// RUN: tinygrad-opt %S/../GPU/Inputs/reduce.mlir --tg-gpu-to-rocdl="chip=gfx1100 wave64=false" | tinygrad-translate --emit-amdgcn | FileCheck %s --check-prefix=REDUCE
// RUN: tinygrad-opt %S/../GPU/Inputs/vec.mlir --tg-gpu-to-rocdl=chip=gfx942 | tinygrad-translate --emit-amdgcn | FileCheck %s --check-prefix=VEC

// ocml's exp2/log2 are the native instructions; sqrt and division are the
// correctly rounded sequences (no approximations), and no call is left.
// MATH: .amdgcn_target "amdgcn-amd-amdhsa--gfx942"
// MATH-NEXT: .amdhsa_code_object_version 5
// MATH-NOT: s_swappc
// MATH-DAG: v_exp_f32
// MATH-DAG: v_log_f32
// MATH-DAG: v_sqrt_f32
// MATH-DAG: v_div_fixup_f32
// MATH-NOT: s_swappc
// MATH: .amdhsa_kernel math

// REDUCE: ds_store_b32
// REDUCE: s_barrier
// REDUCE: ds_load
// REDUCE: .amdhsa_group_segment_fixed_size 256

// VEC: global_load_dwordx4
// VEC: v_cvt_f16_f32
