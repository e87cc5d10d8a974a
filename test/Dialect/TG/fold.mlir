// RUN: tinygrad-opt %s --canonicalize | FileCheck %s

// Constant folding with tinygrad's exact scalar semantics. Every expected value
// was computed by tinygrad itself: exec_alu(op, dtype, operands) for ALU ops,
// dtype.const(x) for CAST (symbolic: CAST(CONST) -> const_like, no int
// wraparound) and fold_bitcast for BITCAST.

// exec_alu(Ops.CDIV, dtypes.int, [-7, 2]) = -3
// CHECK-LABEL: func.func @cdiv_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const -3 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cdiv_neg() -> si32 {
  %a0 = tg.const -7 : si32
  %a1 = tg.const 2 : si32
  %r = tg.cdiv %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.CDIV, dtypes.int, [7, -2]) = -3
// CHECK-LABEL: func.func @cdiv_neg_divisor(
//  CHECK-NEXT: %[[R:.*]] = tg.const -3 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cdiv_neg_divisor() -> si32 {
  %a0 = tg.const 7 : si32
  %a1 = tg.const -2 : si32
  %r = tg.cdiv %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.CMOD, dtypes.int, [-7, 2]) = -1
// CHECK-LABEL: func.func @cmod_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const -1 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cmod_neg() -> si32 {
  %a0 = tg.const -7 : si32
  %a1 = tg.const 2 : si32
  %r = tg.cmod %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.CMOD, dtypes.int, [7, -2]) = 1
// CHECK-LABEL: func.func @cmod_neg_divisor(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cmod_neg_divisor() -> si32 {
  %a0 = tg.const 7 : si32
  %a1 = tg.const -2 : si32
  %r = tg.cmod %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.FLOORDIV, dtypes.int, [-7, 2]) = -4
// CHECK-LABEL: func.func @floordiv_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const -4 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @floordiv_neg() -> si32 {
  %a0 = tg.const -7 : si32
  %a1 = tg.const 2 : si32
  %r = tg.floordiv %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.FLOORDIV, dtypes.int, [7, -2]) = -4
// CHECK-LABEL: func.func @floordiv_neg_divisor(
//  CHECK-NEXT: %[[R:.*]] = tg.const -4 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @floordiv_neg_divisor() -> si32 {
  %a0 = tg.const 7 : si32
  %a1 = tg.const -2 : si32
  %r = tg.floordiv %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.FLOORMOD, dtypes.int, [-7, 2]) = 1
// CHECK-LABEL: func.func @floormod_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @floormod_neg() -> si32 {
  %a0 = tg.const -7 : si32
  %a1 = tg.const 2 : si32
  %r = tg.floormod %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.FLOORMOD, dtypes.int, [7, -2]) = -1
// CHECK-LABEL: func.func @floormod_neg_divisor(
//  CHECK-NEXT: %[[R:.*]] = tg.const -1 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @floormod_neg_divisor() -> si32 {
  %a0 = tg.const 7 : si32
  %a1 = tg.const -2 : si32
  %r = tg.floormod %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.CDIV, dtypes.int, [5, 0]) = 0
// CHECK-LABEL: func.func @cdiv_by_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cdiv_by_zero() -> si32 {
  %a0 = tg.const 5 : si32
  %a1 = tg.const 0 : si32
  %r = tg.cdiv %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.CMOD, dtypes.int, [5, 0]) = 5
// CHECK-LABEL: func.func @cmod_by_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const 5 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cmod_by_zero() -> si32 {
  %a0 = tg.const 5 : si32
  %a1 = tg.const 0 : si32
  %r = tg.cmod %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.FLOORDIV, dtypes.weakint, [-5, 0]) = 0
// CHECK-LABEL: func.func @floordiv_by_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0 : !tg.weakint
//  CHECK-NEXT: return %[[R]] : !tg.weakint
func.func @floordiv_by_zero() -> !tg.weakint {
  %a0 = tg.const -5 : !tg.weakint
  %a1 = tg.const 0 : !tg.weakint
  %r = tg.floordiv %a0, %a1 : !tg.weakint, !tg.weakint
  return %r : !tg.weakint
}

// exec_alu(Ops.FLOORMOD, dtypes.long, [-5, 0]) = -5
// CHECK-LABEL: func.func @floormod_by_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const -5 : si64
//  CHECK-NEXT: return %[[R]] : si64
func.func @floormod_by_zero() -> si64 {
  %a0 = tg.const -5 : si64
  %a1 = tg.const 0 : si64
  %r = tg.floormod %a0, %a1 : si64, si64
  return %r : si64
}

// exec_alu(Ops.CDIV, dtypes.int, [-2147483648, -1]) = -2147483648
// CHECK-LABEL: func.func @cdiv_int_min(
//  CHECK-NEXT: %[[R:.*]] = tg.const -2147483648 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cdiv_int_min() -> si32 {
  %a0 = tg.const -2147483648 : si32
  %a1 = tg.const -1 : si32
  %r = tg.cdiv %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.ADD, dtypes.uchar, [250, 10]) = 4
// CHECK-LABEL: func.func @add_ui8_wrap(
//  CHECK-NEXT: %[[R:.*]] = tg.const 4 : ui8
//  CHECK-NEXT: return %[[R]] : ui8
func.func @add_ui8_wrap() -> ui8 {
  %a0 = tg.const 250 : ui8
  %a1 = tg.const 10 : ui8
  %r = tg.add %a0, %a1 : ui8, ui8
  return %r : ui8
}

// exec_alu(Ops.ADD, dtypes.int, [2147483647, 1]) = -2147483648
// CHECK-LABEL: func.func @add_si32_overflow(
//  CHECK-NEXT: %[[R:.*]] = tg.const -2147483648 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @add_si32_overflow() -> si32 {
  %a0 = tg.const 2147483647 : si32
  %a1 = tg.const 1 : si32
  %r = tg.add %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.SUB, dtypes.uint, [0, 1]) = 4294967295
// CHECK-LABEL: func.func @sub_ui32_underflow(
//  CHECK-NEXT: %[[R:.*]] = tg.const 4294967295 : ui32
//  CHECK-NEXT: return %[[R]] : ui32
func.func @sub_ui32_underflow() -> ui32 {
  %a0 = tg.const 0 : ui32
  %a1 = tg.const 1 : ui32
  %r = tg.sub %a0, %a1 : ui32, ui32
  return %r : ui32
}

// exec_alu(Ops.MUL, dtypes.long, [4611686018427387904, 4]) = 0
// CHECK-LABEL: func.func @mul_si64_overflow(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0 : si64
//  CHECK-NEXT: return %[[R]] : si64
func.func @mul_si64_overflow() -> si64 {
  %a0 = tg.const 4611686018427387904 : si64
  %a1 = tg.const 4 : si64
  %r = tg.mul %a0, %a1 : si64, si64
  return %r : si64
}

// exec_alu(Ops.MUL, dtypes.ulong, [18446744073709551615, 18446744073709551615]) = 1
// CHECK-LABEL: func.func @mul_ui64_wrap(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1 : ui64
//  CHECK-NEXT: return %[[R]] : ui64
func.func @mul_ui64_wrap() -> ui64 {
  %a0 = tg.const 18446744073709551615 : ui64
  %a1 = tg.const 18446744073709551615 : ui64
  %r = tg.mul %a0, %a1 : ui64, ui64
  return %r : ui64
}

// exec_alu(Ops.NEG, dtypes.char, [-128]) = -128
// CHECK-LABEL: func.func @neg_si8_min(
//  CHECK-NEXT: %[[R:.*]] = tg.const -128 : si8
//  CHECK-NEXT: return %[[R]] : si8
func.func @neg_si8_min() -> si8 {
  %a0 = tg.const -128 : si8
  %r = tg.neg %a0 : si8
  return %r : si8
}

// exec_alu(Ops.ADD, dtypes.short, [32767, 1]) = -32768
// CHECK-LABEL: func.func @add_si16_weak(
//  CHECK-NEXT: %[[R:.*]] = tg.const -32768 : si16
//  CHECK-NEXT: return %[[R]] : si16
func.func @add_si16_weak() -> si16 {
  %a0 = tg.const 32767 : si16
  %a1 = tg.const 1 : !tg.weakint
  %r = tg.add %a0, %a1 : si16, !tg.weakint
  return %r : si16
}

// exec_alu(Ops.ADD, dtypes.weakint, [9223372036854775807, 9223372036854775807]) = 18446744073709551614
// CHECK-LABEL: func.func @add_weakint_no_wrap(
//  CHECK-NEXT: %[[R:.*]] = tg.const 18446744073709551614 : !tg.weakint
//  CHECK-NEXT: return %[[R]] : !tg.weakint
func.func @add_weakint_no_wrap() -> !tg.weakint {
  %a0 = tg.const 9223372036854775807 : !tg.weakint
  %a1 = tg.const 9223372036854775807 : !tg.weakint
  %r = tg.add %a0, %a1 : !tg.weakint, !tg.weakint
  return %r : !tg.weakint
}

// exec_alu(Ops.MULACC, dtypes.uchar, [16, 16, 3]) = 3
// CHECK-LABEL: func.func @mulacc_ui8(
//  CHECK-NEXT: %[[R:.*]] = tg.const 3 : ui8
//  CHECK-NEXT: return %[[R]] : ui8
func.func @mulacc_ui8() -> ui8 {
  %a0 = tg.const 16 : ui8
  %a1 = tg.const 16 : ui8
  %a2 = tg.const 3 : ui8
  %r = tg.mulacc %a0, %a1, %a2 : ui8, ui8, ui8
  return %r : ui8
}

// exec_alu(Ops.ADD, dtypes.half, [0.0999755859375, 0.199951171875]) = 0.2998046875
// CHECK-LABEL: func.func @add_f16_round(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.2998046875 : f16
//  CHECK-NEXT: return %[[R]] : f16
func.func @add_f16_round() -> f16 {
  %a0 = tg.const 0.0999755859375 : f16
  %a1 = tg.const 0.199951171875 : f16
  %r = tg.add %a0, %a1 : f16, f16
  return %r : f16
}

// exec_alu(Ops.ADD, dtypes.half, [65504.0, 65504.0]) = inf
// CHECK-LABEL: func.func @add_f16_overflow(
//  CHECK-NEXT: %[[R:.*]] = tg.const inf : f16
//  CHECK-NEXT: return %[[R]] : f16
func.func @add_f16_overflow() -> f16 {
  %a0 = tg.const 65504.0 : f16
  %a1 = tg.const 65504.0 : f16
  %r = tg.add %a0, %a1 : f16, f16
  return %r : f16
}

// exec_alu(Ops.ADD, dtypes.bfloat16, [1.0, 0.00099945068359375]) = 1.0
// CHECK-LABEL: func.func @add_bf16_round(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.0 : bf16
//  CHECK-NEXT: return %[[R]] : bf16
func.func @add_bf16_round() -> bf16 {
  %a0 = tg.const 1.0 : bf16
  %a1 = tg.const 0.00099945068359375 : bf16
  %r = tg.add %a0, %a1 : bf16, bf16
  return %r : bf16
}

// exec_alu(Ops.ADD, dtypes.float, [0.10000000149011612, 0.20000000298023224]) = 0.30000001192092896
// CHECK-LABEL: func.func @add_f32_round(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.30000001192092896 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @add_f32_round() -> f32 {
  %a0 = tg.const 0.10000000149011612 : f32
  %a1 = tg.const 0.20000000298023224 : f32
  %r = tg.add %a0, %a1 : f32, f32
  return %r : f32
}

// exec_alu(Ops.ADD, dtypes.weakfloat, [0.1, 0.2]) = 0.30000000000000004
// CHECK-LABEL: func.func @add_weakfloat_exact(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.30000000000000004 : !tg.weakfloat
//  CHECK-NEXT: return %[[R]] : !tg.weakfloat
func.func @add_weakfloat_exact() -> !tg.weakfloat {
  %a0 = tg.const 0.1 : !tg.weakfloat
  %a1 = tg.const 0.2 : !tg.weakfloat
  %r = tg.add %a0, %a1 : !tg.weakfloat, !tg.weakfloat
  return %r : !tg.weakfloat
}

// exec_alu(Ops.MUL, dtypes.float, [0.10000000149011612, 3]) = 0.30000001192092896
// CHECK-LABEL: func.func @mul_f32_weak(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.30000001192092896 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @mul_f32_weak() -> f32 {
  %a0 = tg.const 0.10000000149011612 : f32
  %a1 = tg.const 3 : !tg.weakint
  %r = tg.mul %a0, %a1 : f32, !tg.weakint
  return %r : f32
}

// exec_alu(Ops.SUB, dtypes.double, [1.0, 1e-17]) = 1.0
// CHECK-LABEL: func.func @sub_f64(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.0 : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @sub_f64() -> f64 {
  %a0 = tg.const 1.0 : f64
  %a1 = tg.const 1.0e-17 : f64
  %r = tg.sub %a0, %a1 : f64, f64
  return %r : f64
}

// exec_alu(Ops.MULACC, dtypes.half, [3.0, 0.0999755859375, 1.0]) = 1.2998046875
// CHECK-LABEL: func.func @mulacc_f16(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.2998046875 : f16
//  CHECK-NEXT: return %[[R]] : f16
func.func @mulacc_f16() -> f16 {
  %a0 = tg.const 3.0 : f16
  %a1 = tg.const 0.0999755859375 : f16
  %a2 = tg.const 1.0 : f16
  %r = tg.mulacc %a0, %a1, %a2 : f16, f16, f16
  return %r : f16
}

// exec_alu(Ops.MAX, dtypes.float, [-1.5, 2.25]) = 2.25
// CHECK-LABEL: func.func @max_f32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 2.25 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @max_f32() -> f32 {
  %a0 = tg.const -1.5 : f32
  %a1 = tg.const 2.25 : f32
  %r = tg.max %a0, %a1 : f32, f32
  return %r : f32
}

// exec_alu(Ops.MAX, dtypes.int, [-3, -7]) = -3
// CHECK-LABEL: func.func @max_si32(
//  CHECK-NEXT: %[[R:.*]] = tg.const -3 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @max_si32() -> si32 {
  %a0 = tg.const -3 : si32
  %a1 = tg.const -7 : si32
  %r = tg.max %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.POW, dtypes.float, [2.0, 10.0]) = 1024.0
// CHECK-LABEL: func.func @pow_f32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1024.0 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @pow_f32() -> f32 {
  %a0 = tg.const 2.0 : f32
  %a1 = tg.const 10.0 : f32
  %r = tg.pow %a0, %a1 : f32, f32
  return %r : f32
}

// exec_alu(Ops.POW, dtypes.double, [0.0, -1.0]) = inf
// CHECK-LABEL: func.func @pow_zero_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const inf : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @pow_zero_neg() -> f64 {
  %a0 = tg.const 0.0 : f64
  %a1 = tg.const -1.0 : f64
  %r = tg.pow %a0, %a1 : f64, f64
  return %r : f64
}

// exec_alu(Ops.POW, dtypes.double, [-8.0, 0.5]) = nan
// CHECK-LABEL: func.func @pow_neg_fraction(
//  CHECK-NEXT: %[[R:.*]] = tg.const nan : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @pow_neg_fraction() -> f64 {
  %a0 = tg.const -8.0 : f64
  %a1 = tg.const 0.5 : f64
  %r = tg.pow %a0, %a1 : f64, f64
  return %r : f64
}

// exec_alu(Ops.LOG2, dtypes.float, [0.0]) = -inf
// CHECK-LABEL: func.func @log2_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const -inf : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @log2_zero() -> f32 {
  %a0 = tg.const 0.0 : f32
  %r = tg.log2 %a0 : f32
  return %r : f32
}

// exec_alu(Ops.LOG2, dtypes.float, [-1.0]) = nan
// CHECK-LABEL: func.func @log2_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const nan : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @log2_neg() -> f32 {
  %a0 = tg.const -1.0 : f32
  %r = tg.log2 %a0 : f32
  return %r : f32
}

// exec_alu(Ops.LOG2, dtypes.double, [8.0]) = 3.0
// CHECK-LABEL: func.func @log2_eight(
//  CHECK-NEXT: %[[R:.*]] = tg.const 3.0 : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @log2_eight() -> f64 {
  %a0 = tg.const 8.0 : f64
  %r = tg.log2 %a0 : f64
  return %r : f64
}

// exec_alu(Ops.SQRT, dtypes.float, [-1.0]) = nan
// CHECK-LABEL: func.func @sqrt_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const nan : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @sqrt_neg() -> f32 {
  %a0 = tg.const -1.0 : f32
  %r = tg.sqrt %a0 : f32
  return %r : f32
}

// exec_alu(Ops.SQRT, dtypes.half, [2.0]) = 1.4140625
// CHECK-LABEL: func.func @sqrt_two_f16(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.4140625 : f16
//  CHECK-NEXT: return %[[R]] : f16
func.func @sqrt_two_f16() -> f16 {
  %a0 = tg.const 2.0 : f16
  %r = tg.sqrt %a0 : f16
  return %r : f16
}

// exec_alu(Ops.RECIPROCAL, dtypes.float, [-0.0]) = -inf
// CHECK-LABEL: func.func @reciprocal_negzero(
//  CHECK-NEXT: %[[R:.*]] = tg.const -inf : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @reciprocal_negzero() -> f32 {
  %a0 = tg.const -0.0 : f32
  %r = tg.reciprocal %a0 : f32
  return %r : f32
}

// exec_alu(Ops.RECIPROCAL, dtypes.double, [0.0]) = inf
// CHECK-LABEL: func.func @reciprocal_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const inf : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @reciprocal_zero() -> f64 {
  %a0 = tg.const 0.0 : f64
  %r = tg.reciprocal %a0 : f64
  return %r : f64
}

// exec_alu(Ops.RECIPROCAL, dtypes.float, [3.0]) = 0.3333333432674408
// CHECK-LABEL: func.func @reciprocal_three_f32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.3333333432674408 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @reciprocal_three_f32() -> f32 {
  %a0 = tg.const 3.0 : f32
  %r = tg.reciprocal %a0 : f32
  return %r : f32
}

// exec_alu(Ops.EXP2, dtypes.float, [200.0]) = inf
// CHECK-LABEL: func.func @exp2_overflow_f32(
//  CHECK-NEXT: %[[R:.*]] = tg.const inf : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @exp2_overflow_f32() -> f32 {
  %a0 = tg.const 200.0 : f32
  %r = tg.exp2 %a0 : f32
  return %r : f32
}

// exec_alu(Ops.EXP2, dtypes.double, [1024.0]) = inf
// CHECK-LABEL: func.func @exp2_overflow_f64(
//  CHECK-NEXT: %[[R:.*]] = tg.const inf : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @exp2_overflow_f64() -> f64 {
  %a0 = tg.const 1024.0 : f64
  %r = tg.exp2 %a0 : f64
  return %r : f64
}

// exec_alu(Ops.EXP2, dtypes.bfloat16, [-1.0]) = 0.5
// CHECK-LABEL: func.func @exp2_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.5 : bf16
//  CHECK-NEXT: return %[[R]] : bf16
func.func @exp2_neg() -> bf16 {
  %a0 = tg.const -1.0 : bf16
  %r = tg.exp2 %a0 : bf16
  return %r : bf16
}

// exec_alu(Ops.SIN, dtypes.float, [inf]) = nan
// CHECK-LABEL: func.func @sin_inf(
//  CHECK-NEXT: %[[R:.*]] = tg.const nan : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @sin_inf() -> f32 {
  %a0 = tg.const inf : f32
  %r = tg.sin %a0 : f32
  return %r : f32
}

// exec_alu(Ops.SIN, dtypes.double, [1.0]) = 0.8414709848078965
// CHECK-LABEL: func.func @sin_one(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.8414709848078965 : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @sin_one() -> f64 {
  %a0 = tg.const 1.0 : f64
  %r = tg.sin %a0 : f64
  return %r : f64
}

// exec_alu(Ops.TRUNC, dtypes.float, [-2.5]) = -2.0
// CHECK-LABEL: func.func @trunc_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const -2.0 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @trunc_neg() -> f32 {
  %a0 = tg.const -2.5 : f32
  %r = tg.trunc %a0 : f32
  return %r : f32
}

// exec_alu(Ops.TRUNC, dtypes.float, [-inf]) = -inf
// CHECK-LABEL: func.func @trunc_inf(
//  CHECK-NEXT: %[[R:.*]] = tg.const -inf : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @trunc_inf() -> f32 {
  %a0 = tg.const -inf : f32
  %r = tg.trunc %a0 : f32
  return %r : f32
}

// exec_alu(Ops.NEG, dtypes.float, [0.0]) = -0.0
// CHECK-LABEL: func.func @neg_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const -0.0 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @neg_zero() -> f32 {
  %a0 = tg.const 0.0 : f32
  %r = tg.neg %a0 : f32
  return %r : f32
}

// exec_alu(Ops.NEG, dtypes.float, [nan]) = nan
// CHECK-LABEL: func.func @neg_nan(
//  CHECK-NEXT: %[[R:.*]] = tg.const nan : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @neg_nan() -> f32 {
  %a0 = tg.const nan : f32
  %r = tg.neg %a0 : f32
  return %r : f32
}

// exec_alu(Ops.SQRT, dtypes.weakfloat, [16]) = 4.0
// CHECK-LABEL: func.func @sqrt_weakint(
//  CHECK-NEXT: %[[R:.*]] = tg.const 4.0 : !tg.weakfloat
//  CHECK-NEXT: return %[[R]] : !tg.weakfloat
func.func @sqrt_weakint() -> !tg.weakfloat {
  %a0 = tg.const 16 : !tg.weakint
  %r = tg.sqrt %a0 : !tg.weakint
  return %r : !tg.weakfloat
}

// exec_alu(Ops.SHL, dtypes.uchar, [1, 7]) = 128
// CHECK-LABEL: func.func @shl_ui8(
//  CHECK-NEXT: %[[R:.*]] = tg.const 128 : ui8
//  CHECK-NEXT: return %[[R]] : ui8
func.func @shl_ui8() -> ui8 {
  %a0 = tg.const 1 : ui8
  %a1 = tg.const 7 : ui8
  %r = tg.shl %a0, %a1 : ui8, ui8
  return %r : ui8
}

// exec_alu(Ops.SHL, dtypes.uchar, [1, 8]) = 0
// CHECK-LABEL: func.func @shl_ui8_out(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0 : ui8
//  CHECK-NEXT: return %[[R]] : ui8
func.func @shl_ui8_out() -> ui8 {
  %a0 = tg.const 1 : ui8
  %a1 = tg.const 8 : ui8
  %r = tg.shl %a0, %a1 : ui8, ui8
  return %r : ui8
}

// exec_alu(Ops.SHL, dtypes.int, [1, 31]) = -2147483648
// CHECK-LABEL: func.func @shl_si32_sign(
//  CHECK-NEXT: %[[R:.*]] = tg.const -2147483648 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @shl_si32_sign() -> si32 {
  %a0 = tg.const 1 : si32
  %a1 = tg.const 31 : si32
  %r = tg.shl %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.SHR, dtypes.int, [-8, 1]) = -4
// CHECK-LABEL: func.func @shr_si32_neg(
//  CHECK-NEXT: %[[R:.*]] = tg.const -4 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @shr_si32_neg() -> si32 {
  %a0 = tg.const -8 : si32
  %a1 = tg.const 1 : si32
  %r = tg.shr %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.SHR, dtypes.uint, [4294967295, 28]) = 15
// CHECK-LABEL: func.func @shr_ui32_count(
//  CHECK-NEXT: %[[R:.*]] = tg.const 15 : ui32
//  CHECK-NEXT: return %[[R]] : ui32
func.func @shr_ui32_count() -> ui32 {
  %a0 = tg.const 4294967295 : ui32
  %a1 = tg.const 28 : ui32
  %r = tg.shr %a0, %a1 : ui32, ui32
  return %r : ui32
}

// exec_alu(Ops.SHL, dtypes.long, [3, 62]) = -4611686018427387904
// CHECK-LABEL: func.func @shl_si64_uint_count(
//  CHECK-NEXT: %[[R:.*]] = tg.const -4611686018427387904 : si64
//  CHECK-NEXT: return %[[R]] : si64
func.func @shl_si64_uint_count() -> si64 {
  %a0 = tg.const 3 : si64
  %a1 = tg.const 62 : ui32
  %r = tg.shl %a0, %a1 : si64, ui32
  return %r : si64
}

// exec_alu(Ops.XOR, dtypes.bool, [True, True]) = false
// CHECK-LABEL: func.func @xor_bool(
//  CHECK-NEXT: %[[R:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @xor_bool() -> i1 {
  %a0 = tg.const true : i1
  %a1 = tg.const true : i1
  %r = tg.xor %a0, %a1 : i1, i1
  return %r : i1
}

// exec_alu(Ops.OR, dtypes.bool, [False, True]) = true
// CHECK-LABEL: func.func @or_bool(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @or_bool() -> i1 {
  %a0 = tg.const false : i1
  %a1 = tg.const true : i1
  %r = tg.or %a0, %a1 : i1, i1
  return %r : i1
}

// exec_alu(Ops.AND, dtypes.int, [-1, 255]) = 255
// CHECK-LABEL: func.func @and_si32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 255 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @and_si32() -> si32 {
  %a0 = tg.const -1 : si32
  %a1 = tg.const 255 : si32
  %r = tg.and %a0, %a1 : si32, si32
  return %r : si32
}

// exec_alu(Ops.XOR, dtypes.ushort, [65535, 255]) = 65280
// CHECK-LABEL: func.func @xor_ui16(
//  CHECK-NEXT: %[[R:.*]] = tg.const 65280 : ui16
//  CHECK-NEXT: return %[[R]] : ui16
func.func @xor_ui16() -> ui16 {
  %a0 = tg.const 65535 : ui16
  %a1 = tg.const 255 : ui16
  %r = tg.xor %a0, %a1 : ui16, ui16
  return %r : ui16
}

// exec_alu(Ops.OR, dtypes.char, [-128, 1]) = -127
// CHECK-LABEL: func.func @or_si8(
//  CHECK-NEXT: %[[R:.*]] = tg.const -127 : si8
//  CHECK-NEXT: return %[[R]] : si8
func.func @or_si8() -> si8 {
  %a0 = tg.const -128 : si8
  %a1 = tg.const 1 : si8
  %r = tg.or %a0, %a1 : si8, si8
  return %r : si8
}

// exec_alu(Ops.CMPLT, dtypes.bool, [nan, 1.0]) = false
// CHECK-LABEL: func.func @cmplt_nan(
//  CHECK-NEXT: %[[R:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmplt_nan() -> i1 {
  %a0 = tg.const nan : f32
  %a1 = tg.const 1.0 : f32
  %r = tg.cmplt %a0, %a1 : f32, f32
  return %r : i1
}

// exec_alu(Ops.CMPLT, dtypes.bool, [1.0, nan]) = false
// CHECK-LABEL: func.func @cmplt_nan_rhs(
//  CHECK-NEXT: %[[R:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmplt_nan_rhs() -> i1 {
  %a0 = tg.const 1.0 : f32
  %a1 = tg.const nan : f32
  %r = tg.cmplt %a0, %a1 : f32, f32
  return %r : i1
}

// exec_alu(Ops.CMPNE, dtypes.bool, [nan, nan]) = false
// CHECK-LABEL: func.func @cmpne_nan_nan(
//  CHECK-NEXT: %[[R:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmpne_nan_nan() -> i1 {
  %a0 = tg.const nan : f32
  %a1 = tg.const nan : f32
  %r = tg.cmpne %a0, %a1 : f32, f32
  return %r : i1
}

// exec_alu(Ops.CMPEQ, dtypes.bool, [nan, nan]) = true
// CHECK-LABEL: func.func @cmpeq_nan_nan(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmpeq_nan_nan() -> i1 {
  %a0 = tg.const nan : f64
  %a1 = tg.const nan : f64
  %r = tg.cmpeq %a0, %a1 : f64, f64
  return %r : i1
}

// exec_alu(Ops.CMPNE, dtypes.bool, [nan, 1.0]) = true
// CHECK-LABEL: func.func @cmpne_nan_one(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmpne_nan_one() -> i1 {
  %a0 = tg.const nan : f32
  %a1 = tg.const 1.0 : f32
  %r = tg.cmpne %a0, %a1 : f32, f32
  return %r : i1
}

// exec_alu(Ops.CMPEQ, dtypes.bool, [0.0, -0.0]) = true
// CHECK-LABEL: func.func @cmpeq_signed_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmpeq_signed_zero() -> i1 {
  %a0 = tg.const 0.0 : f32
  %a1 = tg.const -0.0 : f32
  %r = tg.cmpeq %a0, %a1 : f32, f32
  return %r : i1
}

// exec_alu(Ops.CMPLT, dtypes.bool, [-3, 2]) = true
// CHECK-LABEL: func.func @cmplt_si32(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmplt_si32() -> i1 {
  %a0 = tg.const -3 : si32
  %a1 = tg.const 2 : !tg.weakint
  %r = tg.cmplt %a0, %a1 : si32, !tg.weakint
  return %r : i1
}

// exec_alu(Ops.CMPLT, dtypes.bool, [4294967295, 0]) = false
// CHECK-LABEL: func.func @cmplt_ui32(
//  CHECK-NEXT: %[[R:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmplt_ui32() -> i1 {
  %a0 = tg.const 4294967295 : ui32
  %a1 = tg.const 0 : ui32
  %r = tg.cmplt %a0, %a1 : ui32, ui32
  return %r : i1
}

// exec_alu(Ops.CMPNE, dtypes.bool, [True, False]) = true
// CHECK-LABEL: func.func @cmpne_bool(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmpne_bool() -> i1 {
  %a0 = tg.const true : i1
  %a1 = tg.const false : i1
  %r = tg.cmpne %a0, %a1 : i1, i1
  return %r : i1
}

// exec_alu(Ops.CMPEQ, dtypes.bool, [inf, inf]) = true
// CHECK-LABEL: func.func @cmpeq_inf(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmpeq_inf() -> i1 {
  %a0 = tg.const inf : f16
  %a1 = tg.const inf : f16
  %r = tg.cmpeq %a0, %a1 : f16, f16
  return %r : i1
}

// exec_alu(Ops.MAX, dtypes.float, [nan, 1.0]) = nan
// CHECK-LABEL: func.func @max_nan_first(
//  CHECK-NEXT: %[[R:.*]] = tg.const nan : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @max_nan_first() -> f32 {
  %a0 = tg.const nan : f32
  %a1 = tg.const 1.0 : f32
  %r = tg.max %a0, %a1 : f32, f32
  return %r : f32
}

// exec_alu(Ops.MAX, dtypes.float, [1.0, nan]) = 1.0
// CHECK-LABEL: func.func @max_nan_second(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.0 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @max_nan_second() -> f32 {
  %a0 = tg.const 1.0 : f32
  %a1 = tg.const nan : f32
  %r = tg.max %a0, %a1 : f32, f32
  return %r : f32
}

// exec_alu(Ops.WHERE, dtypes.float, [True, 1.5, 2.5]) = 1.5
// CHECK-LABEL: func.func @where_true(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.5 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @where_true() -> f32 {
  %a0 = tg.const true : i1
  %a1 = tg.const 1.5 : f32
  %a2 = tg.const 2.5 : f32
  %r = tg.where %a0, %a1, %a2 : i1, f32, f32
  return %r : f32
}

// exec_alu(Ops.WHERE, dtypes.int, [False, 1, 2]) = 2
// CHECK-LABEL: func.func @where_false(
//  CHECK-NEXT: %[[R:.*]] = tg.const 2 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @where_false() -> si32 {
  %a0 = tg.const false : i1
  %a1 = tg.const 1 : si32
  %a2 = tg.const 2 : si32
  %r = tg.where %a0, %a1, %a2 : i1, si32, si32
  return %r : si32
}

// exec_alu(Ops.AND, dtypes.bool, [Invalid, True]) = invalid
// CHECK-LABEL: func.func @and_invalid(
//  CHECK-NEXT: %[[R:.*]] = tg.const invalid : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @and_invalid() -> i1 {
  %a0 = tg.const invalid : i1
  %a1 = tg.const true : i1
  %r = tg.and %a0, %a1 : i1, i1
  return %r : i1
}

// exec_alu(Ops.CMPLT, dtypes.bool, [Invalid, 1]) = invalid
// CHECK-LABEL: func.func @cmplt_invalid(
//  CHECK-NEXT: %[[R:.*]] = tg.const invalid : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cmplt_invalid() -> i1 {
  %a0 = tg.const invalid : i1
  %a1 = tg.const 1 : si32
  %r = tg.cmplt %a0, %a1 : i1, si32
  return %r : i1
}

// exec_alu(Ops.WHERE, dtypes.bool, [True, Invalid, False]) = true
// CHECK-LABEL: func.func @where_invalid(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @where_invalid() -> i1 {
  %a0 = tg.const true : i1
  %a1 = tg.const invalid : i1
  %a2 = tg.const false : i1
  %r = tg.where %a0, %a1, %a2 : i1, i1, i1
  return %r : i1
}

// threefry2x32 decomposition evaluated with exec_alu = 16086217271907279473
// CHECK-LABEL: func.func @threefry(
//  CHECK-NEXT: %[[R:.*]] = tg.const 16086217271907279473 : ui64
//  CHECK-NEXT: return %[[R]] : ui64
func.func @threefry() -> ui64 {
  %a0 = tg.const 4294967298 : ui64
  %a1 = tg.const 305419896 : ui64
  %r = tg.threefry %a0, %a1 : ui64, ui64
  return %r : ui64
}

// threefry2x32 decomposition evaluated with exec_alu = 11077253088097075545
// CHECK-LABEL: func.func @threefry_zero(
//  CHECK-NEXT: %[[R:.*]] = tg.const 11077253088097075545 : ui64
//  CHECK-NEXT: return %[[R]] : ui64
func.func @threefry_zero() -> ui64 {
  %a0 = tg.const 0 : ui64
  %a1 = tg.const 0 : ui64
  %r = tg.threefry %a0, %a1 : ui64, ui64
  return %r : ui64
}

// dtypes.int.const(3.700000047683716) = 3
// CHECK-LABEL: func.func @cast_f32_to_si32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 3 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cast_f32_to_si32() -> si32 {
  %a0 = tg.const 3.700000047683716 : f32
  %r = tg.cast %a0 to si32 : f32
  return %r : si32
}

// dtypes.int.const(-3.700000047683716) = -3
// CHECK-LABEL: func.func @cast_neg_f32_to_si32(
//  CHECK-NEXT: %[[R:.*]] = tg.const -3 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cast_neg_f32_to_si32() -> si32 {
  %a0 = tg.const -3.700000047683716 : f32
  %r = tg.cast %a0 to si32 : f32
  return %r : si32
}

// dtypes.uchar.const(300) = 300
// CHECK-LABEL: func.func @cast_si32_to_ui8_no_wrap(
//  CHECK-NEXT: %[[R:.*]] = tg.const 300 : ui8
//  CHECK-NEXT: return %[[R]] : ui8
func.func @cast_si32_to_ui8_no_wrap() -> ui8 {
  %a0 = tg.const 300 : si32
  %r = tg.cast %a0 to ui8 : si32
  return %r : ui8
}

// dtypes.uint.const(-1) = -1
// CHECK-LABEL: func.func @cast_neg_to_ui32_no_wrap(
//  CHECK-NEXT: %[[R:.*]] = tg.const -1 : ui32
//  CHECK-NEXT: return %[[R]] : ui32
func.func @cast_neg_to_ui32_no_wrap() -> ui32 {
  %a0 = tg.const -1 : si32
  %r = tg.cast %a0 to ui32 : si32
  return %r : ui32
}

// dtypes.float.const(0.1) = 0.10000000149011612
// CHECK-LABEL: func.func @cast_f64_to_f32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.10000000149011612 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @cast_f64_to_f32() -> f32 {
  %a0 = tg.const 0.1 : f64
  %r = tg.cast %a0 to f32 : f64
  return %r : f32
}

// dtypes.half.const(10000000000.0) = inf
// CHECK-LABEL: func.func @cast_f32_to_f16_overflow(
//  CHECK-NEXT: %[[R:.*]] = tg.const inf : f16
//  CHECK-NEXT: return %[[R]] : f16
func.func @cast_f32_to_f16_overflow() -> f16 {
  %a0 = tg.const 10000000000.0 : f32
  %r = tg.cast %a0 to f16 : f32
  return %r : f16
}

// dtypes.bfloat16.const(3.141590118408203) = 3.140625
// CHECK-LABEL: func.func @cast_f32_to_bf16(
//  CHECK-NEXT: %[[R:.*]] = tg.const 3.140625 : bf16
//  CHECK-NEXT: return %[[R]] : bf16
func.func @cast_f32_to_bf16() -> bf16 {
  %a0 = tg.const 3.141590118408203 : f32
  %r = tg.cast %a0 to bf16 : f32
  return %r : bf16
}

// dtypes.bool.const(2) = true
// CHECK-LABEL: func.func @cast_si32_to_bool(
//  CHECK-NEXT: %[[R:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cast_si32_to_bool() -> i1 {
  %a0 = tg.const 2 : si32
  %r = tg.cast %a0 to i1 : si32
  return %r : i1
}

// dtypes.bool.const(0.0) = false
// CHECK-LABEL: func.func @cast_zero_to_bool(
//  CHECK-NEXT: %[[R:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[R]] : i1
func.func @cast_zero_to_bool() -> i1 {
  %a0 = tg.const 0.0 : f32
  %r = tg.cast %a0 to i1 : f32
  return %r : i1
}

// dtypes.float.const(true) = 1.0
// CHECK-LABEL: func.func @cast_bool_to_f32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.0 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @cast_bool_to_f32() -> f32 {
  %a0 = tg.const true : i1
  %r = tg.cast %a0 to f32 : i1
  return %r : f32
}

// dtypes.int.const(true) = 1
// CHECK-LABEL: func.func @cast_bool_to_si32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1 : si32
//  CHECK-NEXT: return %[[R]] : si32
func.func @cast_bool_to_si32() -> si32 {
  %a0 = tg.const true : i1
  %r = tg.cast %a0 to si32 : i1
  return %r : si32
}

// dtypes.half.const(nan) = nan
// CHECK-LABEL: func.func @cast_nan_to_f16(
//  CHECK-NEXT: %[[R:.*]] = tg.const nan : f16
//  CHECK-NEXT: return %[[R]] : f16
func.func @cast_nan_to_f16() -> f16 {
  %a0 = tg.const nan : f32
  %r = tg.cast %a0 to f16 : f32
  return %r : f16
}

// dtypes.half.const(2049) = 2048.0
// CHECK-LABEL: func.func @cast_weakint_to_f16(
//  CHECK-NEXT: %[[R:.*]] = tg.const 2048.0 : f16
//  CHECK-NEXT: return %[[R]] : f16
func.func @cast_weakint_to_f16() -> f16 {
  %a0 = tg.const 2049 : !tg.weakint
  %r = tg.cast %a0 to f16 : !tg.weakint
  return %r : f16
}

// dtypes.fp8e4m3.const(0.30000001192092896) = 0.3125
// CHECK-LABEL: func.func @cast_f32_to_fp8e4m3(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.3125 : f8E4M3FN
//  CHECK-NEXT: return %[[R]] : f8E4M3FN
func.func @cast_f32_to_fp8e4m3() -> f8E4M3FN {
  %a0 = tg.const 0.30000001192092896 : f32
  %r = tg.cast %a0 to f8E4M3FN : f32
  return %r : f8E4M3FN
}

// dtypes.fp8e5m2.const(0.30000001192092896) = 0.3125
// CHECK-LABEL: func.func @cast_f32_to_fp8e5m2(
//  CHECK-NEXT: %[[R:.*]] = tg.const 0.3125 : f8E5M2
//  CHECK-NEXT: return %[[R]] : f8E5M2
func.func @cast_f32_to_fp8e5m2() -> f8E5M2 {
  %a0 = tg.const 0.30000001192092896 : f32
  %r = tg.cast %a0 to f8E5M2 : f32
  return %r : f8E5M2
}

// fold_bitcast: bitcast(1.0, dtypes.float, dtypes.uint) = 1065353216
// CHECK-LABEL: func.func @bitcast_f32_to_ui32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1065353216 : ui32
//  CHECK-NEXT: return %[[R]] : ui32
func.func @bitcast_f32_to_ui32() -> ui32 {
  %a0 = tg.const 1.0 : f32
  %r = tg.bitcast %a0 to ui32 : f32
  return %r : ui32
}

// fold_bitcast: bitcast(-1, dtypes.int, dtypes.uint) = 4294967295
// CHECK-LABEL: func.func @bitcast_si32_to_ui32(
//  CHECK-NEXT: %[[R:.*]] = tg.const 4294967295 : ui32
//  CHECK-NEXT: return %[[R]] : ui32
func.func @bitcast_si32_to_ui32() -> ui32 {
  %a0 = tg.const -1 : si32
  %r = tg.bitcast %a0 to ui32 : si32
  return %r : ui32
}

// fold_bitcast: bitcast(3212836864, dtypes.uint, dtypes.float) = -1.0
// CHECK-LABEL: func.func @bitcast_ui32_to_f32(
//  CHECK-NEXT: %[[R:.*]] = tg.const -1.0 : f32
//  CHECK-NEXT: return %[[R]] : f32
func.func @bitcast_ui32_to_f32() -> f32 {
  %a0 = tg.const 3212836864 : ui32
  %r = tg.bitcast %a0 to f32 : ui32
  return %r : f32
}

// fold_bitcast: bitcast(-2.0, dtypes.half, dtypes.short) = -16384
// CHECK-LABEL: func.func @bitcast_f16_to_si16(
//  CHECK-NEXT: %[[R:.*]] = tg.const -16384 : si16
//  CHECK-NEXT: return %[[R]] : si16
func.func @bitcast_f16_to_si16() -> si16 {
  %a0 = tg.const -2.0 : f16
  %r = tg.bitcast %a0 to si16 : f16
  return %r : si16
}

// fold_bitcast: bitcast(4614253070214989087, dtypes.long, dtypes.double) = 3.14
// CHECK-LABEL: func.func @bitcast_si64_to_f64(
//  CHECK-NEXT: %[[R:.*]] = tg.const 3.14 : f64
//  CHECK-NEXT: return %[[R]] : f64
func.func @bitcast_si64_to_f64() -> f64 {
  %a0 = tg.const 4614253070214989087 : si64
  %r = tg.bitcast %a0 to f64 : si64
  return %r : f64
}

// fold_bitcast: bitcast(16256, dtypes.ushort, dtypes.bfloat16) = 1.0
// CHECK-LABEL: func.func @bitcast_ui16_to_bf16(
//  CHECK-NEXT: %[[R:.*]] = tg.const 1.0 : bf16
//  CHECK-NEXT: return %[[R]] : bf16
func.func @bitcast_ui16_to_bf16() -> bf16 {
  %a0 = tg.const 16256 : ui16
  %r = tg.bitcast %a0 to bf16 : ui16
  return %r : bf16
}

//===----------------------------------------------------------------------===//
// Identity folds and the cases tinygrad cannot (or must not) fold
//===----------------------------------------------------------------------===//

// CAST/BITCAST to the source's own dtype is the source.
// CHECK-LABEL: func.func @cast_identity(
//  CHECK-SAME: %[[X:.*]]: si32
//   CHECK-NOT: tg.cast
//       CHECK: return %[[X]], %[[X]] : si32, si32
func.func @cast_identity(%x: si32) -> (si32, si32) {
  %r = tg.cast %x to si32 : si32
  %b = tg.bitcast %x to si32 : si32
  return %r, %b : si32, si32
}

// FDIV has no python_alu entry (exec_alu raises KeyError): not folded.
// CHECK-LABEL: func.func @fdiv_no_fold(
//       CHECK: tg.fdiv
func.func @fdiv_no_fold() -> f32 {
  %a = tg.const 1.0 : f32
  %b = tg.const 4.0 : f32
  %r = tg.fdiv %a, %b : f32, f32
  return %r : f32
}

// A negative shift count raises in Python: not folded.
// CHECK-LABEL: func.func @shl_negative_count_no_fold(
//       CHECK: tg.shl
func.func @shl_negative_count_no_fold() -> si32 {
  %a = tg.const 1 : si32
  %b = tg.const -1 : si32
  %r = tg.shl %a, %b : si32, si32
  return %r : si32
}

// int(nan) raises: a CAST of nan to an int dtype is not folded.
// CHECK-LABEL: func.func @cast_nan_to_int_no_fold(
//       CHECK: tg.cast
func.func @cast_nan_to_int_no_fold() -> si32 {
  %a = tg.const nan : f32
  %r = tg.cast %a to si32 : f32
  return %r : si32
}

// exec_alu gives Invalid, whose CONST is bool: the si32 ADD cannot become it.
// CHECK-LABEL: func.func @add_invalid_int_no_fold(
//       CHECK: tg.add
func.func @add_invalid_int_no_fold() -> si32 {
  %a = tg.const invalid : i1
  %b = tg.const 1 : si32
  %r = tg.add %a, %b : i1, si32
  return %r : si32
}

// fold_bitcast needs equal itemsizes: a scalar f64 -> si32 is not folded.
// CHECK-LABEL: func.func @bitcast_size_mismatch_no_fold(
//       CHECK: tg.bitcast
func.func @bitcast_size_mismatch_no_fold() -> si32 {
  %a = tg.const 1.0 : f16
  %r = tg.bitcast %a to si32 : f16
  return %r : si32
}

// Shaped values are not scalar-folded.
// CHECK-LABEL: func.func @vector_no_fold(
//       CHECK: tg.add
func.func @vector_no_fold() -> tensor<2xsi32> {
  %a = tg.const 1 : si32
  %v = tg.stack(%a, %a) : si32, si32
  %r = tg.add %v, %v : tensor<2xsi32>, tensor<2xsi32>
  return %r : tensor<2xsi32>
}
