// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// Softmax over axis 0: max and sum are each realized (ending ranges), the exp is recomputed in the consumers rather than staged (remove_bufferize's cost rules): three kernels.
// tinygrad: a.softmax(0) on [5, 7] (the call of
// corpus program softmax_axis0); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 35 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 5 : !tg.weakint
  %3 = tg.const 7 : !tg.weakint
  %4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
  %5 = tgt.reshape %1, %4 : tensor<35xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %6 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %7 = tgt.reshape %6, %4 : tensor<35xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %8 = tgt.reduce <max> 1 %7 : tensor<5x7xf32, #tg.addrspace<global>>
  %9 = tg.const 1 : !tg.weakint
  %10 = tg.stack(%9, %3) : !tg.weakint, !tg.weakint
  %11 = tgt.reshape %8, %10 : tensor<7xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %12 = tg.const -1.0 : !tg.weakfloat
  %13 = tg.mul %11, %12 : tensor<1x7xf32, #tg.addrspace<global>>, !tg.weakfloat
  %14 = tg.add %7, %13 : tensor<5x7xf32, #tg.addrspace<global>>, tensor<1x7xf32>
  %15 = tg.const 1.4426950408889634 : !tg.weakfloat
  %16 = tg.mul %14, %15 : tensor<5x7xf32>, !tg.weakfloat
  %17 = tg.exp2 %16 : tensor<5x7xf32>
  %18 = tgt.reduce <add> 1 %17 : tensor<5x7xf32>
  %19 = tgt.reshape %18, %10 : tensor<7xf32>, tensor<2x!tg.weakint>
  %20 = tg.reciprocal %19 : tensor<1x7xf32>
  %21 = tg.mul %17, %20 : tensor<5x7xf32>, tensor<1x7xf32>
  %22 = tgk.store %21, %5 : tensor<5x7xf32>, tensor<5x7xf32, #tg.addrspace<global>>
  %23 = tg.after %5 deps(%22 : !tg.void) : tensor<5x7xf32, #tg.addrspace<global>>
  %24 = tg.sink(%23) : tensor<5x7xf32, #tg.addrspace<global>>
  %25 = tg.buffer <slot = 232, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %26 = tg.buffer <slot = 231, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %27 = tg.call %24(%25, %26) {arg = #tg.call_info<>} : (!tg.void, tensor<35xf32, #tg.addrspace<global>>, tensor<35xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 35 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tg.const 5 : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.range [[V3]] [0] <weak> : !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.const 7 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tg.mul [[V4]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tgk.range [[V5]] [1] <weak> : !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tg.add [[V6]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tgk.index [[V2]][[[V8]]] : tensor<35xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V10:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V11:%[0-9]+]] = tgk.index [[V10]][[[V8]]] : tensor<35xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V12:%[0-9]+]] = tg.param <slot = 2, dtype = f32, device = "CPU"> shape([[V5]] : !tg.weakint)
// CHECK: [[V13:%[0-9]+]] = tgk.index [[V12]][[[V7]]] : tensor<7xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V14:%[0-9]+]] = tg.const -1.0 : !tg.weakfloat
// CHECK: [[V15:%[0-9]+]] = tg.mul [[V13]], [[V14]] : tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
// CHECK: [[V16:%[0-9]+]] = tg.add [[V11]], [[V15]] : tensor<f32, #tg.addrspace<global>>, f32
// CHECK: [[V17:%[0-9]+]] = tg.const 1.4426950408889634 : !tg.weakfloat
// CHECK: [[V18:%[0-9]+]] = tg.mul [[V16]], [[V17]] : f32, !tg.weakfloat
// CHECK: [[V19:%[0-9]+]] = tg.exp2 [[V18]] : f32
// CHECK: [[V20:%[0-9]+]] = tg.param <slot = 3, dtype = f32, device = "CPU"> shape([[V5]] : !tg.weakint)
// CHECK: [[V21:%[0-9]+]] = tgk.index [[V20]][[[V7]]] : tensor<7xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V22:%[0-9]+]] = tg.reciprocal [[V21]] : tensor<f32, #tg.addrspace<global>>
// CHECK: [[V23:%[0-9]+]] = tg.mul [[V19]], [[V22]] : f32, f32
// CHECK: [[V24:%[0-9]+]] = tgk.store [[V23]], [[V9]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V25:%[0-9]+]] = tgk.end [[V24]], [[V4]], [[V7]] : !tg.void, !tg.weakint, !tg.weakint
// CHECK: [[V26:%[0-9]+]] = tg.sink([[V25]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V27:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V28:%[0-9]+]] = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape([[V5]] : !tg.weakint)
// CHECK: [[V29:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V5]] : !tg.weakint)
// CHECK: [[V30:%[0-9]+]] = tgk.index [[V29]][[[V7]]] : tensor<7xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V31:%[0-9]+]] = tgk.range [[V3]] [0] <reduce> : !tg.weakint
// CHECK: [[V32:%[0-9]+]] = tg.mul [[V31]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V33:%[0-9]+]] = tg.add [[V32]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V34:%[0-9]+]] = tgk.index [[V10]][[[V33]]] : tensor<35xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V35:%[0-9]+]] = tgt.reduce <max> 0 [[V34]] ranges([[V31]] : !tg.weakint) : tensor<f32, #tg.addrspace<global>>
// CHECK: [[V36:%[0-9]+]] = tgk.store [[V35]], [[V30]] : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V37:%[0-9]+]] = tgk.end [[V36]], [[V7]] : !tg.void, !tg.weakint
// CHECK: [[V38:%[0-9]+]] = tg.sink([[V37]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V39:%[0-9]+]] = tg.call [[V38]]([[V28]], [[V27]]) {arg = #tg.call_info<>} : (!tg.void, tensor<7xf32, #tg.addrspace<global>>, tensor<35xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V40:%[0-9]+]] = tg.after [[V28]] deps([[V39]] : !tg.void) : tensor<7xf32, #tg.addrspace<global>>
// CHECK: [[V41:%[0-9]+]] = tg.buffer <slot = 1, dtype = f32, device = "CPU"> shape([[V5]] : !tg.weakint)
// CHECK: [[V42:%[0-9]+]] = tg.add [[V34]], [[V15]] : tensor<f32, #tg.addrspace<global>>, f32
// CHECK: [[V43:%[0-9]+]] = tg.mul [[V42]], [[V17]] : f32, !tg.weakfloat
// CHECK: [[V44:%[0-9]+]] = tg.exp2 [[V43]] : f32
// CHECK: [[V45:%[0-9]+]] = tgt.reduce <add> 0 [[V44]] ranges([[V31]] : !tg.weakint) : f32
// CHECK: [[V46:%[0-9]+]] = tgk.store [[V45]], [[V30]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V47:%[0-9]+]] = tgk.end [[V46]], [[V7]] : !tg.void, !tg.weakint
// CHECK: [[V48:%[0-9]+]] = tg.sink([[V47]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V49:%[0-9]+]] = tg.call [[V48]]([[V41]], [[V27]], [[V40]]) {arg = #tg.call_info<>} : (!tg.void, tensor<7xf32, #tg.addrspace<global>>, tensor<35xf32, #tg.addrspace<global>>, tensor<7xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V50:%[0-9]+]] = tg.after [[V41]] deps([[V49]] : !tg.void) : tensor<7xf32, #tg.addrspace<global>>
// CHECK: [[V51:%[0-9]+]] = tg.call [[V26]]([[V1]], [[V27]], [[V40]], [[V50]]) {arg = #tg.call_info<>} : (!tg.void, tensor<35xf32, #tg.addrspace<global>>, tensor<35xf32, #tg.addrspace<global>>, tensor<7xf32, #tg.addrspace<global>>, tensor<7xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V52:%[0-9]+]] = tg.after [[V1]] deps([[V51]] : !tg.void) : tensor<35xf32, #tg.addrspace<global>>
// CHECK: [[V53:%[0-9]+]] = tg.sink([[V52]]) : tensor<35xf32, #tg.addrspace<global>>
