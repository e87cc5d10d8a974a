// RUN: tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// A large kernel (at least 64K iteration points) keeps its vectors
// (tg-keep-loops) unless it loads lanes by gated gathers (each lane behind
// its own branch) and makes no vector access: every load of lanes a gather,
// every store of lanes a scatter, as in tinygrad's opts for a transposed
// conv's input gradient (mnist_train's step: 0.25x tinygrad as vectors,
// 1.2x scalarized). Such a kernel is scalarized and given O2, as clang is
// given tinygrad's C.

// Four lanes, stride 3 in both buffers, the load gated lane by lane (r % 3
// < 2): a gated gather and a scatter.
// CHECK-LABEL: func.func @test(
// CHECK-SAME: passthrough = ["tg-scalarize"]
%0 = tg.const 262144 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%n3 = tg.const 786432 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%n3 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%n3 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%i = tg.mul %3, %c3 : !tg.weakint, !tg.weakint
%m = tg.floormod %3, %c3 : !tg.weakint, !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%lt = tg.cmplt %m, %c2 : !tg.weakint, !tg.weakint
%inv = tg.const invalid : i1
%gi = tg.where %lt, %i, %inv : i1, !tg.weakint, i1
%4 = tgk.index %1[%i] : tensor<786432xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%gi] : tensor<786432xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>]>} : !tg.void

// -----

// Ungated, the same gather and scatter keep their vectors (the conv weight
// gradients' strided window loads: 2.2x tinygrad as vectors, 0.83x
// scalarized).
// CHECK-LABEL: func.func @test(
// CHECK-SAME: passthrough = ["tg-keep-loops"]
%0 = tg.const 262144 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%n3 = tg.const 786432 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%n3 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%n3 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%i = tg.mul %3, %c3 : !tg.weakint, !tg.weakint
%4 = tgk.index %1[%i] : tensor<786432xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%i] : tensor<786432xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>]>} : !tg.void

// -----

// The gated gather stored contiguously: the store is a vector store, but
// every load is still a gated gather, so the kernel is scalarized (the
// store's vector does not count; beautiful_mnist's max-pool backward with
// 4 lanes of its row: 93 ms as kept-loops vectors, 36 ms scalarized).
// CHECK-LABEL: func.func @test(
// CHECK-SAME: passthrough = ["tg-scalarize"]
// CHECK: vector.store
%0 = tg.const 262144 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%n3 = tg.const 786432 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%n3 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%i = tg.mul %3, %c3 : !tg.weakint, !tg.weakint
%m = tg.floormod %3, %c3 : !tg.weakint, !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%lt = tg.cmplt %m, %c2 : !tg.weakint, !tg.weakint
%inv = tg.const invalid : i1
%gi = tg.where %lt, %i, %inv : i1, !tg.weakint, i1
%4 = tgk.index %1[%3] : tensor<262144xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%gi] : tensor<786432xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>]>} : !tg.void

// -----

// A large kernel without lanes (no opt gave an axis vectors; a BEAM
// candidate that only threads): nothing of ours to keep, and the
// kept-loops pipeline has no loop vectorizer, so it gets O2 and LLVM's
// vectorizers as clang gets tinygrad's C (softmax's exp-and-divide
// kernel under THREAD alone: 33 ms scalar, 0.86 ms widened by LLVM).
// CHECK-LABEL: func.func @test(
// CHECK-SAME: passthrough = ["tg-scalarize"]
// CHECK-NOT: vector.
// CHECK: return
%0 = tg.const 262144 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%n3 = tg.const 786432 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%n3 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%n3 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%i = tg.mul %3, %c3 : !tg.weakint, !tg.weakint
%4 = tgk.index %1[%i] : tensor<786432xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%i] : tensor<786432xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
