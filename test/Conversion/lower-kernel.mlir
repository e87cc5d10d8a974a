// RUN: tinygrad-opt %s --tg-lower-kernel | FileCheck %s
// RUN: tinygrad-opt %s --tg-lower-to-llvm-cpu | FileCheck %s --check-prefix=LLVM

// a.sum(1, keepdim=True) over an 8x12 float32 buffer (tinygrad's AST).
// The loop-invariant row offset is hoisted out of the reduce loop, the
// accumulator is a stack slot, the store sits after the reduce loop.
// `opts_to_apply = []` keeps the loop (the heuristic would unroll all 12).
// CHECK-LABEL: func.func @test(%{{.*}}: memref<8xf32> {llvm.noalias}, %{{.*}}: memref<96xf32> {llvm.noalias})
// CHECK-SAME: tg.globals = [0, 1], tg.ins = [1], tg.outs = [0]
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<f32>
// CHECK: scf.for %[[I:.*]] =
// CHECK:   memref.store %{{.*}}, %[[ACC]][]
// CHECK:   %[[ROW:.*]] = arith.muli
// CHECK:   scf.for
// CHECK:     %[[IDX:.*]] = arith.addi %[[ROW]]
// CHECK:     memref.load %arg1
// CHECK:     arith.addf
// CHECK:     memref.store %{{.*}}, %[[ACC]][]
// CHECK:   %[[SUM:.*]] = memref.load %[[ACC]][]
// CHECK:   memref.store %[[SUM]], %arg0
// CHECK-NOT: tg.
// LLVM: llvm.func @test(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias})
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [1] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 96 : !tg.weakint
%5 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%4 : !tg.weakint)
%6 = tg.const 12 : !tg.weakint
%7 = tg.mul %2, %6 : !tg.weakint, !tg.weakint
%8 = tgk.range %6 [0] <reduce> : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tgk.index %5[%9] : tensor<96xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgt.reduce <add> 0 %10 ranges(%8 : !tg.weakint) : tensor<f32, #tg.addrspace<global>>
%12 = tgk.store %11, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
