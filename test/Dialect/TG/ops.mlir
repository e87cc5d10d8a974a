// RUN: tinygrad-opt %s | tinygrad-opt | FileCheck %s
// RUN: tinygrad-opt %s -mlir-print-op-generic | tinygrad-opt | FileCheck %s

// Every tg op (and every tinygrad dtype) parses, prints and re-parses, in
// the custom and the generic form. Result types are never written for
// inferred ops: the CHECK lines pin what tinygrad's dtype_from_uop/_shape
// rules infer.

//===----------------------------------------------------------------------===//
// CONST: every dtype, every kind of value
//===----------------------------------------------------------------------===//

// CHECK: %[[W:.*]] = tg.const 3 : !tg.weakint
%w = tg.const 3 : !tg.weakint
// CHECK: %[[WF:.*]] = tg.const 1.5 : !tg.weakfloat
%wf = tg.const 1.5 : !tg.weakfloat
// CHECK: %[[B:.*]] = tg.const true : i1
%b = tg.const true : i1
// CHECK: %[[BF:.*]] = tg.const false : i1
%bfalse = tg.const false : i1
// CHECK: %[[INV:.*]] = tg.const invalid : i1
%inv = tg.const invalid : i1
// CHECK: %[[I8:.*]] = tg.const -128 : si8
%i8 = tg.const -128 : si8
// CHECK: %[[U8:.*]] = tg.const 255 : ui8
%u8 = tg.const 255 : ui8
// CHECK: %[[I16:.*]] = tg.const -32768 : si16
%i16 = tg.const -32768 : si16
// CHECK: %[[U16:.*]] = tg.const 65535 : ui16
%u16 = tg.const 65535 : ui16
// CHECK: %[[I32:.*]] = tg.const -7 : si32
%i32 = tg.const -7 : si32
// CHECK: %[[U32:.*]] = tg.const 4294967295 : ui32
%u32 = tg.const 4294967295 : ui32
// CHECK: %[[I64:.*]] = tg.const -9223372036854775808 : si64
%i64 = tg.const -9223372036854775808 : si64
// CHECK: %[[U64:.*]] = tg.const 18446744073709551615 : ui64
%u64 = tg.const 18446744073709551615 : ui64
// The internal wide uints: the value keeps all 128 bits.
// CHECK: %[[U128:.*]] = tg.const 170141183460469231731687303715884105727 : ui128
%u128 = tg.const 170141183460469231731687303715884105727 : ui128
// CHECK: %[[U256:.*]] = tg.const 1 : ui256
%u256 = tg.const 1 : ui256
// CHECK: tg.const 448.0 : f8E4M3FN
%e4m3 = tg.const 448.0 : f8E4M3FN
// CHECK: tg.const -57344.0 : f8E5M2
%e5m2 = tg.const -57344.0 : f8E5M2
// CHECK: tg.const 240.0 : f8E4M3FNUZ
%e4m3fnuz = tg.const 240.0 : f8E4M3FNUZ
// CHECK: tg.const 57344.0 : f8E5M2FNUZ
%e5m2fnuz = tg.const 57344.0 : f8E5M2FNUZ
// CHECK: %[[F16:.*]] = tg.const 0.0999755859375 : f16
%f16 = tg.const 0.0999755859375 : f16
// CHECK: %[[BF16:.*]] = tg.const 2.5 : bf16
%bf16 = tg.const 2.5 : bf16
// CHECK: %[[F32:.*]] = tg.const 0.001 : f32
%f32 = tg.const 1.0e-3 : f32
// CHECK: %[[F64:.*]] = tg.const 0.1 : f64
%f64 = tg.const 0.1 : f64
// Signed zero and the non-finite values print as tinygrad's repr.
// CHECK: tg.const -0.0 : f32
%negzero = tg.const -0.0 : f32
// CHECK: tg.const nan : f32
%nan = tg.const nan : f32
// CHECK: tg.const inf : f64
%pinf = tg.const inf : f64
// CHECK: tg.const -inf : f16
%ninf = tg.const -inf : f16
// CHECK: tg.const 1.0e+16 : f64
%big = tg.const 1.0e16 : f64
// CHECK: tg.const 1.5e-05 : f32
%tiny = tg.const 1.5e-5 : f32
// Discardable attributes survive the custom form.
// CHECK: tg.const 1 {tag = "x"} : si32
%tagged = tg.const 1 {tag = "x"} : si32

//===----------------------------------------------------------------------===//
// Unary ALU: transcendental ops infer least_upper_float, NEG/TRUNC keep dtype
//===----------------------------------------------------------------------===//

// CHECK: tg.exp2 %[[F32]] : f32
%exp2 = tg.exp2 %f32 : f32
// CHECK: tg.log2 %[[F16]] : f16
%log2 = tg.log2 %f16 : f16
// CHECK: tg.sin %[[BF16]] : bf16
%sin = tg.sin %bf16 : bf16
// sqrt of a weak int is a weak float (least_upper_float(weakint)); of si32
// it would be f32, which the ALU operand rule rejects (see invalid.mlir).
// CHECK: %[[SQ:.*]] = tg.sqrt %[[W]] : !tg.weakint
// CHECK-NEXT: tg.stack(%[[SQ]], %[[WF]]) : !tg.weakfloat, !tg.weakfloat
%sqrt = tg.sqrt %w : !tg.weakint
%sqrt_is_weakfloat = tg.stack(%sqrt, %wf) : !tg.weakfloat, !tg.weakfloat
// reciprocal of a weak float stays weak.
// CHECK: %[[RW:.*]] = tg.reciprocal %[[WF]] : !tg.weakfloat
// CHECK-NEXT: tg.stack(%[[RW]], %[[WF]]) : !tg.weakfloat, !tg.weakfloat
%recip = tg.reciprocal %wf : !tg.weakfloat
%recip_is_weak = tg.stack(%recip, %wf) : !tg.weakfloat, !tg.weakfloat
// A transcendental of Invalid is a bool Invalid lane.
// CHECK: %[[EI:.*]] = tg.exp2 %[[INV]] : i1
// CHECK-NEXT: tg.stack(%[[EI]], %[[B]]) : i1, i1
%exp2_inv = tg.exp2 %inv : i1
%exp2_inv_is_bool = tg.stack(%exp2_inv, %b) : i1, i1
// CHECK: tg.neg %[[I8]] : si8
%neg = tg.neg %i8 : si8
// CHECK: tg.trunc %[[F64]] : f64
%trunc = tg.trunc %f64 : f64

//===----------------------------------------------------------------------===//
// Binary ALU: promo_dtype; weak operands take the other side's dtype
//===----------------------------------------------------------------------===//

// weakint + si32 infers si32.
// CHECK: %[[ADD:.*]] = tg.add %[[W]], %[[I32]] : !tg.weakint, si32
// CHECK-NEXT: tg.stack(%[[ADD]], %[[I32]]) : si32, si32
%add = tg.add %w, %i32 : !tg.weakint, si32
%add_is_si32 = tg.stack(%add, %i32) : si32, si32
// weakfloat * f16 infers f16.
// CHECK: %[[MUL:.*]] = tg.mul %[[F16]], %[[WF]] : f16, !tg.weakfloat
// CHECK-NEXT: tg.stack(%[[MUL]], %[[F16]]) : f16, f16
%mul = tg.mul %f16, %wf : f16, !tg.weakfloat
%mul_is_f16 = tg.stack(%mul, %f16) : f16, f16
// weakint * weakfloat infers weakfloat.
// CHECK: %[[MWW:.*]] = tg.mul %[[W]], %[[WF]] : !tg.weakint, !tg.weakfloat
// CHECK-NEXT: tg.stack(%[[MWW]], %[[WF]]) : !tg.weakfloat, !tg.weakfloat
%mul_weak = tg.mul %w, %wf : !tg.weakint, !tg.weakfloat
%mul_weak_is_weakfloat = tg.stack(%mul_weak, %wf) : !tg.weakfloat, !tg.weakfloat
// CHECK: tg.shl %[[U32]], %[[U32]] : ui32, ui32
%shl = tg.shl %u32, %u32 : ui32, ui32
// A shift keeps the value's dtype: si64 >> weakint is si64.
// CHECK: %[[SHR:.*]] = tg.shr %[[I64]], %[[W]] : si64, !tg.weakint
// CHECK-NEXT: tg.stack(%[[SHR]], %[[I64]]) : si64, si64
%shr = tg.shr %i64, %w : si64, !tg.weakint
%shr_is_si64 = tg.stack(%shr, %i64) : si64, si64
// CHECK: tg.cdiv %[[I32]], %[[W]] : si32, !tg.weakint
%cdiv = tg.cdiv %i32, %w : si32, !tg.weakint
// CHECK: tg.max %[[F32]], %[[F32]] : f32, f32
%max = tg.max %f32, %f32 : f32, f32
// CHECK: tg.cmod %[[I16]], %[[I16]] : si16, si16
%cmod = tg.cmod %i16, %i16 : si16, si16
// Comparisons are bool.
// CHECK: %[[LT:.*]] = tg.cmplt %[[I32]], %[[W]] : si32, !tg.weakint
// CHECK-NEXT: tg.stack(%[[LT]], %[[B]]) : i1, i1
%cmplt = tg.cmplt %i32, %w : si32, !tg.weakint
%cmplt_is_bool = tg.stack(%cmplt, %b) : i1, i1
// CHECK: %[[NE:.*]] = tg.cmpne %[[F32]], %[[F32]] : f32, f32
// CHECK-NEXT: tg.stack(%[[NE]], %[[B]]) : i1, i1
%cmpne = tg.cmpne %f32, %f32 : f32, f32
%cmpne_is_bool = tg.stack(%cmpne, %b) : i1, i1
// CHECK: %[[EQ:.*]] = tg.cmpeq %[[WF]], %[[BF16]] : !tg.weakfloat, bf16
// CHECK-NEXT: tg.stack(%[[EQ]], %[[B]]) : i1, i1
%cmpeq = tg.cmpeq %wf, %bf16 : !tg.weakfloat, bf16
%cmpeq_is_bool = tg.stack(%cmpeq, %b) : i1, i1
// CHECK: tg.xor %[[B]], %[[BF]] : i1, i1
%xor = tg.xor %b, %bfalse : i1, i1
// CHECK: tg.or %[[U8]], %[[U8]] : ui8, ui8
%or = tg.or %u8, %u8 : ui8, ui8
// CHECK: tg.and %[[U16]], %[[W]] : ui16, !tg.weakint
%and = tg.and %u16, %w : ui16, !tg.weakint
// CHECK: tg.threefry %[[U64]], %[[U64]] : ui64, ui64
%threefry = tg.threefry %u64, %u64 : ui64, ui64
// CHECK: tg.sub %[[F64]], %[[F64]] : f64, f64
%sub = tg.sub %f64, %f64 : f64, f64
// CHECK: tg.fdiv %[[F32]], %[[WF]] : f32, !tg.weakfloat
%fdiv = tg.fdiv %f32, %wf : f32, !tg.weakfloat
// CHECK: tg.pow %[[F32]], %[[F32]] : f32, f32
%pow = tg.pow %f32, %f32 : f32, f32
// CHECK: tg.floordiv %[[I64]], %[[I64]] : si64, si64
%floordiv = tg.floordiv %i64, %i64 : si64, si64
// CHECK: tg.floormod %[[W]], %[[W]] : !tg.weakint, !tg.weakint
%floormod = tg.floormod %w, %w : !tg.weakint, !tg.weakint
// Invalid (the promo lattice bottom) takes the other side's dtype.
// CHECK: %[[AI:.*]] = tg.add %[[INV]], %[[I32]] : i1, si32
// CHECK-NEXT: tg.stack(%[[AI]], %[[I32]]) : si32, si32
%add_inv = tg.add %inv, %i32 : i1, si32
%add_inv_is_si32 = tg.stack(%add_inv, %i32) : si32, si32

//===----------------------------------------------------------------------===//
// Ternary ALU
//===----------------------------------------------------------------------===//

// WHERE promotes its two values only.
// CHECK: %[[WH:.*]] = tg.where %[[B]], %[[W]], %[[F16]] : i1, !tg.weakint, f16
// CHECK-NEXT: tg.stack(%[[WH]], %[[F16]]) : f16, f16
%where = tg.where %b, %w, %f16 : i1, !tg.weakint, f16
%where_is_f16 = tg.stack(%where, %f16) : f16, f16
// CHECK: tg.mulacc %[[F32]], %[[F32]], %[[F32]] : f32, f32, f32
%mulacc = tg.mulacc %f32, %f32, %f32 : f32, f32, f32

//===----------------------------------------------------------------------===//
// CAST / BITCAST
//===----------------------------------------------------------------------===//

// CHECK: %[[C:.*]] = tg.cast %[[I32]] to f16 : si32
// CHECK-NEXT: tg.stack(%[[C]], %[[F16]]) : f16, f16
%cast = tg.cast %i32 to f16 : si32
%cast_is_f16 = tg.stack(%cast, %f16) : f16, f16
// CHECK: tg.cast %[[W]] to ui128 : !tg.weakint
%cast_u128 = tg.cast %w to ui128 : !tg.weakint
// CHECK: tg.cast %[[F32]] to f8E4M3FN : f32
%cast_fp8 = tg.cast %f32 to f8E4M3FN : f32
// CHECK: %[[BC:.*]] = tg.bitcast %[[F32]] to ui32 : f32
// CHECK-NEXT: tg.stack(%[[BC]], %[[U32]]) : ui32, ui32
%bitcast = tg.bitcast %f32 to ui32 : f32
%bitcast_is_u32 = tg.stack(%bitcast, %u32) : ui32, ui32

//===----------------------------------------------------------------------===//
// STACK: prepends the element count; promotes dtypes; empty is void
//===----------------------------------------------------------------------===//

// CHECK: %[[S0:.*]] = tg.stack(){{$}}
// CHECK-NEXT: tg.sink(%[[S0]]) : !tg.void
%empty = tg.stack()
%empty_is_void = tg.sink(%empty) : !tg.void
// CHECK: %[[S1:.*]] = tg.stack(%[[W]], %[[I32]], %[[W]]) : !tg.weakint, si32, !tg.weakint
// CHECK-NEXT: tg.sink(%[[S1]]) : tensor<3xsi32>
%vec = tg.stack(%w, %i32, %w) : !tg.weakint, si32, !tg.weakint
%vec_is_3xsi32 = tg.sink(%vec) : tensor<3xsi32>
// CHECK: %[[S2:.*]] = tg.stack(%[[S1]], %[[S1]]) : tensor<3xsi32>, tensor<3xsi32>
// CHECK-NEXT: tg.sink(%[[S2]]) : tensor<2x3xsi32>
%mat = tg.stack(%vec, %vec) : tensor<3xsi32>, tensor<3xsi32>
%mat_is_2x3 = tg.sink(%mat) : tensor<2x3xsi32>
// Elementwise ops broadcast numpy-style: (2,3) + (3,) is (2,3).
// CHECK: %[[BA:.*]] = tg.add %[[S2]], %[[S1]] : tensor<2x3xsi32>, tensor<3xsi32>
// CHECK-NEXT: tg.sink(%[[BA]]) : tensor<2x3xsi32>
%badd = tg.add %mat, %vec : tensor<2x3xsi32>, tensor<3xsi32>
%badd_is_2x3 = tg.sink(%badd) : tensor<2x3xsi32>
// bitcast rescales the last dim: 3 x si32 is 12 x ui8 ...
// CHECK: %[[BC8:.*]] = tg.bitcast %[[S2]] to ui8 : tensor<2x3xsi32>
// CHECK-NEXT: tg.sink(%[[BC8]]) : tensor<2x12xui8>
%bc8 = tg.bitcast %mat to ui8 : tensor<2x3xsi32>
%bc8_is_2x12 = tg.sink(%bc8) : tensor<2x12xui8>
// ... and 12 x ui8 is 3 x f32; 2 x f32 is 1 x f64.
// CHECK: %[[BC32:.*]] = tg.bitcast %[[BC8]] to f32 : tensor<2x12xui8>
// CHECK-NEXT: tg.sink(%[[BC32]]) : tensor<2x3xf32>
%bc32 = tg.bitcast %bc8 to f32 : tensor<2x12xui8>
%bc32_is_2x3 = tg.sink(%bc32) : tensor<2x3xf32>
// CHECK: tg.cast %[[S1]] to bf16 : tensor<3xsi32>
// CHECK-NEXT: tg.sink(%{{.*}}) : tensor<3xbf16>
%vcast = tg.cast %vec to bf16 : tensor<3xsi32>
%vcast_is_3xbf16 = tg.sink(%vcast) : tensor<3xbf16>
// Comparisons of vectors are bool vectors.
// CHECK: tg.cmplt %[[S1]], %[[W]] : tensor<3xsi32>, !tg.weakint
// CHECK-NEXT: tg.sink(%{{.*}}) : tensor<3xi1>
%vlt = tg.cmplt %vec, %w : tensor<3xsi32>, !tg.weakint
%vlt_is_3xi1 = tg.sink(%vlt) : tensor<3xi1>

//===----------------------------------------------------------------------===//
// PARAM / BUFFER: dtype, shape and addrspace come from the ParamArg
//===----------------------------------------------------------------------===//

// Seed form: flat `size`, GLOBAL memory carries the addrspace encoding.
// CHECK: %[[P0:.*]] = tg.param <slot = 0, dtype = f32, size = 16>
// CHECK-NEXT: tg.sink(%[[P0]]) : tensor<16xf32, #tg.addrspace<global>>
%p0 = tg.param <slot = 0, dtype = f32, size = 16>
%p0_type = tg.sink(%p0) : tensor<16xf32, #tg.addrspace<global>>
// Shape operand form: a STACK of consts (and a symbolic dim).
// CHECK: %[[SH:.*]] = tg.stack(%[[D4:.*]], %[[D2:.*]]) : !tg.weakint, !tg.weakint
%d4 = tg.const 4 : !tg.weakint
%d2 = tg.const 2 : !tg.weakint
%shape42 = tg.stack(%d4, %d2) : !tg.weakint, !tg.weakint
// Every ParamArg field.
// CHECK: %[[P1:.*]] = tg.param <slot = 1, dtype = f16, vmin_vmax = [0, 10], multiple_of = 2, name = "x", addrspace = local, axis = 0, device = "CPU", isVolatile = true> shape(%[[SH]] : tensor<2x!tg.weakint>)
// CHECK-NEXT: tg.sink(%[[P1]]) : tensor<4x2xf16, #tg.addrspace<local>>
%p1 = tg.param <slot = 1, dtype = f16, vmin_vmax = [0, 10], multiple_of = 2, name = "x", addrspace = local, axis = 0, device = "CPU", isVolatile = true> shape(%shape42 : tensor<2x!tg.weakint>)
%p1_type = tg.sink(%p1) : tensor<4x2xf16, #tg.addrspace<local>>
// A variable: an ALU scalar PARAM with a range; a symbolic dim is `?`.
// CHECK: %[[N:.*]] = tg.param <slot = 2, dtype = !tg.weakint, vmin_vmax = [1, 8], name = "n", addrspace = alu>
// CHECK-NEXT: tg.sink(%[[N]]) : !tg.weakint
%n = tg.param <slot = 2, dtype = !tg.weakint, vmin_vmax = [1, 8], name = "n", addrspace = alu>
%n_type = tg.sink(%n) : !tg.weakint
%shape_n4 = tg.stack(%n, %d4) : !tg.weakint, !tg.weakint
// CHECK: %[[P2:.*]] = tg.param <slot = 3, dtype = si8, device = ["CPU:0", "CPU:1"]> shape(%{{.*}} : tensor<2x!tg.weakint>)
// CHECK-NEXT: tg.sink(%[[P2]]) : tensor<?x4xsi8, #tg.addrspace<global>>
%p2 = tg.param <slot = 3, dtype = si8, device = ["CPU:0", "CPU:1"]> shape(%shape_n4 : tensor<2x!tg.weakint>)
%p2_type = tg.sink(%p2) : tensor<?x4xsi8, #tg.addrspace<global>>
// A single CONST is a 1-d shape; an empty STACK is the scalar shape.
// CHECK: %[[BUF:.*]] = tg.buffer <slot = 0, dtype = ui8, addrspace = reg> shape(%[[D4]] : !tg.weakint)
// CHECK-NEXT: tg.sink(%[[BUF]]) : tensor<4xui8, #tg.addrspace<reg>>
%buf = tg.buffer <slot = 0, dtype = ui8, addrspace = reg> shape(%d4 : !tg.weakint)
%buf_type = tg.sink(%buf) : tensor<4xui8, #tg.addrspace<reg>>
// CHECK: %[[BUF2:.*]] = tg.buffer <slot = 1, dtype = bf16, device = "CUDA"> shape(%[[S0]] : !tg.void)
// CHECK-NEXT: tg.sink(%[[BUF2]]) : tensor<bf16, #tg.addrspace<global>>
%buf2 = tg.buffer <slot = 1, dtype = bf16, device = "CUDA"> shape(%empty : !tg.void)
%buf2_type = tg.sink(%buf2) : tensor<bf16, #tg.addrspace<global>>
// A NOOP shape is tinygrad's "no shape" placeholder.
// CHECK: %[[NS:.*]] = tg.noop : () -> !tg.void
// CHECK: tg.param <slot = 4, dtype = ui64, addrspace = alu> shape(%[[NS]] : !tg.void)
// CHECK-NEXT: tg.sink(%{{.*}}) : ui64
%noshape = tg.noop : () -> !tg.void
%p4 = tg.param <slot = 4, dtype = ui64, addrspace = alu> shape(%noshape : !tg.void)
%p4_type = tg.sink(%p4) : ui64

//===----------------------------------------------------------------------===//
// Structure: NOOP, GROUP, AFTER, TUPLE/GETTUPLE, SINK with KernelInfo
//===----------------------------------------------------------------------===//

// CHECK: %[[NO:.*]] = tg.noop %[[F32]], %[[I32]] : (f32, si32) -> f32
%noop = tg.noop %f32, %i32 : (f32, si32) -> f32
// CHECK: %[[G:.*]] = tg.group(%[[NS]]) : !tg.void
// CHECK: tg.group(%[[G]], %[[NS]]) : !tg.void, !tg.void
%group = tg.group(%noshape) : !tg.void
%group2 = tg.group(%group, %noshape) : !tg.void, !tg.void
// CHECK: tg.group(){{$}}
%group0 = tg.group()
// AFTER passes its source's type through.
// CHECK: %[[AF:.*]] = tg.after %[[P0]] deps(%[[G]], %[[NO]] : !tg.void, f32) : tensor<16xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[AF]]) : tensor<16xf32, #tg.addrspace<global>>
%after = tg.after %p0 deps(%group, %noop : !tg.void, f32) : tensor<16xf32, #tg.addrspace<global>>
%after_type = tg.sink(%after) : tensor<16xf32, #tg.addrspace<global>>
// CHECK: tg.after %[[P1]] : tensor<4x2xf16, #tg.addrspace<local>>
%after0 = tg.after %p1 : tensor<4x2xf16, #tg.addrspace<local>>
// CHECK: %[[TU:.*]] = tg.tuple(%[[F32]], %[[S1]]) : f32, tensor<3xsi32>
%tuple = tg.tuple(%f32, %vec) : f32, tensor<3xsi32>
// CHECK: tg.gettuple %[[TU]][1] : !tg.void -> tensor<3xsi32>
%get1 = tg.gettuple %tuple[1] : !tg.void -> tensor<3xsi32>
// CHECK: tg.tuple(){{$}}
%tuple0 = tg.tuple()
// A SINK with a KernelInfo is a kernel: every KernelInfo/Opt/Estimates field.
// CHECK: tg.sink(%[[AF]]) {arg = #tg.kernel_info<name = "r_16", axis_types = [#tg.axis_type<global>, #tg.axis_type<reduce>], dont_use_locals = true, applied_opts = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>, #tg.opt<op = tc, axis = 0, arg = [-1, 0, 1]>, #tg.opt<op = nolocals>], opts_to_apply = [#tg.opt<op = local, axis = 1, arg = 8 : i64>], estimates = #tg.estimates<ops = 32 : i64, lds = 128 : i64, mem = 64 : i64>, beam = 2>} : tensor<16xf32, #tg.addrspace<global>>
%kernel = tg.sink(%after) {arg = #tg.kernel_info<name = "r_16", axis_types = [#tg.axis_type<global>, #tg.axis_type<reduce>], dont_use_locals = true, applied_opts = [#tg.opt<op = upcast, axis = 0, arg = 4>, #tg.opt<op = tc, axis = 0, arg = [-1, 0, 1]>, #tg.opt<op = nolocals>], opts_to_apply = [#tg.opt<op = local, axis = 1, arg = 8>], estimates = #tg.estimates<ops = 32, lds = 128, mem = 64>, beam = 2>} : tensor<16xf32, #tg.addrspace<global>>
// Default-valued KernelInfo fields are elided.
// CHECK: tg.sink() {arg = #tg.kernel_info<name = "E_1", axis_types = [], applied_opts = []>}
%kernel0 = tg.sink() {arg = #tg.kernel_info<name = "E_1", axis_types = [], applied_opts = []>}
// Every AxisType and OptOps member.
// CHECK: tg.sink() {axes = [#tg.axis_type<device>, #tg.axis_type<global>, #tg.axis_type<warp>, #tg.axis_type<local>, #tg.axis_type<weak>, #tg.axis_type<group_reduce>, #tg.axis_type<reduce>, #tg.axis_type<upcast>, #tg.axis_type<unroll>, #tg.axis_type<thread>, #tg.axis_type<placeholder>, #tg.axis_type<loop>]
// CHECK-SAME: opts = [#tg.optops<tc>, #tg.optops<upcast>, #tg.optops<unroll>, #tg.optops<local>, #tg.optops<thread>, #tg.optops<group>, #tg.optops<grouptop>, #tg.optops<nolocals>, #tg.optops<padto>, #tg.optops<swap>]
// CHECK-SAME: reduce = [#tg.reduce_kind<add>, #tg.reduce_kind<mul>, #tg.reduce_kind<max>]
// CHECK-SAME: spaces = [#tg.addrspace<global>, #tg.addrspace<local>, #tg.addrspace<reg>, #tg.addrspace<alu>]
%enums = tg.sink() {axes = [#tg.axis_type<device>, #tg.axis_type<global>, #tg.axis_type<warp>, #tg.axis_type<local>, #tg.axis_type<weak>, #tg.axis_type<group_reduce>, #tg.axis_type<reduce>, #tg.axis_type<upcast>, #tg.axis_type<unroll>, #tg.axis_type<thread>, #tg.axis_type<placeholder>, #tg.axis_type<loop>], opts = [#tg.optops<tc>, #tg.optops<upcast>, #tg.optops<unroll>, #tg.optops<local>, #tg.optops<thread>, #tg.optops<group>, #tg.optops<grouptop>, #tg.optops<nolocals>, #tg.optops<padto>, #tg.optops<swap>], reduce = [#tg.reduce_kind<add>, #tg.reduce_kind<mul>, #tg.reduce_kind<max>], spaces = [#tg.addrspace<global>, #tg.addrspace<local>, #tg.addrspace<reg>, #tg.addrspace<alu>]}
// The Invalid sentinel and the bufferize opts as plain attributes.
// CHECK: tg.sink() {inv = #tg.invalid, opts = #tg.bufferize_opts<device = "CPU", addrspace = local, removable = false>, opts0 = #tg.bufferize_opts<>}
%misc = tg.sink() {inv = #tg.invalid, opts = #tg.bufferize_opts<device = "CPU", addrspace = local, removable = false>, opts0 = #tg.bufferize_opts<>}

//===----------------------------------------------------------------------===//
// CALL / CUSTOM / CUSTOMI
//===----------------------------------------------------------------------===//

// CALL of a kernel SINK is void; every CallInfo field.
// CHECK: %[[CALL:.*]] = tg.call %[[KS:.*]](%[[P0]]) {arg = #tg.call_info<grad_fxn = "g", name = "f", precompile = true, precompile_backward = true, aux = 3 : i64>} : (!tg.void, tensor<16xf32, #tg.addrspace<global>>) -> !tg.void
%kbody = tg.sink(%p0) : tensor<16xf32, #tg.addrspace<global>>
%call = tg.call %kbody(%p0) {arg = #tg.call_info<grad_fxn = "g", name = "f", precompile = true, precompile_backward = true, aux = 3>} : (!tg.void, tensor<16xf32, #tg.addrspace<global>>) -> !tg.void
// CHECK: tg.call %{{.*}}() {arg = #tg.call_info<>} : (!tg.void) -> !tg.void
%call0 = tg.call %kbody() {arg = #tg.call_info<>} : (!tg.void) -> !tg.void
// CALL with a TUPLE body produces values through GETTUPLE.
// CHECK: %[[CT:.*]] = tg.call %[[TU]](%[[F32]]) : (!tg.void, f32) -> !tg.void
// CHECK: tg.gettuple %[[CT]][0] : !tg.void -> f32
%calltuple = tg.call %tuple(%f32) : (!tg.void, f32) -> !tg.void
%get0 = tg.gettuple %calltuple[0] : !tg.void -> f32
// CALL of a uint64 function address returns a value.
// CHECK: tg.call %[[U64]](%[[F32]], %[[I32]]) : (ui64, f32, si32) -> f32
%callptr = tg.call %u64(%f32, %i32) : (ui64, f32, si32) -> f32
// CHECK: tg.custom "__syncthreads();" : () -> !tg.void
%custom0 = tg.custom "__syncthreads();" : () -> !tg.void
// CHECK: tg.custom "{0} = {1};" %[[F32]], %[[F32]] : (f32, f32) -> !tg.void
%custom = tg.custom "{0} = {1};" %f32, %f32 : (f32, f32) -> !tg.void
// CHECK: tg.customi "max({0}, {1})" %[[I32]], %[[I32]] : (si32, si32) -> si32
%customi = tg.customi "max({0}, {1})" %i32, %i32 : (si32, si32) -> si32
