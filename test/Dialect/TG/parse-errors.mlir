// RUN: not tinygrad-opt %s -split-input-file 2>&1 | FileCheck %s

// Malformed syntax: each error is reported at its file:line:col.

// CHECK: parse-errors.mlir:[[@LINE+1]]:6: error: custom op 'tg.frobnicate' is unknown
%0 = tg.frobnicate 1 : si32

// -----

// CHECK: parse-errors.mlir:[[@LINE+1]]:6: error: unregistered operation 'tg.frobnicate' found in dialect ('tg') that does not allow unknown operations
%0 = "tg.frobnicate"() : () -> si32

// -----

// An unknown dtype keyword inside the tg namespace.
// CHECK: parse-errors.mlir:[[@LINE+1]]:23: error: unknown  type `int32` in dialect `tg`
%0 = tg.const 1 : !tg.int32

// -----

// Operand type that is not a type at all.
// CHECK: parse-errors.mlir:[[@LINE+2]]:21: error: expected non-function type
%a = tg.const 1 : si32
%0 = tg.add %a, %a : 3, si32

// -----

// A use whose stated type disagrees with the definition.
// CHECK: parse-errors.mlir:[[@LINE+2]]:13: error: use of value '%a' expects different type than prior uses: 'f32' vs 'si32'
%a = tg.const 1 : si32
%0 = tg.add %a, %a : f32, f32

// -----

// A CONST value that is neither a number nor a keyword.
// CHECK: parse-errors.mlir:[[@LINE+1]]:15: error: expected floating point literal
%0 = tg.const "one" : si32

// -----

// CONST without its type.
// CHECK: parse-errors.mlir:[[@LINE+1]]:16: error: expected ':'
%0 = tg.const 1

// -----

// An unknown enum case in an attribute.
// CHECK: parse-errors.mlir:[[@LINE+1]]:51: error: custom op 'tg.param' expected one of [global, local, reg, alu] for tinygrad AddrSpace, got: texture
%0 = tg.param <slot = 0, dtype = f32, addrspace = texture>

// -----

// A ParamArg without its required dtype.
// CHECK: parse-errors.mlir:[[@LINE+1]]:34: error: custom op 'tg.param' struct is missing required parameter: dtype
%0 = tg.param <slot = 0, size = 4>

// -----

// An unknown ParamArg field.
// CHECK: parse-errors.mlir:[[@LINE+1]]:48: error: custom op 'tg.param' duplicate or unknown struct parameter name: colour
%0 = tg.param <slot = 0, dtype = f32, colour = 3>

// -----

// An unknown tg attribute.
// CHECK: parse-errors.mlir:[[@LINE+1]]:25: error: unknown attribute `frob` in dialect `tg`
%0 = tg.sink() {a = #tg.frob}

// -----

// Wrong bracket in a STACK.
// CHECK: parse-errors.mlir:[[@LINE+2]]:14: error: expected '('
%a = tg.const 1 : si32
%0 = tg.stack[%a] : si32

// -----

// Undefined SSA value.
// CHECK: parse-errors.mlir:[[@LINE+1]]:13: error: use of undeclared SSA value name
%0 = tg.neg %nope : f32

// -----

// Unknown AxisType in a RANGE.
// CHECK: parse-errors.mlir:[[@LINE+2]]:24: error: custom op 'tgk.range' expected ::mlir::tinygrad::tg::AxisType to be one of: device, global, warp, local, weak, group_reduce, reduce, upcast, unroll, thread, placeholder, loop
%c = tg.const 4 : !tg.weakint
%0 = tgk.range %c [0] <sideways> : !tg.weakint
