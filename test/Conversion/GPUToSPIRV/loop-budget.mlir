// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-loop-budget{max-iterations=65535})))' --split-input-file --verify-diagnostics | FileCheck %s

// Two nested 320-iteration loops are 320 + 320*320 = 102720 iterations per
// thread, over lavapipe's 65535: the inner loop is unrolled (lavapipe ran
// only 204 outer iterations of this kernel before, its budget spent).
// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK-COUNT-320: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: gpu.return
gpu.module @m {
  gpu.func @nested(%out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c320 = arith.constant 320 : index
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %c320 step %c1 iter_args(%a = %z) -> i32 {
      %t = scf.for %j = %c0 to %c320 step %c1 iter_args(%b = %a) -> i32 {
        %v = arith.index_cast %j : index to i32
        %w = arith.addi %b, %v : i32
        scf.yield %w : i32
      }
      scf.yield %t : i32
    }
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// Within the budget: untouched.
// CHECK-LABEL: gpu.func @small
// CHECK: scf.for
// CHECK: scf.for
gpu.module @m {
  gpu.func @small(%out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c200 = arith.constant 200 : index
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %c200 step %c1 iter_args(%a = %z) -> i32 {
      %t = scf.for %j = %c0 to %c200 step %c1 iter_args(%b = %a) -> i32 {
        %v = arith.index_cast %j : index to i32
        %w = arith.addi %b, %v : i32
        scf.yield %w : i32
      }
      scf.yield %t : i32
    }
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// Over the budget with a loop no unrolling can shrink (its trip count is a
// runtime value): refused, never run wrong.
gpu.module @m {
  gpu.func @dynamic(%n: index, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c70000 = arith.constant 70000 : index
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %c70000 step %c1 iter_args(%a = %z) -> i32 {
      // expected-error @+1 {{one thread runs 70000 loop iterations (and a loop whose trip count is not a constant), more than the device's loop budget of 65535}}
      %t = scf.for %j = %c0 to %n step %c1 iter_args(%b = %a) -> i32 {
        %v = arith.index_cast %j : index to i32
        %w = arith.addi %b, %v : i32
        scf.yield %w : i32
      }
      scf.yield %t : i32
    }
    memref.store %s, %out[%c0] : memref<?xi32>
    gpu.return
  }
}
