// RUN: not tinygrad-opt --tg-symbolic -split-input-file %s 2>&1 | FileCheck %s
// RUN: not tinygrad-opt --tg-simplify-valid -split-input-file %s 2>&1 | FileCheck %s

// Floor division and modulo whose divisor is a value with range [0, 0]
// make tinygrad raise ZeroDivisionError ("Division by zero" / "Mod by zero").
// The passes report it as an error located at the graph's root and fail.

// A variable whose range is exactly [0, 0] as the divisor.
%e = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%e : !tg.void)
%z = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 0], multiple_of = 1, name = "z", addrspace = alu> shape(%e : !tg.void)
// CHECK: errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: symbolic rewrite failed
// CHECK: errors.mlir:[[# @LINE + 1]]:{{[0-9]+}}: note: Division by zero trying to rewrite FLOORDIV
%d = tg.floordiv %a, %z : !tg.weakint, !tg.weakint

// -----

// The same for modulo.
%e = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%e : !tg.void)
%z = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 0], multiple_of = 1, name = "z", addrspace = alu> shape(%e : !tg.void)
// CHECK: errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: symbolic rewrite failed
// CHECK: errors.mlir:[[# @LINE + 1]]:{{[0-9]+}}: note: Mod by zero trying to rewrite FLOORMOD
%m = tg.floormod %a, %z : !tg.weakint, !tg.weakint

// -----

// A divisor that only simplifies to zero: b + b*-1 combines to b*0 -> 0.
%e = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%e : !tg.void)
%c1 = tg.const 1 : !tg.weakint
%n = tg.add %a, %c1 : !tg.weakint, !tg.weakint
%b = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%e : !tg.void)
%cm1 = tg.const -1 : !tg.weakint
%nb = tg.mul %b, %cm1 : !tg.weakint, !tg.weakint
%zero = tg.add %b, %nb : !tg.weakint, !tg.weakint
// CHECK: errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: symbolic rewrite failed
// CHECK: errors.mlir:[[# @LINE + 1]]:{{[0-9]+}}: note: Division by zero trying to rewrite FLOORDIV
%d = tg.floordiv %n, %zero : !tg.weakint, !tg.weakint

// -----

// A modulo by a zero-range product: (a*2) % (z*3).
%e = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%e : !tg.void)
%c2 = tg.const 2 : !tg.weakint
%a2 = tg.mul %a, %c2 : !tg.weakint, !tg.weakint
%z = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 0], multiple_of = 1, name = "z", addrspace = alu> shape(%e : !tg.void)
%c3 = tg.const 3 : !tg.weakint
%z3 = tg.mul %z, %c3 : !tg.weakint, !tg.weakint
// CHECK: errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: symbolic rewrite failed
// CHECK: errors.mlir:[[# @LINE + 1]]:{{[0-9]+}}: note: Mod by zero trying to rewrite FLOORMOD
%m = tg.floormod %a2, %z3 : !tg.weakint, !tg.weakint

// -----

// Constant folding whose Python-int result does not fit 128 bits is
// reported, not wrapped: 10**29 * 10**29.
%a = tg.const 100000000000000000000000000000 : !tg.weakint
%b = tg.const 100000000000000000000000000000 : !tg.weakint
// CHECK: errors.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: symbolic rewrite failed
// CHECK: errors.mlir:[[# @LINE + 1]]:{{[0-9]+}}: note: fold_const_alu: integer result overflows the 128-bit index width
%c = tg.mul %a, %b : !tg.weakint, !tg.weakint
