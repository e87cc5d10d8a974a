// RUN: tinygrad-opt %s --split-input-file --tg-add-local-buffers | FileCheck %s
// tinygrad's "add local buffers" (pm_add_local_buffers + pm_mops).

// A value STAGEd in LOCAL memory over range i (of 4) and read at 3-j: a
// LOCAL buffer of 4, filled under i (an END of its store), read AFTER the fill.
// CHECK-LABEL: module
// CHECK-NOT: tgt.stage
// CHECK: %[[BUF:.*]] = tg.buffer <slot = 0, dtype = f32, addrspace = local> shape(%{{.*}} : !tg.weakint)
// CHECK: %[[I:.*]] = tgk.range %{{.*}} [1] <weak>
// CHECK: %[[DST:.*]] = tgk.index %[[BUF]][%[[I]]] : tensor<4xf32, #tg.addrspace<local>>
// CHECK: %[[ST:.*]] = tgk.store %{{.*}}, %[[DST]]
// CHECK: %[[FILL:.*]] = tgk.end %[[ST]], %[[I]]
// CHECK: %[[READY:.*]] = tg.after %[[BUF]] deps(%[[FILL]] : !tg.void)
// CHECK: tgk.index %[[READY]][%{{.*}}] : tensor<4xf32, #tg.addrspace<local>>
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 4 : !tg.weakint
%3 = tgk.range %2 [0] <weak> : !tg.weakint
%4 = tg.mul %3, %2 : !tg.weakint, !tg.weakint
%5 = tgk.range %2 [2] <weak> : !tg.weakint
%6 = tg.add %4, %5 : !tg.weakint, !tg.weakint
%7 = tgk.index %1[%6] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.param <slot = 1, dtype = f32> shape(%0 : !tg.weakint)
%9 = tgk.range %2 [1] <weak> : !tg.weakint
%10 = tg.add %4, %9 : !tg.weakint, !tg.weakint
%11 = tgk.index %8[%10] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%12 = tg.const 2.0 : !tg.weakfloat
%13 = tg.mul %11, %12 : tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
%14 = tgt.stage %13 ranges(%9 : !tg.weakint) <addrspace = local> : f32
%15 = tg.const 3 : !tg.weakint
%16 = tg.const -1 : !tg.weakint
%17 = tg.mul %5, %16 : !tg.weakint, !tg.weakint
%18 = tg.add %15, %17 : !tg.weakint, !tg.weakint
%19 = tgk.index %14[%18] : tensor<4xf32, #tg.addrspace<local>>, !tg.weakint
%20 = tg.const 1.0 : !tg.weakfloat
%21 = tg.add %19, %20 : tensor<f32, #tg.addrspace<local>>, !tg.weakfloat
%22 = tgk.store %21, %7 : f32, tensor<f32, #tg.addrspace<global>>
%23 = tgk.end %22, %3, %5 : !tg.void, !tg.weakint, !tg.weakint
%24 = tg.sink(%23) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// test_custom_kernel.py's slice_sum after the symbolic merged src[G, :][R]
// into one INDEX of the 16x16 view: pm_mops makes it flat index math.
// CHECK-LABEL: module
// CHECK-NOT: tgt.reshape
// CHECK: %[[SRC:.*]] = tg.param <slot = 1, dtype = f32>
// CHECK: %[[FLAT:.*]] = tg.floormod %{{.*}}, %{{.*}} : si32, !tg.weakint
// CHECK: tgk.index %[[SRC]][%[[FLAT]]] : tensor<256xf32, #tg.addrspace<global>>, si32
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 16 : si32
%3 = tgk.range %2 [0] <weak> : si32
%4 = tgk.index %1[%3] : tensor<16xf32, #tg.addrspace<global>>, si32
%5 = tg.const 1 : !tg.weakint
%6 = tg.buffer <slot = 0, dtype = f32, addrspace = reg> shape(%5 : !tg.weakint)
%7 = tg.after %6 deps(%3 : si32) : tensor<1xf32, #tg.addrspace<reg>>
%8 = tg.const 0 : !tg.weakint
%9 = tgk.index %7[%8] : tensor<1xf32, #tg.addrspace<reg>>, !tg.weakint
%10 = tg.const 0.0 : f32
%11 = tgk.store %10, %9 : f32, tensor<f32, #tg.addrspace<reg>>
%12 = tg.after %7 deps(%11 : !tg.void) : tensor<1xf32, #tg.addrspace<reg>>
%13 = tgk.index %12[%8] : tensor<1xf32, #tg.addrspace<reg>>, !tg.weakint
%14 = tgk.range %0 [1] <reduce> : !tg.weakint
%15 = tg.after %12 deps(%14 : !tg.weakint) : tensor<1xf32, #tg.addrspace<reg>>
%16 = tgk.index %15[%8] : tensor<1xf32, #tg.addrspace<reg>>, !tg.weakint
%17 = tg.const 256 : !tg.weakint
%18 = tg.param <slot = 1, dtype = f32> shape(%17 : !tg.weakint)
%19 = tg.stack(%0, %0) : !tg.weakint, !tg.weakint
%20 = tgt.reshape %18, %19 : tensor<256xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%21 = tgk.index %20[%3, %14] : tensor<16x16xf32, #tg.addrspace<global>>, si32, !tg.weakint
%22 = tg.add %16, %21 : tensor<f32, #tg.addrspace<reg>>, tensor<f32, #tg.addrspace<global>>
%23 = tgk.store %22, %13 : f32, tensor<f32, #tg.addrspace<reg>>
%24 = tgk.end %23, %14 : !tg.void, !tg.weakint
%25 = tg.after %12 deps(%24 : !tg.void) : tensor<1xf32, #tg.addrspace<reg>>
%26 = tgk.index %25[%8] : tensor<1xf32, #tg.addrspace<reg>>, !tg.weakint
%27 = tgk.store %26, %4 : tensor<f32, #tg.addrspace<reg>>, tensor<f32, #tg.addrspace<global>>
%28 = tgk.end %27, %3 : !tg.void, si32
%29 = tg.after %1 deps(%28 : !tg.void) : tensor<16xf32, #tg.addrspace<global>>
%30 = tg.sink(%29) {arg = #tg.kernel_info<name = "slice_sum_16_16", axis_types = [], applied_opts = [], opts_to_apply = []>} : tensor<16xf32, #tg.addrspace<global>>
