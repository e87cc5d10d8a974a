// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics

// One case per verifier / inference error of the tgk dialect.

%c = tg.const 4 : !tg.weakint
// expected-error @+1 {{violates spec rule 'spec_shared.range': arg needs at least one axis id before the AxisType}}
%0 = tgk.range %c [] <loop> : !tg.weakint

// -----

%f = tg.const 4.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.range': the bound (operand #0) must be a scalar int, got 'f32'}}
%0 = tgk.range %f [0] <loop> : f32

// -----

%c = tg.const 4 : si32
%v = tg.stack(%c, %c) : si32, si32
// expected-error @+1 {{violates spec rule 'spec_shared.range': the bound (operand #0) must be a scalar int, got 'tensor<2xsi32>'}}
%0 = tgk.range %v [0] <loop> : tensor<2xsi32>

// -----

%b = tg.const true : i1
// expected-error @+1 {{violates spec rule 'spec_shared.range': the bound (operand #0) must be a scalar int, got 'i1'}}
%0 = tgk.range %b [0] <loop> : i1

// -----

%v = tg.stack()
// expected-error @+1 {{violates spec rule 'spec_tensor.special': the bound (operand #0) must be a scalar int, got '!tg.void'}}
%0 = tgk.special "gidx0" %v : !tg.void

// -----

%v = tg.stack()
%c = tg.const 0 : !tg.weakint
// expected-error @+1 {{cannot index a void value}}
%0 = tgk.index %v[%c] : !tg.void, !tg.weakint

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.index': index operand #1 must be an int, got 'f32'}}
%0 = tgk.index %p[%f] : tensor<4xf32, #tg.addrspace<global>>, f32

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%b = tg.const true : i1
// expected-error @+1 {{violates spec rule 'spec_shared.index': index operand #2 must be an int, got 'i1'}}
%0 = tgk.index %p[%c, %b] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint, i1

// -----

%v = tg.stack()
// expected-error @+1 {{cannot load from a void value}}
%0 = tgk.load %v : !tg.void

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%i = tgk.index %p[%c] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%f = tg.const 0.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.load': a gated load needs both an alternative and a gate}}
%0 = tgk.load %i else %f : f32 : tensor<f32, #tg.addrspace<global>>

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%i = tgk.index %p[%c] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%b = tg.const true : i1
// expected-error @+1 {{violates spec rule 'spec_shared.load': a gated load needs both an alternative and a gate}}
%0 = tgk.load %i if %b : i1 : tensor<f32, #tg.addrspace<global>>

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%i = tgk.index %p[%c] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%f = tg.const 0.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.load': the gate must be bool, got 'f32'}}
%0 = tgk.load %i else %f : f32 if %f : f32 : tensor<f32, #tg.addrspace<global>>

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%i = tgk.index %p[%c] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%h = tg.const 0.0 : f16
%b = tg.const true : i1
// expected-error @+1 {{violates spec rule 'spec_shared.load': the alternative has dtype 'f16' but the load produces 'f32'}}
%0 = tgk.load %i else %h : f16 if %b : i1 : tensor<f32, #tg.addrspace<global>>

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%i = tgk.index %p[%c] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%f = tg.const 0.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.store': the gate must be bool, got 'f32'}}
%0 = tgk.store %f, %i if %f : f32 : f32, tensor<f32, #tg.addrspace<global>>

// -----

%v = tg.stack()
%f = tg.const 0.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.store': the target must be a buffer or index, not a void value}}
%0 = tgk.store %f, %v : f32, !tg.void

// -----

%c = tg.const 4 : !tg.weakint
%p = tg.param <slot = 0, dtype = f32> shape(%c : !tg.weakint)
%i = tgk.index %p[%c] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
// expected-error @+1 {{violates spec rule 'spec_program.if': the gate (operand #0) must be bool, got '!tg.weakint'}}
%0 = tgk.if %c, %i : !tg.weakint, tensor<f32, #tg.addrspace<global>>

// -----

%v = tg.stack()
// expected-error @+1 {{violates spec rule 'spec_program.endif': operand #0 must be an IF}}
%0 = tgk.endif %v

// -----

%f = tg.const 0.0 : f32
%a = tg.stack(%f, %f) : f32, f32
// expected-error @+1 {{wmma operands must be shaped}}
%0 = tgk.wmma %f, %a, %a [[8, 16, 8], f16, "CUDA", 32, none] : f32, tensor<2xf32>, tensor<2xf32>

// -----

%f = tg.const 0.0 : f32
%a = tg.stack(%f, %f) : f32, f32
%b = tg.stack(%a, %a) : tensor<2xf32>, tensor<2xf32>
%c = tg.stack(%a, %a, %a) : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
// expected-error @+1 {{wmma operand shapes do not broadcast}}
%0 = tgk.wmma %b, %c, %a [[8, 16, 8], f16, "CUDA", 32, none] : tensor<2x2xf32>, tensor<3x2xf32>, tensor<2xf32>

// -----

%f = tg.const 0.0 : f32
%a = tg.stack(%f, %f) : f32, f32
// expected-error @+1 {{violates spec rule 'spec_shared.wmma': arg must be a 5-tuple (dims, dtype_in, device, threads, upcast_axes), got 4 elements}}
%0 = tgk.wmma %a, %a, %a [[8, 16, 8], f16, "CUDA", 32] : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>

// -----

// RANGE's result is its end's dtype; a stated one must agree.
%c = tg.const 4 : si32
// expected-error @+2 {{'tgk.range' op inferred type(s) 'si32' are incompatible with return type(s) of operation 'si64'}}
// expected-error @+1 {{'tgk.range' op failed to infer returned types}}
%0 = "tgk.range"(%c) <{axis_type = #tg.axis_type<loop>, ids = array<i64: 0>}> : (si32) -> si64
