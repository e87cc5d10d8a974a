// RUN: tinygrad-opt %s --tg-cpu-threads=threads=2 | FileCheck %s
// RUN: tinygrad-opt %s --tg-cpu-threads=threads=1 | FileCheck %s --check-prefix=ONE

// a.sum(1) over 1024x512: 512K ops, so 2 threads (tinygrad: >= 128K ops per
// thread); the first WEAK axis (1024) is split as core_id*512 + RANGE(512).
// CHECK-DAG: %[[N:.*]] = tg.const 512 : !tg.weakint
// CHECK-DAG: %[[CORE:.*]] = tg.param <slot = -1, dtype = !tg.weakint, vmin_vmax = [0, 1]{{.*}}name = "core_id"
// CHECK-DAG: %[[R:.*]] = tgk.range %[[N]] [1] <weak>
// CHECK-DAG: tg.mul %[[CORE]], %[[N]]
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
