// RUN: tinygrad-opt %s --canonicalize | FileCheck %s

// The DRR canonicalizations of TGCanonicalization.td: tinygrad's
// symbolic_simple identities (tinygrad/uop/symbolic.py). One positive case per
// pattern, and negative cases for the semantic guards: floats, values whose
// type would change (weak/strong promotion, broadcasting), tensors where a
// CONST would be needed, and operands that differ.

//===----------------------------------------------------------------------===//
// x+0 / x^0 / x|0 -> x
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @add_zero(
//  CHECK-SAME: %[[X:.*]]: si32)
//  CHECK-NEXT: return %[[X]] : si32
func.func @add_zero(%x: si32) -> si32 {
  %c = tg.const 0 : si32
  %r = tg.add %x, %c : si32, si32
  return %r : si32
}

// The CONST on the left: the Commutative trait moves it to the right first.
// A weakint 0 promotes to x's dtype, so the result is still x.
// CHECK-LABEL: func.func @add_zero_left_weak(
//  CHECK-SAME: %[[X:.*]]: si32)
//  CHECK-NEXT: return %[[X]] : si32
func.func @add_zero_left_weak(%x: si32) -> si32 {
  %c = tg.const 0 : !tg.weakint
  %r = tg.add %c, %x : !tg.weakint, si32
  return %r : si32
}

// x + -0.0 is x for every float x.
// CHECK-LABEL: func.func @add_negzero_float(
//  CHECK-SAME: %[[X:.*]]: f32)
//  CHECK-NEXT: return %[[X]] : f32
func.func @add_negzero_float(%x: f32) -> f32 {
  %c = tg.const -0.0 : f32
  %r = tg.add %x, %c : f32, f32
  return %r : f32
}

// Guard: x + +0.0 is not x for x = -0.0 (and neither is x + int 0).
// CHECK-LABEL: func.func @add_poszero_float_kept(
//       CHECK: tg.add %{{.*}}, %{{.*}} : f32, f32
//       CHECK: tg.add %{{.*}}, %{{.*}} : f32, !tg.weakint
func.func @add_poszero_float_kept(%x: f32) -> (f32, f32) {
  %c = tg.const 0.0 : f32
  %r = tg.add %x, %c : f32, f32
  %i = tg.const 0 : !tg.weakint
  %s = tg.add %x, %i : f32, !tg.weakint
  return %r, %s : f32, f32
}

// Guard: weakint x + si32 0 is si32, not x's type.
// CHECK-LABEL: func.func @add_zero_promoted_kept(
//       CHECK: tg.add %{{.*}}, %{{.*}} : !tg.weakint, si32
func.func @add_zero_promoted_kept(%x: !tg.weakint) -> si32 {
  %c = tg.const 0 : si32
  %r = tg.add %x, %c : !tg.weakint, si32
  return %r : si32
}

// Guard: a non-zero CONST.
// CHECK-LABEL: func.func @add_one_kept(
//       CHECK: tg.add %{{.*}}, %{{.*}} : si32, si32
func.func @add_one_kept(%x: si32) -> si32 {
  %c = tg.const 1 : si32
  %r = tg.add %x, %c : si32, si32
  return %r : si32
}

// A tensor x with a scalar 0 keeps x's type: the rule still applies.
// CHECK-LABEL: func.func @add_zero_tensor(
//  CHECK-SAME: %[[X:.*]]: tensor<4xsi32>)
//  CHECK-NEXT: return %[[X]] : tensor<4xsi32>
func.func @add_zero_tensor(%x: tensor<4xsi32>) -> tensor<4xsi32> {
  %c = tg.const 0 : si32
  %r = tg.add %x, %c : tensor<4xsi32>, si32
  return %r : tensor<4xsi32>
}

// CHECK-LABEL: func.func @xor_zero(
//  CHECK-SAME: %[[X:.*]]: ui8)
//  CHECK-NEXT: return %[[X]] : ui8
func.func @xor_zero(%x: ui8) -> ui8 {
  %c = tg.const 0 : ui8
  %r = tg.xor %x, %c : ui8, ui8
  return %r : ui8
}

// CHECK-LABEL: func.func @or_zero(
//  CHECK-SAME: %[[X:.*]]: si64)
//  CHECK-NEXT: return %[[X]] : si64
func.func @or_zero(%x: si64) -> si64 {
  %c = tg.const 0 : si64
  %r = tg.or %x, %c : si64, si64
  return %r : si64
}

// bool x | False -> x (UPat.const(0) matches False).
// CHECK-LABEL: func.func @bool_or_false(
//  CHECK-SAME: %[[X:.*]]: i1)
//  CHECK-NEXT: return %[[X]] : i1
func.func @bool_or_false(%x: i1) -> i1 {
  %c = tg.const false : i1
  %r = tg.or %x, %c : i1, i1
  return %r : i1
}

//===----------------------------------------------------------------------===//
// x<<0 / x>>0 -> x
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @shl_zero(
//  CHECK-SAME: %[[X:.*]]: si32)
//  CHECK-NEXT: return %[[X]] : si32
func.func @shl_zero(%x: si32) -> si32 {
  %c = tg.const 0 : ui32
  %r = tg.shl %x, %c : si32, ui32
  return %r : si32
}

// CHECK-LABEL: func.func @shr_zero(
//  CHECK-SAME: %[[X:.*]]: ui32)
//  CHECK-NEXT: return %[[X]] : ui32
func.func @shr_zero(%x: ui32) -> ui32 {
  %c = tg.const 0 : !tg.weakint
  %r = tg.shr %x, %c : ui32, !tg.weakint
  return %r : ui32
}

// Guard: SHL is not commutative, 0 << x is not x.
// CHECK-LABEL: func.func @shl_zero_lhs_kept(
//       CHECK: tg.shl %{{.*}}, %{{.*}} : si32, si32
func.func @shl_zero_lhs_kept(%x: si32) -> si32 {
  %c = tg.const 0 : si32
  %r = tg.shl %c, %x : si32, si32
  return %r : si32
}

//===----------------------------------------------------------------------===//
// x*1 -> x
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @mul_one(
//  CHECK-SAME: %[[X:.*]]: si32)
//  CHECK-NEXT: return %[[X]] : si32
func.func @mul_one(%x: si32) -> si32 {
  %c = tg.const 1 : si32
  %r = tg.mul %c, %x : si32, si32
  return %r : si32
}

// x * 1.0 is exact for floats.
// CHECK-LABEL: func.func @mul_one_float(
//  CHECK-SAME: %[[X:.*]]: f16)
//  CHECK-NEXT: return %[[X]] : f16
func.func @mul_one_float(%x: f16) -> f16 {
  %c = tg.const 1.0 : f16
  %r = tg.mul %x, %c : f16, f16
  return %r : f16
}

// Guard: no x*0 -> 0 for floats (nan*0, inf*0 are nan).
// CHECK-LABEL: func.func @mul_zero_float_kept(
//       CHECK: tg.mul %{{.*}}, %{{.*}} : f32, f32
func.func @mul_zero_float_kept(%x: f32) -> f32 {
  %c = tg.const 0.0 : f32
  %r = tg.mul %x, %c : f32, f32
  return %r : f32
}

//===----------------------------------------------------------------------===//
// x//x -> 1, x//1 -> x, x//-1 -> -x
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @floordiv_self(
//  CHECK-NEXT: %[[ONE:.*]] = tg.const 1 : si32
//  CHECK-NEXT: return %[[ONE]] : si32
func.func @floordiv_self(%x: si32) -> si32 {
  %r = tg.floordiv %x, %x : si32, si32
  return %r : si32
}

// The CONST takes the result dtype (weakint here).
// CHECK-LABEL: func.func @floordiv_self_weak(
//  CHECK-NEXT: %[[ONE:.*]] = tg.const 1 : !tg.weakint
//  CHECK-NEXT: return %[[ONE]] : !tg.weakint
func.func @floordiv_self_weak(%x: !tg.weakint) -> !tg.weakint {
  %r = tg.floordiv %x, %x : !tg.weakint, !tg.weakint
  return %r : !tg.weakint
}

// Guards: a tensor result cannot be a CONST; x//y with y != x.
// CHECK-LABEL: func.func @floordiv_self_kept(
//       CHECK: tg.floordiv %{{.*}}, %{{.*}} : tensor<4xsi32>, tensor<4xsi32>
//       CHECK: tg.floordiv %{{.*}}, %{{.*}} : si32, si32
func.func @floordiv_self_kept(%t: tensor<4xsi32>, %x: si32, %y: si32)
    -> (tensor<4xsi32>, si32) {
  %r = tg.floordiv %t, %t : tensor<4xsi32>, tensor<4xsi32>
  %s = tg.floordiv %x, %y : si32, si32
  return %r, %s : tensor<4xsi32>, si32
}

// CHECK-LABEL: func.func @floordiv_one(
//  CHECK-SAME: %[[X:.*]]: si32)
//  CHECK-NEXT: return %[[X]] : si32
func.func @floordiv_one(%x: si32) -> si32 {
  %c = tg.const 1 : !tg.weakint
  %r = tg.floordiv %x, %c : si32, !tg.weakint
  return %r : si32
}

// -x is x*(-1), the -1 a Python int: a weakint CONST (tinygrad a9069c17:
// graph_rewrite(x // -1, symbolic_simple) is MUL(x, CONST(-1, weakint))).
// CHECK-LABEL: func.func @floordiv_minus_one(
//  CHECK-SAME: %[[X:.*]]: si32)
//  CHECK-NEXT: %[[M:.*]] = tg.const -1 : !tg.weakint
//  CHECK-NEXT: %[[R:.*]] = tg.mul %[[X]], %[[M]] : si32, !tg.weakint
//  CHECK-NEXT: return %[[R]] : si32
func.func @floordiv_minus_one(%x: si32) -> si32 {
  %c = tg.const -1 : !tg.weakint
  %r = tg.floordiv %x, %c : si32, !tg.weakint
  return %r : si32
}

// On a tensor the -1 is the same scalar weakint CONST (broadcast).
// CHECK-LABEL: func.func @floordiv_minus_one_tensor(
//  CHECK-SAME: %[[X:.*]]: tensor<4xsi64>)
//  CHECK-NEXT: %[[M:.*]] = tg.const -1 : !tg.weakint
//  CHECK-NEXT: %[[R:.*]] = tg.mul %[[X]], %[[M]] : tensor<4xsi64>, !tg.weakint
//  CHECK-NEXT: return %[[R]] : tensor<4xsi64>
func.func @floordiv_minus_one_tensor(%x: tensor<4xsi64>) -> tensor<4xsi64> {
  %c = tg.const -1 : si64
  %r = tg.floordiv %x, %c : tensor<4xsi64>, si64
  return %r : tensor<4xsi64>
}

//===----------------------------------------------------------------------===//
// (x^y)^y -> x, (x%y)%y -> x%y
//===----------------------------------------------------------------------===//

// Every operand order of both (commutative) XORs.
// CHECK-LABEL: func.func @xor_xor(
//  CHECK-SAME: %[[X:[^:]*]]: si32, %[[Y:[^:]*]]: si32)
//  CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]] : si32, si32, si32, si32
func.func @xor_xor(%x: si32, %y: si32) -> (si32, si32, si32, si32) {
  %xy = tg.xor %x, %y : si32, si32
  %yx = tg.xor %y, %x : si32, si32
  %a = tg.xor %xy, %y : si32, si32
  %b = tg.xor %yx, %y : si32, si32
  %c = tg.xor %y, %xy : si32, si32
  %d = tg.xor %y, %yx : si32, si32
  return %a, %b, %c, %d : si32, si32, si32, si32
}

// Guard: (x^y)^z with z != y.
// CHECK-LABEL: func.func @xor_xor_kept(
//       CHECK: %[[XY:.*]] = tg.xor
//       CHECK: tg.xor %[[XY]], %{{.*}} : si32, si32
func.func @xor_xor_kept(%x: si32, %y: si32, %z: si32) -> si32 {
  %xy = tg.xor %x, %y : si32, si32
  %r = tg.xor %xy, %z : si32, si32
  return %r : si32
}

// CHECK-LABEL: func.func @mod_mod(
//  CHECK-SAME: %[[X:[^:]*]]: si32, %[[Y:[^:]*]]: si32)
//  CHECK-NEXT: %[[M:.*]] = tg.floormod %[[X]], %[[Y]] : si32, si32
//  CHECK-NEXT: return %[[M]] : si32
func.func @mod_mod(%x: si32, %y: si32) -> si32 {
  %m = tg.floormod %x, %y : si32, si32
  %r = tg.floormod %m, %y : si32, si32
  return %r : si32
}

// Guard: (x%y)%z with z != y.
// CHECK-LABEL: func.func @mod_mod_kept(
//       CHECK: %[[M:.*]] = tg.floormod
//       CHECK: tg.floormod %[[M]], %{{.*}} : si32, si32
func.func @mod_mod_kept(%x: si32, %y: si32, %z: si32) -> si32 {
  %m = tg.floormod %x, %y : si32, si32
  %r = tg.floormod %m, %z : si32, si32
  return %r : si32
}

//===----------------------------------------------------------------------===//
// bool x&c, x|c, x != False, !!x, where(x, True, False), where(x, False, True)
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @bool_and_true(
//  CHECK-SAME: %[[X:.*]]: i1)
//  CHECK-NEXT: return %[[X]] : i1
func.func @bool_and_true(%x: i1) -> i1 {
  %c = tg.const true : i1
  %r = tg.and %c, %x : i1, i1
  return %r : i1
}

// Guard: for ints x & 1 is not x.
// CHECK-LABEL: func.func @int_and_one_kept(
//       CHECK: tg.and %{{.*}}, %{{.*}} : si32, si32
func.func @int_and_one_kept(%x: si32) -> si32 {
  %c = tg.const 1 : si32
  %r = tg.and %x, %c : si32, si32
  return %r : si32
}

// CHECK-LABEL: func.func @bool_or_true(
//  CHECK-NEXT: %[[T:.*]] = tg.const true : i1
//  CHECK-NEXT: return %[[T]] : i1
func.func @bool_or_true(%x: i1) -> i1 {
  %c = tg.const true : i1
  %r = tg.or %x, %c : i1, i1
  return %r : i1
}

// Guard: for ints x | 1 is not 1.
// CHECK-LABEL: func.func @int_or_one_kept(
//       CHECK: tg.or %{{.*}}, %{{.*}} : si32, si32
func.func @int_or_one_kept(%x: si32) -> si32 {
  %c = tg.const 1 : si32
  %r = tg.or %x, %c : si32, si32
  return %r : si32
}

// CHECK-LABEL: func.func @bool_ne_false(
//  CHECK-SAME: %[[X:.*]]: i1)
//  CHECK-NEXT: return %[[X]] : i1
func.func @bool_ne_false(%x: i1) -> i1 {
  %c = tg.const false : i1
  %r = tg.cmpne %c, %x : i1, i1
  return %r : i1
}

// Guard: for ints x != 0 is a bool, not x.
// CHECK-LABEL: func.func @int_ne_zero_kept(
//       CHECK: tg.cmpne %{{.*}}, %{{.*}} : si32, si32
func.func @int_ne_zero_kept(%x: si32) -> i1 {
  %c = tg.const 0 : si32
  %r = tg.cmpne %x, %c : si32, si32
  return %r : i1
}

// logical_not(logical_not(x)) = (x != True) != True -> x
// CHECK-LABEL: func.func @bool_not_not(
//  CHECK-SAME: %[[X:.*]]: i1)
//  CHECK-NEXT: return %[[X]] : i1
func.func @bool_not_not(%x: i1) -> i1 {
  %t = tg.const true : i1
  %n = tg.cmpne %x, %t : i1, i1
  %r = tg.cmpne %t, %n : i1, i1
  return %r : i1
}

// CHECK-LABEL: func.func @where_true_false(
//  CHECK-SAME: %[[X:.*]]: i1)
//  CHECK-NEXT: return %[[X]] : i1
func.func @where_true_false(%x: i1) -> i1 {
  %t = tg.const true : i1
  %f = tg.const false : i1
  %r = tg.where %x, %t, %f : i1, i1, i1
  return %r : i1
}

// CHECK-LABEL: func.func @where_false_true(
//  CHECK-SAME: %[[X:.*]]: i1)
//  CHECK-NEXT: %[[T:.*]] = tg.const true : i1
//  CHECK-NEXT: %[[N:.*]] = tg.cmpne %[[X]], %[[T]] : i1, i1
//  CHECK-NEXT: return %[[N]] : i1
func.func @where_false_true(%x: i1) -> i1 {
  %t = tg.const true : i1
  %f = tg.const false : i1
  %r = tg.where %x, %f, %t : i1, i1, i1
  return %r : i1
}

// Guard: where(x, 1, 0) is an int, not x.
// CHECK-LABEL: func.func @where_one_zero_kept(
//       CHECK: tg.where %{{.*}}, %{{.*}}, %{{.*}} : i1, si32, si32
func.func @where_one_zero_kept(%x: i1) -> si32 {
  %o = tg.const 1 : si32
  %z = tg.const 0 : si32
  %r = tg.where %x, %o, %z : i1, si32, si32
  return %r : si32
}

//===----------------------------------------------------------------------===//
// Idempotent: x|x, x&x, max(x,x) -> x; trunc of ints
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @idempotent(
//  CHECK-SAME: %[[X:[^:]*]]: si32, %[[F:[^:]*]]: f32)
//  CHECK-NEXT: return %[[X]], %[[X]], %[[F]] : si32, si32, f32
func.func @idempotent(%x: si32, %f: f32) -> (si32, si32, f32) {
  %a = tg.or %x, %x : si32, si32
  %b = tg.and %x, %x : si32, si32
  %c = tg.max %f, %f : f32, f32
  return %a, %b, %c : si32, si32, f32
}

// Guard: x|y with y != x.
// CHECK-LABEL: func.func @or_other_kept(
//       CHECK: tg.or %{{.*}}, %{{.*}} : si32, si32
func.func @or_other_kept(%x: si32, %y: si32) -> si32 {
  %r = tg.or %x, %y : si32, si32
  return %r : si32
}

// CHECK-LABEL: func.func @trunc_int(
//  CHECK-SAME: %[[X:[^:]*]]: si32, %[[B:[^:]*]]: i1)
//  CHECK-NEXT: return %[[X]], %[[B]] : si32, i1
func.func @trunc_int(%x: si32, %b: i1) -> (si32, i1) {
  %r = tg.trunc %x : si32
  %s = tg.trunc %b : i1
  return %r, %s : si32, i1
}

// Guard: trunc of a float is not the identity.
// CHECK-LABEL: func.func @trunc_float_kept(
//       CHECK: tg.trunc %{{.*}} : f32
func.func @trunc_float_kept(%x: f32) -> f32 {
  %r = tg.trunc %x : f32
  return %r : f32
}

//===----------------------------------------------------------------------===//
// ** zero folding **: x<x, x%x, x^x, x&0, x!=x
//===----------------------------------------------------------------------===//

// Floats too: nan < nan is False.
// CHECK-LABEL: func.func @lt_self(
//  CHECK-NEXT: %[[F:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[F]], %[[F]] : i1, i1
func.func @lt_self(%x: si32, %f: f32) -> (i1, i1) {
  %r = tg.cmplt %x, %x : si32, si32
  %s = tg.cmplt %f, %f : f32, f32
  return %r, %s : i1, i1
}

// Guards: x<y; a tensor x<x (a CONST is scalar).
// CHECK-LABEL: func.func @lt_kept(
//       CHECK: tg.cmplt %{{.*}}, %{{.*}} : si32, si32
//       CHECK: tg.cmplt %{{.*}}, %{{.*}} : tensor<4xsi32>, tensor<4xsi32>
func.func @lt_kept(%x: si32, %y: si32, %t: tensor<4xsi32>) -> (i1, tensor<4xi1>) {
  %r = tg.cmplt %x, %y : si32, si32
  %s = tg.cmplt %t, %t : tensor<4xsi32>, tensor<4xsi32>
  return %r, %s : i1, tensor<4xi1>
}

// CHECK-LABEL: func.func @mod_self(
//  CHECK-NEXT: %[[Z:.*]] = tg.const 0 : ui16
//  CHECK-NEXT: return %[[Z]] : ui16
func.func @mod_self(%x: ui16) -> ui16 {
  %r = tg.floormod %x, %x : ui16, ui16
  return %r : ui16
}

// x^x is 0 of x's dtype: False for bool.
// CHECK-LABEL: func.func @xor_self(
//   CHECK-DAG: %[[Z:.*]] = tg.const 0 : si8
//   CHECK-DAG: %[[F:.*]] = tg.const false : i1
//       CHECK: return %[[Z]], %[[F]] : si8, i1
func.func @xor_self(%x: si8, %b: i1) -> (si8, i1) {
  %r = tg.xor %x, %x : si8, si8
  %s = tg.xor %b, %b : i1, i1
  return %r, %s : si8, i1
}

// x&0 -> 0, also bool x & False -> False. The CONST takes the result dtype.
// CHECK-LABEL: func.func @and_zero(
//   CHECK-DAG: %[[Z:.*]] = tg.const 0 : si32
//   CHECK-DAG: %[[F:.*]] = tg.const false : i1
//       CHECK: return %[[Z]], %[[F]] : si32, i1
func.func @and_zero(%x: si32, %b: i1) -> (si32, i1) {
  %c = tg.const 0 : !tg.weakint
  %r = tg.and %c, %x : !tg.weakint, si32
  %f = tg.const false : i1
  %s = tg.and %b, %f : i1, i1
  return %r, %s : si32, i1
}

// CHECK-LABEL: func.func @ne_self(
//  CHECK-NEXT: %[[F:.*]] = tg.const false : i1
//  CHECK-NEXT: return %[[F]], %[[F]] : i1, i1
func.func @ne_self(%x: !tg.weakint, %b: i1) -> (i1, i1) {
  %r = tg.cmpne %x, %x : !tg.weakint, !tg.weakint
  %s = tg.cmpne %b, %b : i1, i1
  return %r, %s : i1, i1
}

// Guard: nan != nan is True, so float x != x stays.
// CHECK-LABEL: func.func @ne_self_float_kept(
//       CHECK: tg.cmpne %{{.*}}, %{{.*}} : f32, f32
func.func @ne_self_float_kept(%x: f32) -> i1 {
  %r = tg.cmpne %x, %x : f32, f32
  return %r : i1
}

// Guard: no x-x -> 0 (not ported: nan - nan, inf - inf are nan).
// CHECK-LABEL: func.func @sub_self_float_kept(
//       CHECK: tg.sub %{{.*}}, %{{.*}} : f32, f32
func.func @sub_self_float_kept(%x: f32) -> f32 {
  %r = tg.sub %x, %x : f32, f32
  return %r : f32
}

//===----------------------------------------------------------------------===//
// bool MUL is AND, bool ADD/MAX is OR
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @bool_mul_add_max(
//  CHECK-SAME: %[[X:[^:]*]]: i1, %[[Y:[^:]*]]: i1)
//  CHECK-NEXT: %[[A:.*]] = tg.and %[[X]], %[[Y]] : i1, i1
//  CHECK-NEXT: %[[O:.*]] = tg.or %[[X]], %[[Y]] : i1, i1
//  CHECK-NEXT: %[[M:.*]] = tg.or %[[X]], %[[Y]] : i1, i1
//  CHECK-NEXT: return %[[A]], %[[O]], %[[M]] : i1, i1, i1
func.func @bool_mul_add_max(%x: i1, %y: i1) -> (i1, i1, i1) {
  %a = tg.mul %x, %y : i1, i1
  %o = tg.add %x, %y : i1, i1
  %m = tg.max %x, %y : i1, i1
  return %a, %o, %m : i1, i1, i1
}

// Guard: int MUL stays MUL.
// CHECK-LABEL: func.func @int_mul_kept(
//       CHECK: tg.mul %{{.*}}, %{{.*}} : si32, si32
func.func @int_mul_kept(%x: si32, %y: si32) -> si32 {
  %r = tg.mul %x, %y : si32, si32
  return %r : si32
}

//===----------------------------------------------------------------------===//
// ** simple where folding **
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @where_same(
//  CHECK-SAME: %[[C:[^:]*]]: i1, %[[V:[^:]*]]: f32)
//  CHECK-NEXT: return %[[V]] : f32
func.func @where_same(%c: i1, %v: f32) -> f32 {
  %r = tg.where %c, %v, %v : i1, f32, f32
  return %r : f32
}

// Guard: a tensor condition broadcasts the result; v's type differs.
// CHECK-LABEL: func.func @where_same_broadcast_kept(
//       CHECK: tg.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xi1>, f32, f32
func.func @where_same_broadcast_kept(%c: tensor<4xi1>, %v: f32) -> tensor<4xf32> {
  %r = tg.where %c, %v, %v : tensor<4xi1>, f32, f32
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @where_const_cond(
//  CHECK-SAME: %[[A:[^:]*]]: f32, %[[B:[^:]*]]: f32)
//  CHECK-NEXT: return %[[A]], %[[B]] : f32, f32
func.func @where_const_cond(%a: f32, %b: f32) -> (f32, f32) {
  %t = tg.const true : i1
  %f = tg.const false : i1
  %r = tg.where %t, %a, %b : i1, f32, f32
  %s = tg.where %f, %a, %b : i1, f32, f32
  return %r, %s : f32, f32
}

// Guards: the chosen branch is a weak CONST under a strong result (it would
// need a committed CONST); an Invalid gate is not a bool constant; a
// non-constant gate.
// CHECK-LABEL: func.func @where_const_cond_kept(
//       CHECK: tg.where %{{.*}}, %{{.*}}, %{{.*}} : i1, !tg.weakint, si32
//       CHECK: tg.where %{{.*}}, %{{.*}}, %{{.*}} : i1, f32, f32
//       CHECK: tg.where %{{.*}}, %{{.*}}, %{{.*}} : i1, f32, f32
func.func @where_const_cond_kept(%x: si32, %a: f32, %b: f32, %c: i1)
    -> (si32, f32, f32) {
  %t = tg.const true : i1
  %w = tg.const 3 : !tg.weakint
  %r = tg.where %t, %w, %x : i1, !tg.weakint, si32
  %i = tg.const invalid : i1
  %s = tg.where %i, %a, %b : i1, f32, f32
  %u = tg.where %c, %a, %b : i1, f32, f32
  return %r, %s, %u : si32, f32, f32
}

//===----------------------------------------------------------------------===//
// CAST to its own dtype (the CAST folder; listed here with the rules)
//===----------------------------------------------------------------------===//

// (UPat((Ops.CAST, Ops.BITCAST), name="root"),
//  lambda root: root.src[0] if root.dtype == root.src[0].dtype else None)
// CHECK-LABEL: func.func @cast_own_dtype(
//  CHECK-SAME: %[[X:.*]]: si32)
//  CHECK-NEXT: return %[[X]], %[[X]] : si32, si32
func.func @cast_own_dtype(%x: si32) -> (si32, si32) {
  %r = tg.cast %x to si32 : si32
  %s = tg.bitcast %x to si32 : si32
  return %r, %s : si32, si32
}
