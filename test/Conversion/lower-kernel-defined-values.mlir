// RUN: tinygrad-opt %s -split-input-file --tg-lower-kernel | FileCheck %s
// Every value the lowering computes is defined: C leaves out-of-range
// float-to-int casts, shifts by the width or more and divisions by zero
// (or INT_MIN / -1) undefined, and LLVM makes them poison or UB. The
// lowering gives each the answer of docs/Design.md ("Values as tinygrad's
// C computes them"): no fptosi/fptoui sees a value out of range, no shift
// a count out of range that is selected, no divide a zero or -1 divisor.

// float32 -> int32: x86's cvttss2si, INT_MIN for NaN and out of range.
// CHECK-LABEL: func.func @test
// CHECK: %[[X:.*]] = memref.load
// CHECK: %[[LO:.*]] = arith.constant -2.14748365E+9 : f32
// CHECK: %[[GE:.*]] = arith.cmpf oge, %[[X]], %[[LO]] : f32
// CHECK: %[[HI:.*]] = arith.constant 2.14748365E+9 : f32
// CHECK: %[[LT:.*]] = arith.cmpf olt, %[[X]], %[[HI]] : f32
// CHECK: %[[IN:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[IN]], %[[X]], %{{.*}} : f32
// CHECK: %[[R:.*]] = arith.fptosi %[[SAFE]] : f32 to i32
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: %[[V:.*]] = arith.select %[[IN]], %[[R]], %[[MIN]] : i32
// CHECK: memref.store %[[V]]
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.cast %5 to si32 : tensor<f32, #tg.addrspace<global>>
%7 = tgk.store %6, %3 : tensor<si32, #tg.addrspace<global>>, tensor<si32, #tg.addrspace<global>>
%8 = tgk.end %7, %2 : !tg.void, !tg.weakint
%9 = tg.sink(%8) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// float32 -> uint8: through int32 (C's int), then wrapped.
// CHECK-LABEL: func.func @test
// CHECK: arith.cmpf oge
// CHECK: arith.fptosi %{{.*}} : f32 to i32
// CHECK: %[[V:.*]] = arith.select %{{.*}} : i32
// CHECK: arith.trunci %[[V]] : i32 to i8
// CHECK-NOT: arith.fptoui
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = ui8, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xui8, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.cast %5 to ui8 : tensor<f32, #tg.addrspace<global>>
%7 = tgk.store %6, %3 : tensor<ui8, #tg.addrspace<global>>, tensor<ui8, #tg.addrspace<global>>
%8 = tgk.end %7, %2 : !tg.void, !tg.weakint
%9 = tg.sink(%8) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// float64 -> uint64: below 2^63 (or NaN) the signed conversion, else that of
// x - 2^63 with the top bit flipped; never an fptoui.
// CHECK-LABEL: func.func @test
// CHECK: %[[X:.*]] = memref.load
// CHECK: %[[HALF:.*]] = arith.constant 9.2233720368547758E+18 : f64
// CHECK: %[[BIG:.*]] = arith.cmpf oge, %[[X]], %[[HALF]] : f64
// CHECK: %[[SUB:.*]] = arith.subf %[[X]], %[[HALF]] : f64
// CHECK: %[[Y:.*]] = arith.select %[[BIG]], %[[SUB]], %[[X]] : f64
// CHECK: arith.fptosi %{{.*}} : f64 to i64
// CHECK: %[[R:.*]] = arith.select %{{.*}} : i64
// CHECK: %[[TOP:.*]] = arith.constant -9223372036854775808 : i64
// CHECK: %[[FLIP:.*]] = arith.xori %[[R]], %[[TOP]] : i64
// CHECK: arith.select %[[BIG]], %[[FLIP]], %[[R]] : i64
// CHECK-NOT: arith.fptoui
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = ui64, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xui64, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = f64, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xf64, #tg.addrspace<global>>, !tg.weakint
%6 = tg.cast %5 to ui64 : tensor<f64, #tg.addrspace<global>>
%7 = tgk.store %6, %3 : tensor<ui64, #tg.addrspace<global>>, tensor<ui64, #tg.addrspace<global>>
%8 = tgk.end %7, %2 : !tg.void, !tg.weakint
%9 = tg.sink(%8) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// int32 << y and uint32 >> y for any y: 0 from a count of 32 or more (or a
// negative one, read as unsigned), as exec_alu's shifts truncated.
// CHECK-LABEL: func.func @test
// CHECK: %[[X:.*]] = memref.load %arg1
// CHECK: %[[Y:.*]] = memref.load %arg2
// CHECK: %[[W:.*]] = arith.constant 32 : i32
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[Y]], %[[W]] : i32
// CHECK: %[[S:.*]] = arith.shli %[[X]], %[[Y]] : i32
// CHECK: arith.select %[[OK]], %[[S]], %{{.*}} : i32
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.param <slot = 2, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%7 = tgk.index %6[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.shl %5, %7 : tensor<si32, #tg.addrspace<global>>, tensor<si32, #tg.addrspace<global>>
%9 = tgk.store %8, %3 : si32, tensor<si32, #tg.addrspace<global>>
%10 = tgk.end %9, %2 : !tg.void, !tg.weakint
%11 = tg.sink(%10) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// int64 >> y: the sign in every bit from a count of 64 or more, so the
// count itself is made safe (63).
// CHECK-LABEL: func.func @test
// CHECK: %[[X:.*]] = memref.load %arg1
// CHECK: %[[Y:.*]] = memref.load %arg2
// CHECK: %[[W:.*]] = arith.constant 64 : i64
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[Y]], %[[W]] : i64
// CHECK: %[[W1:.*]] = arith.constant 63 : i64
// CHECK: %[[N:.*]] = arith.select %[[OK]], %[[Y]], %[[W1]] : i64
// CHECK: arith.shrsi %[[X]], %[[N]] : i64
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si64, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xsi64, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si64, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xsi64, #tg.addrspace<global>>, !tg.weakint
%6 = tg.param <slot = 2, dtype = si64, device = "CPU"> shape(%0 : !tg.weakint)
%7 = tgk.index %6[%2] : tensor<8xsi64, #tg.addrspace<global>>, !tg.weakint
%8 = tg.shr %5, %7 : tensor<si64, #tg.addrspace<global>>, tensor<si64, #tg.addrspace<global>>
%9 = tgk.store %8, %3 : si64, tensor<si64, #tg.addrspace<global>>
%10 = tgk.end %9, %2 : !tg.void, !tg.weakint
%11 = tg.sink(%10) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A shift by a constant below the width needs no guard.
// CHECK-LABEL: func.func @test
// CHECK: arith.shli
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.const 3 : si32
%8 = tg.shl %5, %6 : tensor<si32, #tg.addrspace<global>>, si32
%9 = tgk.store %8, %3 : si32, tensor<si32, #tg.addrspace<global>>
%10 = tgk.end %9, %2 : !tg.void, !tg.weakint
%11 = tg.sink(%10) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// int64 a // d (truncating) for any d: the divide sees 1 where d is 0 or -1,
// then x / 0 = 0 and INT_MIN / -1 wraps (0 - a), as exec_alu says.
// CHECK-LABEL: func.func @test
// CHECK: %[[A:.*]] = memref.load %arg1
// CHECK: %[[D:.*]] = memref.load %arg2
// CHECK: %[[Z:.*]] = arith.constant 0 : i64
// CHECK: %[[ISZ:.*]] = arith.cmpi eq, %[[D]], %[[Z]] : i64
// CHECK: %[[M1:.*]] = arith.constant -1 : i64
// CHECK: %[[ISM1:.*]] = arith.cmpi eq, %[[D]], %[[M1]] : i64
// CHECK: %[[BAD:.*]] = arith.ori %[[ISZ]], %[[ISM1]] : i1
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[SAFE:.*]] = arith.select %[[BAD]], %[[ONE]], %[[D]] : i64
// CHECK: %[[Q:.*]] = arith.divsi %[[A]], %[[SAFE]] : i64
// CHECK: %[[NEG:.*]] = arith.subi %{{.*}}, %[[A]] : i64
// CHECK: %[[Q1:.*]] = arith.select %[[ISM1]], %[[NEG]], %[[Q]] : i64
// CHECK: arith.select %[[ISZ]], %{{.*}}, %[[Q1]] : i64
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si64, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xsi64, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si64, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xsi64, #tg.addrspace<global>>, !tg.weakint
%6 = tg.param <slot = 2, dtype = si64, device = "CPU"> shape(%0 : !tg.weakint)
%7 = tgk.index %6[%2] : tensor<8xsi64, #tg.addrspace<global>>, !tg.weakint
%8 = tg.cdiv %5, %7 : tensor<si64, #tg.addrspace<global>>, tensor<si64, #tg.addrspace<global>>
%9 = tgk.store %8, %3 : si64, tensor<si64, #tg.addrspace<global>>
%10 = tgk.end %9, %2 : !tg.void, !tg.weakint
%11 = tg.sink(%10) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// int32 a % d through the f64 quotient: the same safe divisor, and x % 0 = x.
// CHECK-LABEL: func.func @test
// CHECK: %[[A:.*]] = memref.load %arg1
// CHECK: %[[D:.*]] = memref.load %arg2
// CHECK: %[[ISZ:.*]] = arith.cmpi eq, %[[D]], %{{.*}} : i32
// CHECK: %[[SAFE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[D]] : i32
// CHECK: arith.divf
// CHECK: arith.fptosi
// CHECK: %[[R:.*]] = arith.subi %[[A]], %{{.*}} : i32
// CHECK: arith.select %[[ISZ]], %[[A]], %[[R]] : i32
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.param <slot = 2, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%7 = tgk.index %6[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%8 = tg.cmod %5, %7 : tensor<si32, #tg.addrspace<global>>, tensor<si32, #tg.addrspace<global>>
%9 = tgk.store %8, %3 : si32, tensor<si32, #tg.addrspace<global>>
%10 = tgk.end %9, %2 : !tg.void, !tg.weakint
%11 = tg.sink(%10) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// SIN of an int32 (Tensor.sin on ints): pm_cast_float_alu casts the operand
// to float before xsin, which computes in floats (it computed in ints).
// CHECK-LABEL: func.func @test
// CHECK: %[[X:.*]] = memref.load %arg1
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[X]] : i32 to f32
// CHECK: arith.mulf
%0 = tg.const 8 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<8xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 1, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<8xsi32, #tg.addrspace<global>>, !tg.weakint
%6 = tg.sin %5 : tensor<si32, #tg.addrspace<global>>
%7 = tgk.store %6, %3 : f32, tensor<f32, #tg.addrspace<global>>
%8 = tgk.end %7, %2 : !tg.void, !tg.weakint
%9 = tg.sink(%8) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
