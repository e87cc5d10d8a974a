// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-verify-spec=phase=shared

// spec_shared: every rule accepting, and every way it rejects.

// spec_shared.{const,stack,alu,cast,sink,noop,param,range,index,load,store,
// group,end,after,custom,barrier,wmma,call}: a whole kernel is accepted.
%c4 = tg.const 4 : si32
%c1 = tg.const 1 : si32
%p = tg.param <slot = 0, dtype = f32> shape(%c4 : si32)
%r = tgk.range %c4 [0] <loop> : si32
%i = tgk.index %p[%r] : tensor<4xf32, #tg.addrspace<global>>, si32
%v = tgk.load %i : tensor<f32, #tg.addrspace<global>>
%g = tg.cmplt %r, %c1 : si32, si32
%z = tg.const 0.0 : f32
%vg = tgk.load %i else %z : f32 if %g : i1 : tensor<f32, #tg.addrspace<global>>
%x = tg.add %v, %vg : f32, f32
%y = tg.cast %x to f16 : f32
%yb = tg.bitcast %y to si16 : f16
%s = tgk.store %x, %i : f32, tensor<f32, #tg.addrspace<global>>
%sg = tgk.store %x, %i if %g : i1 : f32, tensor<f32, #tg.addrspace<global>>
%grp = tg.group(%s, %sg) : !tg.void, !tg.void
%e = tgk.end %grp, %r : !tg.void, si32
%vr = tg.stack()
%lr = tgk.range %vr [1] <loop> : !tg.void
%be = tgk.end %s, %lr, %g : !tg.void, !tg.void, i1
%n = tg.noop : () -> !tg.void
%vec = tg.stack(%c1, %c4) : si32, si32
%a = tg.after %p deps(%e : !tg.void) : tensor<4xf32, #tg.addrspace<global>>
%cu = tg.custom "{0};" %x : (f32) -> !tg.void
%ci = tg.customi "({0})" %x : (f32) -> f32
%b = tgk.barrier(%s) : !tg.void
%ins = hcq.ins("nop") : () -> !tg.void
%w = tgk.wmma %vec, %vec, %vec [[8, 16, 8], si32, "CUDA", 32, none] : tensor<2xsi32>, tensor<2xsi32>, tensor<2xsi32>
%addr = tg.const 1234 : ui64
%call = tg.call %addr(%x) : (ui64, f32) -> f32
%reg = tg.buffer <slot = 1, dtype = f32, addrspace = reg> shape(%c4 : si32)
%loc = tg.buffer <slot = 2, dtype = f32, addrspace = local> shape(%c4 : si32)
%sink = tg.sink(%a, %b) : tensor<4xf32, #tg.addrspace<global>>, !tg.void

// -----

// spec_shared.buffer: a BUFFER with a shape is REG or LOCAL scratch here.
%c4 = tg.const 4 : !tg.weakint
// expected-error @+1 {{spec_shared: BUFFER violates rule 'spec_shared.buffer': a BUFFER here must be REG or LOCAL scratch}}
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c4 : !tg.weakint)

// -----

// Tensor-graph ops have no shared rule.
%c4 = tg.const 4 : !tg.weakint
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_shared: no rule accepts EXPAND with operands (CONST, CONST) in this phase}}
%x = tgt.expand %f, %c4 : f32, !tg.weakint

// -----

// spec_shared.load needs an INDEX/SHRINK (possibly casted) to load from.
%c4 = tg.const 4 : si32
%p = tg.param <slot = 0, dtype = f32> shape(%c4 : si32)
// expected-error @+1 {{spec_shared: no rule accepts LOAD with operands (PARAM) in this phase}}
%v = tgk.load %p : tensor<4xf32, #tg.addrspace<global>>

// -----

// spec_shared.store: a gated STORE needs an INDEX target.
%c4 = tg.const 4 : si32
%p = tg.param <slot = 0, dtype = f32> shape(%c4 : si32)
%t = tg.const true : i1
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_shared: no rule accepts STORE with operands (PARAM, CONST, CONST) in this phase}}
%s = tgk.store %f, %p if %t : i1 : f32, tensor<4xf32, #tg.addrspace<global>>

// -----

// spec_shared.end: END closes RANGEs only.
%c4 = tg.const 4 : si32
%n = tg.noop : () -> !tg.void
// expected-error @+1 {{spec_shared: no rule accepts END with operands (NOOP, CONST) in this phase}}
%e = tgk.end %n, %c4 : !tg.void, si32

// -----

// spec_shared.after: AFTER passes a buffer-like source through, not an ALU value.
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_shared: no rule accepts AFTER with operands (CONST) in this phase}}
%a = tg.after %f : f32

// -----

// spec_shared.call: a void CALL (kernel) is a tensor-graph node.
%s = tg.sink()
// expected-error @+1 {{spec_shared: no rule accepts CALL with operands (SINK) in this phase}}
%c = tg.call %s() : (!tg.void) -> !tg.void

// -----

// Queue vocabulary and upstream ops are not graph UOps: never checked.
%d = hcq.device "CPU"
%q = hcq.queue %d <compute>
%sig = hcq.new_signal %d value 0
%v = arith.constant 1 : i64
hcq.wait %q, %sig, %v : i64
