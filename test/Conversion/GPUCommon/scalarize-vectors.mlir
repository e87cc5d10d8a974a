// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-scalarize-vectors)))' | FileCheck %s

// Vectors of any width become their lanes: a constant, a broadcast, an
// elementwise op per lane, a shuffle, an extract, and an scf.if whose
// result is a vector (its yields give lanes).
// CHECK-LABEL: gpu.func @lanes
// CHECK-NOT: vector<
// CHECK: %[[A:.*]] = arith.addf %arg0, %arg1 : f32
// CHECK: %[[B:.*]] = arith.addf %arg0, %arg2 : f32
// CHECK: %[[IF:.*]]:7 = scf.if %arg3 -> (f32, f32, f32, f32, f32, f32, f32) {
// CHECK: scf.yield %[[A]], %[[B]], {{.*}} : f32, f32, f32, f32, f32, f32, f32
// CHECK: } else {
// CHECK: scf.yield %arg0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0 :
// CHECK: memref.store %[[IF]]#1, %arg4
// CHECK: memref.store %[[IF]]#0, %arg4
gpu.module @m {
  gpu.func @lanes(%x: f32, %y: f32, %z: f32, %c: i1, %out: memref<4xf32>) kernel {
    %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<7xf32>
    %b = vector.broadcast %x : f32 to vector<7xf32>
    %e = vector.from_elements %y, %z, %y, %z, %y, %z, %y : vector<7xf32>
    %s = arith.addf %b, %e : vector<7xf32>
    %r = scf.if %c -> (vector<7xf32>) {
      scf.yield %s : vector<7xf32>
    } else {
      scf.yield %b : vector<7xf32>
    }
    %sh = vector.shuffle %r, %cst [1, 0] : vector<7xf32>, vector<7xf32>
    %l0 = vector.extract %sh[0] : f32 from vector<2xf32>
    %l1 = vector.extract %sh[1] : f32 from vector<2xf32>
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    memref.store %l0, %out[%i0] : memref<4xf32>
    memref.store %l1, %out[%i1] : memref<4xf32>
    gpu.return
  }
}

// -----

// An op on vectors with no scalar form here is an error at the op.
gpu.module @m {
  gpu.func @reduction(%v: vector<8xf32>, %out: memref<1xf32>) kernel {
    // expected-error @+1 {{tg-gpu-scalarize-vectors: an operand's lanes are unknown}}
    %r = vector.reduction <add>, %v : vector<8xf32> into f32
    %i0 = arith.constant 0 : index
    memref.store %r, %out[%i0] : memref<1xf32>
    gpu.return
  }
}
