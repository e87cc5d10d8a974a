// RUN: tinygrad-opt %s -split-input-file -verify-diagnostics --tg-test-print-int-ranges

// Upstream's IntegerRangeAnalysis over our ops, whose InferIntRangeInterface
// is tinygrad's vmin/vmax (lib/Symbolic/IntRanges.cpp). Every expected range
// is tinygrad's, e.g. for floordiv:
//   a = UOp.variable('a', 0, 8); ((a+2)//4).vmin, ((a+2)//4).vmax  ->  0 2
// Bounds print signed for weakint/si*, unsigned for ui* and bool (0/1).

// add, mul, floordiv, floormod

// expected-remark @below {{int range [0, 8]}}
%a = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [0, 8], addrspace = alu>
// expected-remark @below {{int range [-3, 5]}}
%b = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [-3, 5], addrspace = alu>
// expected-remark @below {{int range [2, 2]}}
%c2 = tg.const 2 : !tg.weakint
// expected-remark @below {{int range [4, 4]}}
%c4 = tg.const 4 : !tg.weakint
// a+2
// expected-remark @below {{int range [2, 10]}}
%add = tg.add %a, %c2 : !tg.weakint, !tg.weakint
// a+b
// expected-remark @below {{int range [-3, 13]}}
%add2 = tg.add %a, %b : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-2, 3]}}
%p = tg.param <slot = 2, dtype = !tg.weakint, vmin_vmax = [-2, 3], addrspace = alu>
// expected-remark @below {{int range [-4, 5]}}
%q = tg.param <slot = 3, dtype = !tg.weakint, vmin_vmax = [-4, 5], addrspace = alu>
// expected-remark @below {{int range [-12, 15]}}
%mul = tg.mul %p, %q : !tg.weakint, !tg.weakint
// (a+2)//4
// expected-remark @below {{int range [0, 2]}}
%fd = tg.floordiv %add, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-7, 5]}}
%m = tg.param <slot = 4, dtype = !tg.weakint, vmin_vmax = [-7, 5], addrspace = alu>
// expected-remark @below {{int range [3, 3]}}
%c3 = tg.const 3 : !tg.weakint
// expected-remark @below {{int range [-3, 1]}}
%fd_neg = tg.floordiv %m, %c3 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [2, 4]}}
%d = tg.param <slot = 5, dtype = !tg.weakint, vmin_vmax = [2, 4], addrspace = alu>
// expected-remark @below {{int range [0, 4]}}
%fd_var = tg.floordiv %a, %d : !tg.weakint, !tg.weakint
// (a+2)%4
// expected-remark @below {{int range [0, 3]}}
%fm = tg.floormod %add, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [5, 7]}}
%f = tg.param <slot = 6, dtype = !tg.weakint, vmin_vmax = [5, 7], addrspace = alu>
// expected-remark @below {{int range [1, 3]}}
%fm_same_block = tg.floormod %f, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-3, -3]}}
%cm3 = tg.const -3 : !tg.weakint
// expected-remark @below {{int range [-2, 0]}}
%fm_neg = tg.floormod %a, %cm3 : !tg.weakint, !tg.weakint

// -----

// cdiv, cmod (C semantics: truncating)

// expected-remark @below {{int range [-7, 5]}}
%m = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [-7, 5], addrspace = alu>
// expected-remark @below {{int range [1, 2]}}
%g = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [1, 2], addrspace = alu>
// expected-remark @below {{int range [3, 3]}}
%c3 = tg.const 3 : !tg.weakint
// expected-remark @below {{int range [-2, 1]}}
%cdiv = tg.cdiv %m, %c3 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-2, 2]}}
%cmod = tg.cmod %m, %c3 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [0, 2]}}
%cmod_pos = tg.cmod %g, %c3 : !tg.weakint, !tg.weakint

// -----

// cmplt, cmpne, max, where, bool and/or, xor

// expected-remark @below {{int range [0, 8]}}
%a = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [0, 8], addrspace = alu>
// expected-remark @below {{int range [0, 3]}}
%h = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [0, 3], addrspace = alu>
// expected-remark @below {{int range [5, 8]}}
%i = tg.param <slot = 2, dtype = !tg.weakint, vmin_vmax = [5, 8], addrspace = alu>
// expected-remark @below {{int range [4, 4]}}
%c4 = tg.const 4 : !tg.weakint
// expected-remark @below {{int range [9, 9]}}
%c9 = tg.const 9 : !tg.weakint
// a<4: (False, True)
// expected-remark @below {{int range [0, 1]}}
%lt = tg.cmplt %a, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [1, 1]}}
%lt_true = tg.cmplt %h, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [0, 0]}}
%lt_false = tg.cmplt %i, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [1, 1]}}
%ne_true = tg.cmpne %a, %c9 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [0, 0]}}
%ne_false = tg.cmpne %c4, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-3, 5]}}
%n = tg.param <slot = 3, dtype = !tg.weakint, vmin_vmax = [-3, 5], addrspace = alu>
// expected-remark @below {{int range [0, 0]}}
%c0 = tg.const 0 : !tg.weakint
// expected-remark @below {{int range [0, 5]}}
%max = tg.max %n, %c0 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-2, 3]}}
%b = tg.param <slot = 4, dtype = !tg.weakint, vmin_vmax = [-2, 3], addrspace = alu>
// (a<4).where(a, b)
// expected-remark @below {{int range [-2, 8]}}
%where = tg.where %lt, %a, %b : i1, !tg.weakint, !tg.weakint
// (a<4)&(a<9), (a<4)|(a<9)
// expected-remark @below {{int range [1, 1]}}
%lt9 = tg.cmplt %a, %c9 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [0, 1]}}
%band = tg.and %lt, %lt9 : i1, i1
// expected-remark @below {{int range [1, 1]}}
%bor = tg.or %lt, %lt9 : i1, i1
// expected-remark @below {{int range [0, 5]}}
%k = tg.param <slot = 5, dtype = !tg.weakint, vmin_vmax = [0, 5], addrspace = alu>
// expected-remark @below {{int range [-1, -1]}}
%cm1 = tg.const -1 : !tg.weakint
// expected-remark @below {{int range [-6, -1]}}
%xor = tg.xor %k, %cm1 : !tg.weakint, !tg.weakint

// -----

// and with a constant mask, shl, shr

// expected-remark @below {{int range [0, 100]}}
%j = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [0, 100], addrspace = alu>
// expected-remark @below {{int range [0, 5]}}
%k = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [0, 5], addrspace = alu>
// expected-remark @below {{int range [-3, 5]}}
%l = tg.param <slot = 2, dtype = !tg.weakint, vmin_vmax = [-3, 5], addrspace = alu>
// expected-remark @below {{int range [7, 7]}}
%c7 = tg.const 7 : !tg.weakint
// expected-remark @below {{int range [0, 7]}}
%and = tg.and %j, %c7 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [0, 5]}}
%and_small = tg.and %k, %c7 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [0, 7]}}
%and_neg = tg.and %l, %c7 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [1, 3]}}
%s = tg.param <slot = 3, dtype = !tg.weakint, vmin_vmax = [1, 3], addrspace = alu>
// expected-remark @below {{int range [4, 17]}}
%t = tg.param <slot = 4, dtype = !tg.weakint, vmin_vmax = [4, 17], addrspace = alu>
// expected-remark @below {{int range [2, 2]}}
%c2 = tg.const 2 : !tg.weakint
// expected-remark @below {{int range [4, 12]}}
%shl = tg.shl %s, %c2 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [1, 4]}}
%shr = tg.shr %t, %c2 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-8, 17]}}
%u = tg.param <slot = 5, dtype = si32, vmin_vmax = [-8, 17], addrspace = alu>
// expected-remark @below {{int range [1, 1]}}
%i1 = tg.const 1 : si32
// expected-remark @below {{int range [-4, 8]}}
%shr_si32 = tg.shr %u, %i1 : si32, si32
// expected-remark @below {{int range [-2, 3]}}
%v = tg.param <slot = 6, dtype = si8, vmin_vmax = [-2, 3], addrspace = alu>
// expected-remark @below {{int range [4, 4]}}
%i4 = tg.const 4 : si8
// expected-remark @below {{int range [-8, 12]}}
%mul_si8 = tg.mul %v, %i4 : si8, si8

// -----

// cast: unsigned targets keep an in-range source, else their dtype range;
// signed targets clamp.

// expected-remark @below {{int range [0, 300]}}
%w = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [0, 300], addrspace = alu>
// expected-remark @below {{int range [-5, 300]}}
%x = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [-5, 300], addrspace = alu>
// expected-remark @below {{int range [0, 8]}}
%a = tg.param <slot = 2, dtype = !tg.weakint, vmin_vmax = [0, 8], addrspace = alu>
// expected-remark @below {{int range [-1, 8]}}
%y = tg.param <slot = 3, dtype = !tg.weakint, vmin_vmax = [-1, 8], addrspace = alu>
// expected-remark @below {{int range [0, 255]}}
%to_u8 = tg.cast %w to ui8 : !tg.weakint
// expected-remark @below {{int range [-5, 127]}}
%to_i8 = tg.cast %x to si8 : !tg.weakint
// expected-remark @below {{int range [0, 8]}}
%to_i32 = tg.cast %a to si32 : !tg.weakint
// expected-remark @below {{int range [0, 8]}}
%to_u16 = tg.cast %a to ui16 : !tg.weakint
// expected-remark @below {{int range [0, 65535]}}
%neg_to_u16 = tg.cast %y to ui16 : !tg.weakint
// expected-remark @below {{int range [4, 4]}}
%c4 = tg.const 4 : !tg.weakint
// expected-remark @below {{int range [0, 1]}}
%lt = tg.cmplt %a, %c4 : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [0, 1]}}
%bool_to_i32 = tg.cast %lt to si32 : i1

// -----

// param (vmin_vmax, else the dtype's range), range, special

// expected-remark @below {{int range [-3, 7]}}
%p16 = tg.param <slot = 0, dtype = si16, vmin_vmax = [-3, 7], addrspace = alu>
// expected-remark @below {{int range [-2147483648, 2147483647]}}
%p32 = tg.param <slot = 1, dtype = si32, addrspace = alu>
// expected-remark @below {{int range [0, 18446744073709551615]}}
%pu64 = tg.param <slot = 2, dtype = ui64, addrspace = alu>
// expected-remark @below {{int range [0, 1]}}
%pb = tg.param <slot = 3, dtype = i1, addrspace = alu>
// expected-remark @below {{int range [1, 8]}}
%e = tg.param <slot = 4, dtype = !tg.weakint, vmin_vmax = [1, 8], addrspace = alu>
// expected-remark @below {{int range [0, 7]}}
%r = tgk.range %e [0] <loop> : !tg.weakint
// expected-remark @below {{int range [4, 4]}}
%c4 = tg.const 4 : !tg.weakint
// expected-remark @below {{int range [0, 3]}}
%r4 = tgk.range %c4 [1] <loop> : !tg.weakint
// expected-remark @below {{int range [16, 16]}}
%c16 = tg.const 16 : si32
// expected-remark @below {{int range [0, 15]}}
%g = tgk.special "gidx0" %c16 : si32
// An unbounded si32 end: (0, 2**31-2).
// expected-remark @below {{int range [0, 2147483646]}}
%gl = tgk.special "lidx0" %p32 : si32

// -----

// stack, index, after

// expected-remark @below {{int range [0, 8]}}
%a = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [0, 8], addrspace = alu>
// expected-remark @below {{int range [-2, 3]}}
%b = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [-2, 3], addrspace = alu>
// expected-remark @below {{int range [1, 1]}}
%c1 = tg.const 1 : !tg.weakint
// expected-remark @below {{int range [-2, 8]}}
%st = tg.stack(%a, %b) : !tg.weakint, !tg.weakint
// expected-remark @below {{int range [-2, 8]}}
%ix = tgk.index %st[%c1] : tensor<2x!tg.weakint>, !tg.weakint
// expected-remark @below {{int range [-2, 3]}}
%af = tg.after %b : !tg.weakint
// Memory and floats get no range; ALU ops on them still do.
// expected-remark @below {{int range [4, 4]}}
%c4 = tg.const 4 : !tg.weakint
%buf = tg.buffer <slot = 2, dtype = si32, device = "CPU"> shape(%c4 : !tg.weakint)
%fp = tg.param <slot = 3, dtype = f32, addrspace = alu>
%f2 = tg.const 2.0 : f32
// expected-remark @below {{int range [0, 1]}}
%flt = tg.cmplt %fp, %f2 : f32, f32

// -----

// Operands upstream gives no range (block arguments, results of ops
// without the interface) are unknown: their dtype's range, as tinygrad has
// for a bare PARAM.

%n = tg.noop : () -> !tg.weakint
// expected-remark @below {{int range [4, 4]}}
%c4 = tg.const 4 : !tg.weakint
// expected-remark @below {{int range [0, 3]}}
%nm = tg.floormod %n, %c4 : !tg.weakint, !tg.weakint
func.func @f(%x: !tg.weakint, %y: si32) {
  // expected-remark @below {{int range [4, 4]}}
  %k = tg.const 4 : !tg.weakint
  // expected-remark @below {{int range [0, 3]}}
  %xm = tg.floormod %x, %k : !tg.weakint, !tg.weakint
  // expected-remark @below {{int range [3, 3]}}
  %k3 = tg.const 3 : si32
  // expected-remark @below {{int range [0, 1]}}
  %lt = tg.cmplt %y, %k3 : si32, si32
  // expected-remark @below {{int range [-715827883, 715827882]}}
  %yd = tg.floordiv %y, %k3 : si32, si32
  return
}

// -----

// Where the interface differs from tinygrad.

// A divisor range containing 0: tinygrad falls back to weakint's dtype range
// (+-2**799); a weak int is 128 bits here.
// expected-remark @below {{int range [0, 8]}}
%a = tg.param <slot = 0, dtype = !tg.weakint, vmin_vmax = [0, 8], addrspace = alu>
// expected-remark @below {{int range [-1, 4]}}
%e = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [-1, 4], addrspace = alu>
// expected-remark @below {{int range [-170141183460469231731687303715884105728, 170141183460469231731687303715884105727]}}
%fd = tg.floordiv %a, %e : !tg.weakint, !tg.weakint
// Bounds past the dtype (tinygrad: 0 .. 2**32-2) wrap at run time: the
// type's full range.
// expected-remark @below {{int range [0, 2147483647]}}
%i = tg.param <slot = 2, dtype = si32, vmin_vmax = [0, 2147483647], addrspace = alu>
// expected-remark @below {{int range [-2147483648, 2147483647]}}
%ovf = tg.add %i, %i : si32, si32
// An empty range (tinygrad: RANGE of 0 is 0 .. -1): the full range.
// expected-remark @below {{int range [0, 0]}}
%c0 = tg.const 0 : !tg.weakint
// expected-remark @below {{int range [-170141183460469231731687303715884105728, 170141183460469231731687303715884105727]}}
%r0 = tgk.range %c0 [0] <loop> : !tg.weakint
// Float operands carry no range through the interface: their dtype's
// (-inf, inf). tinygrad: 1 .. 1 for the cast, False .. False for 1.5<1.5.
%fc = tg.const 1.5 : f32
// expected-remark @below {{int range [-2147483648, 2147483647]}}
%fi = tg.cast %fc to si32 : f32
// expected-remark @below {{int range [0, 1]}}
%flt = tg.cmplt %fc, %fc : f32, f32
