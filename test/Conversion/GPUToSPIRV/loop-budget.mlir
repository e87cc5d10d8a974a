// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-loop-budget{max-iterations=65535})))' --split-input-file --verify-diagnostics | FileCheck %s

// Two nested 320-iteration loops are 320 + 320*320 = 102720 iterations per
// thread, over lavapipe's 65535: the inner loop is unrolled (lavapipe ran
// only 204 outer iterations of this kernel before, its budget spent), by
// the smallest factor that fits: 2 (320 + 320*160 = 51520).
// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for %{{.*}} = %c0 to %c320 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c320 step %c2
// CHECK-COUNT-2: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NOT: arith.addi %{{.*}}, %{{.*}} : i32
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

// A loop whose trip count is a runtime value with no recorded maximum could
// run past the budget, cut short with no error: refused even where the rest
// is small (before, it counted as none and this kernel ran).
gpu.module @m {
  gpu.func @dynamic(%n: index, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %c7 step %c1 iter_args(%a = %z) -> i32 {
      // expected-error @+1 {{this loop's trip count has no bound (not a constant, no variable maximum), so one thread's loop iterations cannot be held within the device's loop budget of 65535}}
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

// -----

// A variable's loop counts by the maximum the emitter recorded
// (tg.max_trip_count, tinygrad's vmax): 200000 is over the budget, so it is
// unrolled by a factor (any factor: its epilogue is bounded too), the main
// loop then bounded by 200000/factor and the epilogue by factor-1.
// CHECK-LABEL: gpu.func @variable
// CHECK: scf.for {{.*}} {
// CHECK-COUNT-4: arith.addi %{{.*}}, %{{.*}} : i32
// CHECK: } {tg.max_trip_count = [[MAIN:[0-9]+]] : i64}
// CHECK: scf.for
// CHECK: } {tg.max_trip_count = [[EPI:[0-9]+]] : i64}
// CHECK: gpu.return
gpu.module @m {
  gpu.func @variable(%n: index, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%b = %z) -> i32 {
      %v = arith.index_cast %j : index to i32
      %w = arith.addi %b, %v : i32
      scf.yield %w : i32
    } {tg.max_trip_count = 200000 : i64}
    memref.store %t, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// Within the budget at its maximum: untouched.
// CHECK-LABEL: gpu.func @variable_small
// CHECK: scf.for
// CHECK: arith.addi
// CHECK-NOT: arith.addi
// CHECK: } {tg.max_trip_count = 60000 : i64}
gpu.module @m {
  gpu.func @variable_small(%n: index, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%b = %z) -> i32 {
      %v = arith.index_cast %j : index to i32
      %w = arith.addi %b, %v : i32
      scf.yield %w : i32
    } {tg.max_trip_count = 60000 : i64}
    memref.store %t, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// Bounds that are constants behind casts (how the emitter writes them) are
// counted: 20 x 320 x 320 iterations. Before, such loops counted as none
// (the kernel ran, its loops cut short: test_ops' masked_select), and an
// unroll factor that did not divide 320 left an epilogue loop with computed
// bounds, uncounted. The innermost loop is unrolled by the smallest divisor
// of 320 that fits (40: 20 + 6400 + 6400*8 = 57620), with no epilogue.
// CHECK-LABEL: gpu.func @cast_bounds
// CHECK: scf.for %{{.*}} = %{{.*}} to %c20
// CHECK: scf.for %{{.*}} = %{{.*}} to %c320
// CHECK: scf.for %{{.*}} = %{{.*}} to %c320{{.*}} step %c40
// CHECK-NOT: scf.for
// CHECK: gpu.return
gpu.module @m {
  gpu.func @cast_bounds(%out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c20_i64 = arith.constant 20 : i64
    %c320_i64 = arith.constant 320 : i64
    %n20 = arith.index_cast %c20_i64 : i64 to index
    %n320 = arith.index_cast %c320_i64 : i64 to index
    %z = arith.constant 0 : i32
    %r = scf.for %k = %c0 to %n20 step %c1 iter_args(%x = %z) -> i32 {
      %s = scf.for %i = %c0 to %n320 step %c1 iter_args(%a = %x) -> i32 {
        %t = scf.for %j = %c0 to %n320 step %c1 iter_args(%b = %a) -> i32 {
          %v = arith.index_cast %j : index to i32
          %v2 = arith.muli %v, %v : i32
          %v3 = arith.xori %v2, %v : i32
          %v4 = arith.addi %v3, %v2 : i32
          %v5 = arith.muli %v4, %v3 : i32
          %v6 = arith.subi %v5, %v : i32
          %v7 = arith.addi %v6, %v4 : i32
          %v8 = arith.muli %v7, %v2 : i32
          %v9 = arith.xori %v8, %v5 : i32
          %w = arith.addi %b, %v9 : i32
          scf.yield %w : i32
        }
        scf.yield %t : i32
      }
      scf.yield %s : i32
    }
    memref.store %r, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// A prime trip count has no divisor to unroll by: 263 inner iterations
// under 500 outer ones (132000 in all) are unrolled by the smallest factor
// that fits, 3, the main loop to 261 and an epilogue loop of constant
// bounds for the last 2 (500 + 500*(87+2) = 45000). Refused before
// ("too large to unroll": random-kernels seed 2213 #16's 257-trip
// contraction on lavapipe).
// CHECK-LABEL: gpu.func @prime
// CHECK: scf.for %{{.*}} = %c0 to %c500 step %c1
// CHECK: %[[MAIN:.*]] = arith.constant 261 : index
// CHECK: %[[STEP:.*]] = arith.constant 3 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[MAIN]] step %[[STEP]] iter_args
// CHECK-COUNT-3: arith.index_cast %{{.*}} : index to i32
// CHECK: scf.for %{{.*}} = %[[MAIN]] to %c263 step %c1
// CHECK: gpu.return
gpu.module @m {
  gpu.func @prime(%out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c500 = arith.constant 500 : index
    %c263 = arith.constant 263 : index
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %c500 step %c1 iter_args(%a = %z) -> i32 {
      %t = scf.for %j = %c0 to %c263 step %c1 iter_args(%b = %a) -> i32 {
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
