// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-verify-spec=phase=program

// spec_program (+ spec_shared): accepting and rejecting.

// A linearized program: spec_program.{shrink_view,buffer,if,endif,special}
// accept; the weak CONST inside a CAST is spec_program.weak_const.
%w = tg.const 4 : !tg.weakint
%c4 = tg.cast %w to si32 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c4 : si32)
%sp = tgk.special "gidx0" %c4 : si32
%i = tgk.index %p[%sp] : tensor<?xf32, #tg.addrspace<global>>, si32
%g = tg.cmplt %sp, %c4 : si32, si32
%if = tgk.if %g, %i : i1, tensor<f32, #tg.addrspace<global>>
%v = tgk.load %i : tensor<f32, #tg.addrspace<global>>
%st = tgk.store %v, %i : f32, tensor<f32, #tg.addrspace<global>>
%endif = tgk.endif %if
%c0 = tg.const 0 : si32
%view = tgt.shrink %p, %c0, %c4 : tensor<?xf32, #tg.addrspace<global>>, si32, si32
%reg = tg.buffer <slot = 1, dtype = f32, addrspace = reg> shape(%c4 : si32)
%wf = tg.const 0.5 : !tg.weakfloat
%h = tg.cast %wf to f16 : !tg.weakfloat

// -----

// spec_program.no_weak: weak dtypes are gone after lowering.
%a = tg.const 1 : !tg.weakint
// expected-error @+1 {{spec_program: ADD violates rule 'spec_program.no_weak': weak dtypes are not allowed in programs (only the CONST inside a CAST)}}
%b = tg.add %a, %a : !tg.weakint, !tg.weakint

// -----

// spec_program.no_movement: views other than a SHRINK of a buffer are gone.
%c4 = tg.const 4 : si32
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_program: EXPAND violates rule 'spec_program.no_movement': movement ops are not allowed in programs}}
%e = tgt.expand %f, %c4 : f32, si32

// -----

%c4 = tg.const 4 : si32
%c0 = tg.const 0 : si32
%f = tg.const 1.0 : f32
%e = tg.stack(%f, %f, %f, %f) : f32, f32, f32, f32
// A SHRINK of a non-buffer is a movement op.
// expected-error @+1 {{spec_program: SHRINK violates rule 'spec_program.no_movement'}}
%s = tgt.shrink %e, %c0, %c4 : tensor<4xf32>, si32, si32

// -----

// spec_program.buffer: only REG/LOCAL BUFFERs.
%c4 = tg.const 4 : si32
// expected-error @+1 {{spec_program: BUFFER violates rule 'spec_program.buffer': a BUFFER in a program must be REG or LOCAL}}
%b = tg.buffer <slot = 0, dtype = f32> shape(%c4 : si32)

// -----

// spec_program.no_invalid
// expected-error @+1 {{spec_program: CONST violates rule 'spec_program.no_invalid': Invalid is not allowed in programs}}
%i = tg.const invalid : i1

// -----

// spec_program.if: the IF's second operand is the INDEX it guards.
%t = tg.const true : i1
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_program: no rule accepts IF with operands (CONST, CONST) in this phase}}
%if = tgk.if %t, %f : i1, f32

// -----

// spec_program.special: a program SPECIAL is int32 (a weakint one is weak).
%c = tg.const 4 : si64
// expected-error @+1 {{spec_program: no rule accepts SPECIAL with operands (CONST) in this phase}}
%s = tgk.special "gidx0" %c : si64

// -----

// Tensor-graph ops are not program ops.
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_program: no rule accepts DETACH with operands (CONST) in this phase}}
%d = tgt.detach %f : f32

// -----

// A float transcendental of an int: spec_tensor accepts it, spec_shared
// (here, after spec_program) does not.
%a = tg.const 4 : si32
// expected-error @+1 {{spec_shared.alu}}
%0 = tg.reciprocal %a : si32
