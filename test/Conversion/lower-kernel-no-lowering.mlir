// RUN: not tinygrad-opt %s --tg-lower-kernel 2>&1 | FileCheck %s

// A value the CPU target has no type for: the diagnostic names the node and
// the dtypes (it used to end after "cannot lower kernel:").
// CHECK: error: tg-lower-kernel: cannot lower kernel: CAST: no CPU lowering from float32 to _uint128
%0 = tg.const 4 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <loop> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.cast %3 to ui128 : tensor<f32, #tg.addrspace<global>>
%5 = tg.cast %4 to f32 : tensor<ui128, #tg.addrspace<global>>
%6 = tgk.store %5, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%7 = tgk.end %6, %2 : !tg.void, !tg.weakint
%8 = tg.sink(%7) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
