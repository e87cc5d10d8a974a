// out[i] = 2 * in[i] over 2^24 floats, upcast by 8: its 128 MB of buffers
// exceed any last-level cache, so its store is non-temporal where `out` is
// aligned (and a plain store where it is not).
%0 = tg.const 16777216 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<16777216xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<16777216xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "stream", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void
