// RUN: tinygrad-opt %s --split-input-file --tg-lower-kernel | FileCheck %s
// What kernels written by hand in UOps ask of the emitter beyond loads,
// stores and ALU (EmitCalls.cpp, EmitMemory.cpp).

// test_call.py's call_ret: a CALL of a function address loaded from a
// buffer is an indirect llvm.call of it, its value used.
// CHECK-LABEL: func.func @call_ret
// CHECK: %[[FN:.*]] = memref.load %arg0
// CHECK: %[[P:.*]] = llvm.inttoptr %[[FN]] : i64 to !llvm.ptr
// CHECK: %[[R:.*]] = llvm.call %[[P]](%{{.*}}) : !llvm.ptr, (i32) -> i32
// CHECK: arith.muli %[[R]]
%0 = tg.const 1 : !tg.weakint
%1 = tg.param <slot = 1, dtype = si32> shape(%0 : !tg.weakint)
%2 = tg.const 0 : !tg.weakint
%3 = tgk.index %1[%2] : tensor<1xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.param <slot = 0, dtype = ui64> shape(%0 : !tg.weakint)
%5 = tgk.index %4[%2] : tensor<1xui64, #tg.addrspace<global>>, !tg.weakint
%6 = tgk.load %5 : tensor<ui64, #tg.addrspace<global>>
%7 = tg.const 21 : !tg.weakint
%8 = tg.cast %7 to si32 : !tg.weakint
%9 = tg.call %6(%8) : (ui64, si32) -> si32
%10 = tg.const 2 : !tg.weakint
%11 = tg.mul %9, %10 : si32, !tg.weakint
%12 = tgk.store %11, %3 : si32, tensor<si32, #tg.addrspace<global>>
%13 = tg.sink(%12) {arg = #tg.kernel_info<name = "call_ret", axis_types = [], applied_opts = []>} : !tg.void

// -----

// test_call.py's call_out: a void CALL an AFTER waits for, with an INDEX
// argument passed as the element's address; the loads AFTER it follow it.
// CHECK-LABEL: func.func @call_out
// CHECK-SAME: tg.ins = [0, 1], tg.outs = [1]
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[ADDR:.*]] = arith.addi %[[BASE]]
// CHECK: %[[I64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[I64]] : i64 to !llvm.ptr
// CHECK: llvm.call %{{.*}}(%{{.*}}, %[[PTR]]) : !llvm.ptr, (i32, !llvm.ptr) -> ()
// CHECK: memref.load %arg1
// CHECK: memref.store
%0 = tg.const 2 : !tg.weakint
%1 = tg.param <slot = 1, dtype = si32> shape(%0 : !tg.weakint)
%2 = tg.const 1 : !tg.weakint
%3 = tg.param <slot = 0, dtype = ui64> shape(%2 : !tg.weakint)
%4 = tg.const 0 : !tg.weakint
%5 = tgk.index %3[%4] : tensor<1xui64, #tg.addrspace<global>>, !tg.weakint
%6 = tgk.load %5 : tensor<ui64, #tg.addrspace<global>>
%7 = tg.const 3 : !tg.weakint
%8 = tg.cast %7 to si32 : !tg.weakint
%9 = tgk.index %1[%4] : tensor<2xsi32, #tg.addrspace<global>>, !tg.weakint
%10 = tg.call %6(%8, %9) : (ui64, si32, tensor<si32, #tg.addrspace<global>>) -> !tg.void
%11 = tg.after %1 deps(%10 : !tg.void) : tensor<2xsi32, #tg.addrspace<global>>
%12 = tgk.index %11[%2] : tensor<2xsi32, #tg.addrspace<global>>, !tg.weakint
%13 = tgk.index %11[%4] : tensor<2xsi32, #tg.addrspace<global>>, !tg.weakint
%14 = tgk.load %13 : tensor<si32, #tg.addrspace<global>>
%15 = tg.add %14, %2 : si32, !tg.weakint
%16 = tgk.store %15, %12 : si32, tensor<si32, #tg.addrspace<global>>
%17 = tg.sink(%16) {arg = #tg.kernel_info<name = "call_out", axis_types = [], applied_opts = []>} : !tg.void

// -----

// nn's embedding backward: `__atomic_fetch_add({0}, {1}, __ATOMIC_RELAXED);`
// is a memref.atomic_rmw addf at the INDEX's element, in the loops its END
// closes; the buffer is neither an in nor an out (tinygrad's ProgramInfo).
// CHECK-LABEL: func.func @embedding_bwd
// CHECK-SAME: tg.ins = [1, 2], tg.outs = []
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[G:.*]] = memref.load %arg1
// CHECK: memref.atomic_rmw addf %[[G]], %arg0[%{{.*}}] : (f32, memref<48xf32>) -> f32
%0 = tg.const 48 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32> shape(%0 : !tg.weakint)
%2 = tg.const 6 : !tg.weakint
%3 = tg.const 8 : !tg.weakint
%4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
%5 = tgt.reshape %1, %4 : tensor<48xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%6 = tg.const 5 : !tg.weakint
%7 = tg.const 10 : !tg.weakint
%8 = tg.param <slot = 2, dtype = si32> shape(%7 : !tg.weakint)
%9 = tgk.range %7 [0] <weak> : !tg.weakint
%10 = tgk.index %8[%9] : tensor<10xsi32, #tg.addrspace<global>>, !tg.weakint
%11 = tg.const 0 : !tg.weakint
%12 = tg.cmplt %10, %11 : tensor<si32, #tg.addrspace<global>>, !tg.weakint
%13 = tg.where %12, %11, %10 : i1, !tg.weakint, tensor<si32, #tg.addrspace<global>>
%14 = tg.cmplt %6, %13 : !tg.weakint, si32
%15 = tg.where %14, %6, %13 : i1, !tg.weakint, si32
%16 = tg.cast %15 to !tg.weakint : si32
%17 = tgk.range %3 [1] <weak> : !tg.weakint
%18 = tgk.index %5[%16, %17] : tensor<6x8xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%19 = tg.const 80 : !tg.weakint
%20 = tg.param <slot = 1, dtype = f32> shape(%19 : !tg.weakint)
%21 = tg.stack(%7, %3) : !tg.weakint, !tg.weakint
%22 = tgt.reshape %20, %21 : tensor<80xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%23 = tgk.index %22[%9, %17] : tensor<10x8xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%24 = tgk.load %23 : tensor<f32, #tg.addrspace<global>>
%25 = tg.custom "__atomic_fetch_add({0}, {1}, __ATOMIC_RELAXED);" %18, %24 : (tensor<f32, #tg.addrspace<global>>, f32) -> !tg.void
%26 = tgk.end %25, %9, %17 : !tg.void, !tg.weakint, !tg.weakint
%27 = tg.sink(%26) {arg = #tg.kernel_info<name = "embedding_bwd", axis_types = [], applied_opts = [], opts_to_apply = []>} : !tg.void

// -----

// A view of a buffer's bytes as another dtype (`src.shrink(((1, 3),)).bitcast(uint64)`):
// the buffer is declared as its bytes, each dtype a memref.view of them.
// CHECK-LABEL: func.func @test
// CHECK-SAME: %arg0: memref<16xi8>
// CHECK: %[[OFF:.*]] = arith.constant 4 : index
// CHECK: %[[V:.*]] = memref.view %arg0[%[[OFF]]][] : memref<16xi8> to memref<1xi64>
// CHECK: %[[X:.*]] = memref.load %[[V]]
// CHECK: memref.store %[[X]], %arg1
%0 = tg.const 1 : !tg.weakint
%1 = tg.param <slot = 1, dtype = ui64> shape(%0 : !tg.weakint)
%2 = tg.const 0 : !tg.weakint
%3 = tgk.index %1[%2] : tensor<1xui64, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 4 : !tg.weakint
%5 = tg.param <slot = 0, dtype = ui32> shape(%4 : !tg.weakint)
%6 = tg.const 2 : !tg.weakint
%7 = tgt.shrink %5, %0, %6 : tensor<4xui32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%8 = tg.bitcast %7 to ui64 : tensor<2xui32, #tg.addrspace<global>>
%9 = tgk.index %8[%2] : tensor<1xui64, #tg.addrspace<global>>, !tg.weakint
%10 = tgk.store %9, %3 : tensor<ui64, #tg.addrspace<global>>, tensor<ui64, #tg.addrspace<global>>
%11 = tg.sink(%10) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
