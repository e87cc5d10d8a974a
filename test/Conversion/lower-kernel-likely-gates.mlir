// RUN: tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// A gather whose lanes are gated at run time reads them without a branch
// where the gate is likely true (EmitMemory.cpp: likelyTrueGate): a padded
// window's bounds, comparisons of index arithmetic. The lanes under one
// gate are read as clusters of nearby addresses, each from a base selected
// so that its lowest lane reads element 0 where the gate fails (every load
// in bounds for either value of the gate), one vector load per cluster,
// selected against the alternative (loadGroupUnbranched). Any other gate,
// here a divisibility test (a strided transposed conv's, false for most
// lanes), keeps its branch, which skips the loads.

// out[a, b] = a >= 1 && b < 3 ? in[8a + 2b] : 0, b's 4 lanes upcast: the
// lanes b < 3 share the gate a >= 1 (b = 3 is statically off), their
// addresses 0, 2, 4 past the base: one 5-wide load.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: scf.if
// CHECK: %[[B:.*]] = arith.select %[[G:[0-9]+]], %{{.*}}, %c0{{.*}} : index
// CHECK-NEXT: %[[ROW:.*]] = vector.load %arg1[%[[B]]] : memref<64xf32>, vector<5xf32>
// CHECK-NEXT: %[[LANES:.*]] = vector.shuffle %[[ROW]], %[[ROW]] [0, 2, 4] : vector<5xf32>, vector<5xf32>
// CHECK: arith.select %[[G]], %[[LANES]], %{{.*}} : vector<3xf32>
// CHECK-NOT: scf.if
%n = tg.const 8 : !tg.weakint
%nb = tg.const 4 : !tg.weakint
%sz = tg.const 64 : !tg.weakint
%so = tg.const 32 : !tg.weakint
%c1 = tg.const 1 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%c8 = tg.const 8 : !tg.weakint
%true = tg.const true : i1
%zero = tg.const 0.0 : f32
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%so : !tg.weakint)
%in = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%sz : !tg.weakint)
%a = tgk.range %n [0] <weak> : !tg.weakint
%b = tgk.range %nb [1] <weak> : !tg.weakint
%a4 = tg.mul %a, %nb : !tg.weakint, !tg.weakint
%o = tg.add %a4, %b : !tg.weakint, !tg.weakint
%a8 = tg.mul %a, %c8 : !tg.weakint, !tg.weakint
%b2 = tg.mul %b, %c2 : !tg.weakint, !tg.weakint
%i = tg.add %a8, %b2 : !tg.weakint, !tg.weakint
%alt = tg.cmplt %a, %c1 : !tg.weakint, !tg.weakint
%age = tg.cmpne %alt, %true : i1, i1
%blt = tg.cmplt %b, %c3 : !tg.weakint, !tg.weakint
%g = tg.and %age, %blt : i1, i1
%inv = tg.const invalid : i1
%gi = tg.where %g, %i, %inv : i1, !tg.weakint, i1
%po = tgk.index %out[%o] : tensor<32xf32, #tg.addrspace<global>>, !tg.weakint
%pi = tgk.index %in[%gi] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%v = tg.where %g, %pi, %zero : i1, tensor<f32, #tg.addrspace<global>>, f32
%st = tgk.store %v, %po : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %a, %b : !tg.void, !tg.weakint, !tg.weakint
%k = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 1, arg = 4 : i64>]>} : !tg.void

// -----

// The same gather gated on a % 3 == 0 (FLOORMOD: likely false) keeps one
// branch around the 3 lanes it shares, as before.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: vector.load
// CHECK: scf.if %{{.*}} -> (f32, f32, f32)
// CHECK-COUNT-3: memref.load %arg1
// CHECK-NOT: scf.if
%n = tg.const 8 : !tg.weakint
%nb = tg.const 4 : !tg.weakint
%sz = tg.const 64 : !tg.weakint
%so = tg.const 32 : !tg.weakint
%c1 = tg.const 1 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%c8 = tg.const 8 : !tg.weakint
%zero = tg.const 0.0 : f32
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%so : !tg.weakint)
%in = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%sz : !tg.weakint)
%a = tgk.range %n [0] <weak> : !tg.weakint
%b = tgk.range %nb [1] <weak> : !tg.weakint
%a4 = tg.mul %a, %nb : !tg.weakint, !tg.weakint
%o = tg.add %a4, %b : !tg.weakint, !tg.weakint
%a8 = tg.mul %a, %c8 : !tg.weakint, !tg.weakint
%b2 = tg.mul %b, %c2 : !tg.weakint, !tg.weakint
%i = tg.add %a8, %b2 : !tg.weakint, !tg.weakint
%am = tg.floormod %a, %c3 : !tg.weakint, !tg.weakint
%even = tg.cmplt %am, %c1 : !tg.weakint, !tg.weakint
%blt = tg.cmplt %b, %c3 : !tg.weakint, !tg.weakint
%g = tg.and %even, %blt : i1, i1
%inv = tg.const invalid : i1
%gi = tg.where %g, %i, %inv : i1, !tg.weakint, i1
%po = tgk.index %out[%o] : tensor<32xf32, #tg.addrspace<global>>, !tg.weakint
%pi = tgk.index %in[%gi] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%v = tg.where %g, %pi, %zero : i1, tensor<f32, #tg.addrspace<global>>, f32
%st = tgk.store %v, %po : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %a, %b : !tg.void, !tg.weakint, !tg.weakint
%k = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 1, arg = 4 : i64>]>} : !tg.void
