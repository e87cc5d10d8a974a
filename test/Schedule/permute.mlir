// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// PERMUTE: the source is read at the permuted ranges (argsort of the permutation).
// tinygrad: a.permute(2, 0, 1).contiguous() on [2, 3, 4] (the call of
// corpus program mv_permute); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 24 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 4 : !tg.weakint
  %3 = tg.const 2 : !tg.weakint
  %4 = tg.const 3 : !tg.weakint
  %5 = tg.stack(%2, %3, %4) : !tg.weakint, !tg.weakint, !tg.weakint
  %6 = tgt.reshape %1, %5 : tensor<24xf32, #tg.addrspace<global>>, tensor<3x!tg.weakint>
  %7 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %8 = tg.stack(%3, %4, %2) : !tg.weakint, !tg.weakint, !tg.weakint
  %9 = tgt.reshape %7, %8 : tensor<24xf32, #tg.addrspace<global>>, tensor<3x!tg.weakint>
  %10 = tgt.permute %9 [2, 0, 1] : tensor<2x3x4xf32, #tg.addrspace<global>>
  %11 = tgk.store %10, %6 : tensor<4x2x3xf32, #tg.addrspace<global>>, tensor<4x2x3xf32, #tg.addrspace<global>>
  %12 = tg.after %6 deps(%11 : !tg.void) : tensor<4x2x3xf32, #tg.addrspace<global>>
  %13 = tg.sink(%12) : tensor<4x2x3xf32, #tg.addrspace<global>>
  %14 = tg.buffer <slot = 334, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %15 = tg.buffer <slot = 333, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %16 = tg.call %13(%14, %15) {arg = #tg.call_info<>} : (!tg.void, tensor<24xf32, #tg.addrspace<global>>, tensor<24xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 24 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tg.const 2 : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.range [[V3]] [1] <weak> : !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.const 3 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tg.mul [[V4]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tgk.range [[V5]] [2] <weak> : !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tg.add [[V6]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tg.const 4 : !tg.weakint
// CHECK: [[V10:%[0-9]+]] = tgk.range [[V9]] [0] <weak> : !tg.weakint
// CHECK: [[V11:%[0-9]+]] = tg.const 6 : !tg.weakint
// CHECK: [[V12:%[0-9]+]] = tg.mul [[V10]], [[V11]] : !tg.weakint, !tg.weakint
// CHECK: [[V13:%[0-9]+]] = tg.add [[V8]], [[V12]] : !tg.weakint, !tg.weakint
// CHECK: [[V14:%[0-9]+]] = tgk.index [[V2]][[[V13]]] : tensor<24xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V15:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V16:%[0-9]+]] = tg.mul [[V7]], [[V9]] : !tg.weakint, !tg.weakint
// CHECK: [[V17:%[0-9]+]] = tg.add [[V16]], [[V10]] : !tg.weakint, !tg.weakint
// CHECK: [[V18:%[0-9]+]] = tg.const 12 : !tg.weakint
// CHECK: [[V19:%[0-9]+]] = tg.mul [[V4]], [[V18]] : !tg.weakint, !tg.weakint
// CHECK: [[V20:%[0-9]+]] = tg.add [[V17]], [[V19]] : !tg.weakint, !tg.weakint
// CHECK: [[V21:%[0-9]+]] = tgk.index [[V15]][[[V20]]] : tensor<24xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V22:%[0-9]+]] = tgk.store [[V21]], [[V14]] : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V23:%[0-9]+]] = tgk.end [[V22]], [[V10]], [[V4]], [[V7]] : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
// CHECK: [[V24:%[0-9]+]] = tg.sink([[V23]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V25:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V26:%[0-9]+]] = tg.call [[V24]]([[V1]], [[V25]]) {arg = #tg.call_info<>} : (!tg.void, tensor<24xf32, #tg.addrspace<global>>, tensor<24xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V27:%[0-9]+]] = tg.after [[V1]] deps([[V26]] : !tg.void) : tensor<24xf32, #tg.addrspace<global>>
// CHECK: [[V28:%[0-9]+]] = tg.sink([[V27]]) : tensor<24xf32, #tg.addrspace<global>>
