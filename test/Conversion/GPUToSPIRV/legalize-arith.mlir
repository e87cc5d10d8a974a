// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-legalize-arith-for-spirv)))' | FileCheck %s
// (tg-gpu-to-spirv runs it: bool-ops-to-spirv.mlir.)

// A bool MUL (tinygrad's `all`) and ADD compute in i32, zero-extended.
// CHECK-LABEL: gpu.func @bool_ops
// CHECK: %[[A:.*]] = arith.extui %arg0 : i1 to i32
// CHECK: %[[B:.*]] = arith.extui %arg1 : i1 to i32
// CHECK: %[[M:.*]] = arith.muli %[[A]], %[[B]] : i32
// CHECK: arith.trunci %[[M]] : i32 to i1
// CHECK: arith.addi %{{.*}}, %{{.*}} : i32
// Signed ops read true as -1: sign-extended.
// CHECK: %[[SA:.*]] = arith.extsi %arg0 : i1 to i32
// CHECK: %[[SB:.*]] = arith.extsi %arg1 : i1 to i32
// CHECK: arith.maxsi %[[SA]], %[[SB]] : i32
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// Bool forms SPIR-V has stay.
// CHECK: arith.andi %arg0, %arg1 : i1
// CHECK: arith.cmpi ult, %arg0, %arg1 : i1
// CHECK-NOT: arith.muli {{.*}} : i1
// A floor division is expanded.
// CHECK-LABEL: gpu.func @floordiv
// CHECK-NOT: arith.floordivsi
// CHECK: arith.divsi
// A signed remainder is a - (a / b) * b (upstream's emulation: INT_MIN's
// sign wrong); an unsigned one stays.
// CHECK-LABEL: gpu.func @remainders
// CHECK-NOT: arith.remsi
// CHECK: %[[Q:.*]] = arith.divsi %arg0, %arg1 : i64
// CHECK: %[[P:.*]] = arith.muli %[[Q]], %arg1 : i64
// CHECK: arith.subi %arg0, %[[P]] : i64
// CHECK: arith.remui %arg0, %arg1 : i64
gpu.module @m {
  gpu.func @bool_ops(%a: i1, %b: i1, %out: memref<?xi32>) kernel {
    %m = arith.muli %a, %b : i1
    %s = arith.addi %m, %b : i1
    %x = arith.maxsi %a, %b : i1
    %l = arith.cmpi slt, %a, %b : i1
    %n = arith.andi %a, %b : i1
    %u = arith.cmpi ult, %a, %b : i1
    %r0 = arith.xori %s, %x : i1
    %r1 = arith.xori %l, %n : i1
    %r2 = arith.xori %r0, %r1 : i1
    %r3 = arith.xori %r2, %u : i1
    %w = arith.extui %r3 : i1 to i32
    %i0 = arith.constant 0 : index
    memref.store %w, %out[%i0] : memref<?xi32>
    gpu.return
  }
  gpu.func @floordiv(%a: i32, %b: i32, %out: memref<?xi32>) kernel {
    %q = arith.floordivsi %a, %b : i32
    %i0 = arith.constant 0 : index
    memref.store %q, %out[%i0] : memref<?xi32>
    gpu.return
  }
  gpu.func @remainders(%a: i64, %b: i64, %out: memref<?xi64>) kernel {
    %r = arith.remsi %a, %b : i64
    %u = arith.remui %a, %b : i64
    %i0 = arith.constant 0 : index
    %i1 = arith.constant 1 : index
    memref.store %r, %out[%i0] : memref<?xi64>
    memref.store %u, %out[%i1] : memref<?xi64>
    gpu.return
  }
}
