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

// An index_cast is a sign extension once index has its SPIR-V width (32):
// index -> i64 (a loop's induction variable, as the emitter widens it) is
// cast to i32, the identity there, then extended by the shifts, so that no
// OpSConvert reaches lavapipe (test_ops' masked_select read the element
// before its own). Without index-bitwidth, index_cast is left alone.
// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-sign-extend-by-shifts{index-bitwidth=32})))' | FileCheck %s --check-prefix=IDX
// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-sign-extend-by-shifts)))' | FileCheck %s --check-prefix=NOIDX
// IDX-LABEL: gpu.func @index_to_i64
// IDX: %[[N:.*]] = arith.index_cast %{{.*}} : index to i32
// IDX: %[[Z:.*]] = arith.extui %[[N]] : i32 to i64
// IDX: %[[L:.*]] = arith.shli %[[Z]]
// IDX: %[[R:.*]] = arith.shrsi %[[L]]
// IDX: arith.cmpi sgt, %[[R]]
// IDX-LABEL: gpu.func @i16_to_index
// IDX: %[[Z:.*]] = arith.extui %arg0 : i16 to i32
// IDX: %[[R:.*]] = arith.shrsi
// IDX: arith.index_cast %[[R]] : i32 to index
// IDX-LABEL: gpu.func @i64_to_index
// IDX-NEXT: arith.index_cast %arg0 : i64 to index
// NOIDX-LABEL: gpu.func @index_to_i64
// NOIDX: arith.index_cast %{{.*}} : index to i64
gpu.module @casts {
  gpu.func @index_to_i64(%out: memref<1xi1>) kernel {
    %c0 = arith.constant 0 : index
    %c112 = arith.constant 112 : index
    %c1 = arith.constant 1 : index
    %c110 = arith.constant 110 : i64
    scf.for %i = %c0 to %c112 step %c1 {
      %w = arith.index_cast %i : index to i64
      %g = arith.cmpi sgt, %w, %c110 : i64
      memref.store %g, %out[%c0] : memref<1xi1>
    }
    gpu.return
  }
  gpu.func @i16_to_index(%x: i16, %out: memref<4xf32>) kernel {
    %i = arith.index_cast %x : i16 to index
    %f = arith.constant 1.0 : f32
    memref.store %f, %out[%i] : memref<4xf32>
    gpu.return
  }
  gpu.func @i64_to_index(%x: i64, %out: memref<4xf32>) kernel {
    %i = arith.index_cast %x : i64 to index
    %f = arith.constant 1.0 : f32
    memref.store %f, %out[%i] : memref<4xf32>
    gpu.return
  }
}
