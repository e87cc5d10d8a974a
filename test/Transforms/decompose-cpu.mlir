// RUN: tinygrad-opt %s --tg-decompose-cpu | FileCheck %s

// exp2/log2/sin of float32 become tinygrad's approximations (no EXP2, LOG2
// or SIN op left); a float16 one is decomposed at float16 too.
// CHECK-NOT: tg.exp2
// CHECK-NOT: tg.log2
// CHECK-NOT: tg.sin
// CHECK: tg.bitcast
// CHECK: tg.sink
%s = tg.stack()
%x = tg.param <slot = -1, dtype = f32, vmin_vmax = [-10.0, 10.0], name = "x", addrspace = alu> shape(%s : !tg.void)
%h = tg.param <slot = -1, dtype = f16, vmin_vmax = [-10.0, 10.0], name = "h", addrspace = alu> shape(%s : !tg.void)
%e = tg.exp2 %x : f32
%l = tg.log2 %x : f32
%n = tg.sin %x : f32
%eh = tg.exp2 %h : f16
%root = tg.sink(%e, %l, %n, %eh) : f32, f32, f32, f16
