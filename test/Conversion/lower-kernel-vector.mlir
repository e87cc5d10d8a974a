// RUN: tinygrad-opt %s -split-input-file --tg-lower-kernel | FileCheck %s
// RUN: tinygrad-opt %s -split-input-file --tg-lower-to-llvm-cpu | FileCheck %s --check-prefix=LLVM

// UPCAST lanes are one vector<n x T>: d = a*b+c (MULACC) upcast by 8 is
// three vector loads, one vector FMA and one vector store per step.
// CHECK-LABEL: func.func @test
// CHECK: scf.for
// CHECK: %[[A:.*]] = vector.load %arg1[%{{.*}}] : memref<64xf32>, vector<8xf32>
// CHECK: %[[B:.*]] = vector.load %arg2[%{{.*}}] : memref<64xf32>, vector<8xf32>
// CHECK: %[[C:.*]] = vector.load %arg3[%{{.*}}] : memref<64xf32>, vector<8xf32>
// CHECK: %[[D:.*]] = math.fma %[[A]], %[[B]], %[[C]] : vector<8xf32>
// CHECK: vector.store %[[D]], %arg0[%{{.*}}] : memref<64xf32>, vector<8xf32>
// CHECK-NOT: memref.load
// LLVM: llvm.intr.fma(%{{.*}}) : (vector<8xf32>, vector<8xf32>, vector<8xf32>) -> vector<8xf32>
%0 = tg.const 64 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.param <slot = 2, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%7 = tgk.index %6[%2] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.param <slot = 3, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%9 = tgk.index %8[%2] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%10 = tg.mulacc %5, %7, %9 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%11 = tgk.store %10, %3 : f32, tensor<f32, #tg.addrspace<global>>
%12 = tgk.end %11, %2 : !tg.void, !tg.weakint
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void

// -----

// A source without the store's lanes is broadcast: out[i*4+j] = a[i] with
// j upcast loads a[i] once.
// CHECK-LABEL: func.func @test
// CHECK: %[[X:.*]] = memref.load %arg1
// CHECK: %[[V:.*]] = vector.broadcast %[[X]] : f32 to vector<4xf32>
// CHECK: vector.store %[[V]], %arg0[%{{.*}}] : memref<64xf32>, vector<4xf32>
%0 = tg.const 64 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%c16 = tg.const 16 : !tg.weakint
%c4 = tg.const 4 : !tg.weakint
%i = tgk.range %c16 [0] <weak> : !tg.weakint
%j = tgk.range %c4 [1] <weak> : !tg.weakint
%i4 = tg.mul %i, %c4 : !tg.weakint, !tg.weakint
%o = tg.add %i4, %j : !tg.weakint, !tg.weakint
%3 = tgk.index %1[%o] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%c16 : !tg.weakint)
%5 = tgk.index %4[%i] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgk.store %5, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%12 = tgk.end %11, %i, %j : !tg.void, !tg.weakint, !tg.weakint
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 1, arg = 4 : i64>]>} : !tg.void

// -----

// Lanes of stride 3 are a gather: scalar loads at constant offsets from one
// base, assembled into a vector; the contiguous store stays one vector.
// CHECK-LABEL: func.func @test
// CHECK: %[[L0:.*]] = memref.load %arg1[%[[BASE:.*]]]
// CHECK: %[[O1:.*]] = arith.addi %[[BASE]], %c3
// CHECK: %[[L1:.*]] = memref.load %arg1[%[[O1]]]
// CHECK: %[[O2:.*]] = arith.addi %[[BASE]], %c6
// CHECK: %[[L2:.*]] = memref.load %arg1[%[[O2]]]
// CHECK: %[[O3:.*]] = arith.addi %[[BASE]], %c9
// CHECK: %[[L3:.*]] = memref.load %arg1[%[[O3]]]
// CHECK: %[[V:.*]] = vector.from_elements %[[L0]], %[[L1]], %[[L2]], %[[L3]] : vector<4xf32>
// CHECK: vector.store %[[V]], %arg0
%c48 = tg.const 48 : !tg.weakint
%c16 = tg.const 16 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c16 : !tg.weakint)
%i = tgk.range %c16 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%i] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%c48 : !tg.weakint)
%i3 = tg.mul %i, %c3 : !tg.weakint, !tg.weakint
%5 = tgk.index %4[%i3] : tensor<48xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgk.store %5, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%12 = tgk.end %11, %i : !tg.void, !tg.weakint
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>]>} : !tg.void

// -----

// A gate over the lanes masks a contiguous load: lanes 6 and 7 of the
// 6-element buffer are not read and take the alternative (0) as the
// masked load's pass-through.
// CHECK-LABEL: func.func @test
// CHECK: %[[G:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : vector<8xi32>
// CHECK: %[[Z:.*]] = vector.broadcast %{{.*}} : f32 to vector<8xf32>
// CHECK: %[[M:.*]] = vector.maskedload %arg1[%{{.*}}], %[[G]], %[[Z]] : memref<6xf32>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: vector.store %[[M]], %arg0
// CHECK-NOT: scf.if
// LLVM: llvm.intr.masked.load %{{.*}} : (!llvm.ptr, vector<8xi1>, vector<8xf32>) -> vector<8xf32>
%c8 = tg.const 8 : !tg.weakint
%c6 = tg.const 6 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%i = tgk.range %c8 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%i] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%c6 : !tg.weakint)
%lt = tg.cmplt %i, %c6 : !tg.weakint, !tg.weakint
%inv = tg.const invalid : i1
%gi = tg.where %lt, %i, %inv : i1, !tg.weakint, i1
%5 = tgk.index %4[%gi] : tensor<6xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgk.store %5, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%12 = tgk.end %11, %i : !tg.void, !tg.weakint
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void

// -----

// The lane order follows the store's strides, not the axis ids: i (stride 1)
// is upcast first and gets the lower id, j (stride 4) the higher; with i
// fastest the 8 lanes are one contiguous vector each way.
// CHECK-LABEL: func.func @test
// CHECK: %[[V:.*]] = vector.load %arg1[%{{.*}}] : memref<8xf32>, vector<8xf32>
// CHECK-NOT: vector.shuffle
// CHECK: vector.store %[[V]], %arg0[%{{.*}}] : memref<8xf32>, vector<8xf32>
%c8 = tg.const 8 : !tg.weakint
%c4 = tg.const 4 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%i = tgk.range %c4 [0] <weak> : !tg.weakint
%j = tgk.range %c2 [1] <weak> : !tg.weakint
%j4 = tg.mul %j, %c4 : !tg.weakint, !tg.weakint
%idx = tg.add %j4, %i : !tg.weakint, !tg.weakint
%3 = tgk.index %1[%idx] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%c8 : !tg.weakint)
%5 = tgk.index %4[%idx] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgk.store %5, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%12 = tgk.end %11, %i, %j : !tg.void, !tg.weakint, !tg.weakint
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 0 : i64>, #tg.opt<op = upcast, axis = 0, arg = 0 : i64>]>} : !tg.void

// -----

// Floor division and modulo by a power of two are an arithmetic shift and
// a mask (exact for negative values in two's complement, as tinygrad's C
// writes them), not arith.floordivsi, which reached LLVM as a truncating
// divide and a sign fix-up it did not fold back.
// CHECK-LABEL: func.func @test
// CHECK: %[[X:.*]] = vector.load %arg1
// CHECK: arith.shrsi %[[X]], %{{.*}} : vector<4xi32>
// CHECK: arith.andi %[[X]], %{{.*}} : vector<4xi32>
// CHECK-NOT: arith.floordivsi
// CHECK-NOT: arith.remsi
%c16 = tg.const 16 : !tg.weakint
%c4 = tg.const 4 : si32
%c8 = tg.const 8 : si32
%1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%c16 : !tg.weakint)
%i = tgk.range %c16 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%i] : tensor<16xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32, device = "CPU"> shape(%c16 : !tg.weakint)
%5 = tgk.index %4[%i] : tensor<16xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.floordiv %5, %c4 : tensor<si32, #tg.addrspace<global>>, si32
%7 = tg.floormod %5, %c8 : tensor<si32, #tg.addrspace<global>>, si32
%8 = tg.add %6, %7 : si32, si32
%9 = tgk.store %8, %3 : si32, tensor<si32, #tg.addrspace<global>>
%10 = tgk.end %9, %i : !tg.void, !tg.weakint
%11 = tg.sink(%10) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>]>} : !tg.void
