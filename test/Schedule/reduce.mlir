// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// REDUCE: the reduced axis becomes a REDUCE-typed range closed by the REDUCE, the output range by the END.
// tinygrad: a.sum(0) on [8, 12] (the call of
// corpus program red_sum_axis0); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 12 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 96 : !tg.weakint
  %3 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%2 : !tg.weakint)
  %4 = tg.const 8 : !tg.weakint
  %5 = tg.stack(%4, %0) : !tg.weakint, !tg.weakint
  %6 = tgt.reshape %3, %5 : tensor<96xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %7 = tgt.reduce <add> 1 %6 : tensor<8x12xf32, #tg.addrspace<global>>
  %8 = tgk.store %7, %1 : tensor<12xf32, #tg.addrspace<global>>, tensor<12xf32, #tg.addrspace<global>>
  %9 = tg.after %1 deps(%8 : !tg.void) : tensor<12xf32, #tg.addrspace<global>>
  %10 = tg.sink(%9) : tensor<12xf32, #tg.addrspace<global>>
  %11 = tg.buffer <slot = 171, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %12 = tg.buffer <slot = 170, dtype = f32, device = "CPU"> shape(%2 : !tg.weakint)
  %13 = tg.call %10(%11, %12) {arg = #tg.call_info<>} : (!tg.void, tensor<12xf32, #tg.addrspace<global>>, tensor<96xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 12 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tgk.range [[V0]] [1] <weak> : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.index [[V2]][[[V3]]] : tensor<12xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.const 96 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V5]] : !tg.weakint)
// CHECK: [[V7:%[0-9]+]] = tg.const 8 : !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tgk.range [[V7]] [0] <reduce> : !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tg.mul [[V8]], [[V0]] : !tg.weakint, !tg.weakint
// CHECK: [[V10:%[0-9]+]] = tg.add [[V9]], [[V3]] : !tg.weakint, !tg.weakint
// CHECK: [[V11:%[0-9]+]] = tgk.index [[V6]][[[V10]]] : tensor<96xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V12:%[0-9]+]] = tgt.reduce <add> 0 [[V11]] ranges([[V8]] : !tg.weakint) : tensor<f32, #tg.addrspace<global>>
// CHECK: [[V13:%[0-9]+]] = tgk.store [[V12]], [[V4]] : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V14:%[0-9]+]] = tgk.end [[V13]], [[V3]] : !tg.void, !tg.weakint
// CHECK: [[V15:%[0-9]+]] = tg.sink([[V14]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V16:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V5]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V17:%[0-9]+]] = tg.call [[V15]]([[V1]], [[V16]]) {arg = #tg.call_info<>} : (!tg.void, tensor<12xf32, #tg.addrspace<global>>, tensor<96xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V18:%[0-9]+]] = tg.after [[V1]] deps([[V17]] : !tg.void) : tensor<12xf32, #tg.addrspace<global>>
// CHECK: [[V19:%[0-9]+]] = tg.sink([[V18]]) : tensor<12xf32, #tg.addrspace<global>>
