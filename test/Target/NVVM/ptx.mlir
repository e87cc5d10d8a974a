// --emit-ptx: in-process PTX through LLVM's NVPTX backend (no CUDA needed
// for kernels without math).
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm=chip=sm_80 | tinygrad-translate --emit-ptx | FileCheck %s --check-prefix=ADD80
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm=chip=sm_90 | tinygrad-translate --emit-ptx | FileCheck %s --check-prefix=ADD90
// RUN: tinygrad-opt %S/../GPU/Inputs/reduce.mlir --tg-gpu-to-nvvm | tinygrad-translate --emit-ptx | FileCheck %s --check-prefix=REDUCE
// RUN: tinygrad-opt %S/../GPU/Inputs/vec.mlir --tg-gpu-to-nvvm | tinygrad-translate --emit-ptx | FileCheck %s --check-prefix=VEC
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm="chip=sm_90 features=+ptx80" | tinygrad-translate --emit-ptx | FileCheck %s --check-prefix=PTX80

// The lowest PTX version each chip allows; the kernel's parameters in
// tinygrad's order (three pointers, then the int).
// ADD80: .version 7.0
// ADD80: .target sm_80
// ADD80: .visible .entry add(
// ADD80-NEXT: .param .u64 {{.*}}add_param_0,
// ADD80-NEXT: .param .u64 {{.*}}add_param_1,
// ADD80-NEXT: .param .u64 {{.*}}add_param_2,
// ADD80-NEXT: .param .u32 {{.*}}add_param_3
// ADD80: .maxntid 64, 1, 1
// ADD80: add.f32
// ADD90: .version 7.8
// ADD90: .target sm_90
// PTX80: .version 8.0

// REDUCE: .shared .align 4 .b8 __wg_reduce_0[256];
// REDUCE: st.shared
// REDUCE: bar.sync 0;
// REDUCE: ld.shared

// VEC: ld.global.v4.b32
// VEC: cvt.rn.f16x2.f32
// VEC: st.global.v2.b32
