// RUN: not tinygrad-opt %s -split-input-file --tg-lower-kernel 2>&1 | FileCheck %s

// A RANGE used after its END closed it has no open loop to live in (no
// opts: the heuristic would make it unrolled lanes).
// CHECK: error: tg-lower-kernel: cannot lower kernel: {{.*}}RANGE
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <reduce> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 1.0 : f32
%5 = tgk.store %4, %3 : f32, tensor<f32, #tg.addrspace<global>>
%14 = tg.sink(%5) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A kernel-local buffer lowers to the stack in LOCAL or REG memory; a
// GLOBAL one inside a kernel (the scheduler's, not a kernel's) is named,
// not miscompiled.
// CHECK: error: tg-lower-kernel: cannot lower kernel: BUFFER: only LOCAL and REG buffers are lowered on CPU
%c8 = tg.const 8 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%p = tg.buffer <slot = 0, dtype = f32, addrspace = global> shape(%c8 : !tg.weakint)
%i = tgk.range %c8 [0] <loop> : !tg.weakint
%px = tgk.index %p[%i] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%ox = tgk.index %out[%i] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%st = tgk.store %px, %ox : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %i : !tg.void, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// CUSTOM is a line of C; we compile no C. Text that is not one of the
// statements tinygrad emits for its CPU is named, not dropped.
// CHECK: error: tg-lower-kernel: cannot lower kernel: CUSTOM: unsupported inline code 'asm volatile("" ::: "memory");': the CPU target compiles no C
%c8 = tg.const 8 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%i = tgk.range %c8 [0] <loop> : !tg.weakint
%ox = tgk.index %out[%i] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%c = tg.custom "asm volatile(\"\" ::: \"memory\");" %ox : (tensor<f32, #tg.addrspace<global>>) -> !tg.void
%e = tgk.end %c, %i : !tg.void, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A sequentially consistent atomic asks more than memref.atomic_rmw's
// acq_rel: named, not weakened.
// CHECK: error: tg-lower-kernel: cannot lower kernel: CUSTOM: unsupported inline code '__atomic_fetch_add({0}, {1}, __ATOMIC_SEQ_CST);'
%c8 = tg.const 8 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%i = tgk.range %c8 [0] <loop> : !tg.weakint
%ox = tgk.index %out[%i] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%one = tg.const 1.0 : f32
%c = tg.custom "__atomic_fetch_add({0}, {1}, __ATOMIC_SEQ_CST);" %ox, %one : (tensor<f32, #tg.addrspace<global>>, f32) -> !tg.void
%e = tgk.end %c, %i : !tg.void, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A CALL argument needs the C ABI's extension of narrow types, which the
// call does not spell: named.
// CHECK: error: tg-lower-kernel: cannot lower kernel: CALL: a CALL argument of dtype int8
%c1 = tg.const 1 : !tg.weakint
%c0 = tg.const 0 : !tg.weakint
%f = tg.param <slot = 0, dtype = ui64, device = "CPU"> shape(%c1 : !tg.weakint)
%fx = tgk.index %f[%c0] : tensor<1xui64, #tg.addrspace<global>>, !tg.weakint
%fn = tgk.load %fx : tensor<ui64, #tg.addrspace<global>>
%b = tg.const 3 : si8
%call = tg.call %fn(%b) : (ui64, si8) -> !tg.void
%s = tg.sink(%call) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A bound-less loop (UOp.loop, a void RANGE) is a do-while: closed by an END
// without a condition it would be tinygrad's `for (;;) { }`, which never
// ends; named, not compiled.
// CHECK: error: tg-lower-kernel: cannot lower kernel: RANGE: a bound-less loop RANGE is closed only by an END with a condition (a do-while)
%c8 = tg.const 8 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%n = tg.noop  : () -> !tg.void
%l = tgk.range %n [0] <weak> : !tg.void
%o = tg.after %out deps(%l : !tg.void) : tensor<8xf32, #tg.addrspace<global>>
%c0 = tg.const 0 : !tg.weakint
%ox = tgk.index %o[%c0] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%v = tg.const 2.0 : f32
%st = tgk.store %v, %ox : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %l : !tg.void, !tg.void
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// An END with a condition over a bounded RANGE (tinygrad's C: a for loop
// with a conditional break) is not lowered: named, not compiled as a plain
// loop that ignores the condition.
// CHECK: error: tg-lower-kernel: cannot lower kernel: END: an END with a condition closes a bound-less loop (UOp.loop) it opens
%c8 = tg.const 8 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%i = tgk.range %c8 [0] <loop> : !tg.weakint
%ox = tgk.index %out[%i] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%v = tg.const 2.0 : f32
%st = tgk.store %v, %ox : f32, tensor<f32, #tg.addrspace<global>>
%c3 = tg.const 3 : !tg.weakint
%c = tg.cmplt %i, %c3 : !tg.weakint, !tg.weakint
%e = tgk.end %st, %i, %c : !tg.void, !tg.weakint, i1
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "bad", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
