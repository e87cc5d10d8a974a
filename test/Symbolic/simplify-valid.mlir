// RUN: tinygrad-opt --tg-simplify-valid -split-input-file %s | tinygrad-translate --split-input-file --output-split-marker="=====" --export-tinygrad-render --print-bounds | FileCheck %s --match-full-lines

// --tg-simplify-valid (tinygrad's sym + pm_move_where_on_load): index math
// under an Invalid gate is simplified assuming the gate holds, AND-chains of
// valids simplify each other, and a where around an INDEX moves its
// condition into the index's gate. Expected render and `vmin vmax` come from
// running tinygrad on the same graph.

// gated index: mod under a bound
// Input: [(a%4) if (a<4) else Invalid]
// CHECK: [a if (a<4) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.stack()
%3 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%2 : !tg.void)
%4 = tg.const 4 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.floormod %3, %4 : !tg.weakint, !tg.weakint
%7 = tg.const invalid : i1
%8 = tg.where %5, %6, %7 : i1, !tg.weakint, i1
%9 = tgk.index %1[%8] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// gated index: div under a bound
// Input: [((a+4)//4) if (a<4) else Invalid]
// CHECK-NEXT: =====
// CHECK-NEXT: [1 if (a<4) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.stack()
%3 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%2 : !tg.void)
%4 = tg.const 4 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%7 = tg.floordiv %6, %4 : !tg.weakint, !tg.weakint
%8 = tg.const invalid : i1
%9 = tg.where %5, %7, %8 : i1, !tg.weakint, i1
%10 = tgk.index %1[%9] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// gated index: two bounds
// Input: [((a*4+b)//8*8+b) if ((a<2)&(b<2)) else Invalid]
// CHECK-NEXT: =====
// CHECK-NEXT: [b if ((a<2)&(b<2)) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.const 64 : !tg.weakint
%1 = tg.param <slot = 1, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.stack()
%3 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%2 : !tg.void)
%4 = tg.const 2 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%2 : !tg.void)
%7 = tg.cmplt %6, %4 : !tg.weakint, !tg.weakint
%8 = tg.and %5, %7 : i1, i1
%9 = tg.const 4 : !tg.weakint
%10 = tg.mul %3, %9 : !tg.weakint, !tg.weakint
%11 = tg.add %10, %6 : !tg.weakint, !tg.weakint
%12 = tg.const 8 : !tg.weakint
%13 = tg.floordiv %11, %12 : !tg.weakint, !tg.weakint
%14 = tg.mul %13, %12 : !tg.weakint, !tg.weakint
%15 = tg.add %14, %6 : !tg.weakint, !tg.weakint
%16 = tg.const invalid : i1
%17 = tg.where %8, %15, %16 : i1, !tg.weakint, i1
%18 = tgk.index %1[%17] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// and of valids: a tighter bound drops a looser one
// Input: ((a<4)&(a<6))
// CHECK-NEXT: =====
// CHECK-NEXT: (a<4)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 6 : !tg.weakint
%5 = tg.cmplt %1, %4 : !tg.weakint, !tg.weakint
%6 = tg.and %3, %5 : i1, i1

// -----

// and of valids: lower bound
// Input: (((a<2)!=True)&((a<1)!=True))
// CHECK-NEXT: =====
// CHECK-NEXT: ((a<2)!=True)
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 2 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const true : i1
%5 = tg.cmpne %3, %4 : i1, i1
%6 = tg.const 1 : !tg.weakint
%7 = tg.cmplt %1, %6 : !tg.weakint, !tg.weakint
%8 = tg.cmpne %7, %4 : i1, i1
%9 = tg.and %5, %8 : i1, i1

// -----

// where on load: cond moves into the index gate
// Input: ([a] if (a<4) else 0.0)
// CHECK-NEXT: =====
// CHECK-NEXT: [a if (a<4) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 16 : !tg.weakint
%5 = tg.param <slot = 0, dtype = f32> shape(%4 : !tg.weakint)
%6 = tgk.index %5[%1] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.const 0.0 : !tg.weakfloat
%8 = tg.where %3, %6, %7 : i1, tensor<f32, #tg.addrspace<global>>, !tg.weakfloat

// -----

// where on load with a zero true branch
// Input: (0.0 if (a<4) else [a])
// CHECK-NEXT: =====
// CHECK-NEXT: [a if ((a<4)!=True) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 0.0 : f32
%5 = tg.const 16 : !tg.weakint
%6 = tg.param <slot = 0, dtype = f32> shape(%5 : !tg.weakint)
%7 = tgk.index %6[%1] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.where %3, %4, %7 : i1, f32, tensor<f32, #tg.addrspace<global>>

// -----

// where on load: clause already in the gate is dropped
// Input: ([a if (a<4) else Invalid] if ((a<4)&(b<2)) else 0.0)
// CHECK-NEXT: =====
// CHECK-NEXT: [a if ((a<4)&(b<2)) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.const 4 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%5 = tg.const 2 : !tg.weakint
%6 = tg.cmplt %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.and %3, %6 : i1, i1
%8 = tg.const 16 : !tg.weakint
%9 = tg.param <slot = 0, dtype = f32> shape(%8 : !tg.weakint)
%10 = tg.const invalid : i1
%11 = tg.where %3, %1, %10 : i1, !tg.weakint, i1
%12 = tgk.index %9[%11] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%13 = tg.const 0.0 : !tg.weakfloat
%14 = tg.where %7, %12, %13 : i1, tensor<f32, #tg.addrspace<global>>, !tg.weakfloat

// -----

// where on load: a clause on another range stays
// Input: ([a] if ((r1<2)&(a<4)) else 0.0)
// CHECK-NEXT: =====
// CHECK-NEXT: ([a if (a<4) else Invalid] if (r1<2) else 0.0)
// CHECK-NEXT: -inf inf
%0 = tg.const 4 : !tg.weakint
%1 = tgk.range %0 [1] <weak> : !tg.weakint
%2 = tg.const 2 : !tg.weakint
%3 = tg.cmplt %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.stack()
%5 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%4 : !tg.void)
%6 = tg.cmplt %5, %0 : !tg.weakint, !tg.weakint
%7 = tg.and %3, %6 : i1, i1
%8 = tg.const 16 : !tg.weakint
%9 = tg.param <slot = 0, dtype = f32> shape(%8 : !tg.weakint)
%10 = tgk.index %9[%5] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tg.const 0.0 : !tg.weakfloat
%12 = tg.where %7, %10, %11 : i1, tensor<f32, #tg.addrspace<global>>, !tg.weakfloat

// -----

// gated index with a simplex valid
// Input: [((a+b+1*-1)//8) if (((a+b)<1)!=True) else Invalid]
// CHECK-NEXT: =====
// CHECK-NEXT: [((b+a+7)//8+-1) if (((b+a)<1)!=True) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.const 64 : !tg.weakint
%1 = tg.param <slot = 1, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.stack()
%3 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%2 : !tg.void)
%4 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%2 : !tg.void)
%5 = tg.add %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 1 : !tg.weakint
%7 = tg.cmplt %5, %6 : !tg.weakint, !tg.weakint
%8 = tg.const true : i1
%9 = tg.cmpne %7, %8 : i1, i1
%10 = tg.const -1 : !tg.weakint
%11 = tg.mul %6, %10 : !tg.weakint, !tg.weakint
%12 = tg.add %5, %11 : !tg.weakint, !tg.weakint
%13 = tg.const 8 : !tg.weakint
%14 = tg.floordiv %12, %13 : !tg.weakint, !tg.weakint
%15 = tg.const invalid : i1
%16 = tg.where %9, %14, %15 : i1, !tg.weakint, i1
%17 = tgk.index %1[%16] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// gated index: range bound
// Input: [((r0*4+r1)%8) if (r0<2) else Invalid]
// CHECK-NEXT: =====
// CHECK-NEXT: [(r0*4+r1) if (r0<2) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.const 64 : !tg.weakint
%1 = tg.param <slot = 1, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 16 : !tg.weakint
%3 = tgk.range %2 [0] <weak> : !tg.weakint
%4 = tg.const 2 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 4 : !tg.weakint
%7 = tg.mul %3, %6 : !tg.weakint, !tg.weakint
%8 = tgk.range %6 [1] <weak> : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tg.const 8 : !tg.weakint
%11 = tg.floormod %9, %10 : !tg.weakint, !tg.weakint
%12 = tg.const invalid : i1
%13 = tg.where %5, %11, %12 : i1, !tg.weakint, i1
%14 = tgk.index %1[%13] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// gated index folds to a constant
// Input: [((a*8+b*2)//4%2) if ((b<2)&(a<3)) else Invalid]
// CHECK-NEXT: =====
// CHECK-NEXT: [0 if ((b<2)&(a<3)) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.const 64 : !tg.weakint
%1 = tg.param <slot = 1, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.stack()
%3 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%2 : !tg.void)
%4 = tg.const 2 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%2 : !tg.void)
%7 = tg.const 3 : !tg.weakint
%8 = tg.cmplt %6, %7 : !tg.weakint, !tg.weakint
%9 = tg.and %5, %8 : i1, i1
%10 = tg.const 8 : !tg.weakint
%11 = tg.mul %6, %10 : !tg.weakint, !tg.weakint
%12 = tg.mul %3, %4 : !tg.weakint, !tg.weakint
%13 = tg.add %11, %12 : !tg.weakint, !tg.weakint
%14 = tg.const 4 : !tg.weakint
%15 = tg.floordiv %13, %14 : !tg.weakint, !tg.weakint
%16 = tg.floormod %15, %4 : !tg.weakint, !tg.weakint
%17 = tg.const invalid : i1
%18 = tg.where %9, %16, %17 : i1, !tg.weakint, i1
%19 = tgk.index %1[%18] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// gated index with a simplex valid over ranges
// Input: [((r0+r1+1*-1)//4) if (((r0+r1)<1)!=True) else Invalid]
// CHECK-NEXT: =====
// CHECK-NEXT: [((r0+r1+3)//4+-1) if (((r0+r1)<1)!=True) else Invalid]
// CHECK-NEXT: -inf inf
%0 = tg.const 64 : !tg.weakint
%1 = tg.param <slot = 1, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 16 : !tg.weakint
%3 = tgk.range %2 [0] <weak> : !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tgk.range %4 [1] <weak> : !tg.weakint
%6 = tg.add %3, %5 : !tg.weakint, !tg.weakint
%7 = tg.const 1 : !tg.weakint
%8 = tg.cmplt %6, %7 : !tg.weakint, !tg.weakint
%9 = tg.const true : i1
%10 = tg.cmpne %8, %9 : i1, i1
%11 = tg.const -1 : !tg.weakint
%12 = tg.mul %7, %11 : !tg.weakint, !tg.weakint
%13 = tg.add %6, %12 : !tg.weakint, !tg.weakint
%14 = tg.floordiv %13, %4 : !tg.weakint, !tg.weakint
%15 = tg.const invalid : i1
%16 = tg.where %10, %14, %15 : i1, !tg.weakint, i1
%17 = tgk.index %1[%16] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// and of valids: one bound tightens another sum
// Input: (((a+b)<3)&(a<1)&(b<2))
// CHECK-NEXT: =====
// CHECK-NEXT: ((a<1)&(b<3)&(b<2))
// CHECK-NEXT: False True
%0 = tg.stack()
%1 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 8], multiple_of = 1, name = "a", addrspace = alu> shape(%0 : !tg.void)
%2 = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%0 : !tg.void)
%3 = tg.add %1, %2 : !tg.weakint, !tg.weakint
%4 = tg.const 3 : !tg.weakint
%5 = tg.cmplt %3, %4 : !tg.weakint, !tg.weakint
%6 = tg.const 1 : !tg.weakint
%7 = tg.cmplt %1, %6 : !tg.weakint, !tg.weakint
%8 = tg.and %5, %7 : i1, i1
%9 = tg.const 2 : !tg.weakint
%10 = tg.cmplt %2, %9 : !tg.weakint, !tg.weakint
%11 = tg.and %8, %10 : i1, i1

// CHECK-NOT: {{.}}
