// RUN: tinygrad-opt %s --split-input-file --tg-decompose-dtypes | FileCheck %s

// A read of an fp8e4m3 buffer: the buffer becomes its bits (ui8), the read a
// LOAD, and tinygrad's f2f widens the bits to half: sign to bit 15, the
// exponent rebiased by 15-7 (8 << 10), the one NaN (0x7f) to a half NaN,
// exponent 0 (denormals) to zero.
// CHECK-LABEL: tg.param <slot = 0, dtype = f32
// CHECK: %[[P:.*]] = tg.param <slot = 1, dtype = ui8
// CHECK: %[[I:.*]] = tgk.index %[[P]][{{.*}}] : tensor<4xui8, #tg.addrspace<global>>
// CHECK: %[[L:.*]] = tgk.load %[[I]] : tensor<ui8, #tg.addrspace<global>>
// CHECK: tg.const 127 : ui16
// CHECK: tg.const 31744 : ui16
// CHECK: tg.const 8192 : ui16
// CHECK: %[[H:.*]] = tg.bitcast %{{.*}} to f16 : ui16
// CHECK: %[[F:.*]] = tg.cast %[[H]] to f32 : f16
// CHECK: tgk.store %[[F]], %{{.*}} : f32, tensor<f32, #tg.addrspace<global>>
// CHECK-NOT: f8E4M3FN
%0 = tg.const 4 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <loop> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%5 = tg.param <slot = 1, dtype = f8E4M3FN, device = "CPU"> shape(%0 : !tg.weakint)
%10 = tgk.index %5[%2] : tensor<4xf8E4M3FN, #tg.addrspace<global>>, !tg.weakint
%11 = tg.cast %10 to f32 : tensor<f8E4M3FN, #tg.addrspace<global>>
%12 = tgk.store %11, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A cast to fp8e4m3 stored: f2f_clamp saturates at +-448 in half (NaN kept),
// the store narrows the half bits with f2f (round to nearest even over the
// 7 dropped mantissa bits, exponents below 9 underflow to zero, NaN 0x7f).
// CHECK-LABEL: tg.param <slot = 0, dtype = ui8
// CHECK: %[[V:.*]] = tg.cast %{{.*}} to f16 : tensor<f32, #tg.addrspace<global>>
// CHECK: tg.cmpne %[[V]], %[[V]]
// CHECK: tg.const -448.0 : f16
// CHECK: tg.const 448.0 : f16
// CHECK: tg.bitcast %{{.*}} to ui16 : f16
// CHECK: tg.const 9 : ui16
// CHECK: tg.const 65472 : ui16
// CHECK: tg.cast %{{.*}} to ui8 : ui16
// CHECK: tg.where %{{.*}}, %{{.*}}, %{{.*}} : i1, ui8, ui8
// CHECK: tgk.store %{{.*}}, %{{.*}} : ui8, tensor<ui8, #tg.addrspace<global>>
// CHECK-NOT: f8E4M3FN
%0 = tg.const 4 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f8E4M3FN, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <loop> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<4xf8E4M3FN, #tg.addrspace<global>>, !tg.weakint
%5 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%10 = tgk.index %5[%2] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tg.cast %10 to f8E4M3FN : tensor<f32, #tg.addrspace<global>>
%12 = tgk.store %11, %3 : tensor<f8E4M3FN, #tg.addrspace<global>>, tensor<f8E4M3FN, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
