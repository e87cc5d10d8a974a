// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// PAD: the range minus the offset, gated by its valid; the padded value is a weak 0.
// tinygrad: a.pad(((1, 2), (0, 1))).contiguous() on [4, 4] (the call of
// corpus program mv_pad); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 35 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 7 : !tg.weakint
  %3 = tg.const 5 : !tg.weakint
  %4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
  %5 = tgt.reshape %1, %4 : tensor<35xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %6 = tg.const 16 : !tg.weakint
  %7 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%6 : !tg.weakint)
  %8 = tg.const 4 : !tg.weakint
  %9 = tg.stack(%8, %8) : !tg.weakint, !tg.weakint
  %10 = tgt.reshape %7, %9 : tensor<16xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %11 = tg.const 1 : !tg.weakint
  %12 = tg.const 0 : !tg.weakint
  %13 = tg.stack(%11, %12) : !tg.weakint, !tg.weakint
  %14 = tgt.pad %10, %13, %4 : tensor<4x4xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
  %15 = tgk.store %14, %5 : tensor<7x5xf32, #tg.addrspace<global>>, tensor<7x5xf32, #tg.addrspace<global>>
  %16 = tg.after %5 deps(%15 : !tg.void) : tensor<7x5xf32, #tg.addrspace<global>>
  %17 = tg.sink(%16) : tensor<7x5xf32, #tg.addrspace<global>>
  %18 = tg.buffer <slot = 322, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %19 = tg.buffer <slot = 321, dtype = f32, device = "CPU"> shape(%6 : !tg.weakint)
  %20 = tg.call %17(%18, %19) {arg = #tg.call_info<>} : (!tg.void, tensor<35xf32, #tg.addrspace<global>>, tensor<16xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 35 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tg.const 7 : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.range [[V3]] [0] <weak> : !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.const 5 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tg.mul [[V4]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tgk.range [[V5]] [1] <weak> : !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tg.add [[V6]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tgk.index [[V2]][[[V8]]] : tensor<35xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V10:%[0-9]+]] = tg.const 1 : !tg.weakint
// CHECK: [[V11:%[0-9]+]] = tg.cmplt [[V4]], [[V10]] : !tg.weakint, !tg.weakint
// CHECK: [[V12:%[0-9]+]] = tg.const true : i1
// CHECK: [[V13:%[0-9]+]] = tg.cmpne [[V11]], [[V12]] : i1, i1
// CHECK: [[V14:%[0-9]+]] = tg.cmplt [[V4]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V15:%[0-9]+]] = tg.and [[V13]], [[V14]] : i1, i1
// CHECK: [[V16:%[0-9]+]] = tg.const 4 : !tg.weakint
// CHECK: [[V17:%[0-9]+]] = tg.cmplt [[V7]], [[V16]] : !tg.weakint, !tg.weakint
// CHECK: [[V18:%[0-9]+]] = tg.and [[V15]], [[V17]] : i1, i1
// CHECK: [[V19:%[0-9]+]] = tg.const 16 : !tg.weakint
// CHECK: [[V20:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V19]] : !tg.weakint)
// CHECK: [[V21:%[0-9]+]] = tg.and [[V17]], [[V15]] : i1, i1
// CHECK: [[V22:%[0-9]+]] = tg.mul [[V4]], [[V16]] : !tg.weakint, !tg.weakint
// CHECK: [[V23:%[0-9]+]] = tg.add [[V22]], [[V7]] : !tg.weakint, !tg.weakint
// CHECK: [[V24:%[0-9]+]] = tg.const -4 : !tg.weakint
// CHECK: [[V25:%[0-9]+]] = tg.add [[V23]], [[V24]] : !tg.weakint, !tg.weakint
// CHECK: [[V26:%[0-9]+]] = tg.const invalid : i1
// CHECK: [[V27:%[0-9]+]] = tg.where [[V21]], [[V25]], [[V26]] : i1, !tg.weakint, i1
// CHECK: [[V28:%[0-9]+]] = tgk.index [[V20]][[[V27]]] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V29:%[0-9]+]] = tg.const 0.0 : !tg.weakfloat
// CHECK: [[V30:%[0-9]+]] = tg.where [[V18]], [[V28]], [[V29]] : i1, tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
// CHECK: [[V31:%[0-9]+]] = tgk.store [[V30]], [[V9]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V32:%[0-9]+]] = tgk.end [[V31]], [[V4]], [[V7]] : !tg.void, !tg.weakint, !tg.weakint
// CHECK: [[V33:%[0-9]+]] = tg.sink([[V32]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V34:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V19]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V35:%[0-9]+]] = tg.call [[V33]]([[V1]], [[V34]]) {arg = #tg.call_info<>} : (!tg.void, tensor<35xf32, #tg.addrspace<global>>, tensor<16xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V36:%[0-9]+]] = tg.after [[V1]] deps([[V35]] : !tg.void) : tensor<35xf32, #tg.addrspace<global>>
// CHECK: [[V37:%[0-9]+]] = tg.sink([[V36]]) : tensor<35xf32, #tg.addrspace<global>>
