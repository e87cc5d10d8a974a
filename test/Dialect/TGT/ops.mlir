// RUN: tinygrad-opt %s | tinygrad-opt | FileCheck %s
// RUN: tinygrad-opt %s -mlir-print-op-generic | tinygrad-opt | FileCheck %s

// Every tgt op parses, prints and re-parses; the CHECK-NEXT sinks pin the
// result type that tinygrad's _shape rules infer.

// CHECK: %[[C2:.*]] = tg.const 2 : !tg.weakint
// CHECK: %[[C3:.*]] = tg.const 3 : !tg.weakint
// CHECK: %[[C6:.*]] = tg.const 6 : !tg.weakint
// CHECK: %[[C0:.*]] = tg.const 0 : !tg.weakint
// CHECK: %[[C1:.*]] = tg.const 1 : !tg.weakint
%c2 = tg.const 2 : !tg.weakint
%c3 = tg.const 3 : !tg.weakint
%c6 = tg.const 6 : !tg.weakint
%c0 = tg.const 0 : !tg.weakint
%c1 = tg.const 1 : !tg.weakint
%s6 = tg.stack(%c6) : !tg.weakint
%s23 = tg.stack(%c2, %c3) : !tg.weakint, !tg.weakint
%s32 = tg.stack(%c3, %c2) : !tg.weakint, !tg.weakint
%s00 = tg.stack(%c0, %c0) : !tg.weakint, !tg.weakint
%s01 = tg.stack(%c0, %c1) : !tg.weakint, !tg.weakint
%s12 = tg.stack(%c1, %c2) : !tg.weakint, !tg.weakint
%s36 = tg.stack(%c3, %c6) : !tg.weakint, !tg.weakint
// CHECK: %[[X:.*]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%{{.*}} : tensor<1x!tg.weakint>)
// CHECK-NEXT: tg.sink(%[[X]]) : tensor<6xf32, #tg.addrspace<global>>
%x = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%s6 : tensor<1x!tg.weakint>)
%x_type = tg.sink(%x) : tensor<6xf32, #tg.addrspace<global>>

//===----------------------------------------------------------------------===//
// Movement
//===----------------------------------------------------------------------===//

// RESHAPE (6,) -> (2,3) keeps dtype and addrspace.
// CHECK: %[[R:.*]] = tgt.reshape %[[X]], %[[S23:.*]] : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
// CHECK-NEXT: tg.sink(%[[R]]) : tensor<2x3xf32, #tg.addrspace<global>>
%r = tgt.reshape %x, %s23 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%r_type = tg.sink(%r) : tensor<2x3xf32, #tg.addrspace<global>>
// A reshape of an ALU value (no encoding): tensor<2x3xf32>.
// CHECK: %[[V:.*]] = tg.add %[[X]], %[[C1]]
// CHECK: %[[RV:.*]] = tgt.reshape %[[V]], %{{.*}} : tensor<6xf32>, tensor<2x!tg.weakint>
// CHECK-NEXT: tg.sink(%[[RV]]) : tensor<2x3xf32>
%v = tg.add %x, %c1 : tensor<6xf32, #tg.addrspace<global>>, !tg.weakint
%rv = tgt.reshape %v, %s23 : tensor<6xf32>, tensor<2x!tg.weakint>
%rv_type = tg.sink(%rv) : tensor<2x3xf32>
// RESHAPE to a single CONST: a 1-d shape.
// CHECK: %[[R6:.*]] = tgt.reshape %[[RV]], %[[C6]] : tensor<2x3xf32>, !tg.weakint
// CHECK-NEXT: tg.sink(%[[R6]]) : tensor<6xf32>
%r6 = tgt.reshape %rv, %c6 : tensor<2x3xf32>, !tg.weakint
%r6_type = tg.sink(%r6) : tensor<6xf32>
// RESHAPE to the scalar shape (empty STACK) of a 1-element value.
// CHECK: %[[E:.*]] = tg.stack(){{$}}
// CHECK: %[[R1:.*]] = tgt.reshape %[[ONE:.*]], %[[E]] : tensor<1xf32>, !tg.void
// CHECK-NEXT: tg.sink(%[[R1]]) : f32
%empty = tg.stack()
%f = tg.const 1.0 : f32
%one = tg.stack(%f) : f32
%r1 = tgt.reshape %one, %empty : tensor<1xf32>, !tg.void
%r1_type = tg.sink(%r1) : f32
// RESHAPE with a symbolic dim: `?`.
// CHECK: %[[N:.*]] = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [1, 6], addrspace = alu>
// CHECK: %[[RN:.*]] = tgt.reshape %[[RV]], %{{.*}} : tensor<2x3xf32>, tensor<2x!tg.weakint>
// CHECK-NEXT: tg.sink(%[[RN]]) : tensor<?x1xf32>
%n = tg.param <slot = 1, dtype = !tg.weakint, vmin_vmax = [1, 6], addrspace = alu>
%sn1 = tg.stack(%n, %c1) : !tg.weakint, !tg.weakint
%rn = tgt.reshape %rv, %sn1 : tensor<2x3xf32>, tensor<2x!tg.weakint>
%rn_type = tg.sink(%rn) : tensor<?x1xf32>
// EXPAND prepends the new axes.
// CHECK: %[[EX:.*]] = tgt.expand %[[RV]], %{{.*}} : tensor<2x3xf32>, tensor<2x!tg.weakint>
// CHECK-NEXT: tg.sink(%[[EX]]) : tensor<3x2x2x3xf32>
%ex = tgt.expand %rv, %s32 : tensor<2x3xf32>, tensor<2x!tg.weakint>
%ex_type = tg.sink(%ex) : tensor<3x2x2x3xf32>
// CHECK: %[[EX1:.*]] = tgt.expand %[[F:.*]], %[[C3]] : f32, !tg.weakint
// CHECK-NEXT: tg.sink(%[[EX1]]) : tensor<3xf32>
%ex1 = tgt.expand %f, %c3 : f32, !tg.weakint
%ex1_type = tg.sink(%ex1) : tensor<3xf32>
// PERMUTE reorders.
// CHECK: %[[PM:.*]] = tgt.permute %[[EX]] [3, 0, 2, 1] : tensor<3x2x2x3xf32>
// CHECK-NEXT: tg.sink(%[[PM]]) : tensor<3x3x2x2xf32>
%pm = tgt.permute %ex [3, 0, 2, 1] : tensor<3x2x2x3xf32>
%pm_type = tg.sink(%pm) : tensor<3x3x2x2xf32>
// FLIP keeps the shape.
// CHECK: %[[FL:.*]] = tgt.flip %[[R]] [true, false] : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[FL]]) : tensor<2x3xf32, #tg.addrspace<global>>
%fl = tgt.flip %r [true, false] : tensor<2x3xf32, #tg.addrspace<global>>
%fl_type = tg.sink(%fl) : tensor<2x3xf32, #tg.addrspace<global>>
// PAD places (2,3) at offsets (1,2) inside (3,6).
// CHECK: %[[PD:.*]] = tgt.pad %[[RV]], %{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
// CHECK-NEXT: tg.sink(%[[PD]]) : tensor<3x6xf32>
%pd = tgt.pad %rv, %s12, %s36 : tensor<2x3xf32>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
%pd_type = tg.sink(%pd) : tensor<3x6xf32>
// SHRINK keeps (1,2) elements from (0,1).
// CHECK: %[[SH:.*]] = tgt.shrink %[[R]], %{{.*}}, %{{.*}} : tensor<2x3xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
// CHECK-NEXT: tg.sink(%[[SH]]) : tensor<1x2xf32, #tg.addrspace<global>>
%sh = tgt.shrink %r, %s01, %s12 : tensor<2x3xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
%sh_type = tg.sink(%sh) : tensor<1x2xf32, #tg.addrspace<global>>
// A padded Invalid is still Invalid (base looks through movement ops):
// WHERE of a padded Invalid promotes to the other side's dtype.
// CHECK: %[[INV:.*]] = tg.const invalid : i1
// CHECK: %[[PI:.*]] = tgt.expand %[[INV]], %[[C3]] : i1, !tg.weakint
// CHECK: %[[WI:.*]] = tg.where %{{.*}}, %[[EX1]], %[[PI]] : i1, tensor<3xf32>, tensor<3xi1>
// CHECK-NEXT: tg.sink(%[[WI]]) : tensor<3xf32>
%inv = tg.const invalid : i1
%pinv = tgt.expand %inv, %c3 : i1, !tg.weakint
%t = tg.const true : i1
%wi = tg.where %t, %ex1, %pinv : i1, tensor<3xf32>, tensor<3xi1>
%wi_type = tg.sink(%wi) : tensor<3xf32>

//===----------------------------------------------------------------------===//
// UNSHARD / REDUCE / ALLREDUCE
//===----------------------------------------------------------------------===//

// UNSHARD multiplies each axis by its range's extent (vmax+1).
// CHECK: %[[RG:.*]] = tgk.range %[[C2]] [0] <device> : !tg.weakint
// CHECK: %[[US:.*]] = tgt.unshard %[[R]], [1] ranges(%[[RG]] : !tg.weakint) : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[US]]) : tensor<2x6xf32, #tg.addrspace<global>>
%rg = tgk.range %c2 [0] <device> : !tg.weakint
%us = tgt.unshard %r, [1] ranges(%rg : !tg.weakint) : tensor<2x3xf32, #tg.addrspace<global>>
%us_type = tg.sink(%us) : tensor<2x6xf32, #tg.addrspace<global>>
// CHECK: %[[US0:.*]] = tgt.unshard %[[R]], [] : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[US0]]) : tensor<2x3xf32, #tg.addrspace<global>>
%us0 = tgt.unshard %r, [] : tensor<2x3xf32, #tg.addrspace<global>>
%us0_type = tg.sink(%us0) : tensor<2x3xf32, #tg.addrspace<global>>
// REDUCE drops the leading `n` axes.
// CHECK: %[[RD:.*]] = tgt.reduce <add> 2 %[[EX]] : tensor<3x2x2x3xf32>
// CHECK-NEXT: tg.sink(%[[RD]]) : tensor<2x3xf32>
%rd = tgt.reduce <add> 2 %ex : tensor<3x2x2x3xf32>
%rd_type = tg.sink(%rd) : tensor<2x3xf32>
// CHECK: %[[RD0:.*]] = tgt.reduce <max> 0 %[[RV]] : tensor<2x3xf32>
// CHECK-NEXT: tg.sink(%[[RD0]]) : tensor<2x3xf32>
%rd0 = tgt.reduce <max> 0 %rv : tensor<2x3xf32>
%rd0_type = tg.sink(%rd0) : tensor<2x3xf32>
// Kernel-level REDUCE over ranges.
// CHECK: %[[RDK:.*]] = tgt.reduce <mul> 2 %[[RV]] ranges(%[[RG]] : !tg.weakint) : tensor<2x3xf32>
// CHECK-NEXT: tg.sink(%[[RDK]]) : f32
%rdk = tgt.reduce <mul> 2 %rv ranges(%rg : !tg.weakint) : tensor<2x3xf32>
%rdk_type = tg.sink(%rdk) : f32
// CHECK: %[[AR:.*]] = tgt.allreduce <add> %[[R]] on(["CPU:0", "CPU:1"]) : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[AR]]) : tensor<2x3xf32, #tg.addrspace<global>>
%ar = tgt.allreduce <add> %r on(["CPU:0", "CPU:1"]) : tensor<2x3xf32, #tg.addrspace<global>>
%ar_type = tg.sink(%ar) : tensor<2x3xf32, #tg.addrspace<global>>

//===----------------------------------------------------------------------===//
// Markers, STAGE, COPY, MSELECT, MSTACK
//===----------------------------------------------------------------------===//

// CHECK: %[[CT:.*]] = tgt.contiguous %[[RV]] {arg = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>]} : tensor<2x3xf32>
// CHECK-NEXT: tg.sink(%[[CT]]) : tensor<2x3xf32>
%ct = tgt.contiguous %rv {arg = [#tg.opt<op = upcast, axis = 0, arg = 4>]} : tensor<2x3xf32>
%ct_type = tg.sink(%ct) : tensor<2x3xf32>
// CHECK: tgt.contiguous %[[RV]] : tensor<2x3xf32>
%ct0 = tgt.contiguous %rv : tensor<2x3xf32>
// CHECK: %[[CB:.*]] = tgt.contiguous_backward %[[R]] : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[CB]]) : tensor<2x3xf32, #tg.addrspace<global>>
%cb = tgt.contiguous_backward %r : tensor<2x3xf32, #tg.addrspace<global>>
%cb_type = tg.sink(%cb) : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK: %[[DT:.*]] = tgt.detach %[[F]] : f32
// CHECK-NEXT: tg.sink(%[[DT]]) : f32
%dt = tgt.detach %f : f32
%dt_type = tg.sink(%dt) : f32
// STAGE prepends the range extents and takes the opts' addrspace.
// CHECK: %[[R3:.*]] = tgk.range %[[C3]] [1] <loop> : !tg.weakint
// CHECK: %[[ST:.*]] = tgt.stage %[[RV]] ranges(%[[RG]], %[[R3]] : !tg.weakint, !tg.weakint) <device = "CPU"> : tensor<2x3xf32>
// CHECK-NEXT: tg.sink(%[[ST]]) : tensor<2x3x2x3xf32, #tg.addrspace<global>>
%r3 = tgk.range %c3 [1] <loop> : !tg.weakint
%st = tgt.stage %rv ranges(%rg, %r3 : !tg.weakint, !tg.weakint) <device = "CPU"> : tensor<2x3xf32>
%st_type = tg.sink(%st) : tensor<2x3x2x3xf32, #tg.addrspace<global>>
// CHECK: %[[ST2:.*]] = tgt.stage %[[F]] <addrspace = local, removable = false> : f32
// CHECK-NEXT: tg.sink(%[[ST2]]) : tensor<f32, #tg.addrspace<local>>
%st2 = tgt.stage %f <addrspace = local, removable = false> : f32
%st2_type = tg.sink(%st2) : tensor<f32, #tg.addrspace<local>>
// CHECK: %[[ST3:.*]] = tgt.stage %[[F]] <addrspace = reg> : f32
// CHECK-NEXT: tg.sink(%[[ST3]]) : tensor<f32, #tg.addrspace<reg>>
%st3 = tgt.stage %f <addrspace = reg> : f32
%st3_type = tg.sink(%st3) : tensor<f32, #tg.addrspace<reg>>
// CHECK: %[[CP:.*]] = tgt.copy %[[R]] to("CUDA") : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[CP]]) : tensor<2x3xf32, #tg.addrspace<global>>
%cp = tgt.copy %r to("CUDA") : tensor<2x3xf32, #tg.addrspace<global>>
%cp_type = tg.sink(%cp) : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK: %[[MSK:.*]] = tgt.mstack %[[R]], %[[CP]] : tensor<2x3xf32, #tg.addrspace<global>>, tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[MSK]]) : tensor<2x3xf32, #tg.addrspace<global>>
%msk = tgt.mstack %r, %cp : tensor<2x3xf32, #tg.addrspace<global>>, tensor<2x3xf32, #tg.addrspace<global>>
%msk_type = tg.sink(%msk) : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK: %[[MS:.*]] = tgt.mselect %[[MSK]][1] : tensor<2x3xf32, #tg.addrspace<global>>
// CHECK-NEXT: tg.sink(%[[MS]]) : tensor<2x3xf32, #tg.addrspace<global>>
%ms = tgt.mselect %msk[1] : tensor<2x3xf32, #tg.addrspace<global>>
%ms_type = tg.sink(%ms) : tensor<2x3xf32, #tg.addrspace<global>>
