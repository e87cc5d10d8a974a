// RUN: tinygrad-opt --tg-symbolic-simple -split-input-file %s | tinygrad-translate --split-input-file --output-split-marker="=====" --export-tinygrad-render --print-bounds | FileCheck %s --match-full-lines
// RUN: tinygrad-opt --tg-symbolic-simple -split-input-file %s | FileCheck %s --check-prefix=IR

// --tg-symbolic-simple also runs tinygrad's mop_cleanup (tinygrad/uop/movement.py):
// INDEX chains fold into one INDEX and a constant INDEX into a STACK is the
// element. The render of an INDEX shows only its indices. The expected render
// string and `vmin vmax` are what tinygrad itself produces for the same graph
// rewritten with symbolic_simple.

// INDEX on INDEX is INDEX: (4,4)[a][b] -> INDEX(buf, a, b)
// Input: INDEX(INDEX(buf, a), b)
// CHECK: [a][b]
// CHECK-NEXT: -inf inf
// IR-LABEL: tg.param <slot = 0, dtype = f32>
// IR: tgk.index %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x4xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
// IR-NOT: tgk.index
%c4 = tg.const 4 : !tg.weakint
%s44 = tg.stack(%c4, %c4) : !tg.weakint, !tg.weakint
%buf = tg.param <slot = 0, dtype = f32> shape(%s44 : tensor<2x!tg.weakint>)
%void = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "a", addrspace = alu> shape(%void : !tg.void)
%b = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%void : !tg.void)
%i1 = tgk.index %buf[%a] : tensor<4x4xf32, #tg.addrspace<global>>, !tg.weakint
%i2 = tgk.index %i1[%b] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// INDEX on shaped INDEX with a const index: buf.index({a,b}.index(1)) -> buf[b]
// Input: INDEX(INDEX(buf, {a,b}), 1)
// CHECK-NEXT: =====
// CHECK-NEXT: [b]
// CHECK-NEXT: -inf inf
// IR-LABEL: tg.param <slot = 0, dtype = f32>
// IR: %[[B:[0-9]+]] = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b"
// IR-NEXT: tgk.index %{{.*}}[%[[B]]] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
// IR-NOT: tgk.index
%c16 = tg.const 16 : !tg.weakint
%buf = tg.param <slot = 0, dtype = f32> shape(%c16 : !tg.weakint)
%void = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "a", addrspace = alu> shape(%void : !tg.void)
%b = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%void : !tg.void)
%ab = tg.stack(%a, %b) : !tg.weakint, !tg.weakint
%i1 = tgk.index %buf[%ab] : tensor<16xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%c1 = tg.const 1 : !tg.weakint
%i2 = tgk.index %i1[%c1] : tensor<2xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// INDEX on shaped INDEX: buf.index({a,b}.index(j))
// Input: INDEX(INDEX(buf, {a,b}), j)
// CHECK-NEXT: =====
// CHECK-NEXT: {{\[\[}}j{{\]\]}}
// CHECK-NEXT: -inf inf
// IR-LABEL: tg.param <slot = 0, dtype = f32>
// IR: %[[AB:[0-9]+]] = tg.stack(%
// IR: %[[J:[0-9]+]] = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1], multiple_of = 1, name = "j"
// IR-NEXT: %[[SEL:[0-9]+]] = tgk.index %[[AB]][%[[J]]] : tensor<2x!tg.weakint>, !tg.weakint
// IR-NEXT: tgk.index %{{.*}}[%[[SEL]]] : tensor<16xf32, #tg.addrspace<global>>, !tg.weakint
%c16 = tg.const 16 : !tg.weakint
%buf = tg.param <slot = 0, dtype = f32> shape(%c16 : !tg.weakint)
%void = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "a", addrspace = alu> shape(%void : !tg.void)
%b = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%void : !tg.void)
%ab = tg.stack(%a, %b) : !tg.weakint, !tg.weakint
%i1 = tgk.index %buf[%ab] : tensor<16xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%j = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1], multiple_of = 1, name = "j", addrspace = alu> shape(%void : !tg.void)
%i2 = tgk.index %i1[%j] : tensor<2xf32, #tg.addrspace<global>>, !tg.weakint

// -----

// const INDEX into STACK with more indices: {{a,b},{c,d}}[1][0] -> {c,d}.index(0) -> c
// Input: INDEX({{a,b},{c,d}}, 1, 0)
// CHECK-NEXT: =====
// CHECK-NEXT: c
// CHECK-NEXT: 0 3
%void = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "a", addrspace = alu> shape(%void : !tg.void)
%b = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%void : !tg.void)
%c = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "c", addrspace = alu> shape(%void : !tg.void)
%d = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "d", addrspace = alu> shape(%void : !tg.void)
%ab = tg.stack(%a, %b) : !tg.weakint, !tg.weakint
%cd = tg.stack(%c, %d) : !tg.weakint, !tg.weakint
%s = tg.stack(%ab, %cd) : tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
%c1 = tg.const 1 : !tg.weakint
%c0 = tg.const 0 : !tg.weakint
%i = tgk.index %s[%c1, %c0] : tensor<2x2x!tg.weakint>, !tg.weakint, !tg.weakint

// -----

// const INDEX into STACK with a variable index: {{a,b},{c,d}}[1][j] -> {c,d}[j]
// Input: INDEX({{a,b},{c,d}}, 1, j)
// CHECK-NEXT: =====
// CHECK-NEXT: [j]
// CHECK-NEXT: 0 3
// IR: %[[CD:[0-9]+]] = tg.stack(%{{.*}}, %{{.*}}) : !tg.weakint, !tg.weakint
// IR: %[[J:[0-9]+]] = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1], multiple_of = 1, name = "j"
// IR-NEXT: tgk.index %[[CD]][%[[J]]] : tensor<2x!tg.weakint>, !tg.weakint
%void = tg.stack()
%a = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "a", addrspace = alu> shape(%void : !tg.void)
%b = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "b", addrspace = alu> shape(%void : !tg.void)
%c = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "c", addrspace = alu> shape(%void : !tg.void)
%d = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 3], multiple_of = 1, name = "d", addrspace = alu> shape(%void : !tg.void)
%ab = tg.stack(%a, %b) : !tg.weakint, !tg.weakint
%cd = tg.stack(%c, %d) : !tg.weakint, !tg.weakint
%s = tg.stack(%ab, %cd) : tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
%c1 = tg.const 1 : !tg.weakint
%j = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1], multiple_of = 1, name = "j", addrspace = alu> shape(%void : !tg.void)
%i = tgk.index %s[%c1, %j] : tensor<2x2x!tg.weakint>, !tg.weakint, !tg.weakint

// CHECK-NOT: {{.}}
