// RUN: tinygrad-opt %s -split-input-file --tg-lower-kernel | FileCheck %s

// A LOCAL buffer filled by an END and read AFTER it (what our heuristic's
// panel staging makes): the buffer is one aligned stack array of the entry
// block, the fill is a loop of vector copies placed in the loop it depends
// on (o), before the row loop (i) that reads it, and the reduce reads the
// panel with vector loads.
// CHECK-LABEL: func.func @test
// CHECK: %[[P:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[V:.*]] = vector.load %arg2[%{{.*}}] : memref<512xf32>, vector<8xf32>
// CHECK: vector.store %[[V]], %[[P]][%{{.*}}] : memref<128xf32>, vector<8xf32>
// CHECK: }
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.load %[[P]][%{{.*}}] : memref<128xf32>, vector<8xf32>
%c4 = tg.const 4 : !tg.weakint
%c8 = tg.const 8 : !tg.weakint
%c16 = tg.const 16 : !tg.weakint
%c32 = tg.const 32 : !tg.weakint
%c64 = tg.const 64 : !tg.weakint
%c128 = tg.const 128 : !tg.weakint
%c512 = tg.const 512 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%c128 : !tg.weakint)
%x = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%c64 : !tg.weakint)
%w = tg.param <slot = 2, dtype = f32, device = "CPU"> shape(%c512 : !tg.weakint)
%p = tg.buffer <slot = 0, dtype = f32, addrspace = local> shape(%c128 : !tg.weakint)
%o = tgk.range %c4 [0] <loop> : !tg.weakint
%kf = tgk.range %c16 [3] <loop> : !tg.weakint
%jf = tgk.range %c8 [4] <upcast> : !tg.weakint
%kf8 = tg.mul %kf, %c8 : !tg.weakint, !tg.weakint
%pf = tg.add %kf8, %jf : !tg.weakint, !tg.weakint
%o128 = tg.mul %o, %c128 : !tg.weakint, !tg.weakint
%wf = tg.add %o128, %pf : !tg.weakint, !tg.weakint
%px = tgk.index %p[%pf] : tensor<128xf32, #tg.addrspace<local>>, !tg.weakint
%wx = tgk.index %w[%wf] : tensor<512xf32, #tg.addrspace<global>>, !tg.weakint
%fst = tgk.store %wx, %px : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<local>>
%fill = tgk.end %fst, %kf, %jf : !tg.void, !tg.weakint, !tg.weakint
%staged = tg.after %p deps(%fill : !tg.void) : tensor<128xf32, #tg.addrspace<local>>
%i = tgk.range %c4 [5] <loop> : !tg.weakint
%j = tgk.range %c8 [2] <upcast> : !tg.weakint
%k = tgk.range %c16 [1] <reduce> : !tg.weakint
%i16 = tg.mul %i, %c16 : !tg.weakint, !tg.weakint
%xi = tg.add %i16, %k : !tg.weakint, !tg.weakint
%k8 = tg.mul %k, %c8 : !tg.weakint, !tg.weakint
%pi = tg.add %k8, %j : !tg.weakint, !tg.weakint
%xx = tgk.index %x[%xi] : tensor<64xf32, #tg.addrspace<global>>, !tg.weakint
%pr = tgk.index %staged[%pi] : tensor<128xf32, #tg.addrspace<local>>, !tg.weakint
%m = tg.mul %xx, %pr : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<local>>
%r = tgt.reduce <add> 0 %m ranges(%k : !tg.weakint) : f32
%o32 = tg.mul %o, %c32 : !tg.weakint, !tg.weakint
%i8 = tg.mul %i, %c8 : !tg.weakint, !tg.weakint
%oi0 = tg.add %o32, %i8 : !tg.weakint, !tg.weakint
%oi = tg.add %oi0, %j : !tg.weakint, !tg.weakint
%ox = tgk.index %out[%oi] : tensor<128xf32, #tg.addrspace<global>>, !tg.weakint
%st = tgk.store %r, %ox : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %o, %i, %j : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// The full pipeline on a 256^3 matmul (our heuristic): per column block
// the B panel is packed, then every row tile runs over it.
// CHECK-LABEL: func.func @test
// CHECK: %[[P:.*]] = memref.alloca() {alignment = 64 : i64}
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %[[P]]
// CHECK: }
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.load %[[P]]
%n = tg.const 256 : !tg.weakint
%nn = tg.const 65536 : !tg.weakint
%c = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%nn : !tg.weakint)
%a = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%nn : !tg.weakint)
%b = tg.param <slot = 2, dtype = f32, device = "CPU"> shape(%nn : !tg.weakint)
%i = tgk.range %n [0] <weak> : !tg.weakint
%j = tgk.range %n [1] <weak> : !tg.weakint
%k = tgk.range %n [2] <reduce> : !tg.weakint
%i256 = tg.mul %i, %n : !tg.weakint, !tg.weakint
%ci = tg.add %i256, %j : !tg.weakint, !tg.weakint
%ai = tg.add %i256, %k : !tg.weakint, !tg.weakint
%k256 = tg.mul %k, %n : !tg.weakint, !tg.weakint
%bi = tg.add %k256, %j : !tg.weakint, !tg.weakint
%cx = tgk.index %c[%ci] : tensor<65536xf32, #tg.addrspace<global>>, !tg.weakint
%ax = tgk.index %a[%ai] : tensor<65536xf32, #tg.addrspace<global>>, !tg.weakint
%bx = tgk.index %b[%bi] : tensor<65536xf32, #tg.addrspace<global>>, !tg.weakint
%p = tg.mul %ax, %bx : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%r = tgt.reduce <add> 0 %p ranges(%k : !tg.weakint) : f32
%st = tgk.store %r, %cx : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %i, %j : !tg.void, !tg.weakint, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
