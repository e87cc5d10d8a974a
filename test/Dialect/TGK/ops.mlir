// RUN: tinygrad-opt %s | tinygrad-opt | FileCheck %s
// RUN: tinygrad-opt %s -mlir-print-op-generic | tinygrad-opt | FileCheck %s

// Every tgk op parses, prints and re-parses; the CHECK-NEXT sinks pin the
// inferred result types (tinygrad's dtype_from_uop/_shape).

// CHECK: %[[C16:.*]] = tg.const 16 : si32
// CHECK: %[[C4:.*]] = tg.const 4 : !tg.weakint
%c16 = tg.const 16 : si32
%c4 = tg.const 4 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%s43 = tg.stack(%c4, %c3) : !tg.weakint, !tg.weakint
%s443 = tg.stack(%c4, %c4, %c3) : !tg.weakint, !tg.weakint, !tg.weakint
%s434 = tg.stack(%c4, %c3, %c4) : !tg.weakint, !tg.weakint, !tg.weakint
// CHECK: %[[BUF:.*]] = tg.param <slot = 0, dtype = f16, device = "CPU"> shape(%{{.*}} : tensor<2x!tg.weakint>)
// CHECK-NEXT: tg.sink(%[[BUF]]) : tensor<4x3xf16, #tg.addrspace<global>>
%buf = tg.param <slot = 0, dtype = f16, device = "CPU"> shape(%s43 : tensor<2x!tg.weakint>)
%buf_type = tg.sink(%buf) : tensor<4x3xf16, #tg.addrspace<global>>

//===----------------------------------------------------------------------===//
// RANGE / SPECIAL / END
//===----------------------------------------------------------------------===//

// RANGE has its end's dtype and is a scalar.
// CHECK: %[[R0:.*]] = tgk.range %[[C4]] [0] <global> : !tg.weakint
// CHECK-NEXT: tg.sink(%[[R0]]) : !tg.weakint
%r0 = tgk.range %c4 [0] <global> : !tg.weakint
%r0_type = tg.sink(%r0) : !tg.weakint
// CHECK: %[[R1:.*]] = tgk.range %[[C16]] [1, 2] <reduce> : si32
// CHECK-NEXT: tg.sink(%[[R1]]) : si32
%r1 = tgk.range %c16 [1, 2] <reduce> : si32
%r1_type = tg.sink(%r1) : si32
// A RANGE with deps.
// CHECK: %[[R2:.*]] = tgk.range %[[C3:.*]] [3] <loop> deps(%[[R0]] : !tg.weakint) : !tg.weakint
%r2 = tgk.range %c3 [3] <loop> deps(%r0 : !tg.weakint) : !tg.weakint
// A void RANGE is a bound-less loop header.
// CHECK: %[[VOID:.*]] = tg.stack(){{$}}
// CHECK: %[[RV:.*]] = tgk.range %[[VOID]] [4] <loop> : !tg.void
// CHECK-NEXT: tg.sink(%[[RV]]) : !tg.void
%void = tg.stack()
%rv = tgk.range %void [4] <loop> : !tg.void
%rv_type = tg.sink(%rv) : !tg.void
// SPECIAL: the end's dtype.
// CHECK: %[[SP:.*]] = tgk.special "gidx0" %[[C16]] : si32
// CHECK-NEXT: tg.sink(%[[SP]]) : si32
%sp = tgk.special "gidx0" %c16 : si32
%sp_type = tg.sink(%sp) : si32
// CHECK: tgk.special "lidx1" %[[C4]] : !tg.weakint
%sp2 = tgk.special "lidx1" %c4 : !tg.weakint

//===----------------------------------------------------------------------===//
// INDEX: indexes from the left; each index contributes its own shape
//===----------------------------------------------------------------------===//

// One scalar index removes the leading dim: (4,3)[i] is (3,).
// CHECK: %[[I1:.*]] = tgk.index %[[BUF]][%[[R0]]] : tensor<4x3xf16, #tg.addrspace<global>>, !tg.weakint
// CHECK-NEXT: tg.sink(%[[I1]]) : tensor<3xf16, #tg.addrspace<global>>
%i1 = tgk.index %buf[%r0] : tensor<4x3xf16, #tg.addrspace<global>>, !tg.weakint
%i1_type = tg.sink(%i1) : tensor<3xf16, #tg.addrspace<global>>
// Two scalar indices: a scalar element pointer (still GLOBAL memory).
// CHECK: %[[I2:.*]] = tgk.index %[[BUF]][%[[R0]], %[[R2]]] : tensor<4x3xf16, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
// CHECK-NEXT: tg.sink(%[[I2]]) : tensor<f16, #tg.addrspace<global>>
%i2 = tgk.index %buf[%r0, %r2] : tensor<4x3xf16, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%i2_type = tg.sink(%i2) : tensor<f16, #tg.addrspace<global>>
// A (k,) index makes the dim k (a vector gather): (4,3)[(2,)] is (2,3).
// CHECK: %[[IV:.*]] = tg.stack(%[[R0]], %[[R0]]) : !tg.weakint, !tg.weakint
// CHECK: %[[I3:.*]] = tgk.index %[[BUF]][%[[IV]]] : tensor<4x3xf16, #tg.addrspace<global>>, tensor<2x!tg.weakint>
// CHECK-NEXT: tg.sink(%[[I3]]) : tensor<2x3xf16, #tg.addrspace<global>>
%iv = tg.stack(%r0, %r0) : !tg.weakint, !tg.weakint
%i3 = tgk.index %buf[%iv] : tensor<4x3xf16, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%i3_type = tg.sink(%i3) : tensor<2x3xf16, #tg.addrspace<global>>
// No index at all: the buffer itself.
// CHECK: %[[I0:.*]] = tgk.index %[[BUF]][] : tensor<4x3xf16, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[I0]]) : tensor<4x3xf16, #tg.addrspace<global>>
%i0 = tgk.index %buf[] : tensor<4x3xf16, #tg.addrspace<global>>
%i0_type = tg.sink(%i0) : tensor<4x3xf16, #tg.addrspace<global>>
// An Invalid index is allowed (a masked lane).
// CHECK: %[[INV:.*]] = tg.const invalid : i1
// CHECK: tgk.index %[[BUF]][%[[INV]]] : tensor<4x3xf16, #tg.addrspace<global>>, i1
%inv = tg.const invalid : i1
%iinv = tgk.index %buf[%inv] : tensor<4x3xf16, #tg.addrspace<global>>, i1
// An image PARAM (h, w, 4) always reads as float32.
// CHECK: %[[IMG:.*]] = tg.param <slot = 1, dtype = f16> shape(%{{.*}} : tensor<3x!tg.weakint>)
// CHECK: %[[II:.*]] = tgk.index %[[IMG]][%[[R0]]] : tensor<4x3x4xf16, #tg.addrspace<global>>, !tg.weakint
// CHECK-NEXT: tg.sink(%[[II]]) : tensor<3x4xf32, #tg.addrspace<global>>
%img = tg.param <slot = 1, dtype = f16> shape(%s434 : tensor<3x!tg.weakint>)
%ii = tgk.index %img[%r0] : tensor<4x3x4xf16, #tg.addrspace<global>>, !tg.weakint
%ii_type = tg.sink(%ii) : tensor<3x4xf32, #tg.addrspace<global>>
// ... but a non-image shape does not.
// CHECK: %[[NI:.*]] = tgk.index %[[BUF]][%[[R0]]]
// CHECK-NEXT: tg.sink(%[[NI]]) : tensor<3xf16, #tg.addrspace<global>>
%ni = tgk.index %buf[%r0] : tensor<4x3xf16, #tg.addrspace<global>>, !tg.weakint
%ni_type = tg.sink(%ni) : tensor<3xf16, #tg.addrspace<global>>

//===----------------------------------------------------------------------===//
// LOAD / STORE (plain and gated)
//===----------------------------------------------------------------------===//

// A LOAD moves the value into ALU registers: no addrspace encoding.
// CHECK: %[[LD:.*]] = tgk.load %[[I2]] : tensor<f16, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[LD]]) : f16
%ld = tgk.load %i2 : tensor<f16, #tg.addrspace<global>>
%ld_type = tg.sink(%ld) : f16
// CHECK: %[[LV:.*]] = tgk.load %[[I1]] : tensor<3xf16, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[LV]]) : tensor<3xf16>
%lv = tgk.load %i1 : tensor<3xf16, #tg.addrspace<global>>
%lv_type = tg.sink(%lv) : tensor<3xf16>
// CHECK: %[[G:.*]] = tg.cmplt %[[R0]], %[[C3]] : !tg.weakint, !tg.weakint
// CHECK: %[[ALT:.*]] = tg.const 0.0 : f16
// CHECK: %[[LG:.*]] = tgk.load %[[I2]] else %[[ALT]] : f16 if %[[G]] : i1 : tensor<f16, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[LG]]) : f16
%g = tg.cmplt %r0, %c3 : !tg.weakint, !tg.weakint
%alt = tg.const 0.0 : f16
%lg = tgk.load %i2 else %alt : f16 if %g : i1 : tensor<f16, #tg.addrspace<global>>
%lg_type = tg.sink(%lg) : f16
// CHECK: %[[ST:.*]] = tgk.store %[[LD]], %[[I2]] : f16, tensor<f16, #tg.addrspace<global>>
%st = tgk.store %ld, %i2 : f16, tensor<f16, #tg.addrspace<global>>
// CHECK: %[[SG:.*]] = tgk.store %[[LD]], %[[I2]] if %[[G]] : i1 : f16, tensor<f16, #tg.addrspace<global>>
%sg = tgk.store %ld, %i2 if %g : i1 : f16, tensor<f16, #tg.addrspace<global>>
// GROUP of stores.
// CHECK: %[[GR:.*]] = tg.group(%[[ST]], %[[SG]]) : !tg.void, !tg.void
%gr = tg.group(%st, %sg) : !tg.void, !tg.void
// END closes ranges around its body.
// CHECK: %[[END:.*]] = tgk.end %[[GR]], %[[R0]], %[[R2]] : !tg.void, !tg.weakint, !tg.weakint
// CHECK-NEXT: tg.group(%[[END]]) : !tg.void
%end = tgk.end %gr, %r0, %r2 : !tg.void, !tg.weakint, !tg.weakint
%end_group = tg.group(%end) : !tg.void
// CHECK: tgk.end %[[ST]] : !tg.void
%end0 = tgk.end %st : !tg.void
// A loop back-edge: END(body, RANGE(void), cond).
// CHECK: tgk.end %[[ST]], %[[RV]], %[[G]] : !tg.void, !tg.void, i1
%backedge = tgk.end %st, %rv, %g : !tg.void, !tg.void, i1

//===----------------------------------------------------------------------===//
// IF / ENDIF / BARRIER / WMMA
//===----------------------------------------------------------------------===//

// CHECK: %[[IF:.*]] = tgk.if %[[G]], %[[I2]] : i1, tensor<f16, #tg.addrspace<global>>
// CHECK: tgk.endif %[[IF]]
%if = tgk.if %g, %i2 : i1, tensor<f16, #tg.addrspace<global>>
%endif = tgk.endif %if
// CHECK: tgk.barrier(%[[ST]], %[[SG]]) : !tg.void, !tg.void
%bar = tgk.barrier(%st, %sg) : !tg.void, !tg.void
// CHECK: tgk.barrier(){{$}}
%bar0 = tgk.barrier()
// WMMA: broadcast of the leading dims, accumulator's last dim and dtype.
// CHECK: %[[A:.*]] = tg.stack(%[[ALT]], %[[ALT]], %[[ALT]], %[[ALT]]) : f16, f16, f16, f16
// CHECK: %[[ACC:.*]] = tg.stack(%{{.*}}, %{{.*}}) : f32, f32
// CHECK: %[[MM:.*]] = tgk.wmma %[[A]], %[[A]], %[[ACC]] [[[DIMS:.*]]] : tensor<4xf16>, tensor<4xf16>, tensor<2xf32>
// CHECK-NEXT: tg.sink(%[[MM]]) : tensor<2xf32>
%a = tg.stack(%alt, %alt, %alt, %alt) : f16, f16, f16, f16
%z = tg.const 0.0 : f32
%acc = tg.stack(%z, %z) : f32, f32
%mm = tgk.wmma %a, %a, %acc [[8, 16, 8], f16, "CUDA", 32, none] : tensor<4xf16>, tensor<4xf16>, tensor<2xf32>
%mm_type = tg.sink(%mm) : tensor<2xf32>
// CHECK: %[[A2:.*]] = tg.stack(%[[A]], %[[A]], %[[A]]) : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
// CHECK: %[[MM2:.*]] = tgk.wmma %[[A2]], %[[A]], %[[ACC]]
// CHECK-NEXT: tg.sink(%[[MM2]]) : tensor<3x2xf32>
%a2 = tg.stack(%a, %a, %a) : tensor<4xf16>, tensor<4xf16>, tensor<4xf16>
%mm2 = tgk.wmma %a2, %a, %acc [[8, 16, 8], f16, "CUDA", 32, [[0, 2], [1, 2]]] : tensor<3x4xf16>, tensor<4xf16>, tensor<2xf32>
%mm2_type = tg.sink(%mm2) : tensor<3x2xf32>
