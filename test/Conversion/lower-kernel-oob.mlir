// RUN: not tinygrad-opt %s --tg-lower-kernel 2>&1 | FileCheck %s

// Every access of this store is past the end of the 8-element buffer.
// CHECK: error: tg-lower-kernel: cannot lower kernel: INDEX: index range [8, 15] is outside buffer slot 0 of 8 elements
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tg.add %2, %0 : !tg.weakint, !tg.weakint
%4 = tgk.index %1[%3] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tg.const 1.0 : f32
%6 = tgk.store %5, %4 : f32, tensor<f32, #tg.addrspace<global>>
%7 = tgk.end %6, %2 : !tg.void, !tg.weakint
%8 = tg.sink(%7) {arg = #tg.kernel_info<name = "oob", axis_types = [], applied_opts = []>} : !tg.void
