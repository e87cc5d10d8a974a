// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-lower-kernel=target=vulkan
// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-lower-kernel=target=cuda:sm_90

// A kernel over the target's limits is an error naming the target and the
// limit, never a module the driver rejects or runs wrong: 64 KB of
// workgroup memory on vulkan (32 KB); CUDA's 48 KB is exceeded too.
%c4 = tg.const 4 : !tg.weakint
%c8 = tg.const 8 : !tg.weakint
%c16 = tg.const 16 : !tg.weakint
%c32 = tg.const 32 : !tg.weakint
%c64 = tg.const 64 : !tg.weakint
%c128 = tg.const 128 : !tg.weakint
%c512 = tg.const 512 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c128 : !tg.weakint)
%x = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%c64 : !tg.weakint)
%w = tg.param <slot = 2, dtype = f32, device = "CPU"> shape(%c512 : !tg.weakint)
%c16384 = tg.const 16384 : !tg.weakint
%p = tg.buffer <slot = 0, dtype = f32, addrspace = local> shape(%c16384 : !tg.weakint)
%o = tgk.range %c4 [0] <loop> : !tg.weakint
%kf = tgk.range %c16 [3] <loop> : !tg.weakint
%jf = tgk.range %c8 [4] <upcast> : !tg.weakint
%kf8 = tg.mul %kf, %c8 : !tg.weakint, !tg.weakint
%pf = tg.add %kf8, %jf : !tg.weakint, !tg.weakint
%o128 = tg.mul %o, %c128 : !tg.weakint, !tg.weakint
%wf = tg.add %o128, %pf : !tg.weakint, !tg.weakint
%px = tgk.index %p[%pf] : tensor<16384xf32, #tg.addrspace<local>>, !tg.weakint
%wx = tgk.index %w[%wf] : tensor<512xf32, #tg.addrspace<global>>, !tg.weakint
%fst = tgk.store %wx, %px : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<local>>
%fill = tgk.end %fst, %kf, %jf : !tg.void, !tg.weakint, !tg.weakint
%staged = tg.after %p deps(%fill : !tg.void) : tensor<16384xf32, #tg.addrspace<local>>
%i = tgk.range %c4 [5] <loop> : !tg.weakint
%j = tgk.range %c8 [2] <upcast> : !tg.weakint
%k = tgk.range %c16 [1] <reduce> : !tg.weakint
%i16 = tg.mul %i, %c16 : !tg.weakint, !tg.weakint
%xi = tg.add %i16, %k : !tg.weakint, !tg.weakint
%k8 = tg.mul %k, %c8 : !tg.weakint, !tg.weakint
%pi = tg.add %k8, %j : !tg.weakint, !tg.weakint
%xx = tgk.index %x[%xi] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%pr = tgk.index %staged[%pi] : tensor<16384xf32, #tg.addrspace<local>>, !tg.weakint
%m = tg.mul %xx, %pr : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<local>>
%r = tgt.reduce <add> 0 %m ranges(%k : !tg.weakint) : f32
%o32 = tg.mul %o, %c32 : !tg.weakint, !tg.weakint
%i8 = tg.mul %i, %c8 : !tg.weakint, !tg.weakint
%oi0 = tg.add %o32, %i8 : !tg.weakint, !tg.weakint
%oi = tg.add %oi0, %j : !tg.weakint, !tg.weakint
%ox = tgk.index %out[%oi] : tensor<128xf32, #tg.addrspace<global>>, !tg.weakint
%st = tgk.store %r, %ox : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %o, %i, %j : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
// expected-error @+1 {{the kernel needs 65536 bytes of workgroup memory, more than}}
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
