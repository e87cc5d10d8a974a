// RUN: tinygrad-opt --tg-symbolic -split-input-file %s | tinygrad-translate --split-input-file --output-split-marker="=====" --export-tinygrad-render --print-bounds | FileCheck %s --match-full-lines

// Floor division and modulo of index math (tinygrad's div_and_mod_symbolic,
// run as part of sym): the inline rules, then fold_divmod_general's constant
// quotient, congruence, gcd, nest_by_factor, nested mod, divide_by_gcd and
// factor_remainder steps. Expected render and `vmin vmax` come from running
// tinygrad on the same graph.

// (x//c+a)//d -> (x+a*c)//(c*d)
// Input: ((a//2+1)//3)
// CHECK: ((a+2)//6)
// CHECK-NEXT: 0 1
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 1 : !tg.weakint
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 3 : !tg.weakint
%7 = tg.floordiv %5, %6 : !tg.weakint, !tg.weakint

// -----

// (x+c)//d splits the multiple of d
// Input: ((a+5)//4)
// CHECK-NEXT: =====
// CHECK-NEXT: ((a+1)//4+1)
// CHECK-NEXT: 1 3
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 5 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.floordiv %3, %4 : !tg.weakint, !tg.weakint

// -----

// (x+c)%d drops the multiple of d
// Input: ((a+5)%4)
// CHECK-NEXT: =====
// CHECK-NEXT: ((a+1)%4)
// CHECK-NEXT: 0 3
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 5 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.floormod %3, %4 : !tg.weakint, !tg.weakint

// -----

// constant quotient: x//d
// Input: (a//9)
// CHECK-NEXT: =====
// CHECK-NEXT: 0
// CHECK-NEXT: 0 0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 9 : !tg.weakint
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint

// -----

// constant quotient: x%d
// Input: ((a+10)%20)
// CHECK-NEXT: =====
// CHECK-NEXT: (a+10)
// CHECK-NEXT: 10 18
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 10 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 20 : !tg.weakint
%5 = tg.floormod %3, %4 : !tg.weakint, !tg.weakint

// -----

// PARAM with multiple_of % c -> 0
// Input: (m%4)
// CHECK-NEXT: =====
// CHECK-NEXT: 0
// CHECK-NEXT: 0 0
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 64], multiple_of = 4, name = "m", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.floormod %1, %2 : !tg.weakint, !tg.weakint

// -----

// nested div: (x%(k*c))//c -> (x//c)%k
// Input: (a%12//4)
// CHECK-NEXT: =====
// CHECK-NEXT: (a//4)
// CHECK-NEXT: 0 2
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 12 : !tg.weakint
%3 = tg.floormod %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.floordiv %3, %4 : !tg.weakint, !tg.weakint

// -----

// nested mod in a sum
// Input: ((a%4+b)%2)
// CHECK-NEXT: =====
// CHECK-NEXT: ((b+a)%2)
// CHECK-NEXT: 0 1
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.floormod %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 2 : !tg.weakint
%7 = tg.floormod %5, %6 : !tg.weakint, !tg.weakint

// -----

// congruence mod
// Input: ((s*5+1)%4)
// CHECK-NEXT: =====
// CHECK-NEXT: (s+1)
// CHECK-NEXT: 1 3
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 2], multiple_of = 1, name = "s", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 5 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 1 : !tg.weakint
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 4 : !tg.weakint
%7 = tg.floormod %5, %6 : !tg.weakint, !tg.weakint

// -----

// congruence div
// Input: ((a*4+b)//4)
// CHECK-NEXT: =====
// CHECK-NEXT: a
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.floordiv %5, %2 : !tg.weakint, !tg.weakint

// -----

// congruence with a negative remainder
// Input: ((t*7+6)%8)
// CHECK-NEXT: =====
// CHECK-NEXT: (t*-1+6)
// CHECK-NEXT: 5 6
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1], multiple_of = 1, name = "t", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 7 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 6 : !tg.weakint
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 8 : !tg.weakint
%7 = tg.floormod %5, %6 : !tg.weakint, !tg.weakint

// -----

// gcd with remainder: mod
// Input: ((a*6+b*4+2)%8)
// CHECK-NEXT: =====
// CHECK-NEXT: ((b*2+a*3+1)%4*2)
// CHECK-NEXT: 0 6
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 6 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 4 : !tg.weakint
%6 = tg.mul %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.add %3, %6 : !tg.weakint, !tg.weakint
%8 = tg.const 2 : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tg.const 8 : !tg.weakint
%11 = tg.floormod %9, %10 : !tg.weakint, !tg.weakint

// -----

// gcd with remainder: div
// Input: ((a*6+b*4+2)//8)
// CHECK-NEXT: =====
// CHECK-NEXT: ((b+a+(a+1)//2)//2)
// CHECK-NEXT: 0 7
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 6 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 4 : !tg.weakint
%6 = tg.mul %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.add %3, %6 : !tg.weakint, !tg.weakint
%8 = tg.const 2 : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tg.const 8 : !tg.weakint
%11 = tg.floordiv %9, %10 : !tg.weakint, !tg.weakint

// -----

// nest_by_factor div
// Input: ((a*4+e)//16)
// CHECK-NEXT: =====
// CHECK-NEXT: ((a+e//4)//4)
// CHECK-NEXT: 0 3
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 20], multiple_of = 1, name = "e", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 16 : !tg.weakint
%7 = tg.floordiv %5, %6 : !tg.weakint, !tg.weakint

// -----

// nest_by_factor mod
// Input: ((a*4+b+e*8)%16)
// CHECK-NEXT: =====
// CHECK-NEXT: (b+(a+e*2)%4*4)
// CHECK-NEXT: 0 15
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 20], multiple_of = 1, name = "e", addrspace = alu> shape(%0 : !tg.void)
%7 = tg.const 8 : !tg.weakint
%8 = tg.mul %6, %7 : !tg.weakint, !tg.weakint
%9 = tg.add %5, %8 : !tg.weakint, !tg.weakint
%10 = tg.const 16 : !tg.weakint
%11 = tg.floormod %9, %10 : !tg.weakint, !tg.weakint

// -----

// divide_by_gcd with a variable denominator
// Input: (a*c//c)
// CHECK-NEXT: =====
// CHECK-NEXT: a
// CHECK-NEXT: 0 8
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.floordiv %3, %2 : !tg.weakint, !tg.weakint

// -----

// divide_by_gcd mod
// Input: (a*6%(c*3))
// CHECK-NEXT: =====
// CHECK-NEXT: (a*2%c*3)
// CHECK-NEXT: 0 12
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 6 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 3 : !tg.weakint
%6 = tg.mul %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.floormod %3, %6 : !tg.weakint, !tg.weakint

// -----

// factor_remainder: (d*x+y)//d
// Input: ((a*c+b)//c)
// CHECK-NEXT: =====
// CHECK-NEXT: (a+b//c)
// CHECK-NEXT: 0 11
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.floordiv %5, %2 : !tg.weakint, !tg.weakint

// -----

// factor_remainder: mod
// Input: ((a*c+b)%c)
// CHECK-NEXT: =====
// CHECK-NEXT: (b%c)
// CHECK-NEXT: 0 4
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [1, 5], multiple_of = 1, name = "c", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.floormod %5, %2 : !tg.weakint, !tg.weakint

// -----

// factor_remainder with a const denominator
// Input: ((a*9+e)//4)
// CHECK-NEXT: =====
// CHECK-NEXT: (a*2+(a+e)//4)
// CHECK-NEXT: 0 23
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 9 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 20], multiple_of = 1, name = "e", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 4 : !tg.weakint
%7 = tg.floordiv %5, %6 : !tg.weakint, !tg.weakint

// -----

// congruence div with a negative-ranged term
// Input: ((n*4+b)//4)
// CHECK-NEXT: =====
// CHECK-NEXT: n
// CHECK-NEXT: -6 6
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [-6, 6], multiple_of = 1, name = "n", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.floordiv %5, %2 : !tg.weakint, !tg.weakint

// -----

// negative numerator mod
// Input: ((n+8)%4)
// CHECK-NEXT: =====
// CHECK-NEXT: (n%4)
// CHECK-NEXT: 0 3
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [-6, 6], multiple_of = 1, name = "n", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 8 : !tg.weakint
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.floormod %3, %4 : !tg.weakint, !tg.weakint

// -----

// range terms: gcd of the factors
// Input: ((r0*8+r1*2)%8)
// CHECK-NEXT: =====
// CHECK-NEXT: (r1*2)
// CHECK-NEXT: 0 6
%0 = tg.const 16 : !tg.weakint
%1 = tgk.range %0 [0] <weak> : !tg.weakint
%2 = tg.const 8 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tgk.range %4 [1] <weak> : !tg.weakint
%6 = tg.const 2 : !tg.weakint
%7 = tg.mul %5, %6 : !tg.weakint, !tg.weakint
%8 = tg.add %3, %7 : !tg.weakint, !tg.weakint
%9 = tg.floormod %8, %2 : !tg.weakint, !tg.weakint

// -----

// two ranges flattened and split again
// Input: ((r0*4+r1)//4)
// CHECK-NEXT: =====
// CHECK-NEXT: r0
// CHECK-NEXT: 0 15
%0 = tg.const 16 : !tg.weakint
%1 = tgk.range %0 [0] <weak> : !tg.weakint
%2 = tg.const 4 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tgk.range %2 [1] <weak> : !tg.weakint
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.floordiv %5, %2 : !tg.weakint, !tg.weakint

// -----

// congruence div over a negative-ranged variable
// Input: ((n*3+2)//3)
// CHECK-NEXT: =====
// CHECK-NEXT: n
// CHECK-NEXT: -6 6
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [-6, 6], multiple_of = 1, name = "n", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 2 : !tg.weakint
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.floordiv %5, %2 : !tg.weakint, !tg.weakint

// -----

// gcd with a negative factor
// Input: (n*-2%4)
// CHECK-NEXT: =====
// CHECK-NEXT: (n*-1%2*2)
// CHECK-NEXT: 0 2
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [-6, 6], multiple_of = 1, name = "n", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const -2 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.floormod %3, %4 : !tg.weakint, !tg.weakint

// -----

// odd constant under an even gcd
// Input: ((a*4+b*2+1)//2)
// CHECK-NEXT: =====
// CHECK-NEXT: (b+a*2)
// CHECK-NEXT: 0 19
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.mul %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 2 : !tg.weakint
%6 = tg.mul %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.add %3, %6 : !tg.weakint, !tg.weakint
%8 = tg.const 1 : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tg.floordiv %9, %5 : !tg.weakint, !tg.weakint

// -----

// range term divides out of a sum
// Input: ((a+b*4+r0*16)//16)
// CHECK-NEXT: =====
// CHECK-NEXT: ((b+a//4)//4+r0)
// CHECK-NEXT: 0 16
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.const 4 : !tg.weakint
%4 = tg.mul %2, %3 : !tg.weakint, !tg.weakint
%5 = tg.add %1, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 16 : !tg.weakint
%7 = tgk.range %6 [0] <weak> : !tg.weakint
%8 = tg.mul %7, %6 : !tg.weakint, !tg.weakint
%9 = tg.add %5, %8 : !tg.weakint, !tg.weakint
%10 = tg.floordiv %9, %6 : !tg.weakint, !tg.weakint

// -----

// quotient of a rounded-down multiple
// Input: ((a//3*3+2)//3)
// CHECK-NEXT: =====
// CHECK-NEXT: (a//3)
// CHECK-NEXT: 0 2
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 3 : !tg.weakint
%3 = tg.floordiv %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.mul %3, %2 : !tg.weakint, !tg.weakint
%5 = tg.const 2 : !tg.weakint
%6 = tg.add %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.floordiv %6, %2 : !tg.weakint, !tg.weakint

// CHECK-NOT: {{.}}
