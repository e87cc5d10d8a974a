// RUN: tinygrad-opt %s --tg-apply-opts="mode=tinygrad threads=2" | FileCheck %s --check-prefix=TG
// RUN: tinygrad-opt %s --tg-apply-opts="mode=ours threads=2" | FileCheck %s --check-prefix=OURS
// RUN: tinygrad-opt %s --tg-apply-opts="mode=none threads=2" | FileCheck %s --check-prefix=NONE
// RUN: tinygrad-opt %s --tg-apply-opts="mode=ours threads=2" | FileCheck %s --check-prefix=PAIR
// RUN: sed 's/applied_opts = \[\]/applied_opts = [], opts_to_apply = [#tg.opt<op = upcast, axis = 0, arg = 4 : i64>]/' %s | tinygrad-opt --tg-apply-opts="mode=tinygrad threads=2" | FileCheck %s --check-prefix=GIVEN
// RUN: sed 's/applied_opts = \[\]/applied_opts = [], opts_to_apply = [#tg.opt<op = unroll, axis = 0, arg = 3 : i64>]/' %s | not tinygrad-opt --tg-apply-opts 2>&1 | FileCheck %s --check-prefix=BAD

// a.sum(1) over 1024x512. tinygrad (DEBUG=3) picks UPCAST(0,4), UNROLL(0,4),
// THREAD(0,2): the store's index is the bare range, which is not in its own
// backward_slice, so the output counts as a stride-0 buffer and is upcast;
// the reduce (512 > 32) unrolls by 4; 512K ops make 2 threads.
// TG-DAG: tgk.range %{{.*}} [1] <weak>
// TG-DAG: tgk.range %{{.*}} [2] <upcast>
// TG-DAG: tgk.range %{{.*}} [0] <reduce>
// TG-DAG: tgk.range %{{.*}} [3] <unroll>
// TG-DAG: name = "core_id"
// Ours: the contiguous 512-long reduce keeps 32 accumulators (an UPCAST
// range the inner REDUCE leaves open), folded by an outer REDUCE.
// OURS-DAG: tgk.range %{{.*}} [2] <upcast>
// OURS-DAG: name = "core_id"
// OURS-COUNT-2: tgt.reduce <add>
// The outer one is marked: its lanes may be summed pairwise.
// PAIR: tgt.reduce <add> 0 %{{.*}} ranges(%{{.*}} : !tg.weakint) : tensor
// PAIR-NEXT: tgt.reduce <add> 0 %{{.*}} ranges(%{{.*}} : !tg.weakint) {pairwise} : tensor
// NONE-NOT: <upcast>
// NONE-NOT: <unroll>
// NONE-NOT: core_id
// opts_to_apply is applied exactly, and nothing else.
// GIVEN: tgk.range %{{.*}} [2] <upcast>
// GIVEN-NOT: <unroll>
// GIVEN-NOT: core_id
// BAD: tg-apply-opts: opts_to_apply[0] Opt(op=OptOps.UNROLL, axis=0, arg=3): amount can't divide the axis
// ONE-NOT: core_id
%0 = tg.const 1024 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tgk.range %0 [1] <weak> : !tg.weakint
%3 = tgk.index %1[%2] : tensor<1024xf32, #tg.addrspace<global>>, !tg.weakint
%4 = tg.const 524288 : !tg.weakint
%5 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%4 : !tg.weakint)
%6 = tg.const 512 : !tg.weakint
%7 = tg.mul %2, %6 : !tg.weakint, !tg.weakint
%8 = tgk.range %6 [0] <reduce> : !tg.weakint
%9 = tg.add %7, %8 : !tg.weakint, !tg.weakint
%10 = tgk.index %5[%9] : tensor<524288xf32, #tg.addrspace<global>>, !tg.weakint
%11 = tgt.reduce <add> 0 %10 ranges(%8 : !tg.weakint) : tensor<f32, #tg.addrspace<global>>
%12 = tgk.store %11, %3 : tensor<f32, #tg.addrspace<global>>, tensor<f32, #tg.addrspace<global>>
%13 = tgk.end %12, %2 : !tg.void, !tg.weakint
%14 = tg.sink(%13) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
