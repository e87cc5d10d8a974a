// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-verify-spec=phase=tensor

// spec_tensor (+ spec_shared): every rule accepting, and every rejection.

// A tensor graph: spec_tensor.{buffer_global,reshape_expand,permute_flip,
// pad_shrink,reduce,copy,unshard,mselect,mstack,contiguous,stage,tuple,call,
// custom_function,transcendental,special,program} accept.
%c2 = tg.const 2 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%c6 = tg.const 6 : !tg.weakint
%c0 = tg.const 0 : !tg.weakint
%s23 = tg.stack(%c2, %c3) : !tg.weakint, !tg.weakint
%s00 = tg.stack(%c0, %c0) : !tg.weakint, !tg.weakint
%s12 = tg.stack(%c2, %c2) : !tg.weakint, !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c6 : !tg.weakint)
%bt = tg.buffer <slot = 1, dtype = f32, device = ["CPU:0", "CPU:1"]> shape(%c6 : !tg.weakint)
%r = tgt.reshape %b, %s23 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%e = tgt.expand %r, %c2 : tensor<2x3xf32, #tg.addrspace<global>>, !tg.weakint
%pm = tgt.permute %r [1, 0] : tensor<2x3xf32, #tg.addrspace<global>>
%fl = tgt.flip %r [true, false] : tensor<2x3xf32, #tg.addrspace<global>>
%sh = tgt.shrink %r, %s00, %s12 : tensor<2x3xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
%pd = tgt.pad %sh, %s00, %s23 : tensor<2x2xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
%rd = tgt.reduce <add> 1 %e : tensor<2x2x3xf32, #tg.addrspace<global>>
%sq = tg.sqrt %rd : tensor<2x3xf32, #tg.addrspace<global>>
%cp = tgt.copy %sq to("CUDA") : tensor<2x3xf32>
%ar = tgt.allreduce <add> %bt on(["CPU:0", "CPU:1"]) : tensor<6xf32, #tg.addrspace<global>>
%ms = tgt.mselect %bt[1] : tensor<6xf32, #tg.addrspace<global>>
%mk = tgt.mstack %b, %b : tensor<6xf32, #tg.addrspace<global>>, tensor<6xf32, #tg.addrspace<global>>
%rg = tgk.range %c2 [0] <device> : !tg.weakint
%us = tgt.unshard %b, [0] ranges(%rg : !tg.weakint) : tensor<6xf32, #tg.addrspace<global>>
%ct = tgt.contiguous %cp : tensor<2x3xf32>
%cb = tgt.contiguous_backward %ct : tensor<2x3xf32>
%dt = tgt.detach %cb : tensor<2x3xf32>
%st = tgt.stage %dt ranges(%rg : !tg.weakint) <device = "CPU"> : tensor<2x3xf32>
%sp = tgk.special "gidx0" %c6 : !tg.weakint
%tu = tg.tuple(%dt) : tensor<2x3xf32>
%gt = tg.gettuple %tu[0] : !tg.void -> tensor<2x3xf32>
%ks = tg.sink(%b) : tensor<6xf32, #tg.addrspace<global>>
%call = tg.call %ks(%b) : (!tg.void, tensor<6xf32, #tg.addrspace<global>>) -> !tg.void
%cf = hcq.custom_function "encdec"(%b : tensor<6xf32, #tg.addrspace<global>>)
%cfc = tg.call %cf(%b) : (!tg.void, tensor<6xf32, #tg.addrspace<global>>) -> !tg.void
%lin = hcq.linear(%ks) : !tg.void
%src = hcq.source "int main() {}"
%bin = hcq.binary "\00"
%prog = hcq.program %ks, %lin, %src, %bin : !tg.void, !tg.void, !tg.void, tensor<1xui8>
%pc = tg.call %prog() : (!tg.void) -> !tg.void
%inv = tg.const invalid : i1
%ie = tg.exp2 %inv : i1
%vs = tg.stack()
%var = tg.buffer <slot = 2, dtype = si32, vmin_vmax = [1, 10], addrspace = alu> shape(%vs : !tg.void)

// -----

// spec_tensor.buffer_global: the shape of a GLOBAL BUFFER is weakint.
%c6 = tg.const 6 : si32
// expected-error @+1 {{spec_tensor: BUFFER violates rule 'spec_tensor.buffer_global': shape operand must be weakint}}
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c6 : si32)

// -----

// spec_tensor.buffer_global: ... and it lives on a device.
%c6 = tg.const 6 : !tg.weakint
// expected-error @+1 {{spec_tensor: BUFFER violates rule 'spec_tensor.buffer_global': a GLOBAL BUFFER needs a device (string or tuple)}}
%b = tg.buffer <slot = 0, dtype = f32> shape(%c6 : !tg.weakint)

// -----

// spec_tensor.buffer_variable: a Variable BUFFER has no device.
%e = tg.stack()
// expected-error @+1 {{spec_tensor: BUFFER violates rule 'spec_tensor.buffer_variable': a Variable BUFFER has no device}}
%v = tg.buffer <slot = 0, dtype = si32, vmin_vmax = [1, 10], addrspace = alu, device = "CPU"> shape(%e : !tg.void)

// -----

// spec_tensor.pad_shrink: offsets and sizes have the same shape.
%c0 = tg.const 0 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%s2 = tg.stack(%c2) : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{spec_tensor: SHRINK violates rule 'spec_tensor.pad_shrink': offsets and sizes must have the same shape}}
%s = tgt.shrink %x, %c0, %s2 : tensor<2xf32>, !tg.weakint, tensor<1x!tg.weakint>

// -----

// spec_tensor.mselect: the source must be multi-device.
%c6 = tg.const 6 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c6 : !tg.weakint)
// expected-error @+1 {{spec_tensor: MSELECT violates rule 'spec_tensor.mselect': the source must be multi-device with more than `index` devices}}
%m = tgt.mselect %b[0] : tensor<6xf32, #tg.addrspace<global>>

// -----

%c6 = tg.const 6 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = ["CPU:0", "CPU:1"]> shape(%c6 : !tg.weakint)
// expected-error @+1 {{spec_tensor: MSELECT violates rule 'spec_tensor.mselect'}}
%m = tgt.mselect %b[2] : tensor<6xf32, #tg.addrspace<global>>

// -----

// spec_tensor.mstack: each source lives on one device.
%c6 = tg.const 6 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = ["CPU:0", "CPU:1"]> shape(%c6 : !tg.weakint)
// expected-error @+1 {{spec_tensor: MSTACK violates rule 'spec_tensor.mstack': sources must each live on one device}}
%m = tgt.mstack %b, %b : tensor<6xf32, #tg.addrspace<global>>, tensor<6xf32, #tg.addrspace<global>>

// -----

// spec_tensor.contiguous: a CONTIGUOUS with opts is not a tensor-graph node.
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_tensor: no rule accepts CONTIGUOUS with operands (CONST) in this phase}}
%c = tgt.contiguous %f {arg = [#tg.opt<op = upcast, axis = 0, arg = 4>]} : f32

// -----

// spec_tensor.program: PROGRAM srcs are SINK[, LINEAR[, SOURCE[, BINARY]]] in order.
%ks = tg.sink()
%src = hcq.source "x"
// expected-error @+1 {{spec_tensor: no rule accepts PROGRAM with operands (SINK, SOURCE) in this phase}}
%p = hcq.program %ks, %src : !tg.void, !tg.void

// -----

// spec_tensor.special: a tensor-graph SPECIAL is weakint.
%c = tg.const 6 : si32
// expected-error @+1 {{spec_tensor: no rule accepts SPECIAL with operands (CONST) in this phase}}
%s = tgk.special "gidx0" %c : si32

// -----

// spec_tensor.call: a void CALL's body is a SINK/LINEAR/PROGRAM/COPY/CUSTOM_FUNCTION.
%n = tg.noop : () -> !tg.void
// expected-error @+1 {{spec_tensor: no rule accepts CALL with operands (NOOP) in this phase}}
%c = tg.call %n() : (!tg.void) -> !tg.void

// -----

// Program-only ops are not tensor-graph nodes.
%c = tg.const 6 : si32
%p = tg.param <slot = 0, dtype = f32> shape(%c : si32)
%i = tgk.index %p[%c] : tensor<6xf32, #tg.addrspace<global>>, si32
%t = tg.const true : i1
// expected-error @+1 {{spec_tensor: no rule accepts IF with operands (CONST, INDEX) in this phase}}
%if = tgk.if %t, %i : i1, tensor<f32, #tg.addrspace<global>>
// expected-error @+1 {{spec_tensor: no rule accepts ENDIF with operands (IF) in this phase}}
%endif = tgk.endif %if
