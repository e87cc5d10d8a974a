// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics

// One case per verifier / inference error of the tgt dialect.

%c = tg.const 2 : !tg.weakint
%v = tg.stack()
// expected-error @+1 {{reshape requires a shaped source, got '!tg.void'}}
%0 = tgt.reshape %v, %c : !tg.void, !tg.weakint

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{reshape shape operand of type 'f32' is not a shape (CONST or STACK of ints)}}
%0 = tgt.reshape %f, %f : f32, f32

// -----

%c = tg.const 2 : !tg.weakint
%m = tg.const -1 : !tg.weakint
%s = tg.stack(%c, %m) : !tg.weakint, !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c : f32, !tg.weakint
// expected-error @+1 {{reshape to a negative dim -1}}
%0 = tgt.reshape %x, %s : tensor<2xf32>, tensor<2x!tg.weakint>

// -----

%c2 = tg.const 2 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{reshape from (2,) to (3,) changes the element count (2 vs 3)}}
%0 = tgt.reshape %x, %c3 : tensor<2xf32>, !tg.weakint

// -----

%v = tg.stack()
%c = tg.const 2 : !tg.weakint
// expected-error @+1 {{expand requires a shaped source}}
%0 = tgt.expand %v, %c : !tg.void, !tg.weakint

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{expand shape operand of type 'f32' is not a shape}}
%0 = tgt.expand %f, %f : f32, f32

// -----

%v = tg.stack()
// expected-error @+1 {{permute requires a shaped source}}
%0 = tgt.permute %v [] : !tg.void

// -----

%c = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c : f32, !tg.weakint
// expected-error @+1 {{permutation of length 2 for a rank-1 value}}
%0 = tgt.permute %x [0, 0] : tensor<2xf32>

// -----

%c = tg.const 2 : !tg.weakint
%s = tg.stack(%c, %c) : !tg.weakint, !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %s : f32, tensor<2x!tg.weakint>
// expected-error @+1 {{perm is not a permutation of 0..1}}
%0 = tgt.permute %x [1, 1] : tensor<2x2xf32>

// -----

%c = tg.const 2 : !tg.weakint
%s = tg.stack(%c, %c) : !tg.weakint, !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %s : f32, tensor<2x!tg.weakint>
// expected-error @+1 {{perm is not a permutation of 0..1}}
%0 = tgt.permute %x [0, 2] : tensor<2x2xf32>

// -----

%v = tg.stack()
// expected-error @+1 {{flip requires a shaped source}}
%0 = tgt.flip %v [] : !tg.void

// -----

%c = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c : f32, !tg.weakint
// expected-error @+1 {{flip needs one flag per axis: 2 flags for rank 1}}
%0 = tgt.flip %x [true, false] : tensor<2xf32>

// -----

%v = tg.stack()
%c = tg.const 2 : !tg.weakint
// expected-error @+1 {{pad requires a shaped source}}
%0 = tgt.pad %v, %c, %c : !tg.void, !tg.weakint, !tg.weakint

// -----

%c = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c : f32, !tg.weakint
// expected-error @+1 {{offsets operand of type 'f32' is not a shape}}
%0 = tgt.pad %x, %f, %c : tensor<2xf32>, f32, !tg.weakint

// -----

%c = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c : f32, !tg.weakint
// expected-error @+1 {{sizes operand of type 'f32' is not a shape}}
%0 = tgt.shrink %x, %c, %f : tensor<2xf32>, !tg.weakint, f32

// -----

%c0 = tg.const 0 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%s = tg.stack(%c2, %c2) : !tg.weakint, !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{violates spec rule 'spec_tensor.pad_shrink': offsets have 1 entries but sizes 2}}
%0 = tgt.shrink %x, %c0, %s : tensor<2xf32>, !tg.weakint, tensor<2x!tg.weakint>

// -----

%c0 = tg.const 0 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%s = tg.stack(%c2, %c2) : !tg.weakint, !tg.weakint
%o = tg.stack(%c0, %c0) : !tg.weakint, !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{pad of 2 axes on a rank-1 value}}
%0 = tgt.pad %x, %o, %s : tensor<2xf32>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>

// -----

// PAD: the source (2,) at offset 1 does not fit in 2.
%c1 = tg.const 1 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{axis 0: offset 1 and size 2 cannot hold a dim of 2}}
%0 = tgt.pad %x, %c1, %c2 : tensor<2xf32>, !tg.weakint, !tg.weakint

// -----

%m = tg.const -1 : !tg.weakint
%c4 = tg.const 4 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{axis 0: offset -1 and size 4 cannot hold a dim of 2}}
%0 = tgt.pad %x, %m, %c4 : tensor<2xf32>, !tg.weakint, !tg.weakint

// -----

// SHRINK: [1, 3) falls outside a dim of 2.
%c1 = tg.const 1 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{axis 0: offset 1 and size 2 fall outside a dim of 2}}
%0 = tgt.shrink %x, %c1, %c2 : tensor<2xf32>, !tg.weakint, !tg.weakint

// -----

%v = tg.stack()
// expected-error @+1 {{unshard requires a shaped source}}
%0 = tgt.unshard %v, [] : !tg.void

// -----

%c2 = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{violates spec rule 'spec_tensor.unshard': 1 axes but 0 ranges}}
%0 = tgt.unshard %x, [0] : tensor<2xf32>

// -----

%c2 = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
%r = tgk.range %c2 [0] <device> : !tg.weakint
// expected-error @+1 {{unshard axis 1 out of range}}
%0 = tgt.unshard %x, [1] ranges(%r : !tg.weakint) : tensor<2xf32>

// -----

%c2 = tg.const 2 : si32
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, si32
%r = tgk.range %c2 [0] <device> : si32
// expected-error @+1 {{violates spec rule 'spec_tensor.unshard': range #0 must be weakint, got 'si32'}}
%0 = tgt.unshard %x, [0] ranges(%r : si32) : tensor<2xf32>

// -----

%v = tg.stack()
// expected-error @+1 {{reduce requires a shaped source}}
%0 = tgt.reduce <add> 0 %v : !tg.void

// -----

%c2 = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, !tg.weakint
// expected-error @+1 {{reduce of the first 2 axes of a rank-1 value}}
%0 = tgt.reduce <add> 2 %x : tensor<2xf32>

// -----

%c2 = tg.const 2 : si64
%f = tg.const 1.0 : f32
%x = tgt.expand %f, %c2 : f32, si64
%r = tgk.range %c2 [0] <reduce> : si64
// expected-error @+1 {{violates spec rule 'spec_tensor.reduce': range operand #1 must be weakint or int32, got 'si64'}}
%0 = tgt.reduce <add> 1 %x ranges(%r : si64) : tensor<2xf32>

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_tensor.allreduce': device must be a string or an array of strings}}
%0 = tgt.allreduce <add> %f on(0) : f32

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_tensor.copy': device must be a string or an array of strings}}
%0 = tgt.copy %f to(["CPU", 1]) : f32

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{arg must be an array of #tg.opt}}
%0 = tgt.contiguous %f {arg = 1} : f32

// -----

// expected-error @+1 {{needs at least one source}}
%0 = "tgt.mstack"() : () -> f32

// -----

%f = tg.const 1.0 : f32
%h = tg.const 1.0 : f16
// expected-error @+1 {{operand #1 has type 'f16' but operand #0 has 'f32'}}
%0 = tgt.mstack %f, %h : f32, f16

// -----

%v = tg.stack()
// expected-error @+1 {{stage requires a shaped source}}
%0 = tgt.stage %v <> : !tg.void

// -----

// The result type of every tgt op is inferred; a stated one must agree.
%c2 = tg.const 2 : !tg.weakint
%f = tg.const 1.0 : f32
// expected-error @+2 {{'tgt.expand' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
// expected-error @+1 {{'tgt.expand' op failed to infer returned types}}
%0 = "tgt.expand"(%f, %c2) : (f32, !tg.weakint) -> tensor<3xf32>
