// RUN: tinygrad-opt %s --split-input-file --tg-device-to-var | FileCheck %s
// tinygrad's pm_device_to_var (codegen/gpudims.py): a multi-device kernel's
// DEVICE range is bound per device at launch, the `_device_num` variable.

// A kernel of a program sharded over 2 devices (test_multitensor's
// test_shard_beam): device d keeps rows [8d, 8d+8) of 16.
// CHECK-LABEL: module
// CHECK-NOT: <device>
// CHECK: %[[D:.*]] = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1], multiple_of = 1, name = "_device_num", addrspace = alu>
// CHECK: tg.mul %[[D]], %{{.*}}
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [1] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 2 : !tg.weakint
%5 = tgk.range %4 [0] <device> : !tg.weakint
%6 = tg.const 8 : !tg.weakint
%7 = tg.mul %5, %6 : !tg.weakint, !tg.weakint
%8 = tg.cmplt %2, %7 : !tg.weakint, !tg.weakint
%9 = tg.const true : i1
%10 = tg.cmpne %8, %9 : i1, i1
%11 = tg.add %7, %6 : !tg.weakint, !tg.weakint
%12 = tg.cmplt %2, %11 : !tg.weakint, !tg.weakint
%13 = tg.and %10, %12 : i1, i1
%14 = tg.param <slot = 1, dtype = f32> shape(%6 : !tg.weakint)
%15 = tg.const -1 : !tg.weakint
%16 = tg.mul %7, %15 : !tg.weakint, !tg.weakint
%17 = tg.add %2, %16 : !tg.weakint, !tg.weakint
%18 = tg.const invalid : i1
%19 = tg.where %13, %17, %18 : i1, !tg.weakint, i1
%20 = tgk.index %14[%19] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%21 = tg.const 0.0 : !tg.weakfloat
%22 = tg.where %13, %20, %21 : i1, tensor<f32, #tg.addrspace<global>>, !tg.weakfloat
%23 = tgk.store %22, %3 : f32, tensor<f32, #tg.addrspace<global>>
%24 = tgk.end %23, %2 : !tg.void, !tg.weakint
%25 = tg.sink(%24) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void

// -----

// An END that names the DEVICE range no longer closes it.
// CHECK-LABEL: module
// CHECK: %[[R:.*]] = tgk.range %{{.*}} [1] <weak>
// CHECK: tgk.end %{{.*}}, %[[R]] : !tg.void, !tg.weakint
%0 = tg.const 16 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [1] <weak> : !tg.weakint
%3 = tg.const 2 : !tg.weakint
%4 = tgk.range %3 [0] <device> : !tg.weakint
%5 = tg.const 8 : !tg.weakint
%6 = tg.mul %4, %5 : !tg.weakint, !tg.weakint
%7 = tg.add %6, %2 : !tg.weakint, !tg.weakint
%8 = tgk.index %1[%7] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%9 = tg.const 1.0 : f32
%10 = tgk.store %9, %8 : f32, tensor<f32, #tg.addrspace<global>>
%11 = tgk.end %10, %2, %4 : !tg.void, !tg.weakint, !tg.weakint
%12 = tg.sink(%11) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
