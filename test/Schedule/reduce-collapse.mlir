// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// arange: the REDUCE over a padded ones tensor collapses (reduce_collapse) to a cast of the range.
// tinygrad: Tensor.arange(16).clone('CPU') on  (the call of
// corpus program arange_int); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 16 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 1 : si32
  %3 = tg.const 1 : !tg.weakint
  %4 = tgt.reshape %2, %3 : si32, !tg.weakint
  %5 = tg.stack()
  %6 = tgt.reshape %4, %5 : tensor<1xsi32>, !tg.void
  %7 = tgt.expand %6, %0 : si32, !tg.weakint
  %8 = tg.const 15 : !tg.weakint
  %9 = tg.const 31 : !tg.weakint
  %10 = tgt.pad %7, %8, %9 : tensor<16xsi32>, !tg.weakint, !tg.weakint
  %11 = tg.stack(%3, %9) : !tg.weakint, !tg.weakint
  %12 = tgt.reshape %10, %11 : tensor<31xsi32>, tensor<2x!tg.weakint>
  %13 = tgt.reshape %12, %9 : tensor<1x31xsi32>, !tg.weakint
  %14 = tg.const 17 : !tg.weakint
  %15 = tgt.expand %13, %14 : tensor<31xsi32>, !tg.weakint
  %16 = tg.const 527 : !tg.weakint
  %17 = tgt.reshape %15, %16 : tensor<17x31xsi32>, !tg.weakint
  %18 = tg.const 0 : !tg.weakint
  %19 = tg.const 512 : !tg.weakint
  %20 = tgt.shrink %17, %18, %19 : tensor<527xsi32>, !tg.weakint, !tg.weakint
  %21 = tg.const 32 : !tg.weakint
  %22 = tg.stack(%0, %21) : !tg.weakint, !tg.weakint
  %23 = tgt.reshape %20, %22 : tensor<512xsi32>, tensor<2x!tg.weakint>
  %24 = tg.stack(%18, %18) : !tg.weakint, !tg.weakint
  %25 = tg.stack(%0, %0) : !tg.weakint, !tg.weakint
  %26 = tgt.shrink %23, %24, %25 : tensor<16x32xsi32>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
  %27 = tg.stack(%0, %0, %3) : !tg.weakint, !tg.weakint, !tg.weakint
  %28 = tgt.reshape %26, %27 : tensor<16x16xsi32>, tensor<3x!tg.weakint>
  %29 = tgt.reshape %28, %25 : tensor<16x16x1xsi32>, tensor<2x!tg.weakint>
  %30 = tgt.permute %29 [1, 0] : tensor<16x16xsi32>
  %31 = tgt.permute %30 [1, 0] : tensor<16x16xsi32>
  %32 = tgt.reduce <add> 1 %31 : tensor<16x16xsi32>
  %33 = tg.const -1 : !tg.weakint
  %34 = tg.add %32, %33 : tensor<16xsi32>, !tg.weakint
  %35 = tgk.store %34, %1 : tensor<16xsi32>, tensor<16xsi32, #tg.addrspace<global>>
  %36 = tg.after %1 deps(%35 : !tg.void) : tensor<16xsi32, #tg.addrspace<global>>
  %37 = tg.sink(%36) : tensor<16xsi32, #tg.addrspace<global>>
  %38 = tg.buffer <slot = 355, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
  %39 = tg.call %37(%38) {arg = #tg.call_info<>} : (!tg.void, tensor<16xsi32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 16 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = si32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = si32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tgk.range [[V0]] [0] <weak> : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.index [[V2]][[[V3]]] : tensor<16xsi32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.cast [[V3]] to si32 : !tg.weakint
// CHECK: [[V6:%[0-9]+]] = tgk.store [[V5]], [[V4]] : si32, tensor<si32, #tg.addrspace<global>>
// CHECK: [[V7:%[0-9]+]] = tgk.end [[V6]], [[V3]] : !tg.void, !tg.weakint
// CHECK: [[V8:%[0-9]+]] = tg.sink([[V7]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V9:%[0-9]+]] = tg.call [[V8]]([[V1]]) {arg = #tg.call_info<>} : (!tg.void, tensor<16xsi32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V10:%[0-9]+]] = tg.after [[V1]] deps([[V9]] : !tg.void) : tensor<16xsi32, #tg.addrspace<global>>
// CHECK: [[V11:%[0-9]+]] = tg.sink([[V10]]) : tensor<16xsi32, #tg.addrspace<global>>
