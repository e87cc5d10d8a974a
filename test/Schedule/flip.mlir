// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// FLIP: flagged axes are read at (size-1) - range; the two flips of one input share a kernel.
// tinygrad: a.flip(0) + a.flip(1) on [5, 6] (the call of
// corpus program mv_flip); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 30 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 5 : !tg.weakint
  %3 = tg.const 6 : !tg.weakint
  %4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
  %5 = tgt.reshape %1, %4 : tensor<30xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %6 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %7 = tgt.reshape %6, %4 : tensor<30xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %8 = tgt.flip %7 [true, false] : tensor<5x6xf32, #tg.addrspace<global>>
  %9 = tgt.flip %7 [false, true] : tensor<5x6xf32, #tg.addrspace<global>>
  %10 = tg.add %8, %9 : tensor<5x6xf32, #tg.addrspace<global>>, tensor<5x6xf32, #tg.addrspace<global>>
  %11 = tgk.store %10, %5 : tensor<5x6xf32>, tensor<5x6xf32, #tg.addrspace<global>>
  %12 = tg.after %5 deps(%11 : !tg.void) : tensor<5x6xf32, #tg.addrspace<global>>
  %13 = tg.sink(%12) : tensor<5x6xf32, #tg.addrspace<global>>
  %14 = tg.buffer <slot = 331, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %15 = tg.buffer <slot = 330, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %16 = tg.call %13(%14, %15) {arg = #tg.call_info<>} : (!tg.void, tensor<30xf32, #tg.addrspace<global>>, tensor<30xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 30 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tg.const 5 : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.range [[V3]] [0] <weak> : !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.const 6 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tg.mul [[V4]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tgk.range [[V5]] [1] <weak> : !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tg.add [[V6]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tgk.index [[V2]][[[V8]]] : tensor<30xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V10:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V11:%[0-9]+]] = tg.const -6 : !tg.weakint
// CHECK: [[V12:%[0-9]+]] = tg.mul [[V4]], [[V11]] : !tg.weakint, !tg.weakint
// CHECK: [[V13:%[0-9]+]] = tg.add [[V12]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V14:%[0-9]+]] = tg.const 24 : !tg.weakint
// CHECK: [[V15:%[0-9]+]] = tg.add [[V13]], [[V14]] : !tg.weakint, !tg.weakint
// CHECK: [[V16:%[0-9]+]] = tgk.index [[V10]][[[V15]]] : tensor<30xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V17:%[0-9]+]] = tg.const -1 : !tg.weakint
// CHECK: [[V18:%[0-9]+]] = tg.mul [[V7]], [[V17]] : !tg.weakint, !tg.weakint
// CHECK: [[V19:%[0-9]+]] = tg.add [[V6]], [[V18]] : !tg.weakint, !tg.weakint
// CHECK: [[V20:%[0-9]+]] = tg.add [[V19]], [[V3]] : !tg.weakint, !tg.weakint
// CHECK: [[V21:%[0-9]+]] = tgk.index [[V10]][[[V20]]] : tensor<30xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V22:%[0-9]+]] = tg.add [[V16]], [[V21]] : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V23:%[0-9]+]] = tgk.store [[V22]], [[V9]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V24:%[0-9]+]] = tgk.end [[V23]], [[V4]], [[V7]] : !tg.void, !tg.weakint, !tg.weakint
// CHECK: [[V25:%[0-9]+]] = tg.sink([[V24]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V26:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V27:%[0-9]+]] = tg.call [[V25]]([[V1]], [[V26]]) {arg = #tg.call_info<>} : (!tg.void, tensor<30xf32, #tg.addrspace<global>>, tensor<30xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V28:%[0-9]+]] = tg.after [[V1]] deps([[V27]] : !tg.void) : tensor<30xf32, #tg.addrspace<global>>
// CHECK: [[V29:%[0-9]+]] = tg.sink([[V28]]) : tensor<30xf32, #tg.addrspace<global>>
