// RUN: tinygrad-opt %s --split-input-file --tg-resolve-unshards | FileCheck %s
// tinygrad's multi_pm on kernels (schedule/multi.py), as full_rewrite_to_sink
// runs it first: an INDEX of a fragment UNSHARDed over a thread range reads
// the shard that range owns (test_custom_kernel.py's TestUnshardIndex).

// Contiguous ownership: thread ty reads rows ty*8 + ir, i.e. row ir of its
// own 8x8 REG fragment.
// CHECK-LABEL: module
// CHECK: %[[TY:.*]] = tgk.range %{{.*}} [0] <local>
// CHECK: %[[IR:.*]] = tgk.range %{{.*}} [1] <loop>
// CHECK: %[[J:.*]] = tgk.range %{{.*}} [2] <loop>
// CHECK: %[[FRAG:.*]] = tgt.reshape %{{.*}} : tensor<64xf32, #tg.addrspace<reg>>
// CHECK-NOT: tgt.unshard
// CHECK: tgk.index %[[FRAG]][%[[IR]], %[[J]]] : tensor<8x8xf32, #tg.addrspace<reg>>
%0 = tg.const 512 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 64 : !tg.weakint
%3 = tg.const 8 : !tg.weakint
%4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
%5 = tgt.reshape %1, %4 : tensor<512xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%6 = tgk.range %3 [0] <local> : !tg.weakint
%7 = tg.mul %6, %3 : !tg.weakint, !tg.weakint
%8 = tgk.range %3 [1] <loop> : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tgk.range %3 [2] <loop> : !tg.weakint
%11 = tgk.index %5[%9, %10] : tensor<64x8xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%12 = tg.buffer <slot = 0, dtype = f32, addrspace = reg> shape(%2 : !tg.weakint)
%13 = tg.stack(%3, %3) : !tg.weakint, !tg.weakint
%14 = tgt.reshape %12, %13 : tensor<64xf32, #tg.addrspace<reg>>, tensor<2x!tg.weakint>
%15 = tgt.unshard %14, [0] ranges(%6 : !tg.weakint) : tensor<8x8xf32, #tg.addrspace<reg>>
%16 = tgk.index %15[%9, %10] : tensor<64x8xf32, #tg.addrspace<reg>>, !tg.weakint, !tg.weakint
%17 = tgk.store %16, %11 : tensor<f32, #tg.addrspace<reg>>, tensor<f32, #tg.addrspace<global>>
%18 = tgk.end %17, %10, %8, %6 : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
%19 = tg.sink(%18) {arg = #tg.kernel_info<name = "frag", axis_types = [], applied_opts = []>} : !tg.void

// -----

// Strided ownership: thread ty reads rows ty + ir*8, i.e. row
// (ty + ir*8 - ty) // 8 = ir of its fragment.
// CHECK-LABEL: module
// CHECK: %[[IR:.*]] = tgk.range %{{.*}} [1] <loop>
// CHECK: %[[J:.*]] = tgk.range %{{.*}} [2] <loop>
// CHECK-NOT: tgt.unshard
// CHECK: tgk.index %{{.*}}[%[[IR]], %[[J]]] : tensor<8x8xf32, #tg.addrspace<reg>>
%0 = tg.const 512 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 64 : !tg.weakint
%3 = tg.const 8 : !tg.weakint
%4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
%5 = tgt.reshape %1, %4 : tensor<512xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%6 = tgk.range %3 [0] <local> : !tg.weakint
%7 = tgk.range %3 [1] <loop> : !tg.weakint
%8 = tg.mul %7, %3 : !tg.weakint, !tg.weakint
%9 = tg.add %6, %8 : !tg.weakint, !tg.weakint
%10 = tgk.range %3 [2] <loop> : !tg.weakint
%11 = tgk.index %5[%9, %10] : tensor<64x8xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%12 = tg.buffer <slot = 0, dtype = f32, addrspace = reg> shape(%2 : !tg.weakint)
%13 = tg.stack(%3, %3) : !tg.weakint, !tg.weakint
%14 = tgt.reshape %12, %13 : tensor<64xf32, #tg.addrspace<reg>>, tensor<2x!tg.weakint>
%15 = tgt.unshard %14, [0] ranges(%6 : !tg.weakint) : tensor<8x8xf32, #tg.addrspace<reg>>
%16 = tgk.index %15[%9, %10] : tensor<64x8xf32, #tg.addrspace<reg>>, !tg.weakint, !tg.weakint
%17 = tgk.store %16, %11 : tensor<f32, #tg.addrspace<reg>>, tensor<f32, #tg.addrspace<global>>
%18 = tgk.end %17, %10, %7, %6 : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
%19 = tg.sink(%18) {arg = #tg.kernel_info<name = "frag", axis_types = [], applied_opts = []>} : !tg.void

// -----

// A PARAM sharded over two devices (ParamArg.axis): its 8-element shard,
// UNSHARDed over a DEVICE range, indexed at d*8 + r: element r of the shard.
// CHECK-LABEL: module
// CHECK: %[[R:.*]] = tgk.range %{{.*}} [0] <weak>
// CHECK: %[[SHARD:.*]] = tg.param <slot = 1, dtype = f32, device = ["CPU:0", "CPU:1"]> shape(%{{.*}} : !tg.weakint)
// CHECK-NOT: <device>
// CHECK: tgk.index %[[SHARD]][%[[R]]] : tensor<8xf32, #tg.addrspace<global>>
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 16 : !tg.weakint
%5 = tg.param <slot = 1, dtype = f32, axis = 0, device = ["CPU:0", "CPU:1"]> shape(%4 : !tg.weakint)
%6 = tg.const 2 : !tg.weakint
%7 = tgk.range %6 [-1] <device> : !tg.weakint
%8 = tg.mul %7, %0 : !tg.weakint, !tg.weakint
%9 = tg.add %8, %2 : !tg.weakint, !tg.weakint
%10 = tgk.index %5[%9] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tg.const 1.0 : !tg.weakfloat
%12 = tg.add %10, %11 : tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
%13 = tgk.store %12, %3 : f32, tensor<f32, #tg.addrspace<global>>
%14 = tgk.end %13, %2 : !tg.void, !tg.weakint
%15 = tg.sink(%14) {arg = #tg.kernel_info<name = "sharded_param", axis_types = [], applied_opts = []>} : !tg.void
