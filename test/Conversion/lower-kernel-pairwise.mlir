// RUN: tinygrad-opt %s -split-input-file --tg-lower-kernel | FileCheck %s

// A REDUCE marked `pairwise` (our heuristic's fold of the accumulator lanes
// it split off, whose order tinygrad never fixed) sums its lanes as a tree:
// (x0+x1) + (x2+x3), two levels deep instead of three.
// CHECK-LABEL: func.func @test
// CHECK-DAG: %[[X0:.*]] = vector.extract %[[V:.*]][0] : f32 from vector<4xf32>
// CHECK-DAG: %[[X1:.*]] = vector.extract %[[V]][1] : f32 from vector<4xf32>
// CHECK-DAG: %[[X2:.*]] = vector.extract %[[V]][2] : f32 from vector<4xf32>
// CHECK-DAG: %[[X3:.*]] = vector.extract %[[V]][3] : f32 from vector<4xf32>
// CHECK-DAG: %[[A:.*]] = arith.addf %[[X0]], %[[X1]]
// CHECK-DAG: %[[B:.*]] = arith.addf %[[X2]], %[[X3]]
// CHECK: arith.addf %[[A]], %[[B]]
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [1] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 32 : !tg.weakint
%5 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%4 : !tg.weakint)
%6 = tg.const 4 : !tg.weakint
%7 = tg.mul %2, %6 : !tg.weakint, !tg.weakint
%8 = tgk.range %6 [0] <reduce> : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tgk.index %5[%9] : tensor<32xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgt.reduce <add> 0 %10 ranges(%8 : !tg.weakint) {pairwise} : tensor<f32, #tg.addrspace<global>>
%12 = tgk.store %11, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = unroll, axis = 0, arg = 0 : i64>]>} : !tg.void

// -----

// Unmarked (tinygrad's own UNROLL lanes), the lanes are summed in order,
// as tinygrad's C writes them: ((x0+x1)+x2)+x3.
// CHECK-LABEL: func.func @test
// CHECK: %[[S1:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} : f32
// CHECK: arith.addf %[[S2]], %{{.*}} : f32
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [1] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 32 : !tg.weakint
%5 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%4 : !tg.weakint)
%6 = tg.const 4 : !tg.weakint
%7 = tg.mul %2, %6 : !tg.weakint, !tg.weakint
%8 = tgk.range %6 [0] <reduce> : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tgk.index %5[%9] : tensor<32xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgt.reduce <add> 0 %10 ranges(%8 : !tg.weakint) : tensor<f32, #tg.addrspace<global>>
%12 = tgk.store %11, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = unroll, axis = 0, arg = 0 : i64>]>} : !tg.void
