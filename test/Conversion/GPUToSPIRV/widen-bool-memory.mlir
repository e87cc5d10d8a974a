// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-widen-bool-memory)))' --split-input-file --verify-diagnostics | FileCheck %s

// A bool accumulator in private memory, and one in workgroup memory, hold
// i32 words: stores zero-extend, loads truncate.
// CHECK-LABEL: gpu.func @acc
// CHECK: %[[P:.*]] = memref.alloca() : memref<4xi32, #spirv.storage_class<Function>>
// CHECK: %[[W:.*]] = memref.alloc() : memref<8xi32, #spirv.storage_class<Workgroup>>
// CHECK: %[[E:.*]] = arith.extui %arg0 : i1 to i32
// CHECK: memref.store %[[E]], %[[P]]
// CHECK: %[[L:.*]] = memref.load %[[P]][%{{.*}}] : memref<4xi32, #spirv.storage_class<Function>>
// CHECK: %[[T:.*]] = arith.trunci %[[L]] : i32 to i1
// CHECK: arith.extui %[[T]] : i1 to i32
// CHECK: memref.store %{{.*}}, %[[W]]
gpu.module @m {
  gpu.func @acc(%b: i1, %out: memref<?xi32>) kernel {
    %i0 = arith.constant 0 : index
    %p = memref.alloca() : memref<4xi1, #spirv.storage_class<Function>>
    %w = memref.alloc() : memref<8xi1, #spirv.storage_class<Workgroup>>
    memref.store %b, %p[%i0] : memref<4xi1, #spirv.storage_class<Function>>
    %l = memref.load %p[%i0] : memref<4xi1, #spirv.storage_class<Function>>
    memref.store %l, %w[%i0] : memref<8xi1, #spirv.storage_class<Workgroup>>
    %e = arith.extui %l : i1 to i32
    memref.store %e, %out[%i0] : memref<?xi32>
    gpu.return
  }
}

// -----

// Any other use is an error at the allocation.
gpu.module @m {
  gpu.func @viewed(%out: memref<?xi32>) kernel {
    // expected-error @+1 {{a memref of i1 used by 'memref.cast', which tg-gpu-widen-bool-memory cannot widen to i32}}
    %p = memref.alloca() : memref<4xi1, #spirv.storage_class<Function>>
    %c = memref.cast %p : memref<4xi1, #spirv.storage_class<Function>> to memref<?xi1, #spirv.storage_class<Function>>
    gpu.return
  }
}
