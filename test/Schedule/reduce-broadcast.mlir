// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// A reduce consumed through a broadcast ends its range: it is realized into a buffer (kernel 1), read by the elementwise kernel after it.
// tinygrad: a - a.max(1, keepdim=True) on [6, 6] (the call of
// corpus program red_then_bcast); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 36 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 6 : !tg.weakint
  %3 = tg.stack(%2, %2) : !tg.weakint, !tg.weakint
  %4 = tgt.reshape %1, %3 : tensor<36xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %5 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %6 = tgt.reshape %5, %3 : tensor<36xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %7 = tgt.permute %6 [1, 0] : tensor<6x6xf32, #tg.addrspace<global>>
  %8 = tgt.reduce <max> 1 %7 : tensor<6x6xf32, #tg.addrspace<global>>
  %9 = tg.const 1 : !tg.weakint
  %10 = tg.stack(%2, %9) : !tg.weakint, !tg.weakint
  %11 = tgt.reshape %8, %10 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %12 = tg.const -1.0 : !tg.weakfloat
  %13 = tg.mul %11, %12 : tensor<6x1xf32, #tg.addrspace<global>>, !tg.weakfloat
  %14 = tg.add %6, %13 : tensor<6x6xf32, #tg.addrspace<global>>, tensor<6x1xf32>
  %15 = tgk.store %14, %4 : tensor<6x6xf32>, tensor<6x6xf32, #tg.addrspace<global>>
  %16 = tg.after %4 deps(%15 : !tg.void) : tensor<6x6xf32, #tg.addrspace<global>>
  %17 = tg.sink(%16) : tensor<6x6xf32, #tg.addrspace<global>>
  %18 = tg.buffer <slot = 212, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %19 = tg.buffer <slot = 211, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %20 = tg.call %17(%18, %19) {arg = #tg.call_info<>} : (!tg.void, tensor<36xf32, #tg.addrspace<global>>, tensor<36xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 36 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tg.const 6 : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.range [[V3]] [0] <weak> : !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.mul [[V4]], [[V3]] : !tg.weakint, !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tgk.range [[V3]] [1] <weak> : !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tg.add [[V5]], [[V6]] : !tg.weakint, !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tgk.index [[V2]][[[V7]]] : tensor<36xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V10:%[0-9]+]] = tgk.index [[V9]][[[V7]]] : tensor<36xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V11:%[0-9]+]] = tg.param <slot = 2, dtype = f32, device = "CPU"> shape([[V3]] : !tg.weakint)
// CHECK: [[V12:%[0-9]+]] = tgk.index [[V11]][[[V4]]] : tensor<6xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V13:%[0-9]+]] = tg.const -1.0 : !tg.weakfloat
// CHECK: [[V14:%[0-9]+]] = tg.mul [[V12]], [[V13]] : tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
// CHECK: [[V15:%[0-9]+]] = tg.add [[V10]], [[V14]] : tensor<f32, #tg.addrspace<global>>, f32
// CHECK: [[V16:%[0-9]+]] = tgk.store [[V15]], [[V8]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V17:%[0-9]+]] = tgk.end [[V16]], [[V4]], [[V6]] : !tg.void, !tg.weakint, !tg.weakint
// CHECK: [[V18:%[0-9]+]] = tg.sink([[V17]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V19:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V20:%[0-9]+]] = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape([[V3]] : !tg.weakint)
// CHECK: [[V21:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V3]] : !tg.weakint)
// CHECK: [[V22:%[0-9]+]] = tgk.index [[V21]][[[V6]]] : tensor<6xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V23:%[0-9]+]] = tg.mul [[V6]], [[V3]] : !tg.weakint, !tg.weakint
// CHECK: [[V24:%[0-9]+]] = tgk.range [[V3]] [0] <reduce> : !tg.weakint
// CHECK: [[V25:%[0-9]+]] = tg.add [[V23]], [[V24]] : !tg.weakint, !tg.weakint
// CHECK: [[V26:%[0-9]+]] = tgk.index [[V9]][[[V25]]] : tensor<36xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V27:%[0-9]+]] = tgt.reduce <max> 0 [[V26]] ranges([[V24]] : !tg.weakint) : tensor<f32, #tg.addrspace<global>>
// CHECK: [[V28:%[0-9]+]] = tgk.store [[V27]], [[V22]] : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V29:%[0-9]+]] = tgk.end [[V28]], [[V6]] : !tg.void, !tg.weakint
// CHECK: [[V30:%[0-9]+]] = tg.sink([[V29]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V31:%[0-9]+]] = tg.call [[V30]]([[V20]], [[V19]]) {arg = #tg.call_info<>} : (!tg.void, tensor<6xf32, #tg.addrspace<global>>, tensor<36xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V32:%[0-9]+]] = tg.after [[V20]] deps([[V31]] : !tg.void) : tensor<6xf32, #tg.addrspace<global>>
// CHECK: [[V33:%[0-9]+]] = tg.call [[V18]]([[V1]], [[V19]], [[V32]]) {arg = #tg.call_info<>} : (!tg.void, tensor<36xf32, #tg.addrspace<global>>, tensor<36xf32, #tg.addrspace<global>>, tensor<6xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V34:%[0-9]+]] = tg.after [[V1]] deps([[V33]] : !tg.void) : tensor<36xf32, #tg.addrspace<global>>
// CHECK: [[V35:%[0-9]+]] = tg.sink([[V34]]) : tensor<36xf32, #tg.addrspace<global>>
