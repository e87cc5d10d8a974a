// RUN: not tinygrad-opt %s -split-input-file --tg-lower-kernel 2>&1 | FileCheck %s

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

// -----

// A kernel-local buffer lowers to the stack only in LOCAL memory; a REG
// one is named, not miscompiled.
// CHECK: error: tg-lower-kernel: cannot lower kernel: BUFFER: only LOCAL buffers are lowered on CPU
%c8 = tg.const 8 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%p = tg.buffer <slot = 0, dtype = f32, addrspace = reg> shape(%c8 : !tg.weakint)
%i = tgk.range %c8 [0] <loop> : !tg.weakint
%px = tgk.index %p[%i] : tensor<8xf32, #tg.addrspace<reg>>, !tg.weakint
%ox = tgk.index %out[%i] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%st = tgk.store %px, %ox : tensor<f32, #tg.addrspace<reg>>, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %i : !tg.void, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
