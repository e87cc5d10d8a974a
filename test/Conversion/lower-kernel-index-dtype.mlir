// RUN: tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// tinygrad's index dtype lowering: index math is int32 where every index
// node's bounds fit in int32, int64 otherwise (decided per kernel).

// 10 elements: the loop counter and the index are i32.
// CHECK-LABEL: func.func @test(%{{.*}}: memref<10xf32> {llvm.noalias})
// CHECK: scf.for %[[I:.*]] =
// CHECK:   arith.index_cast %[[I]] : index to i32
// CHECK-NOT: index to i64
%0 = tg.const 10 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<10xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 1.0 : !tg.weakfloat
%5 = tgk.store %4, %3 : !tg.weakfloat, tensor<f32, #tg.addrspace<global>>
%6 = tgk.end %5, %2 : !tg.void, !tg.weakint
%7 = tg.sink(%6) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void

// -----

// 2^32 elements: the range reaches past int32, so the kernel's index math
// stays i64.
// CHECK-LABEL: func.func @test(%{{.*}}: memref<4294967296xf32> {llvm.noalias}
// CHECK: scf.for %[[I:.*]] =
// CHECK:   arith.index_cast %[[I]] : index to i64
// CHECK-NOT: to i32
%0 = tg.const 4294967296 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<4294967296xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 1.0 : !tg.weakfloat
%5 = tgk.store %4, %3 : !tg.weakfloat, tensor<f32, #tg.addrspace<global>>
%6 = tgk.end %5, %2 : !tg.void, !tg.weakint
%7 = tg.sink(%6) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
