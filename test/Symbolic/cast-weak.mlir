// RUN: tinygrad-opt --tg-symbolic -split-input-file %s | tinygrad-translate --split-input-file --output-split-marker="=====" --export-tinygrad-render --print-bounds | FileCheck %s --match-full-lines

// pm_cast_weak (part of --tg-symbolic): a concrete integer CAST over weak
// index math commits the weak sources at a width that holds the value (int32,
// or int64 when the value overflows int32, never narrower than the target),
// and a weak CONST under a CAST commits at the cast's dtype. Expected render
// and `vmin vmax` come from running tinygrad on the same graph.

// weak mul committed at int32
// Input: (int)((a*3))
// CHECK: ((int)(a)*3)
// CHECK-NEXT: 0 24
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to si32 : !tg.weakint

// -----

// weak mul cast to int16 computes in int32
// Input: (short)((a*b))
// CHECK-NEXT: =====
// CHECK-NEXT: (short)(((int)(b)*(int)(a)))
// CHECK-NEXT: 0 24
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to si16 : !tg.weakint

// -----

// weak mul cast to uint32 commits its sources at int32
// Input: (uint)((a*b))
// CHECK-NEXT: =====
// CHECK-NEXT: (uint)(((int)(b)*(int)(a)))
// CHECK-NEXT: 0 24
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to ui32 : !tg.weakint

// -----

// weak math that overflows int32 computes in int64
// Input: (int)((big*2))
// CHECK-NEXT: =====
// CHECK-NEXT: (int)(((long)(big)*2))
// CHECK-NEXT: 0 2147483647
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1099511627776], multiple_of = 1, name = "big", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to si32 : !tg.weakint

// -----

// weak math cast to int64
// Input: (long)((a+b*-1))
// CHECK-NEXT: =====
// CHECK-NEXT: (long)(((int)(a)+(int)(b)*-1))
// CHECK-NEXT: -3 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.const -1 : !tg.weakint
%4 = tg.mul %2, %3 : !tg.weakint, !tg.weakint
%5 = tg.add %1, %4 : !tg.weakint, !tg.weakint
%6 = tg.cast %5 to si64 : !tg.weakint

// -----

// weak sum with a const cast to int64
// Input: (long)((a*b+3))
// CHECK-NEXT: =====
// CHECK-NEXT: (long)(((int)(b)*(int)(a)+3))
// CHECK-NEXT: 3 27
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 3 : !tg.weakint
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.cast %5 to si64 : !tg.weakint

// -----

// weak max cast to int32
// Input: (int)(max(a, (b*3)))
// CHECK-NEXT: =====
// CHECK-NEXT: max((int)(a), ((int)(b)*3))
// CHECK-NEXT: 0 9
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.const 3 : !tg.weakint
%4 = tg.mul %2, %3 : !tg.weakint, !tg.weakint
%5 = tg.max %1, %4 : !tg.weakint, !tg.weakint
%6 = tg.cast %5 to si32 : !tg.weakint

// -----

// nested weak math cast to int16
// Input: (short)(((a+b)*c))
// CHECK-NEXT: =====
// CHECK-NEXT: (short)(((int)(c)*((int)(b)+(int)(a))))
// CHECK-NEXT: 0 55
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.mul %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.cast %5 to si16 : !tg.weakint

// -----

// weak div cast to int8
// Input: (char)((a//c))
// CHECK-NEXT: =====
// CHECK-NEXT: (char)(((int)(a)//(int)(c)))
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to si8 : !tg.weakint

// -----

// weak mul cast to uint8 computes in int32
// Input: (uchar)((a*b))
// CHECK-NEXT: =====
// CHECK-NEXT: (uchar)(((int)(b)*(int)(a)))
// CHECK-NEXT: 0 24
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to ui8 : !tg.weakint

// CHECK-NOT: {{.}}
