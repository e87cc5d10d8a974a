// RUN: tinygrad-opt %s -split-input-file --tg-lower-kernel | FileCheck %s

// Kernels from tinygrad's test_ops that broke the lowering once.

// A stored constant lives outside the loop; the address stays inside it.
// CHECK-LABEL: func.func @test
// CHECK: %[[C:.*]] = arith.constant -1 : i32
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: %[[J:.*]] = arith.index_cast %[[I]]
// CHECK: memref.store %[[C]]
%0 = tg.const 2 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<2xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const -1 : si32
%5 = tgk.store %4, %3 : si32, tensor<si32, #tg.addrspace<global>>
%6 = tgk.end %5, %2 : !tg.void, !tg.weakint
%7 = tg.sink(%6) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void

// -----

// RECIPROCAL of an int is a float reciprocal (spec_tensor accepts it).
// CHECK-LABEL: func.func @test
// CHECK: arith.sitofp
// CHECK: arith.divf
%0 = tg.const 3 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<3xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<3xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.cast %5 to f32 : tensor<si32, #tg.addrspace<global>>
%7 = tg.param <slot = 2, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%8 = tgk.index %7[%2] : tensor<3xsi32, #tg.addrspace<global>>, !tg.weakint
%9 = tg.reciprocal %8 : tensor<si32, #tg.addrspace<global>>
%10 = tg.mul %6, %9 : tensor<f32, #tg.addrspace<global>>, f32
%11 = tgk.store %10, %3 : f32, tensor<f32, #tg.addrspace<global>>
%12 = tgk.end %11, %2 : !tg.void, !tg.weakint
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
