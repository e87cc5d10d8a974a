// RUN: not tinygrad-opt %s --tg-resolve-unshards -o /dev/null 2>&1 | FileCheck %s

// Rows ty + ir overlap other threads' rows: neither ownership pattern, so
// tinygrad's index_multi raises "cannot shard index" and so do we
// (test_custom_kernel.py's test_fragment_index_cannot_shard).
// CHECK: error: symbolic rewrite failed
// CHECK: note: index_multi: cannot shard index (r0+r1) for UNSHARD axis 0 with shard size 8
%0 = tg.const 512 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 64 : !tg.weakint
%3 = tg.const 8 : !tg.weakint
%4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
%5 = tgt.reshape %1, %4 : tensor<512xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%6 = tgk.range %3 [0] <local> : !tg.weakint
%7 = tgk.range %3 [1] <loop> : !tg.weakint
%8 = tg.add %6, %7 : !tg.weakint, !tg.weakint
%9 = tgk.range %3 [2] <loop> : !tg.weakint
%10 = tgk.index %5[%8, %9] : tensor<64x8xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%11 = tg.buffer <slot = 0, dtype = f32, addrspace = reg> shape(%2 : !tg.weakint)
%12 = tg.stack(%3, %3) : !tg.weakint, !tg.weakint
%13 = tgt.reshape %11, %12 : tensor<64xf32, #tg.addrspace<reg>>, tensor<2x!tg.weakint>
%14 = tgt.unshard %13, [0] ranges(%6 : !tg.weakint) : tensor<8x8xf32, #tg.addrspace<reg>>
%15 = tgk.index %14[%8, %9] : tensor<64x8xf32, #tg.addrspace<reg>>, !tg.weakint, !tg.weakint
%16 = tgk.store %15, %10 : tensor<f32, #tg.addrspace<reg>>, tensor<f32, #tg.addrspace<global>>
%17 = tgk.end %16, %9, %7, %6 : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
%18 = tg.sink(%17) {arg = #tg.kernel_info<name = "bad_frag", axis_types = [], applied_opts = []>} : !tg.void
