// RUN: tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// test_wait_loop.py's bound-less loops: `UOp.loop(i)` is a void RANGE(NOOP)
// closed by END(body, loop, cond), which tinygrad's C renders `for (;;) {`
// ... `if (!(cond)) { break; } }`: a do-while. Each is an scf.while whose
// "before" region is the body ending in scf.condition(cond), the condition
// computed in the body after what the END closes; "after" only yields.

// wait_loop: i = 0; do { i = i + 1 } while (i < 10); C[0] = i. The REG
// register is read in the loop (`reg.after(loop)`), the condition tests the
// value stored (symbolic's (x+1)<10 -> x<9).
// CHECK-LABEL: func.func @wait_loop
// CHECK: %[[REG:.*]] = memref.alloca
// CHECK: memref.store %{{.*}}, %[[REG]]
// CHECK: scf.while : () -> () {
// CHECK-NEXT: %[[I:.*]] = memref.load %[[REG]]
// CHECK-NEXT: %[[INC:.*]] = arith.addi %[[I]]
// CHECK-NEXT: memref.store %[[INC]], %[[REG]]
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[I]], %c9_i32
// CHECK-NEXT: scf.condition(%[[C]])
// CHECK-NEXT: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK: %[[OUT:.*]] = memref.load %[[REG]]
// CHECK: memref.store %[[OUT]], %arg0
%0 = tg.const 1 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32> shape(%0 : !tg.weakint)
%2 = tg.const 0 : !tg.weakint
%3 = tgk.index %1[%2] : tensor<1xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.buffer <slot = 0, dtype = si32, addrspace = reg> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%6 = tg.const 0 : si32
%7 = tgk.store %6, %5 : si32, tensor<si32, #tg.addrspace<reg>>
%8 = tg.after %4 deps(%7 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%9 = tgk.index %8[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%10 = tg.noop  : () -> !tg.void
%11 = tgk.range %10 [0] <weak> : !tg.void
%12 = tg.after %8 deps(%11 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%13 = tgk.index %12[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%14 = tgk.load %13 : tensor<si32, #tg.addrspace<reg>>
%15 = tg.add %14, %0 : si32, !tg.weakint
%16 = tgk.store %15, %9 : si32, tensor<si32, #tg.addrspace<reg>>
%17 = tg.const 10 : !tg.weakint
%18 = tg.cmplt %15, %17 : si32, !tg.weakint
%19 = tgk.end %16, %11, %18 : !tg.void, !tg.void, i1
%20 = tg.after %8 deps(%19 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%21 = tgk.index %20[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%22 = tgk.load %21 : tensor<si32, #tg.addrspace<reg>>
%23 = tgk.store %22, %3 : si32, tensor<si32, #tg.addrspace<global>>
%24 = tg.sink(%23) {arg = #tg.kernel_info<name = "wait_loop", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// nested_loop: a do-while in a RANGE r of 4, while i < (r+1)*3. The
// condition reads r, which the inner END does not close: r's bound, and
// (r+1)*3, stay in the scf.for, before the scf.while.
// CHECK-LABEL: func.func @nested_loop
// CHECK: scf.for
// CHECK: %[[BOUND:.*]] = arith.addi %c3_i32
// CHECK-NEXT: scf.while : () -> () {
// CHECK: %[[INC:.*]] = arith.addi
// CHECK-NEXT: memref.store %[[INC]]
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[INC]], %[[BOUND]]
// CHECK-NEXT: scf.condition(%[[C]])
// CHECK: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: memref.store %{{.*}}, %arg0
%0 = tg.const 1 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32> shape(%0 : !tg.weakint)
%2 = tg.const 0 : !tg.weakint
%3 = tgk.index %1[%2] : tensor<1xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.buffer <slot = 0, dtype = si32, addrspace = reg> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%6 = tg.const 0 : si32
%7 = tgk.store %6, %5 : si32, tensor<si32, #tg.addrspace<reg>>
%8 = tg.after %4 deps(%7 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%9 = tgk.index %8[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%10 = tg.noop  : () -> !tg.void
%11 = tgk.range %10 [1] <weak> : !tg.void
%12 = tg.const 4 : !tg.weakint
%13 = tgk.range %12 [0] <weak> : !tg.weakint
%14 = tg.after %8 deps(%11, %13 : !tg.void, !tg.weakint) : tensor<1xsi32, #tg.addrspace<reg>>
%15 = tgk.index %14[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%16 = tgk.load %15 : tensor<si32, #tg.addrspace<reg>>
%17 = tg.add %16, %0 : si32, !tg.weakint
%18 = tgk.store %17, %9 : si32, tensor<si32, #tg.addrspace<reg>>
%19 = tg.cast %13 to si32 : !tg.weakint
%20 = tg.add %19, %0 : si32, !tg.weakint
%21 = tg.const 3 : !tg.weakint
%22 = tg.mul %20, %21 : si32, !tg.weakint
%23 = tg.cmplt %17, %22 : si32, si32
%24 = tgk.end %18, %11, %23 : !tg.void, !tg.void, i1
%25 = tgk.end %24, %13 : !tg.void, !tg.weakint
%26 = tg.after %8 deps(%25 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%27 = tgk.index %26[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%28 = tgk.load %27 : tensor<si32, #tg.addrspace<reg>>
%29 = tgk.store %28, %3 : si32, tensor<si32, #tg.addrspace<global>>
%30 = tg.sink(%29) {arg = #tg.kernel_info<name = "nested_loop", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// two_loops: two do-whiles in sequence on one register (to 10, then 25);
// the second reads the register after the first.
// CHECK-LABEL: func.func @two_loops
// CHECK: scf.while
// CHECK: arith.cmpi slt, %{{.*}}, %c9_i32
// CHECK-NEXT: scf.condition
// CHECK: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK: scf.while
// CHECK: arith.cmpi slt, %{{.*}}, %c24_i32
// CHECK-NEXT: scf.condition
// CHECK: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: scf.while
// CHECK: return
%0 = tg.const 1 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32> shape(%0 : !tg.weakint)
%2 = tg.const 0 : !tg.weakint
%3 = tgk.index %1[%2] : tensor<1xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.buffer <slot = 0, dtype = si32, addrspace = reg> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%6 = tg.const 0 : si32
%7 = tgk.store %6, %5 : si32, tensor<si32, #tg.addrspace<reg>>
%8 = tg.after %4 deps(%7 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%9 = tgk.index %8[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%10 = tg.noop  : () -> !tg.void
%11 = tgk.range %10 [0] <weak> : !tg.void
%12 = tg.after %8 deps(%11 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%13 = tgk.index %12[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%14 = tgk.load %13 : tensor<si32, #tg.addrspace<reg>>
%15 = tg.add %14, %0 : si32, !tg.weakint
%16 = tgk.store %15, %9 : si32, tensor<si32, #tg.addrspace<reg>>
%17 = tg.const 10 : !tg.weakint
%18 = tg.cmplt %15, %17 : si32, !tg.weakint
%19 = tgk.end %16, %11, %18 : !tg.void, !tg.void, i1
%20 = tg.after %8 deps(%19 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%21 = tgk.index %20[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%22 = tgk.range %10 [1] <weak> : !tg.void
%23 = tg.after %20 deps(%22 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%24 = tgk.index %23[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%25 = tgk.load %24 : tensor<si32, #tg.addrspace<reg>>
%26 = tg.add %25, %0 : si32, !tg.weakint
%27 = tgk.store %26, %21 : si32, tensor<si32, #tg.addrspace<reg>>
%28 = tg.const 25 : !tg.weakint
%29 = tg.cmplt %26, %28 : si32, !tg.weakint
%30 = tgk.end %27, %22, %29 : !tg.void, !tg.void, i1
%31 = tg.after %20 deps(%30 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%32 = tgk.index %31[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%33 = tgk.load %32 : tensor<si32, #tg.addrspace<reg>>
%34 = tgk.store %33, %3 : si32, tensor<si32, #tg.addrspace<global>>
%35 = tg.sink(%34) {arg = #tg.kernel_info<name = "two_loops", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// loop_in_loop: the outer END closes the inner END, and its condition
// reloads the register after the inner loop (an AFTER on the inner END).
// The inner loop runs once per outer iteration: the AFTER finds the END the
// outer END's body already emitted in this scope.
// CHECK-LABEL: func.func @loop_in_loop
// CHECK: %[[REG:.*]] = memref.alloca
// CHECK: scf.while : () -> () {
// CHECK-NEXT: scf.while : () -> () {
// CHECK: arith.andi %{{.*}}, %c3_i32
// CHECK-NEXT: %[[IC:.*]] = arith.cmpi ne
// CHECK-NEXT: scf.condition(%[[IC]])
// CHECK: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: scf.while
// CHECK: %[[V:.*]] = memref.load %[[REG]]
// CHECK-NEXT: %[[OC:.*]] = arith.cmpi slt, %[[V]], %c12_i32
// CHECK-NEXT: scf.condition(%[[OC]])
// CHECK: } do {
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NOT: scf.while
// CHECK: return
%0 = tg.const 1 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32> shape(%0 : !tg.weakint)
%2 = tg.const 0 : !tg.weakint
%3 = tgk.index %1[%2] : tensor<1xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.buffer <slot = 0, dtype = si32, addrspace = reg> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%6 = tg.const 0 : si32
%7 = tgk.store %6, %5 : si32, tensor<si32, #tg.addrspace<reg>>
%8 = tg.after %4 deps(%7 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%9 = tgk.index %8[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%10 = tg.noop  : () -> !tg.void
%11 = tgk.range %10 [0] <weak> : !tg.void
%12 = tgk.range %10 [1] <weak> : !tg.void
%13 = tg.after %8 deps(%11, %12 : !tg.void, !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%14 = tgk.index %13[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%15 = tgk.load %14 : tensor<si32, #tg.addrspace<reg>>
%16 = tg.add %15, %0 : si32, !tg.weakint
%17 = tgk.store %16, %9 : si32, tensor<si32, #tg.addrspace<reg>>
%18 = tg.const 4 : !tg.weakint
%19 = tg.floormod %16, %18 : si32, !tg.weakint
%20 = tg.cmpne %19, %2 : si32, !tg.weakint
%21 = tgk.end %17, %12, %20 : !tg.void, !tg.void, i1
%22 = tg.after %8 deps(%21 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%23 = tgk.index %22[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%24 = tgk.load %23 : tensor<si32, #tg.addrspace<reg>>
%25 = tg.const 12 : !tg.weakint
%26 = tg.cmplt %24, %25 : si32, !tg.weakint
%27 = tgk.end %21, %11, %26 : !tg.void, !tg.void, i1
%28 = tg.after %8 deps(%27 : !tg.void) : tensor<1xsi32, #tg.addrspace<reg>>
%29 = tgk.index %28[%2] : tensor<1xsi32, #tg.addrspace<reg>>, !tg.weakint
%30 = tgk.load %29 : tensor<si32, #tg.addrspace<reg>>
%31 = tgk.store %30, %3 : si32, tensor<si32, #tg.addrspace<global>>
%32 = tg.sink(%31) {arg = #tg.kernel_info<name = "loop_in_loop", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// wait_ext: spin until another thread sets a volatile PARAM. The END closes
// a value (the load its condition tests), and the load is an llvm.load
// volatile of the element's address in the loop's body, so that LLVM reads
// memory each iteration and keeps the loop.
// CHECK-LABEL: func.func @wait_ext
// CHECK-NOT: memref.load
// CHECK: scf.while : () -> () {
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[P:.*]] = llvm.inttoptr
// CHECK-NEXT: %[[V:.*]] = llvm.load volatile %[[P]] {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[C:.*]] = arith.cmpi slt, %[[V]], %c1_i32
// CHECK-NEXT: scf.condition(%[[C]])
// CHECK-NOT: memref.load
%0 = tg.const 1 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32, isVolatile = true> shape(%0 : !tg.weakint)
%2 = tg.noop  : () -> !tg.void
%3 = tgk.range %2 [0] <weak> : !tg.void
%4 = tg.after %1 deps(%3 : !tg.void) : tensor<1xsi32, #tg.addrspace<global>>
%5 = tg.const 0 : !tg.weakint
%6 = tgk.index %4[%5] : tensor<1xsi32, #tg.addrspace<global>>, !tg.weakint
%7 = tgk.load %6 : tensor<si32, #tg.addrspace<global>>
%8 = tg.cmplt %7, %0 : si32, !tg.weakint
%9 = tgk.end %7, %3, %8 : si32, !tg.void, i1
%10 = tg.sink(%9) {arg = #tg.kernel_info<name = "wait_ext", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A volatile buffer stored to: each lane an llvm.store volatile (tinygrad's
// LLVM renderer's `store volatile`), never a vector store.
// CHECK-LABEL: func.func @volatile_store
// CHECK-NOT: vector.store
// CHECK-COUNT-4: llvm.store volatile %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr
// CHECK-NOT: vector.store
%c4 = tg.const 4 : !tg.weakint
%out = tg.param <slot = 0, dtype = f32, isVolatile = true> shape(%c4 : !tg.weakint)
%i = tgk.range %c4 [0] <upcast> : !tg.weakint
%ox = tgk.index %out[%i] : tensor<4xf32, #tg.addrspace<global>>, !tg.weakint
%v = tg.const 2.0 : f32
%st = tgk.store %v, %ox : f32, tensor<f32, #tg.addrspace<global>>
%e = tgk.end %st, %i : !tg.void, !tg.weakint
%s = tg.sink(%e) {arg = #tg.kernel_info<name = "volatile_store", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void
