// RUN: tinygrad-opt %s --split-input-file --tg-split-ranges --tg-simplify-ranges | FileCheck %s
// RUN: tinygrad-opt %s --split-input-file --tg-split-ranges | FileCheck %s --check-prefix=SPLIT

// out[r] = in[(r%4)*4 + r//4], r in [0,16): r%4 splits r into r0*4 + r1 (ids
// (0,0) and (0,1)); merging them back would bring the divisions back, so
// simplify ranges keeps them split.
// SPLIT-LABEL: module
// SPLIT-DAG: %[[R0:.*]] = tgk.range %{{.*}} [0, 0] <weak>
// SPLIT-DAG: %[[R1:.*]] = tgk.range %{{.*}} [0, 1] <weak>
// SPLIT-NOT: tg.floormod
// SPLIT: tgk.end %{{.*}}, %[[R0]], %[[R1]]
// CHECK-LABEL: module
// CHECK-DAG: tgk.range %{{.*}} [0, 0] <weak>
// CHECK-DAG: tgk.range %{{.*}} [0, 1] <weak>
// CHECK-NOT: tg.floordiv
// CHECK: tgk.end
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tg.const 4 : !tg.weakint
%6 = tg.floormod %2, %5 : !tg.weakint, !tg.weakint
%7 = tg.mul %6, %5 : !tg.weakint, !tg.weakint
%8 = tg.floordiv %2, %5 : !tg.weakint, !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tgk.index %4[%9] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%12 = tgk.store %10, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void

// -----

// A 64x64 elementwise kernel indexing r0*64 + r1: the two ranges merge into
// one of 4096 with no division (tinygrad then sees one axis).
// CHECK-LABEL: module
// CHECK: %[[R:.*]] = tgk.range %{{.*}} [0] <weak>
// CHECK-NOT: tgk.range
// CHECK-NOT: tg.floordiv
// CHECK: tgk.end %{{.*}}, %[[R]] :
%0 = tg.const 4096 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.const 64 : !tg.weakint
%3 = tgk.range %2 [0] <weak> : !tg.weakint
%4 = tgk.range %2 [1] <weak> : !tg.weakint
%5 = tg.mul %3, %2 : !tg.weakint, !tg.weakint
%6 = tg.add %5, %4 : !tg.weakint, !tg.weakint
%7 = tgk.index %1[%6] : tensor<4096xf32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%9 = tgk.index %8[%6] : tensor<4096xf32, #tg.addrspace<global>>, !tg.weakint
%12 = tgk.store %9, %7 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %3, %4 : !tg.void, !tg.weakint, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void

// -----

// Every use of r (size 16) is gated by r < 10: the range shrinks to 10 and
// the gate folds away.
// CHECK-LABEL: module
// CHECK: %[[C:.*]] = tg.const 10
// CHECK: tgk.range %[[C]] [0] <weak>
// CHECK-NOT: tg.cmplt
// CHECK-NOT: tg.where
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%c10 = tg.const 10 : !tg.weakint
%g = tg.cmplt %2, %c10 : !tg.weakint, !tg.weakint
%inv = tg.const invalid : i1
%w = tg.where %g, %2, %inv : i1, !tg.weakint, i1
%3 = tgk.index %1[%w] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%c1 = tg.const 1.0 : f32
%12 = tgk.store %c1, %3 : f32, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
