// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-verify-spec=phase=kernel_graph

// spec_kernel_graph: the graph of kernel CALLs on buffers (no spec_shared).

// spec_kernel_graph.{sink,bind,const,stack,param,buffer,reshape_bitcast,
// mstack,mselect,call,after} accept.
%c6 = tg.const 6 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%s23 = tg.stack(%c2, %c3) : !tg.weakint, !tg.weakint
%e = tg.stack()
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c6 : !tg.weakint)
%b1 = tg.buffer <slot = 1, dtype = f32, device = "CPU:1"> shape(%c6 : !tg.weakint)
%var = tg.buffer <slot = 2, dtype = si32, vmin_vmax = [1, 10], addrspace = alu> shape(%e : !tg.void)
%five = tg.const 5 : si32
%bind = tgk.store %five, %var : si32, si32
%bound = tg.after %var deps(%bind : !tg.void) : si32
%vs = tg.stack(%c2, %bound) : !tg.weakint, si32
%r = tgt.reshape %b, %s23 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%bc = tg.bitcast %b to si32 : tensor<6xf32, #tg.addrspace<global>>
%mk = tgt.mstack %b, %b1 : tensor<6xf32, #tg.addrspace<global>>, tensor<6xf32, #tg.addrspace<global>>
%ms = tgt.mselect %mk[1] : tensor<6xf32, #tg.addrspace<global>>
%p = tg.param <slot = 0, dtype = f32> shape(%c6 : !tg.weakint)
%k = tg.sink(%p) {arg = #tg.kernel_info<name = "E_6", axis_types = [], applied_opts = []>} : tensor<6xf32, #tg.addrspace<global>>
%call = tg.call %k(%b) : (!tg.void, tensor<6xf32, #tg.addrspace<global>>) -> !tg.void
%a = tg.after %b deps(%call : !tg.void) : tensor<6xf32, #tg.addrspace<global>>
%sink = tg.sink(%a) : tensor<6xf32, #tg.addrspace<global>>

// -----

// spec_kernel_graph.bind: only a Variable BUFFER is bound by a STORE.
%c6 = tg.const 6 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = si32, device = "CPU"> shape(%c6 : !tg.weakint)
%five = tg.const 5 : si32
// expected-error @+1 {{spec_kernel_graph: STORE violates rule 'spec_kernel_graph.bind': only a Variable BUFFER may be bound by a STORE}}
%s = tgk.store %five, %b : si32, tensor<6xsi32, #tg.addrspace<global>>

// -----

// spec_kernel_graph.buffer: GLOBAL storage or ALU variables only.
%c6 = tg.const 6 : !tg.weakint
// expected-error @+1 {{spec_kernel_graph: BUFFER violates rule 'spec_kernel_graph.buffer': kernel-graph BUFFERs are GLOBAL storage or ALU variables}}
%b = tg.buffer <slot = 0, dtype = f32, addrspace = local> shape(%c6 : !tg.weakint)

// -----

// spec_kernel_graph.mstack / .mselect reuse the tensor rules.
%c6 = tg.const 6 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = ["CPU:0", "CPU:1"]> shape(%c6 : !tg.weakint)
// expected-error @+1 {{spec_kernel_graph: MSTACK violates rule 'spec_kernel_graph.mstack': sources must each live on one device}}
%m = tgt.mstack %b, %b : tensor<6xf32, #tg.addrspace<global>>, tensor<6xf32, #tg.addrspace<global>>

// -----

%c6 = tg.const 6 : !tg.weakint
%b = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%c6 : !tg.weakint)
// expected-error @+1 {{spec_kernel_graph: MSELECT violates rule 'spec_kernel_graph.mselect'}}
%m = tgt.mselect %b[0] : tensor<6xf32, #tg.addrspace<global>>

// -----

// spec_kernel_graph.stack: a STACK of consts, params and variables only.
%c6 = tg.const 6 : !tg.weakint
// expected-error @+1 {{spec_kernel_graph: no rule accepts ADD with operands (CONST, CONST) in this phase}}
%a = tg.add %c6, %c6 : !tg.weakint, !tg.weakint
// expected-error @+1 {{spec_kernel_graph: no rule accepts STACK with operands (ADD) in this phase}}
%s = tg.stack(%a) : !tg.weakint

// -----

// spec_kernel_graph.call: a kernel CALL's body is SINK/LINEAR/PROGRAM/CUSTOM_FUNCTION.
// The body itself is not checked (tinygrad verifies with enter_calls=False).
%n = tg.noop : () -> !tg.void
// expected-error @+1 {{spec_kernel_graph: no rule accepts CALL with operands (NOOP) in this phase}}
%c = tg.call %n() : (!tg.void) -> !tg.void

// -----

// spec_kernel_graph.after: AFTER of storage, not of a value.
%c6 = tg.const 6 : !tg.weakint
// expected-error @+1 {{spec_kernel_graph: no rule accepts AFTER with operands (CONST) in this phase}}
%a = tg.after %c6 : !tg.weakint
