// Math through CUDA's libdevice, linked in-process, answered as nvcc's
// defaults: IEEE sqrt (sqrt.rn, not sqrt.approx) and division (div.rn).
// REQUIRES: cuda-toolkit
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-nvvm | tinygrad-translate --emit-ptx | FileCheck %s
// A missing libdevice is an error naming where it was looked for, never
// PTX with `.extern .func __nv_*` that only ptxas would reject:
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-nvvm | not tinygrad-translate --emit-ptx --cuda-path=%t.nonexistent 2>&1 | FileCheck %s --check-prefix=NOLIB
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-nvvm | env CUDA_PATH=%t.nonexistent not tinygrad-translate --emit-ptx 2>&1 | FileCheck %s --check-prefix=NOLIB

// CHECK-NOT: .extern
// CHECK: .visible .entry math(
// CHECK-DAG: ex2.approx.f32
// CHECK-DAG: sqrt.rn.f32
// CHECK-DAG: div.rn.f32
// CHECK-NOT: sqrt.approx
// CHECK-NOT: .extern
// NOLIB: error: the kernel calls CUDA math (__nv_*) but there is no libdevice at {{.*}}.nonexistent/nvvm/libdevice/libdevice.10.bc (set CUDA_PATH, or --cuda-path, to a CUDA toolkit)
