// RUN: env TG_LAST_CACHE_BYTES=33554432 tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// Which outputs stream, against a last-level cache of 32 MiB (fixed here, so
// the host's own does not decide the test): an output of at least half of it
// streams when the kernel's buffers together exceed it, since the kernel's
// own reads then evict most of the output before the next kernel could read
// it back (layernorm's last kernel: 16 MiB in, 16 MiB out).

// CHECK-LABEL: func.func @test(
// CHECK: vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<4194304xf32>, vector<8xf32>
// CHECK: llvm.fence seq_cst
%0 = tg.const 4194304 : !tg.weakint
%n = tg.const 4195328 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%n : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<4194304xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<4195328xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void

// -----

// The same output beside a small input stays cached: the kernel's buffers
// fit the cache, and the next kernel reads its output from there.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
%0 = tg.const 4194304 : !tg.weakint
%s = tg.const 1024 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%s : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%r = tg.floormod %3, %s : !tg.weakint, !tg.weakint
%4 = tgk.index %1[%3] : tensor<4194304xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%r] : tensor<1024xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void

// -----

// An output under half the cache stays cached even where a large input
// makes the kernel's buffers exceed it.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
%0 = tg.const 4194296 : !tg.weakint
%b = tg.const 16777216 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%b : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<4194296xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<16777216xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void
