// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// SHRINK: the source index is the range plus the offset.
// tinygrad: a[2:6, 1:7] * 2 on [8, 8] (the call of
// corpus program mv_shrink); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 24 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 4 : !tg.weakint
  %3 = tg.const 6 : !tg.weakint
  %4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
  %5 = tgt.reshape %1, %4 : tensor<24xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %6 = tg.const 64 : !tg.weakint
  %7 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%6 : !tg.weakint)
  %8 = tg.const 8 : !tg.weakint
  %9 = tg.stack(%8, %8) : !tg.weakint, !tg.weakint
  %10 = tgt.reshape %7, %9 : tensor<64xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %11 = tg.const 2 : !tg.weakint
  %12 = tg.const 1 : !tg.weakint
  %13 = tg.stack(%11, %12) : !tg.weakint, !tg.weakint
  %14 = tgt.shrink %10, %13, %4 : tensor<8x8xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
  %15 = tg.const 2.0 : !tg.weakfloat
  %16 = tg.mul %14, %15 : tensor<4x6xf32, #tg.addrspace<global>>, !tg.weakfloat
  %17 = tgk.store %16, %5 : tensor<4x6xf32>, tensor<4x6xf32, #tg.addrspace<global>>
  %18 = tg.after %5 deps(%17 : !tg.void) : tensor<4x6xf32, #tg.addrspace<global>>
  %19 = tg.sink(%18) : tensor<4x6xf32, #tg.addrspace<global>>
  %20 = tg.buffer <slot = 328, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %21 = tg.buffer <slot = 327, dtype = f32, device = "CPU"> shape(%6 : !tg.weakint)
  %22 = tg.call %19(%20, %21) {arg = #tg.call_info<>} : (!tg.void, tensor<24xf32, #tg.addrspace<global>>, tensor<64xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 24 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tg.const 4 : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.range [[V3]] [0] <weak> : !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.const 6 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tg.mul [[V4]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tgk.range [[V5]] [1] <weak> : !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tg.add [[V6]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tgk.index [[V2]][[[V8]]] : tensor<24xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V10:%[0-9]+]] = tg.const 64 : !tg.weakint
// CHECK: [[V11:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V10]] : !tg.weakint)
// CHECK: [[V12:%[0-9]+]] = tg.const 8 : !tg.weakint
// CHECK: [[V13:%[0-9]+]] = tg.mul [[V4]], [[V12]] : !tg.weakint, !tg.weakint
// CHECK: [[V14:%[0-9]+]] = tg.add [[V13]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V15:%[0-9]+]] = tg.const 17 : !tg.weakint
// CHECK: [[V16:%[0-9]+]] = tg.add [[V14]], [[V15]] : !tg.weakint, !tg.weakint
// CHECK: [[V17:%[0-9]+]] = tgk.index [[V11]][[[V16]]] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V18:%[0-9]+]] = tg.const 2.0 : !tg.weakfloat
// CHECK: [[V19:%[0-9]+]] = tg.mul [[V17]], [[V18]] : tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
// CHECK: [[V20:%[0-9]+]] = tgk.store [[V19]], [[V9]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V21:%[0-9]+]] = tgk.end [[V20]], [[V4]], [[V7]] : !tg.void, !tg.weakint, !tg.weakint
// CHECK: [[V22:%[0-9]+]] = tg.sink([[V21]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V23:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V10]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V24:%[0-9]+]] = tg.call [[V22]]([[V1]], [[V23]]) {arg = #tg.call_info<>} : (!tg.void, tensor<24xf32, #tg.addrspace<global>>, tensor<64xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V25:%[0-9]+]] = tg.after [[V1]] deps([[V24]] : !tg.void) : tensor<24xf32, #tg.addrspace<global>>
// CHECK: [[V26:%[0-9]+]] = tg.sink([[V25]]) : tensor<24xf32, #tg.addrspace<global>>
