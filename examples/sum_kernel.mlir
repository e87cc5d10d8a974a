// A kernel AST as it enters codegen: out[0] = sum(in[0..15] * 2 + 1), with
// constant sub-expressions left in for the folder to remove.
%c1 = tg.const 1 : !tg.weakint
%c16 = tg.const 16 : !tg.weakint
%shape_out = tg.stack(%c1) : !tg.weakint
%shape_in = tg.stack(%c16) : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, addrspace = global> shape(%shape_out : tensor<1x!tg.weakint>)
%in = tg.param <slot = 1, dtype = f32, addrspace = global> shape(%shape_in : tensor<1x!tg.weakint>)
%r = tgk.range %c16 [0] <reduce> : !tg.weakint
%idx = tgk.index %in[%r] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%x = tgk.load %idx : tensor<f32, #tg.addrspace<global>>
%one = tg.const 1.0 : f32
%half = tg.const 0.5 : f32
%four = tg.const 4.0 : f32
%two = tg.mul %half, %four : f32, f32
%x2 = tg.mul %x, %two : f32, f32
%x3 = tg.add %x2, %one : f32, f32
%acc = tgt.reduce <add> 0 %x3 ranges(%r : !tg.weakint) : f32
%c0 = tg.const 0 : !tg.weakint
%o = tgk.index %out[%c0] : tensor<1xf32, #tg.addrspace<global>>, !tg.weakint
%st = tgk.store %acc, %o : f32, tensor<f32, #tg.addrspace<global>>
%sink = tg.sink(%st) {arg = #tg.kernel_info<name = "r_16", axis_types = [#tg.axis_type<reduce>], applied_opts = []>} : !tg.void
