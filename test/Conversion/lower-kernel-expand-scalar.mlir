// RUN: tinygrad-opt %s --tg-lower-kernel | FileCheck %s

// tinygrad test_symbolic_ops test_expand_padded: `Tensor(1).unsqueeze(0)` padded
// leaves an EXPAND of the scalar 1 to shape (1,) in the kernel; it is that
// scalar (tinygrad's devectorizer makes it a STACK of one).
// A kernel this small (2 iteration points, no float sum) is marked for
// LLVM's Scalarizer before O3 (cpu::emitObject). That a float sum over
// UPCAST lanes is not is what keeps corpus conv2d_groups exact
// (Codegen/corpus-kernels.test).
// The WHERE's condition is on the lanes alone: each lane's branch is
// picked (a shuffle), no select.
// CHECK-LABEL: func.func @test
// CHECK-SAME: passthrough = ["tg-scalarize"]
// CHECK-NOT: arith.select
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 3]
// CHECK-NOT: arith.select
// CHECK: {{vector|memref}}.store
// CHECK-NOT: tgt.expand
%0 = tg.const 2 : !tg.weakint
%1 = tg.param <slot = 0, dtype = si32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [0] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<2xsi32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 1 : !tg.weakint
%5 = tg.cmplt %2, %4 : !tg.weakint, !tg.weakint
%6 = tgt.expand %4, %4 : !tg.weakint, !tg.weakint
%7 = tg.const 0 : !tg.weakint
%8 = tg.where %5, %6, %7 : i1, tensor<1x!tg.weakint>, !tg.weakint
%9 = tg.cast %8 to si32 : tensor<1x!tg.weakint>
%10 = tgk.store %9, %3 : tensor<1xsi32>, tensor<si32, #tg.addrspace<global>>
%11 = tgk.end %10, %2 : !tg.void, !tg.weakint
%12 = tg.sink(%11) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
