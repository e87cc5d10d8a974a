// RUN: tinygrad-opt --tg-symbolic -split-input-file %s | tinygrad-translate --split-input-file --output-split-marker="=====" --export-tinygrad-render --print-bounds | FileCheck %s --match-full-lines

// --tg-symbolic (tinygrad's sym + pm_cast_weak), the rules added on top of
// symbolic_simple: combining terms, commutative ordering of index math,
// comparison folding, max folding, two-stage ALU folding, range mod/div,
// canonicalize_simplex, where folding, cast folding. Expected render and
// `vmin vmax` come from running tinygrad on the same graph.

// x*c0 + x*c1 -> x*(c0+c1)
// Input: (a*2+a*3)
// CHECK: (a*5)
// CHECK-NEXT: 0 40
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 3 : !tg.weakint
%5 = tg.mul %1, %4 : !tg.weakint, !tg.weakint
%6 = tg.add %3, %5 : !tg.weakint, !tg.weakint

// -----

// (y + x*c0) + x*c1
// Input: (b+a*2+a*3)
// CHECK-NEXT: =====
// CHECK-NEXT: (b+a*5)
// CHECK-NEXT: 0 43
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.const 2 : !tg.weakint
%4 = tg.mul %2, %3 : !tg.weakint, !tg.weakint
%5 = tg.add %1, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 3 : !tg.weakint
%7 = tg.mul %2, %6 : !tg.weakint, !tg.weakint
%8 = tg.add %5, %7 : !tg.weakint, !tg.weakint

// -----

// x + x*c -> x*(c+1)
// Input: (a+a*3)
// CHECK-NEXT: =====
// CHECK-NEXT: (a*4)
// CHECK-NEXT: 0 32
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.add %1, %3 : !tg.weakint, !tg.weakint

// -----

// x + x -> x*2
// Input: (a+a)
// CHECK-NEXT: =====
// CHECK-NEXT: (a*2)
// CHECK-NEXT: 0 16
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.add %1, %1 : !tg.weakint, !tg.weakint

// -----

// -1*(x+c) -> -x + -c
// Input: (-1*(a+3))
// CHECK-NEXT: =====
// CHECK-NEXT: (a*-1+-3)
// CHECK-NEXT: -11 -3
%0 = tg.const -1 : !tg.weakint
%1 = tg.stack()
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%1 : !tg.void)
%3 = tg.const 3 : !tg.weakint
%4 = tg.add %2, %3 : !tg.weakint, !tg.weakint
%5 = tg.mul %0, %4 : !tg.weakint, !tg.weakint

// -----

// c*(x+c2) distributes
// Input: (3*(a+2))
// CHECK-NEXT: =====
// CHECK-NEXT: (a*3+6)
// CHECK-NEXT: 6 30
%0 = tg.const 3 : !tg.weakint
%1 = tg.stack()
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%1 : !tg.void)
%3 = tg.const 2 : !tg.weakint
%4 = tg.add %2, %3 : !tg.weakint, !tg.weakint
%5 = tg.mul %0, %4 : !tg.weakint, !tg.weakint

// -----

// commutative: const moves right in index math
// Input: (2+a)
// CHECK-NEXT: =====
// CHECK-NEXT: (a+2)
// CHECK-NEXT: 2 10
%0 = tg.const 2 : !tg.weakint
%1 = tg.stack()
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%1 : !tg.void)
%3 = tg.add %0, %2 : !tg.weakint, !tg.weakint

// -----

// commutative: variables ordered
// Input: (a*b)
// CHECK-NEXT: =====
// CHECK-NEXT: (b*a)
// CHECK-NEXT: 0 24
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint

// -----

// two-stage ALU: (x+c1)+c2
// Input: (a+2+3)
// CHECK-NEXT: =====
// CHECK-NEXT: (a+5)
// CHECK-NEXT: 5 13
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 3 : !tg.weakint
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint

// -----

// two-stage ALU: (x*c1)*c2
// Input: (a*2*3)
// CHECK-NEXT: =====
// CHECK-NEXT: (a*6)
// CHECK-NEXT: 0 48
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 3 : !tg.weakint
%5 = tg.mul %3, %4 : !tg.weakint, !tg.weakint

// -----

// move add const to the end
// Input: (a+2+b)
// CHECK-NEXT: =====
// CHECK-NEXT: (b+a+2)
// CHECK-NEXT: 2 13
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint

// -----

// move mul const to the end
// Input: (a*2*b)
// CHECK-NEXT: =====
// CHECK-NEXT: (b*a*2)
// CHECK-NEXT: 0 48
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.mul %3, %4 : !tg.weakint, !tg.weakint

// -----

// (x//c1)//c2 -> x//(c1*c2)
// Input: (a//2//3)
// CHECK-NEXT: =====
// CHECK-NEXT: (a//6)
// CHECK-NEXT: 0 1
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 3 : !tg.weakint
%5 = tg.floordiv %3, %4 : !tg.weakint, !tg.weakint

// -----

// lt: c0+x < c1
// Input: ((a+3)<5)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<2)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 5 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint

// -----

// lt: c0*x < c1
// Input: ((a*3)<7)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<3)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 7 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint

// -----

// lt: negative coefficient
// Input: ((a*-2)<-5)
// CHECK-NEXT: =====
// CHECK-NEXT: ((a*-1)<-2)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const -2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const -5 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint

// -----

// lt: x//d < c
// Input: ((a//4)<2)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<8)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 2 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint

// -----

// lt folding by the gcd of the terms
// Input: ((a*4+b)<8)
// CHECK-NEXT: =====
// CHECK-NEXT: (a<2)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 8 : !tg.weakint
%7 = tg.cmplt %5, %6 : !tg.weakint, !tg.weakint

// -----

// x*-1 < y*-1 -> y < x
// Input: ((a*-1)<(b*-1))
// CHECK-NEXT: =====
// CHECK-NEXT: (b<a)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const -1 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.mul %4, %2 : !tg.weakint, !tg.weakint
%6 = tg.cmplt %3, %5 : !tg.weakint, !tg.weakint

// -----

// bounds fold a compare to a const
// Input: (a<9)
// CHECK-NEXT: =====
// CHECK-NEXT: True
// CHECK-NEXT: True True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 9 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint

// -----

// a variable with vmin == vmax is a const
// Input: (z+a)
// CHECK-NEXT: =====
// CHECK-NEXT: (a+3)
// CHECK-NEXT: 3 11
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [3, 3], multiple_of = 1, name = "z", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint

// -----

// max folding from where(c<b, b, c)
// Input: (a if (3<a) else 3)
// CHECK-NEXT: =====
// CHECK-NEXT: max(a, 3)
// CHECK-NEXT: 3 8
%0 = tg.const 3 : !tg.weakint
%1 = tg.stack()
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%1 : !tg.void)
%3 = tg.cmplt %0, %2 : !tg.weakint, !tg.weakint
%4 = tg.where %3, %2, %0 : i1, !tg.weakint, !tg.weakint

// -----

// max folding from where(a<c, c, a)
// Input: (5 if (a<5) else a)
// CHECK-NEXT: =====
// CHECK-NEXT: max(a, 5)
// CHECK-NEXT: 5 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 5 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.where %3, %2, %1 : i1, !tg.weakint, !tg.weakint

// -----

// max with disjoint ranges
// Input: max(a, 10)
// CHECK-NEXT: =====
// CHECK-NEXT: 10
// CHECK-NEXT: 10 10
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 10 : !tg.weakint
%3 = tg.max %1, %2 : !tg.weakint, !tg.weakint

// -----

// canonicalize_simplex
// Input: (((a*2+b*3)<1)!=True)
// CHECK-NEXT: =====
// CHECK-NEXT: (((b+a)<1)!=True)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 3 : !tg.weakint
%6 = tg.mul %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.add %3, %6 : !tg.weakint, !tg.weakint
%8 = tg.const 1 : !tg.weakint
%9 = tg.cmplt %7, %8 : !tg.weakint, !tg.weakint
%10 = tg.const true : i1
%11 = tg.cmpne %9, %10 : i1, i1

// -----

// x | !x -> True
// Input: ((a<3)|((a<3)!=True))
// CHECK-NEXT: =====
// CHECK-NEXT: True
// CHECK-NEXT: True True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const true : i1
%5 = tg.cmpne %3, %4 : i1, i1
%6 = tg.or %3, %5 : i1, i1

// -----

// where(!c, t, f) -> where(c, f, t)
// Input: (a if ((a<3)!=True) else b)
// CHECK-NEXT: =====
// CHECK-NEXT: (b if (a<3) else a)
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const true : i1
%5 = tg.cmpne %3, %4 : i1, i1
%6 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%7 = tg.where %5, %1, %6 : i1, !tg.weakint, !tg.weakint

// -----

// where closure: cond is True in t
// Input: ((a if (a<3) else b) if (a<3) else 0)
// CHECK-NEXT: =====
// CHECK-NEXT: (a if (a<3) else 0)
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.where %3, %1, %4 : i1, !tg.weakint, !tg.weakint
%6 = tg.const 0 : !tg.weakint
%7 = tg.where %3, %5, %6 : i1, !tg.weakint, !tg.weakint

// -----

// binary op of two wheres with the same cond
// Input: ((1 if (a<3) else a)+(2 if (a<3) else b))
// CHECK-NEXT: =====
// CHECK-NEXT: (3 if (a<3) else (b+a))
// CHECK-NEXT: 0 11
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 1 : !tg.weakint
%5 = tg.where %3, %4, %1 : i1, !tg.weakint, !tg.weakint
%6 = tg.const 2 : !tg.weakint
%7 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%8 = tg.where %3, %6, %7 : i1, !tg.weakint, !tg.weakint
%9 = tg.add %5, %8 : !tg.weakint, !tg.weakint

// -----

// complementary zero branches
// Input: ((a if (a<3) else 0)+(0 if (a<3) else b))
// CHECK-NEXT: =====
// CHECK-NEXT: (a if (a<3) else b)
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 0 : !tg.weakint
%5 = tg.where %3, %1, %4 : i1, !tg.weakint, !tg.weakint
%6 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%7 = tg.where %3, %4, %6 : i1, !tg.weakint, !tg.weakint
%8 = tg.add %5, %7 : !tg.weakint, !tg.weakint

// -----

// range mod its bound
// Input: (r0%16)
// CHECK-NEXT: =====
// CHECK-NEXT: r0
// CHECK-NEXT: 0 15
%0 = tg.const 16 : !tg.weakint
%1 = tgk.range %0 [0] <weak> : !tg.weakint
%2 = tg.floormod %1, %0 : !tg.weakint, !tg.weakint

// -----

// range div its bound
// Input: (r0//16+r1)
// CHECK-NEXT: =====
// CHECK-NEXT: r1
// CHECK-NEXT: 0 3
%0 = tg.const 16 : !tg.weakint
%1 = tgk.range %0 [0] <weak> : !tg.weakint
%2 = tg.floordiv %1, %0 : !tg.weakint, !tg.weakint
%3 = tg.const 4 : !tg.weakint
%4 = tgk.range %3 [1] <weak> : !tg.weakint
%5 = tg.add %2, %4 : !tg.weakint, !tg.weakint

// -----

// range of one iteration is 0
// Input: (r2+a)
// CHECK-NEXT: =====
// CHECK-NEXT: a
// CHECK-NEXT: 0 8
%0 = tg.const 1 : !tg.weakint
%1 = tgk.range %0 [2] <weak> : !tg.weakint
%2 = tg.stack()
%3 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%2 : !tg.void)
%4 = tg.add %1, %3 : !tg.weakint, !tg.weakint

// -----

// float (x/x2)/x3 -> x/(x2*x3)
// Input: (f*(1/g)*(1/h))
// CHECK-NEXT: =====
// CHECK-NEXT: (f*(1/(g*h)))
// CHECK-NEXT: -inf inf
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = f32, vmin_vmax = [-2.000000e+00, 2.000000e+00], multiple_of = 1, name = "f", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = f32, vmin_vmax = [1.000000e+00, 3.000000e+00], multiple_of = 1, name = "g", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.reciprocal %2 : f32
%4 = tg.mul %1, %3 : f32, f32
%5 = tg.param <slot = -1, dtype = f32, vmin_vmax = [5.000000e-01, 4.000000e+00], multiple_of = 1, name = "h", addrspace = alu> shape(%0 : !tg.void)
%6 = tg.reciprocal %5 : f32
%7 = tg.mul %4, %6 : f32, f32

// -----

// cast chain through a wider int
// Input: (float)((long)(x))
// CHECK-NEXT: =====
// CHECK-NEXT: (float)(x)
// CHECK-NEXT: -100.0 100.0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.cast %1 to si64 : si32
%3 = tg.cast %2 to f32 : si64

// -----

// cast chain that fits the intermediate
// Input: (long)((char)(y))
// CHECK-NEXT: =====
// CHECK-NEXT: (long)(y)
// CHECK-NEXT: 0 50
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [0, 50], multiple_of = 1, name = "y", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.cast %1 to si8 : si32
%3 = tg.cast %2 to si64 : si8

// -----

// (x+c).cast(int) -> x.cast(int)+c
// Input: (int)((a+3))
// CHECK-NEXT: =====
// CHECK-NEXT: ((int)(a)+3)
// CHECK-NEXT: 3 11
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to si32 : !tg.weakint

// -----

// cast pushed into where branches
// Input: (float)((a if (a<3) else 3))
// CHECK-NEXT: =====
// CHECK-NEXT: ((float)(a) if (a<3) else 3.0)
// CHECK-NEXT: -inf inf
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.where %3, %1, %2 : i1, !tg.weakint, !tg.weakint
%5 = tg.cast %4 to f32 : !tg.weakint

// -----

// (x+y)*c distributes in index math
// Input: ((a+b)*4)
// CHECK-NEXT: =====
// CHECK-NEXT: (b*4+a*4)
// CHECK-NEXT: 0 44
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.mul %3, %4 : !tg.weakint, !tg.weakint

// -----

// long math that fits int32 is done in int
// Input: ((long)(x)+(long)(y))
// CHECK-NEXT: =====
// CHECK-NEXT: (long)((x+y))
// CHECK-NEXT: -100 150
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = si32, vmin_vmax = [-100, 100], multiple_of = 1, name = "x", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.cast %1 to si64 : si32
%3 = tg.param <slot = -1, dtype = si32, vmin_vmax = [0, 50], multiple_of = 1, name = "y", addrspace = alu> shape(%0 : !tg.void)
%4 = tg.cast %3 to si64 : si32
%5 = tg.add %2, %4 : si64, si64

// -----

// long times a const computed in int
// Input: ((long)((a+1))*2)
// CHECK-NEXT: =====
// CHECK-NEXT: (long)((2+(int)(a)*2))
// CHECK-NEXT: 2 18
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 1 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.cast %3 to si64 : !tg.weakint
%5 = tg.const 2 : !tg.weakint
%6 = tg.mul %4, %5 : si64, !tg.weakint

// CHECK-NOT: {{.}}
