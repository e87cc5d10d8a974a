// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-sign-extend-by-shifts)))' | FileCheck %s

// CHECK-LABEL: gpu.func @sext
// CHECK: %[[S:.*]] = arith.constant 32 : i64
// CHECK: %[[Z:.*]] = arith.extui %arg0 : i32 to i64
// CHECK: %[[L:.*]] = arith.shli %[[Z]], %[[S]] : i64
// CHECK: %[[R:.*]] = arith.shrsi %[[L]], %[[S]] : i64
// CHECK: memref.store %[[R]]
// CHECK-NOT: arith.extsi
gpu.module @m {
  gpu.func @sext(%x: i32, %out: memref<1xi64>) kernel {
    %e = arith.extsi %x : i32 to i64
    %i0 = arith.constant 0 : index
    memref.store %e, %out[%i0] : memref<1xi64>
    gpu.return
  }
}
