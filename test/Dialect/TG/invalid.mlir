// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics

// One case per verifier / inference error of the tg dialect.

//===----------------------------------------------------------------------===//
// CONST (spec_shared.const)
//===----------------------------------------------------------------------===//

// expected-error @+1 {{violates spec rule 'spec_shared.const': a CONST is a scalar}}
%0 = tg.const 1 : tensor<2xsi32>

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.const': a CONST is a scalar}}
%0 = tg.const 1 : !tg.void

// -----

// Signless i32 is upstream's, not a tinygrad dtype.
// expected-error @+1 {{result type 'i32' is not a tinygrad dtype}}
%0 = tg.const 1 : i32

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.const': Invalid must have dtype bool, got 'si32'}}
%0 = tg.const invalid : si32

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.const': a bool value needs dtype bool, got 'si32'}}
%0 = tg.const true : si32

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.const': an int value needs an int dtype, got 'f32'}}
%0 = tg.const 1 : f32

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.const': an int value needs an int dtype, got 'i1'}}
%0 = tg.const 1 : i1

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.const': a float value needs a float dtype, got 'si32'}}
%0 = tg.const 1.0 : si32

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.const': a float value needs a float dtype, got '!tg.weakint'}}
%0 = tg.const 1.5 : !tg.weakint

// -----

// expected-error @+1 {{value must be an int, float, bool or invalid}}
%0 = "tg.const"() <{value = "one"}> : () -> si32

//===----------------------------------------------------------------------===//
// ALU inference (dtype_from_uop / _shape)
//===----------------------------------------------------------------------===//

// -----

%v = tg.stack()
// expected-error @+1 {{operand #0 has type !tg.void which is not a tinygrad value}}
%0 = tg.add %v, %v : !tg.void, !tg.void

// -----

%a = tg.const 1 : si32
%b = tg.stack(%a, %a) : si32, si32
%c = tg.stack(%a, %a, %a) : si32, si32, si32
// expected-error @+1 {{operand #1 shape (3,) does not broadcast with (2,)}}
%0 = tg.add %b, %c : tensor<2xsi32>, tensor<3xsi32>

// -----

// least_upper_float(uint128) raises in tinygrad.
%a = tg.const 1 : ui128
// expected-error @+1 {{no float dtype for _uint128}}
%0 = tg.sqrt %a : ui128

// -----

%a = tg.const 1 : si32
%f = tg.const 1.0 : f32
// expected-error @+1 {{shift operand #1 must be int, got float}}
%0 = tg.shl %a, %f : si32, f32

// -----

%a = tg.const 1 : si32
// expected-error @+1 {{where cond must be bool, got int}}
%0 = tg.where %a, %a, %a : si32, si32, si32

// -----

%a = tg.const 1 : ui128
%f = tg.const 1.0 : f32
// expected-error @+1 {{operand dtypes have no common supertype}}
%0 = tg.add %a, %f : ui128, f32

// -----

// The generic form states the result type: it must be the inferred one.
%a = tg.const 1 : !tg.weakint
// expected-error @+2 {{'tg.add' op inferred type(s) '!tg.weakint' are incompatible with return type(s) of operation 'si32'}}
// expected-error @+1 {{'tg.add' op failed to infer returned types}}
%0 = "tg.add"(%a, %a) : (!tg.weakint, !tg.weakint) -> si32

// -----

%a = tg.const 1 : si32
// expected-error @+2 {{'tg.cmplt' op inferred type(s) 'i1' are incompatible with return type(s) of operation 'si32'}}
// expected-error @+1 {{'tg.cmplt' op failed to infer returned types}}
%0 = "tg.cmplt"(%a, %a) : (si32, si32) -> si32

//===----------------------------------------------------------------------===//
// ALU spec rules (spec_shared)
//===----------------------------------------------------------------------===//

// -----

// sqrt(si32) infers f32 and is valid IR: spec_tensor accepts a float
// transcendental of an int (tinygrad's kernel ASTs contain RECIPROCAL(int32));
// only tg-verify-spec's shared/program phases reject it.
%a = tg.const 4 : si32
%0 = tg.sqrt %a : si32

// -----

%a = tg.const 4 : si32
%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.alu_operand_dtype': operand #0 has dtype 'si32', expected 'f32' or a weak dtype}}
%0 = tg.add %a, %f : si32, f32

// -----

%a = tg.const 4 : si32
%f = tg.const 1.0 : f16
%m = tg.const 1 : si8
// expected-error @+1 {{violates spec rule 'spec_shared.alu_operand_dtype': operand #1 has dtype 'si8', expected 'si32' or a weak dtype}}
%0 = tg.mulacc %a, %m, %a : si32, si8, si32

// -----

%c = tg.const true : i1
%a = tg.const 4 : si32
%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.where': operand #1 has dtype 'si32', expected 'f32' or a weak dtype}}
%0 = tg.where %c, %a, %f : i1, si32, f32

// -----

%a = tg.const 4 : si32
%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.comparison': operand dtypes 'si32' and 'f32' differ and neither is weak}}
%0 = tg.cmplt %a, %f : si32, f32

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.bitwise_not_float': operand #0 is a float}}
%0 = tg.and %f, %f : f32, f32

// -----

%f = tg.const 1.0 : !tg.weakfloat
%a = tg.const 1 : si32
// expected-error @+1 {{violates spec rule 'spec_shared.bitwise_not_float': operand #1 is a float}}
%0 = tg.xor %a, %f : si32, !tg.weakfloat

// -----

%a = tg.const 1 : si32
%b = tg.const 1 : si64
// expected-error @+1 {{violates spec rule 'spec_shared.shift_count': operand #1 must have the result dtype, uint32 or weakint}}
%0 = tg.shl %a, %b : si32, si64

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.int_division': integer division needs an int dtype, got 'f32'}}
%0 = tg.cdiv %f, %f : f32, f32

// -----

%f = tg.const 1.0 : f16
// expected-error @+1 {{violates spec rule 'spec_shared.int_division': integer division needs an int dtype, got 'f16'}}
%0 = tg.floormod %f, %f : f16, f16

//===----------------------------------------------------------------------===//
// CAST / BITCAST
//===----------------------------------------------------------------------===//

// -----

%a = tg.const 1 : si32
// expected-error @+1 {{violates spec rule 'spec_shared.cast_arg': target 'i32' is not a tinygrad dtype}}
%0 = tg.cast %a to i32 : si32

// -----

%a = tg.const 1 : si32
// expected-error @+1 {{violates spec rule 'spec_shared.cast_arg': target '!tg.void' is not a tinygrad dtype}}
%0 = tg.cast %a to !tg.void : si32

// -----

%v = tg.stack()
// expected-error @+1 {{cannot cast a void value}}
%0 = tg.cast %v to si32 : !tg.void

// -----

%a = tg.const 1 : si32
// expected-error @+1 {{bitcast needs tinygrad dtypes}}
%0 = tg.bitcast %a to i32 : si32

// -----

%a = tg.const 1 : si32
%v = tg.stack(%a, %a, %a) : si32, si32, si32
// expected-error @+1 {{unsupported size in bitcast: last dim 3 of 4-byte elements is not a whole number of 8-byte elements}}
%0 = tg.bitcast %v to f64 : tensor<3xsi32>

// -----

// Both cast verifiers reject a non-dtype target even when inference passes.
%a = tg.const 1 : si32
// expected-error @+1 {{violates spec rule 'spec_shared.cast_arg': target 'f80' is not a tinygrad dtype}}
%0 = tg.cast %a to f80 : si32

// -----

%a = tg.const 1 : si32
// expected-error @+1 {{bitcast needs tinygrad dtypes}}
%0 = tg.bitcast %a to f80 : si32

//===----------------------------------------------------------------------===//
// STACK (spec_shared.stack)
//===----------------------------------------------------------------------===//

// -----

%v = tg.stack()
// expected-error @+1 {{stack element of type '!tg.void' is not a tinygrad value}}
%0 = tg.stack(%v) : !tg.void

// -----

%a = tg.const 1 : ui128
%f = tg.const 1.0 : f32
// expected-error @+1 {{stack elements have no common dtype}}
%0 = tg.stack(%a, %f) : ui128, f32

// -----

%a = tg.const 1 : si32
%v = tg.stack(%a, %a) : si32, si32
// expected-error @+1 {{violates spec rule 'spec_shared.stack': operand #1 has shape (2,) but operand #0 has ()}}
%0 = tg.stack(%a, %v) : si32, tensor<2xsi32>

// -----

%a = tg.const 1 : si32
%f = tg.const 1.0 : f32
// expected-error @+1 {{violates spec rule 'spec_shared.stack': operand #0 has dtype 'si32', expected 'f32' or a weak dtype}}
%0 = tg.stack(%a, %f) : si32, f32

//===----------------------------------------------------------------------===//
// GROUP / AFTER / GETTUPLE
//===----------------------------------------------------------------------===//

// -----

%a = tg.const 1 : si32
// expected-error @+1 {{violates spec rule 'spec_shared.group': operand #0 must be a GROUP, STORE, NOOP, INS or END, got tg.const}}
%0 = tg.group(%a) : si32

// -----

func.func @f(%arg0: !tg.void) {
  // expected-error @+1 {{violates spec rule 'spec_shared.group': operand #0 must be a GROUP, STORE, NOOP, INS or END, got a block argument}}
  %0 = tg.group(%arg0) : !tg.void
  return
}

// -----

%v = tg.stack()
// expected-error @+1 {{violates spec rule 'spec_shared.after': operand #0 must be a value}}
%0 = tg.after %v : !tg.void

// -----

%a = tg.const 1 : si32
// expected-error @+1 {{violates spec rule 'spec_tensor.gettuple': operand #0 must be a TUPLE or a CALL whose body is a TUPLE}}
%0 = tg.gettuple %a[0] : si32 -> si32

// -----

%a = tg.const 1 : si32
%t = tg.tuple(%a) : si32
// expected-error @+1 {{violates spec rule 'spec_tensor.gettuple': index 1 out of range for a tuple of 1}}
%0 = tg.gettuple %t[1] : !tg.void -> si32

// -----

%a = tg.const 1 : si32
%t = tg.tuple(%a) : si32
%c = tg.call %t(%a) : (!tg.void, si32) -> !tg.void
// expected-error @+1 {{violates spec rule 'spec_tensor.gettuple': result dtype 'f32' does not match element 'si32'}}
%0 = tg.gettuple %c[0] : !tg.void -> f32

//===----------------------------------------------------------------------===//
// PARAM / BUFFER (spec_shared.param)
//===----------------------------------------------------------------------===//

// -----

%f = tg.const 1.0 : f32
// expected-error @+1 {{shape operand of type 'f32' is not a shape (a CONST or STACK of ints)}}
%0 = tg.param <slot = 0, dtype = f32> shape(%f : f32)

// -----

// expected-error @+1 {{param dtype 'i32' is not a tinygrad dtype}}
%0 = tg.buffer <slot = 0, dtype = i32, size = 4>

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.param': vmin_vmax must be a pair, got 3 values}}
%0 = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [0, 1, 2], addrspace = alu>

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.param': device must be a string or an array of strings}}
%0 = tg.buffer <slot = 0, dtype = f32, device = 3, size = 4>

// -----

// expected-error @+1 {{violates spec rule 'spec_shared.param': device must be a string or an array of strings}}
%0 = tg.param <slot = 0, dtype = f32, device = ["CPU", 1], size = 4>

// -----

// expected-error @+1 {{'tg.param' op requires attribute 'arg'}}
%0 = "tg.param"() : () -> f32

//===----------------------------------------------------------------------===//
// CALL (spec_shared.call)
//===----------------------------------------------------------------------===//

// -----

%s = tg.sink()
// expected-error @+1 {{violates spec rule 'spec_shared.call': a CALL of an opaque body is void}}
%0 = tg.call %s() : (!tg.void) -> f32

// -----

%p = tg.const 1 : si64
// expected-error @+1 {{violates spec rule 'spec_shared.call': operand #0 (function address) must be uint64, got 'si64'}}
%0 = tg.call %p() : (si64) -> f32
