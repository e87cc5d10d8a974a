// RUN: tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// RUN: tinygrad-opt %s --split-input-file --tg-lower-to-llvm-cpu | FileCheck %s --check-prefix=LLVM
// A memory-bound kernel (few ALU nodes per buffer access) streams an output
// larger than the last-level cache past the caches: each whole-vector store that advances with the innermost
// loop becomes a non-temporal store behind one test of the buffer's
// alignment, and the function ends with a fence (such stores are weakly
// ordered). The buffers here are 4 GiB each, beyond any host's L3.

// CHECK-LABEL: func.func @test(
// CHECK-SAME: %[[OUT:[^:]*]]: memref<1073741824xf32>
// A large kernel's loops are left as its opts unrolled them (no LLVM unrolling).
// CHECK-SAME: passthrough = ["tg-keep-loops"]
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK: %[[LOW:.*]] = arith.andi %[[P]], %c31
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[LOW]], %c0
// CHECK: scf.for
// CHECK:   scf.if %[[OK]] {
// CHECK:     vector.store %{{.*}}, %[[OUT]][%{{.*}}] {alignment = 32 : i64, nontemporal = true} : memref<1073741824xf32>, vector<8xf32>
// CHECK:   } else {
// CHECK:     vector.store %{{.*}}, %[[OUT]][%{{.*}}] : memref<1073741824xf32>, vector<8xf32>
// CHECK: llvm.fence seq_cst
// CHECK-NEXT: return
// LLVM-LABEL: llvm.func @test(
// LLVM: llvm.store %{{.*}} {alignment = 32 : i64, nontemporal} : vector<8xf32>, !llvm.ptr
// LLVM: llvm.store %{{.*}} {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr
// LLVM: llvm.fence seq_cst
// LLVM-LABEL: llvm.func @test(
// LLVM-NOT: nontemporal
// LLVM-LABEL: llvm.func @test(
// LLVM-NOT: nontemporal
%0 = tg.const 1073741824 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<1073741824xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<1073741824xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void

// -----

// A store of vectors narrower than 16 bytes stays cached.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
%0 = tg.const 1073741824 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<1073741824xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<1073741824xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 2 : i64>]>} : !tg.void

// -----

// A small kernel's output stays in the caches for the kernel that reads it.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
%0 = tg.const 4096 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<4096xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<4096xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void

// -----

// A large input does not make a small output stream: the next kernel reads it
// from the caches.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
%0 = tg.const 4096 : !tg.weakint
%b = tg.const 1073741824 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%b : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<4096xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<1073741824xf32, #tg.addrspace<global>>, !tg.weakint
%7 = tg.add %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%8 = tgk.store %7, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void

// -----

// A compute-bound kernel (more ALU nodes per buffer access than the target's
// bound, 4 on the CPU) keeps its large output cached: its write-allocate
// reads hide behind the arithmetic.
// CHECK-LABEL: func.func @test(
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.fence
%0 = tg.const 1073741824 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%3 = tgk.range %0 [0] <weak> : !tg.weakint
%4 = tgk.index %1[%3] : tensor<1073741824xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tgk.index %2[%3] : tensor<1073741824xf32, #tg.addrspace<global>>, !tg.weakint
%a1 = tg.mul %5, %5 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%a2 = tg.add %a1, %5 : f32, tensor<f32, #tg.addrspace<global>>
%a3 = tg.mul %a2, %a2 : f32, f32
%a4 = tg.add %a3, %a1 : f32, f32
%a5 = tg.mul %a4, %a4 : f32, f32
%a6 = tg.add %a5, %a3 : f32, f32
%a7 = tg.mul %a6, %a6 : f32, f32
%a8 = tg.add %a7, %a5 : f32, f32
%a9 = tg.mul %a8, %a8 : f32, f32
%8 = tgk.store %a9, %4 : f32, tensor<f32, #tg.addrspace<global>>
%9 = tgk.end %8, %3 : !tg.void, !tg.weakint
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 8 : i64>]>} : !tg.void
