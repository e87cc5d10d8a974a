// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-verify-spec=phase=full
// RUN: not tinygrad-opt %s -split-input-file --tg-verify-spec=phase=nonsense 2>&1 | FileCheck %s --check-prefix=PHASE

// spec_full = spec_full extras + tensor + shared + program + hcq: any graph
// of any phase is accepted.

// PHASE: error: unknown spec phase 'nonsense' (expected shared, tensor, program, hcq, kernel_graph or full)

// Tensor-graph, program and queue nodes all pass; spec_full.{end,after,
// load_store} accept ENDs, AFTERs and LOAD/STOREs on anything.
%c4 = tg.const 4 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c4 : !tg.weakint)
%e = tgt.expand %b, %c4 : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%r = tgk.range %c4 [0] <loop> : !tg.weakint
%i = tgk.index %b[%r] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%v = tgk.load %b : tensor<4xf32, #tg.addrspace<global>>
%st = tgk.store %v, %b : tensor<4xf32>, tensor<4xf32, #tg.addrspace<global>>
%n = tg.noop : () -> !tg.void
%end = tgk.end %st, %n : !tg.void, !tg.void
%f = tg.const 1.0 : f32
%a = tg.after %f : f32
%pb = hcq.program %b : tensor<4xf32, #tg.addrspace<global>>
%ga = hcq.getaddr %b on("CPU") : tensor<4xf32, #tg.addrspace<global>>
%si = tg.const 4 : si32
%sp = tgk.special "gidx0" %si : si32
%inv = tg.const invalid : i1

// -----

// Still rejected in every phase: a CONTIGUOUS with opts ...
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_full: no rule accepts CONTIGUOUS with operands (CONST) in this phase}}
%c = tgt.contiguous %f {arg = []} : f32

// -----

// ... and a BUFFER the tensor graph rejects (the first rejecting rule wins).
%c4 = tg.const 4 : si32
// expected-error @+1 {{spec_full: BUFFER violates rule 'spec_tensor.buffer_global': shape operand must be weakint}}
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c4 : si32)
