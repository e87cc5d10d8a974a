// RUN: not tinygrad-opt %s --tg-lower-kernel 2>&1 | FileCheck %s

// A RANGE used after its END closed it has no open loop to live in (no
// opts: the heuristic would make it unrolled lanes).
// CHECK: error: tg-lower-kernel: cannot lower kernel: {{.*}}RANGE
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <reduce> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 1.0 : f32
%5 = tgk.store %4, %3 : f32, tensor<f32, #tg.addrspace<global>>
%14 = tg.sink(%5) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
