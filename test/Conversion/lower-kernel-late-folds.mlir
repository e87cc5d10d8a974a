// RUN: tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// Rewrites of tinygrad's lowering that change the structure of what we
// emit (and so the UOps and Estimates tinygrad reads back).

// `x[i] = y[i] != 0 ? 2 : x[i]` (test_linearizer test_where_fold): sym's
// store_where_own_load, on our implicit loads, stores 2 where the
// condition holds: no load of x, no select.
// CHECK-LABEL: func.func @test(
// CHECK-SAME: %[[X:[^:]*]]: memref<16xf32> {llvm.noalias}, %[[Y:[^:]*]]: memref<16xi32>
// CHECK: scf.for
// CHECK-NOT: memref.load %[[X]]
// CHECK-NOT: arith.select
// CHECK: %[[C:.*]] = arith.cmpi ne
// CHECK: scf.if %[[C]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[X]]
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <loop> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<16xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.const 0 : !tg.weakint
%7 = tg.cmpne %5, %6 : tensor<si32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.const 2.0 : f32
%9 = tg.where %7, %8, %3 : i1, f32, tensor<f32, #tg.addrspace<global>>
%10 = tgk.store %9, %3 : f32, tensor<f32, #tg.addrspace<global>>
%11 = tgk.end %10, %2 : !tg.void, !tg.weakint
%12 = tg.sink(%11) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// Clang's late rewrites: `!(y != 3)` is one `y == 3`, `!(y < 5)` one
// `4 < y` (no compare negated by a second one).
// CHECK-LABEL: func.func @test(
// CHECK: %[[V:.*]] = memref.load
// CHECK-NEXT: arith.cmpi eq, %[[V]], %c3_i32
// CHECK-NEXT: arith.cmpi slt, %c4_i32, %[[V]]
// CHECK-NEXT: arith.ori
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <loop> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<16xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.const 3 : !tg.weakint
%7 = tg.cmpne %5, %6 : tensor<si32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.const true : i1
%9 = tg.cmpne %7, %8 : i1, i1
%10 = tg.const 5 : !tg.weakint
%11 = tg.cmplt %5, %10 : tensor<si32, #tg.addrspace<global>>, !tg.weakint
%12 = tg.cmpne %11, %8 : i1, i1
%13 = tg.or %9, %12 : i1, i1
%14 = tg.cast %13 to f32 : i1
%15 = tgk.store %14, %3 : f32, tensor<f32, #tg.addrspace<global>>
%16 = tgk.end %15, %2 : !tg.void, !tg.weakint
%17 = tg.sink(%16) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
