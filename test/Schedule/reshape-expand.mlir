// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// RESHAPE + EXPAND: the reshape's linear index simplifies back to the flat range; EXPAND drops the prepended range from the source index.
// tinygrad: a.reshape(2, 3).unsqueeze(0).expand(4, 2, 3).contiguous() on [6] (the call of
// corpus program mv_reshape_expand); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 24 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 4 : !tg.weakint
  %3 = tg.const 2 : !tg.weakint
  %4 = tg.const 3 : !tg.weakint
  %5 = tg.stack(%2, %3, %4) : !tg.weakint, !tg.weakint, !tg.weakint
  %6 = tgt.reshape %1, %5 : tensor<24xf32, #tg.addrspace<global>>, tensor<3x!tg.weakint>
  %7 = tg.const 6 : !tg.weakint
  %8 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%7 : !tg.weakint)
  %9 = tg.stack(%3, %4) : !tg.weakint, !tg.weakint
  %10 = tgt.reshape %8, %9 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %11 = tg.const 1 : !tg.weakint
  %12 = tg.stack(%11, %3, %4) : !tg.weakint, !tg.weakint, !tg.weakint
  %13 = tgt.reshape %10, %12 : tensor<2x3xf32, #tg.addrspace<global>>, tensor<3x!tg.weakint>
  %14 = tgt.reshape %13, %9 : tensor<1x2x3xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %15 = tgt.expand %14, %2 : tensor<2x3xf32, #tg.addrspace<global>>, !tg.weakint
  %16 = tgk.store %15, %6 : tensor<4x2x3xf32, #tg.addrspace<global>>, tensor<4x2x3xf32, #tg.addrspace<global>>
  %17 = tg.after %6 deps(%16 : !tg.void) : tensor<4x2x3xf32, #tg.addrspace<global>>
  %18 = tg.sink(%17) : tensor<4x2x3xf32, #tg.addrspace<global>>
  %19 = tg.buffer <slot = 337, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %20 = tg.buffer <slot = 336, dtype = f32, device = "CPU"> shape(%7 : !tg.weakint)
  %21 = tg.call %18(%19, %20) {arg = #tg.call_info<>} : (!tg.void, tensor<24xf32, #tg.addrspace<global>>, tensor<6xf32, #tg.addrspace<global>>) -> !tg.void
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
// CHECK: [[V15:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V11]] : !tg.weakint)
// CHECK: [[V16:%[0-9]+]] = tgk.index [[V15]][[[V8]]] : tensor<6xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V17:%[0-9]+]] = tgk.store [[V16]], [[V14]] : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V18:%[0-9]+]] = tgk.end [[V17]], [[V10]], [[V4]], [[V7]] : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
// CHECK: [[V19:%[0-9]+]] = tg.sink([[V18]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V20:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V11]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V21:%[0-9]+]] = tg.call [[V19]]([[V1]], [[V20]]) {arg = #tg.call_info<>} : (!tg.void, tensor<24xf32, #tg.addrspace<global>>, tensor<6xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V22:%[0-9]+]] = tg.after [[V1]] deps([[V21]] : !tg.void) : tensor<24xf32, #tg.addrspace<global>>
// CHECK: [[V23:%[0-9]+]] = tg.sink([[V22]]) : tensor<24xf32, #tg.addrspace<global>>
