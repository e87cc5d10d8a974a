// RUN: tinygrad-opt --tg-symbolic-simple -split-input-file %s | tinygrad-translate --split-input-file --output-split-marker="=====" --export-tinygrad-render --print-bounds | FileCheck %s --match-full-lines

// --tg-symbolic-simple (tinygrad's symbolic_simple matcher): self and zero
// folding, constant folding, bool algebra, cast chains and where folding.
// Each chunk is one UOp graph; its last op is the root. The expected render
// string and `vmin vmax` are what tinygrad itself produces for the same graph
// rewritten with symbolic_simple.

// x+0 -> x
// Input: (a+0)
// CHECK: a
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 0 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint

// -----

// x*1 -> x
// Input: (x*1)
// CHECK-NEXT: =====
// CHECK-NEXT: x
// CHECK-NEXT: -100 100
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 1 : !tg.weakint
%3 = tg.mul %1, %2 : si32, !tg.weakint

// -----

// x//x -> 1
// Input: (c//c)
// CHECK-NEXT: =====
// CHECK-NEXT: 1
// CHECK-NEXT: 1 1
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.floordiv %1, %1 : !tg.weakint, !tg.weakint

// -----

// x//1 -> x
// Input: (a//1)
// CHECK-NEXT: =====
// CHECK-NEXT: a
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 1 : !tg.weakint
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint

// -----

// x//-1 -> -x
// Input: (a//-1)
// CHECK-NEXT: =====
// CHECK-NEXT: (a*-1)
// CHECK-NEXT: -8 0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const -1 : !tg.weakint
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint

// -----

// (x^y)^y -> x
// Input: (x^y^y)
// CHECK-NEXT: =====
// CHECK-NEXT: x
// CHECK-NEXT: -100 100
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = si32, vmin_vmax = [0, 50], multiple_of = 1, name = "y", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.xor %1, %2 : si32, si32
%4 = tg.xor %3, %2 : si32, si32

// -----

// (x%y)%y -> x%y
// Input: (a%c%c)
// CHECK-NEXT: =====
// CHECK-NEXT: (a%c)
// CHECK-NEXT: 0 4
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.floormod %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.floormod %3, %2 : !tg.weakint, !tg.weakint

// -----

// mod/div recombine: x%c + (x//c)*c -> x
// Input: (a%4+a//4*4)
// CHECK-NEXT: =====
// CHECK-NEXT: a
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.floormod %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint
%5 = tg.mul %4, %2 : !tg.weakint, !tg.weakint
%6 = tg.add %3, %5 : !tg.weakint, !tg.weakint

// -----

// bool x & True -> x
// Input: ((a<3)&True)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<3)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const true : i1
%5 = tg.and %3, %4 : i1, i1

// -----

// bool x & False -> False
// Input: ((a<3)&False)
// CHECK-NEXT: =====
// CHECK-NEXT: False
// CHECK-NEXT: False False
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const false : i1
%5 = tg.and %3, %4 : i1, i1

// -----

// bool x | True -> True
// Input: ((a<3)|True)
// CHECK-NEXT: =====
// CHECK-NEXT: True
// CHECK-NEXT: True True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const true : i1
%5 = tg.or %3, %4 : i1, i1

// -----

// x != False -> x
// Input: ((a<3)!=False)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<3)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const false : i1
%5 = tg.cmpne %3, %4 : i1, i1

// -----

// idempotent: max(x, x) -> x
// Input: max(a, a)
// CHECK-NEXT: =====
// CHECK-NEXT: a
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.max %1, %1 : !tg.weakint, !tg.weakint

// -----

// double logical not
// Input: (((a<3)!=True)!=True)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<3)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const true : i1
%5 = tg.cmpne %3, %4 : i1, i1
%6 = tg.cmpne %5, %4 : i1, i1

// -----

// where(x, True, False) -> x
// Input: (True if (a<3) else False)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<3)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const true : i1
%5 = tg.const false : i1
%6 = tg.where %3, %4, %5 : i1, i1, i1

// -----

// where(x, False, True) -> !x
// Input: (False if (a<3) else True)
// CHECK-NEXT: =====
// CHECK-NEXT: ((a<3)!=True)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const false : i1
%5 = tg.const true : i1
%6 = tg.where %3, %4, %5 : i1, i1, i1

// -----

// cast(bool->int) != 1 -> !x
// Input: ((int)((a<3))!=1)
// CHECK-NEXT: =====
// CHECK-NEXT: ((a<3)!=True)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to si32 : i1
%5 = tg.const 1 : !tg.weakint
%6 = tg.cmpne %4, %5 : si32, !tg.weakint

// -----

// x < x -> False
// Input: (a<a)
// CHECK-NEXT: =====
// CHECK-NEXT: False
// CHECK-NEXT: False False
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.cmplt %1, %1 : !tg.weakint, !tg.weakint

// -----

// x % x -> 0
// Input: (c%c)
// CHECK-NEXT: =====
// CHECK-NEXT: 0
// CHECK-NEXT: 0 0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.floormod %1, %1 : !tg.weakint, !tg.weakint

// -----

// x ^ x -> 0
// Input: (x^x)
// CHECK-NEXT: =====
// CHECK-NEXT: 0
// CHECK-NEXT: 0 0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.xor %1, %1 : si32, si32

// -----

// x & 0 -> 0
// Input: (x&0)
// CHECK-NEXT: =====
// CHECK-NEXT: 0
// CHECK-NEXT: 0 0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 0 : !tg.weakint
%3 = tg.and %1, %2 : si32, !tg.weakint

// -----

// (x & mask) >> k drops a mask of low bits
// Input: ((x&-16)>>4)
// CHECK-NEXT: =====
// CHECK-NEXT: (x>>4)
// CHECK-NEXT: -7 6
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const -16 : !tg.weakint
%3 = tg.and %1, %2 : si32, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.shr %3, %4 : si32, !tg.weakint

// -----

// x != x -> False for ints
// Input: (x!=x)
// CHECK-NEXT: =====
// CHECK-NEXT: False
// CHECK-NEXT: False False
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.cmpne %1, %1 : si32, si32

// -----

// constant folding of index math
// Input: ((7+5)*3//5)
// CHECK-NEXT: =====
// CHECK-NEXT: 7
// CHECK-NEXT: 7 7
%0 = tg.const 7 : !tg.weakint
%1 = tg.const 5 : !tg.weakint
%2 = tg.add %0, %1 : !tg.weakint, !tg.weakint
%3 = tg.const 3 : !tg.weakint
%4 = tg.mul %2, %3 : !tg.weakint, !tg.weakint
%5 = tg.floordiv %4, %1 : !tg.weakint, !tg.weakint

// -----

// cast of a const folds at the cast width
// Input: 300
// CHECK-NEXT: =====
// CHECK-NEXT: 300
// CHECK-NEXT: 300 300
%0 = tg.const 300 : !tg.weakint
%1 = tg.cast %0 to ui8 : !tg.weakint

// -----

// bool mul -> and, bool add -> or
// Input: ((a<3)*(b<2)+(a<1))
// CHECK-NEXT: =====
// CHECK-NEXT: ((a<3)&(b<2)|(a<1))
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 2 : !tg.weakint
%6 = tg.cmplt %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.mul %3, %6 : i1, i1
%8 = tg.const 1 : !tg.weakint
%9 = tg.cmplt %1, %8 : !tg.weakint, !tg.weakint
%10 = tg.add %7, %9 : i1, i1

// -----

// x*0 -> 0
// Input: (x*0)
// CHECK-NEXT: =====
// CHECK-NEXT: 0
// CHECK-NEXT: 0 0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 0 : !tg.weakint
%3 = tg.mul %1, %2 : si32, !tg.weakint

// -----

// lossless cast chain int32->int64->int32
// Input: (int)((long)(x))
// CHECK-NEXT: =====
// CHECK-NEXT: x
// CHECK-NEXT: -100 100
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.cast %1 to si64 : si32
%3 = tg.cast %2 to si32 : si64

// -----

// cast to bool -> x != 0
// Input: (bool)(x)
// CHECK-NEXT: =====
// CHECK-NEXT: (x!=0)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.cast %1 to i1 : si32

// -----

// where with equal branches
// Input: (a if (a<3) else a)
// CHECK-NEXT: =====
// CHECK-NEXT: a
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.where %3, %1, %1 : i1, !tg.weakint, !tg.weakint

// -----

// where with const gate
// Input: (a if False else b)
// CHECK-NEXT: =====
// CHECK-NEXT: b
// CHECK-NEXT: 0 3
%0 = tg.const false : i1
%1 = tg.stack()
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%1 : !tg.void)
%3 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%1 : !tg.void)
%4 = tg.where %0, %2, %3 : i1, !tg.weakint, !tg.weakint

// -----

// nested where with shared false branch -> and
// Input: ((a if (b<2) else b) if (a<3) else b)
// CHECK-NEXT: =====
// CHECK-NEXT: (a if ((a<3)&(b<2)) else b)
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 2 : !tg.weakint
%6 = tg.cmplt %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.where %6, %1, %4 : i1, !tg.weakint, !tg.weakint
%8 = tg.where %3, %7, %4 : i1, !tg.weakint, !tg.weakint

// -----

// nested where with shared true branch -> or
// Input: (a if (a<3) else (a if (b<2) else b))
// CHECK-NEXT: =====
// CHECK-NEXT: (a if ((a<3)|(b<2)) else b)
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 2 : !tg.weakint
%6 = tg.cmplt %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.where %6, %1, %4 : i1, !tg.weakint, !tg.weakint
%8 = tg.where %3, %1, %7 : i1, !tg.weakint, !tg.weakint

// -----

// float x/x -> 1
// Input: (g*(1/g))
// CHECK-NEXT: =====
// CHECK-NEXT: 1.0
// CHECK-NEXT: 1.0 1.0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = f32, vmin_vmax = [1.000000e+00, 3.000000e+00], multiple_of = 1, name = "g", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.reciprocal %1 : f32
%3 = tg.mul %1, %2 : f32, f32

// -----

// const folding rounds floor division/modulo toward -inf
// Input: (-7//2+-7%2)
// CHECK-NEXT: =====
// CHECK-NEXT: -3
// CHECK-NEXT: -3 -3
%0 = tg.const -7 : !tg.weakint
%1 = tg.const 2 : !tg.weakint
%2 = tg.floordiv %0, %1 : !tg.weakint, !tg.weakint
%3 = tg.floormod %0, %1 : !tg.weakint, !tg.weakint
%4 = tg.add %2, %3 : !tg.weakint, !tg.weakint

// -----

// const folding of a strong int keeps the mathematical value
// Input: (127+1)
// CHECK-NEXT: =====
// CHECK-NEXT: 128
// CHECK-NEXT: 128 128
%0 = tg.const 127 : si8
%1 = tg.const 1 : si8
%2 = tg.add %0, %1 : si8, si8

// -----

// bitcast of a const folds to the bit pattern
// CHECK-NEXT: =====
// CHECK-NEXT: 1069547520
// CHECK-NEXT: 1069547520 1069547520
%0 = tg.const 1.5 : f32
%1 = tg.bitcast %0 to ui32 : f32

// -----

// unary const folding at the float32 width
// CHECK-NEXT: =====
// CHECK-NEXT: 1.4142135381698608
// CHECK-NEXT: 1.4142135381698608 1.4142135381698608
%0 = tg.const 2.0 : f32
%1 = tg.sqrt %0 : f32

// CHECK-NOT: {{.}}
