// RUN: tinygrad-opt %s --tg-lower-kernel | FileCheck %s
// RUN: tinygrad-opt %s --tg-lower-to-llvm-cpu | FileCheck %s --check-prefix=LLVM

// Tensor.ones(10): a constant stored at the RANGE itself (tinygrad's AST).
// Emitting the (hoisted) constant first must not drag the store's index cast
// out of the loop: it was emitted before the loop, using the induction
// variable ("operand #0 does not dominate this use").
// CHECK-LABEL: func.func @test(%{{.*}}: memref<10xf32> {llvm.noalias})
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: scf.for %[[I:.*]] =
// CHECK:   %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   %[[I64:.*]] = arith.extsi %[[I32]] : i32 to i64
// CHECK:   %[[IDX:.*]] = arith.index_cast %[[I64]] : i64 to index
// CHECK:   memref.store %[[ONE]], %arg0[%[[IDX]]]
// LLVM: llvm.func @test(%{{.*}}: !llvm.ptr {llvm.noalias})
%0 = tg.const 10 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<10xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 1.0 : !tg.weakfloat
%5 = tgk.store %4, %3 : !tg.weakfloat, tensor<f32, #tg.addrspace<global>>
%6 = tgk.end %5, %2 : !tg.void, !tg.weakint
%7 = tg.sink(%6) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
