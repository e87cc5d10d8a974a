// RUN: tinygrad-opt %s -split-input-file --tg-apply-opts="mode=ours threads=2" | FileCheck %s
// RUN: tinygrad-opt %s -split-input-file --tg-apply-opts="mode=tinygrad threads=2" | FileCheck %s --check-prefix=TG

// C = A @ B, 256^3: our register tile reads a row of B's column block (its
// UPCAST lanes) per k step, 1 KB further on each time. The k x lanes panel
// is copied into a LOCAL buffer by an END over fresh ranges (k as a loop,
// the lanes as UPCASTs), the reduce reads it AFTER that END at k*width +
// lanes, and the row loop (B does not depend on it) gets the last axis id,
// so it nests inside the column loop that chooses the panel.
// CHECK-LABEL: module
// CHECK: %[[ROWS:.*]] = tgk.range %{{.*}} [[[ROWID:[0-9]+]]] <weak>
// CHECK: %[[COLS:.*]] = tgk.range %{{.*}} [1] <weak>
// CHECK: %[[K:.*]] = tgk.range %{{.*}} [2] <reduce>
// CHECK: %[[P:.*]] = tg.buffer <slot = 0, dtype = f32, addrspace = local>
// CHECK: %[[FK:.*]] = tgk.range %{{.*}} [{{[0-9]+}}] <loop>
// CHECK: %[[W:.*]] = tgk.index %[[P]][%{{.*}}] : tensor<{{[0-9]+}}xf32, #tg.addrspace<local>>
// CHECK: %[[R:.*]] = tgk.index %{{.*}} : tensor<65536xf32, #tg.addrspace<global>>
// CHECK: %[[ST:.*]] = tgk.store %[[R]], %[[W]]
// CHECK: %[[FILL:.*]] = tgk.end %[[ST]], %[[FK]], %{{.*}} :
// CHECK: %[[S:.*]] = tg.after %[[P]] deps(%[[FILL]] : !tg.void)
// A's lanes are rows, K apart: only B is staged.
// CHECK-NOT: tg.buffer
// CHECK: %[[L:.*]] = tgk.index %[[S]][%{{.*}}] : tensor<{{[0-9]+}}xf32, #tg.addrspace<local>>
// CHECK: tg.mul %{{.*}}, %[[L]]
// CHECK: tgt.reduce <add> 0 %{{.*}} ranges(%[[K]] : !tg.weakint)
// CHECK: tgk.end %{{.*}}, %{{.*}}, %[[ROWS]], %{{.*}}, %[[COLS]],
// tinygrad's heuristic keeps tinygrad's structure: nothing is staged.
// TG-NOT: addrspace = local
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

// -----

// C = A @ B.T: both operands walk k contiguously; ours splits the reduce
// into lanes instead of tiling, and no load needs a panel.
// CHECK-LABEL: module
// CHECK: <upcast>
// CHECK-NOT: addrspace = local
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
%j256 = tg.mul %j, %n : !tg.weakint, !tg.weakint
%bi = tg.add %j256, %k : !tg.weakint, !tg.weakint
%cx = tgk.index %c[%ci] : tensor<65536xf32, #tg.addrspace<global>>, !tg.weakint
%ax = tgk.index %a[%ai] : tensor<65536xf32, #tg.addrspace<global>>, !tg.weakint
%bx = tgk.index %b[%bi] : tensor<65536xf32, #tg.addrspace<global>>, !tg.weakint
%p = tg.mul %ax, %bx : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%r = tgt.reduce <add> 0 %p ranges(%k : !tg.weakint) : f32
%st = tgk.store %r, %cx : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %i, %j : !tg.void, !tg.weakint, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void

// -----

// Batched: C[b] = A[b] @ B[b], 4 x 128 x 256 x 128. The batch and column
// loops choose the panel, the rows reuse it.
// CHECK-LABEL: module
// CHECK: %[[ROWS:.*]] = tgk.range %{{.*}} [[[ROWID:[0-9]+]]] <weak>
// CHECK: %[[P:.*]] = tg.buffer <slot = 0, dtype = f32, addrspace = local>
// CHECK: %[[S:.*]] = tg.after %[[P]] deps(
// CHECK: tgk.index %[[S]]
// CHECK: tgk.end %{{.*}}, %{{.*}}, %[[ROWS]],
%n128 = tg.const 128 : !tg.weakint
%n256 = tg.const 256 : !tg.weakint
%c4 = tg.const 4 : !tg.weakint
%sz = tg.const 131072 : !tg.weakint
%szc = tg.const 65536 : !tg.weakint
%c = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%szc : !tg.weakint)
%a = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%sz : !tg.weakint)
%b = tg.param <slot = 2, dtype = f32, device = "CPU"> shape(%sz : !tg.weakint)
%bt = tgk.range %c4 [0] <weak> : !tg.weakint
%i = tgk.range %n128 [1] <weak> : !tg.weakint
%j = tgk.range %n128 [2] <weak> : !tg.weakint
%k = tgk.range %n256 [3] <reduce> : !tg.weakint
%cs = tg.const 16384 : !tg.weakint
%abs = tg.const 32768 : !tg.weakint
%bc = tg.mul %bt, %cs : !tg.weakint, !tg.weakint
%ba = tg.mul %bt, %abs : !tg.weakint, !tg.weakint
%ic = tg.mul %i, %n128 : !tg.weakint, !tg.weakint
%ia = tg.mul %i, %n256 : !tg.weakint, !tg.weakint
%kb = tg.mul %k, %n128 : !tg.weakint, !tg.weakint
%ci0 = tg.add %bc, %ic : !tg.weakint, !tg.weakint
%ci = tg.add %ci0, %j : !tg.weakint, !tg.weakint
%ai0 = tg.add %ba, %ia : !tg.weakint, !tg.weakint
%ai = tg.add %ai0, %k : !tg.weakint, !tg.weakint
%bi0 = tg.add %ba, %kb : !tg.weakint, !tg.weakint
%bi = tg.add %bi0, %j : !tg.weakint, !tg.weakint
%cx = tgk.index %c[%ci] : tensor<65536xf32, #tg.addrspace<global>>, !tg.weakint
%ax = tgk.index %a[%ai] : tensor<131072xf32, #tg.addrspace<global>>, !tg.weakint
%bx = tgk.index %b[%bi] : tensor<131072xf32, #tg.addrspace<global>>, !tg.weakint
%p = tg.mul %ax, %bx : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%r = tgt.reduce <add> 0 %p ranges(%k : !tg.weakint) : f32
%st = tgk.store %r, %cx : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %bt, %i, %j : !tg.void, !tg.weakint, !tg.weakint, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void

// -----

// C = A @ B with 8 rows (A 8 x 512, B 512 x 4096): the tile has 2 rows and
// the thread split halves them, so a panel would serve 2 row tiles; the
// copy does not pay for itself and nothing is staged.
// CHECK-LABEL: module
// CHECK: <upcast>
// CHECK-NOT: addrspace = local
%m = tg.const 8 : !tg.weakint
%kk = tg.const 512 : !tg.weakint
%nn = tg.const 4096 : !tg.weakint
%csz = tg.const 32768 : !tg.weakint
%asz = tg.const 4096 : !tg.weakint
%bsz = tg.const 2097152 : !tg.weakint
%c = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%csz : !tg.weakint)
%a = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%asz : !tg.weakint)
%b = tg.param <slot = 2, dtype = f32, device = "CPU"> shape(%bsz : !tg.weakint)
%i = tgk.range %m [0] <weak> : !tg.weakint
%j = tgk.range %nn [1] <weak> : !tg.weakint
%k = tgk.range %kk [2] <reduce> : !tg.weakint
%ic = tg.mul %i, %nn : !tg.weakint, !tg.weakint
%ci = tg.add %ic, %j : !tg.weakint, !tg.weakint
%ia = tg.mul %i, %kk : !tg.weakint, !tg.weakint
%ai = tg.add %ia, %k : !tg.weakint, !tg.weakint
%kb = tg.mul %k, %nn : !tg.weakint, !tg.weakint
%bi = tg.add %kb, %j : !tg.weakint, !tg.weakint
%cx = tgk.index %c[%ci] : tensor<32768xf32, #tg.addrspace<global>>, !tg.weakint
%ax = tgk.index %a[%ai] : tensor<4096xf32, #tg.addrspace<global>>, !tg.weakint
%bx = tgk.index %b[%bi] : tensor<2097152xf32, #tg.addrspace<global>>, !tg.weakint
%p = tg.mul %ax, %bx : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%r = tgt.reduce <add> 0 %p ranges(%k : !tg.weakint) : f32
%st = tgk.store %r, %cx : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %i, %j : !tg.void, !tg.weakint, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
