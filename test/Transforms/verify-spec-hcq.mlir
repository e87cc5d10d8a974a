// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-verify-spec=phase=hcq

// spec_hcq (+ spec_shared).

// spec_hcq.getaddr / spec_hcq.program accept buffers (and AFTERs of them).
%c = tg.const 16 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = ui8, addrspace = reg> shape(%c : !tg.weakint)
%a = tg.after %b : tensor<16xui8, #tg.addrspace<reg>>
%ga = hcq.getaddr %a on("CPU") : tensor<16xui8, #tg.addrspace<reg>>
%p = hcq.program %b : tensor<16xui8, #tg.addrspace<reg>>
%pa = hcq.program %a : tensor<16xui8, #tg.addrspace<reg>>
%ins = hcq.ins("exec") %ga : (ui64) -> !tg.void

// -----

// spec_hcq.getaddr: the address of a buffer, not of a value.
%f = tg.const 1.0 : f32
// expected-error @+1 {{spec_hcq: no rule accepts GETADDR with operands (CONST) in this phase}}
%ga = hcq.getaddr %f on("CPU") : f32

// -----

// spec_hcq.program: a PROGRAM of one buffer only.
%c = tg.const 16 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = ui8, addrspace = reg> shape(%c : !tg.weakint)
// expected-error @+1 {{spec_hcq: no rule accepts PROGRAM with operands (BUFFER, BUFFER) in this phase}}
%p = hcq.program %b, %b : tensor<16xui8, #tg.addrspace<reg>>, tensor<16xui8, #tg.addrspace<reg>>

// -----

%s = tg.sink()
// expected-error @+1 {{spec_hcq: no rule accepts PROGRAM with operands (SINK) in this phase}}
%p = hcq.program %s : !tg.void
