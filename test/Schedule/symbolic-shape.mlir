// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// Symbolic shapes: the range over a shrink to a bound Variable runs to the
// variable's PARAM, and the symbolic RESHAPE's linear index simplifies back to
// the ranges (tinygrad: `a[:v].reshape(-1) * 2` with a (10, 4), v = Variable(n, 1, 10)
// bound to 7, callified by tinygrad a9069c17; the expected kernel graph is what
// its get_kernel_graph returns).

module {
  %0 = tg.const 40 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 0 : !tg.weakint
  %3 = tg.stack()
  %4 = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [1, 10], multiple_of = 1, name = "p1", addrspace = alu> shape(%3 : !tg.void)
  %5 = tg.const 4 : !tg.weakint
  %6 = tg.mul %4, %5 : !tg.weakint, !tg.weakint
  %7 = tgt.shrink %1, %2, %6 : tensor<40xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
  %8 = tg.param <slot = 2, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %9 = tg.const 10 : !tg.weakint
  %10 = tg.stack(%9, %5) : !tg.weakint, !tg.weakint
  %11 = tgt.reshape %8, %10 : tensor<40xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %12 = tg.stack(%2, %2) : !tg.weakint, !tg.weakint
  %13 = tg.stack(%4, %5) : !tg.weakint, !tg.weakint
  %14 = tgt.shrink %11, %12, %13 : tensor<10x4xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
  %15 = tgt.reshape %14, %6 : tensor<?x4xf32, #tg.addrspace<global>>, !tg.weakint
  %16 = tg.const 2.0 : !tg.weakfloat
  %17 = tg.mul %15, %16 : tensor<?xf32, #tg.addrspace<global>>, !tg.weakfloat
  %18 = tgk.store %17, %7 : tensor<?xf32>, tensor<?xf32, #tg.addrspace<global>>
  %19 = tg.after %7 deps(%18 : !tg.void) : tensor<?xf32, #tg.addrspace<global>>
  %20 = tg.sink(%19) : tensor<?xf32, #tg.addrspace<global>>
  %21 = tg.buffer <slot = 7, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %22 = tg.buffer <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 10], multiple_of = 1, name = "n", addrspace = alu> shape(%3 : !tg.void)
  %23 = tg.const 7 : !tg.weakint
  %24 = tgk.store %23, %22 : !tg.weakint, !tg.weakint
  %25 = tg.after %22 deps(%24 : !tg.void) {tg.tag = [1]} : !tg.weakint
  %26 = tg.buffer <slot = 6, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %27 = tg.call %20(%21, %25, %26) {arg = #tg.call_info<>} : (!tg.void, tensor<40xf32, #tg.addrspace<global>>, !tg.weakint, tensor<40xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 40 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tg.stack()
// CHECK: [[V4:%[0-9]+]] = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 10], multiple_of = 1, name = "p1", addrspace = alu> shape([[V3]] : !tg.void) {tg.tag = []}
// CHECK: [[V5:%[0-9]+]] = tg.const 4 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tg.mul [[V4]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tgk.range [[V6]] [0] <weak> : !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tgk.index [[V2]][[[V7]]] : tensor<40xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tg.param <slot = 1, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V10:%[0-9]+]] = tg.floordiv [[V7]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V11:%[0-9]+]] = tg.floormod [[V10]], [[V4]] : !tg.weakint, !tg.weakint
// CHECK: [[V12:%[0-9]+]] = tg.mul [[V11]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V13:%[0-9]+]] = tg.floormod [[V7]], [[V5]] : !tg.weakint, !tg.weakint
// CHECK: [[V14:%[0-9]+]] = tg.add [[V12]], [[V13]] : !tg.weakint, !tg.weakint
// CHECK: [[V15:%[0-9]+]] = tgk.index [[V9]][[[V14]]] : tensor<40xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V16:%[0-9]+]] = tg.const 2.0 : !tg.weakfloat
// CHECK: [[V17:%[0-9]+]] = tg.mul [[V15]], [[V16]] : tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
// CHECK: [[V18:%[0-9]+]] = tgk.store [[V17]], [[V8]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V19:%[0-9]+]] = tgk.end [[V18]], [[V7]] : !tg.void, !tg.weakint
// CHECK: [[V20:%[0-9]+]] = tg.sink([[V19]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V21:%[0-9]+]] = tg.param <slot = 2, dtype = f32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V22:%[0-9]+]] = tg.call [[V20]]([[V1]], [[V21]]) {arg = #tg.call_info<>} : (!tg.void, tensor<40xf32, #tg.addrspace<global>>, tensor<40xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V23:%[0-9]+]] = tg.after [[V1]] deps([[V22]] : !tg.void) : tensor<40xf32, #tg.addrspace<global>>
// CHECK: [[V24:%[0-9]+]] = tg.sink([[V23]]) : tensor<40xf32, #tg.addrspace<global>>
