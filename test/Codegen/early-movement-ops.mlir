// RUN: tinygrad-opt %s --split-input-file --tg-early-movement-ops | FileCheck %s
// tinygrad's "early movement ops" (pm_mops bottom up, full_rewrite_to_sink's
// second step) on kernels written by hand in UOps.

// test_uops.py's UOp matmul: C, A, B are 6x6 views of their buffers, C is
// read AFTER its own stores along a REDUCE range, and the END holds C's
// AFTER. Every INDEX addresses the buffer itself with flat index math, the
// AFTERs hold the PARAM, and the END holds that AFTER.
// CHECK-LABEL: module
// CHECK-NOT: tgt.reshape
// CHECK: %[[C:.*]] = tg.param <slot = 2, dtype = f32>
// CHECK: %[[I:.*]] = tgk.range %{{.*}} [0] <weak>
// CHECK: %[[I6:.*]] = tg.mul %[[I]], %{{.*}}
// CHECK: %[[J:.*]] = tgk.range %{{.*}} [1] <weak>
// CHECK: %[[IJ:.*]] = tg.add %[[I6]], %[[J]]
// CHECK: %[[C0:.*]] = tgk.index %[[C]][%[[IJ]]] : tensor<36xf32, #tg.addrspace<global>>
// CHECK: %[[INIT:.*]] = tgk.store %{{.*}}, %[[C0]]
// CHECK: %[[CI:.*]] = tg.after %[[C]] deps(%[[INIT]] : !tg.void) : tensor<36xf32, #tg.addrspace<global>>
// CHECK: %[[K:.*]] = tgk.range %{{.*}} [2] <reduce>
// CHECK: %[[CK:.*]] = tg.after %[[CI]] deps(%[[K]] : !tg.weakint)
// CHECK: tgk.index %[[CK]][%[[IJ]]]
// CHECK: %[[A:.*]] = tg.param <slot = 0, dtype = f32>
// CHECK: %[[IK:.*]] = tg.add %[[I6]], %[[K]]
// CHECK: tgk.index %[[A]][%[[IK]]]
// CHECK: %[[OUT:.*]] = tg.after %[[CI]] deps(
// CHECK: tgk.end %[[OUT]], %[[I]], %[[J]], %[[K]] : tensor<36xf32, #tg.addrspace<global>>
%0 = tg.const 36 : !tg.weakint
%1 = tg.param <slot = 2, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 6 : !tg.weakint
%3 = tg.stack(%2, %2) : !tg.weakint, !tg.weakint
%4 = tgt.reshape %1, %3 : tensor<36xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%5 = tgk.range %2 [0] <weak> : !tg.weakint
%6 = tgk.range %2 [1] <weak> : !tg.weakint
%7 = tgk.index %4[%5, %6] : tensor<6x6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%8 = tg.const 0.0 : f32
%9 = tgk.store %8, %7 : f32, tensor<f32, #tg.addrspace<global>>
%10 = tg.after %4 deps(%9 : !tg.void) : tensor<6x6xf32, #tg.addrspace<global>>
%11 = tgk.index %10[%5, %6] : tensor<6x6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%12 = tgk.range %2 [2] <reduce> : !tg.weakint
%13 = tg.after %10 deps(%12 : !tg.weakint) : tensor<6x6xf32, #tg.addrspace<global>>
%14 = tgk.index %13[%5, %6] : tensor<6x6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%15 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%16 = tgt.reshape %15, %3 : tensor<36xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%17 = tgk.index %16[%5, %12] : tensor<6x6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%18 = tg.param <slot = 1, dtype = f32> shape(%0 : !tg.weakint)
%19 = tgt.reshape %18, %3 : tensor<36xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%20 = tgk.index %19[%12, %6] : tensor<6x6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%21 = tg.mul %17, %20 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%22 = tg.add %14, %21 : tensor<f32, #tg.addrspace<global>>, f32
%23 = tgk.store %22, %11 : f32, tensor<f32, #tg.addrspace<global>>
%24 = tg.after %10 deps(%23 : !tg.void) : tensor<6x6xf32, #tg.addrspace<global>>
%25 = tgk.end %24, %5, %6, %12 : tensor<6x6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint, !tg.weakint
%26 = tg.sink(%25) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// test_uops.py's `ptr[i, j].set(42).end(i, j)`: the END of the view's
// AFTER becomes the END of the buffer's.
// CHECK-LABEL: module
// CHECK-NOT: tgt.reshape
// CHECK: %[[P:.*]] = tg.param <slot = 0, dtype = si32>
// CHECK: %[[AFTER:.*]] = tg.after %[[P]] deps(
// CHECK: tgk.end %[[AFTER]], %{{.*}}, %{{.*}} : tensor<120xsi32, #tg.addrspace<global>>
%0 = tg.const 120 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32> shape(%0 : !tg.weakint)
%2 = tg.const 10 : !tg.weakint
%3 = tg.const 12 : !tg.weakint
%4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
%5 = tgt.reshape %1, %4 : tensor<120xsi32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%6 = tgk.range %2 [0] <weak> : !tg.weakint
%7 = tgk.range %3 [1] <weak> : !tg.weakint
%8 = tgk.index %5[%6, %7] : tensor<10x12xsi32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%9 = tg.const 42 : si32
%10 = tgk.store %9, %8 : si32, tensor<si32, #tg.addrspace<global>>
%11 = tg.after %5 deps(%10 : !tg.void) : tensor<10x12xsi32, #tg.addrspace<global>>
%12 = tgk.end %11, %6, %7 : tensor<10x12xsi32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
