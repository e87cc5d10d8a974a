// RUN: tinygrad-opt --tg-kernel-graph %s | FileCheck %s
//
// COPY from another device becomes a store kernel into a fresh buffer (pm_copy_to_store).
// tinygrad: Tensor.rand(4, 8) on  (the call of
// corpus program rand_uniform); the expected kernel graph is what tinygrad a9069c17's
// get_kernel_graph returns for it.

module {
  %0 = tg.const 2 : !tg.weakint
  %1 = tg.param <slot = 0, dtype = ui32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.param <slot = 1, dtype = ui32, device = "PYTHON"> shape(%0 : !tg.weakint)
  %3 = tgt.copy %2 to("CPU") : tensor<2xui32, #tg.addrspace<global>>
  %4 = tgk.store %3, %1 : tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>
  %5 = tg.after %1 deps(%4 : !tg.void) : tensor<2xui32, #tg.addrspace<global>>
  %6 = tg.param <slot = 2, dtype = ui32, device = "CPU"> shape(%0 : !tg.weakint)
  %7 = tg.param <slot = 3, dtype = ui32, device = "PYTHON"> shape(%0 : !tg.weakint)
  %8 = tgt.copy %7 to("CPU") : tensor<2xui32, #tg.addrspace<global>>
  %9 = tgk.store %8, %6 : tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>
  %10 = tg.after %6 deps(%9 : !tg.void) : tensor<2xui32, #tg.addrspace<global>>
  %11 = tg.const 0 : !tg.weakint
  %12 = tg.const 1 : !tg.weakint
  %13 = tgt.shrink %10, %11, %12 : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
  %14 = tg.const 32 : !tg.weakint
  %15 = tg.add %13, %14 : tensor<1xui32, #tg.addrspace<global>>, !tg.weakint
  %16 = tgt.shrink %10, %12, %12 : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
  %17 = tg.add %16, %11 : tensor<1xui32, #tg.addrspace<global>>, !tg.weakint
  %18 = tg.stack()
  %19 = tgt.reshape %13, %18 : tensor<1xui32, #tg.addrspace<global>>, !tg.void
  %20 = tg.cmplt %15, %19 : tensor<1xui32>, tensor<ui32, #tg.addrspace<global>>
  %21 = tg.cast %20 to ui32 : tensor<1xi1>
  %22 = tg.add %17, %21 : tensor<1xui32>, tensor<1xui32>
  %23 = tg.stack(%15, %22) : tensor<1xui32>, tensor<1xui32>
  %24 = tgt.reshape %23, %0 : tensor<2x1xui32>, !tg.weakint
  %25 = tgk.store %24, %10 : tensor<2xui32>, tensor<2xui32, #tg.addrspace<global>>
  %26 = tg.after %10 deps(%25 : !tg.void) : tensor<2xui32, #tg.addrspace<global>>
  %27 = tg.param <slot = 4, dtype = f32, device = "CPU"> shape(%14 : !tg.weakint)
  %28 = tg.const 4 : !tg.weakint
  %29 = tg.const 8 : !tg.weakint
  %30 = tg.stack(%28, %29) : !tg.weakint, !tg.weakint
  %31 = tgt.reshape %27, %30 : tensor<32xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %32 = tg.const 1 : ui32
  %33 = tgt.reshape %32, %12 : ui32, !tg.weakint
  %34 = tgt.reshape %33, %18 : tensor<1xui32>, !tg.void
  %35 = tg.const 16 : !tg.weakint
  %36 = tgt.expand %34, %35 : ui32, !tg.weakint
  %37 = tg.const 15 : !tg.weakint
  %38 = tg.const 31 : !tg.weakint
  %39 = tgt.pad %36, %37, %38 : tensor<16xui32>, !tg.weakint, !tg.weakint
  %40 = tg.stack(%12, %38) : !tg.weakint, !tg.weakint
  %41 = tgt.reshape %39, %40 : tensor<31xui32>, tensor<2x!tg.weakint>
  %42 = tgt.reshape %41, %38 : tensor<1x31xui32>, !tg.weakint
  %43 = tg.const 17 : !tg.weakint
  %44 = tgt.expand %42, %43 : tensor<31xui32>, !tg.weakint
  %45 = tg.const 527 : !tg.weakint
  %46 = tgt.reshape %44, %45 : tensor<17x31xui32>, !tg.weakint
  %47 = tg.const 512 : !tg.weakint
  %48 = tgt.shrink %46, %11, %47 : tensor<527xui32>, !tg.weakint, !tg.weakint
  %49 = tg.stack(%35, %14) : !tg.weakint, !tg.weakint
  %50 = tgt.reshape %48, %49 : tensor<512xui32>, tensor<2x!tg.weakint>
  %51 = tg.stack(%11, %11) : !tg.weakint, !tg.weakint
  %52 = tg.stack(%35, %35) : !tg.weakint, !tg.weakint
  %53 = tgt.shrink %50, %51, %52 : tensor<16x32xui32>, tensor<2x!tg.weakint>, tensor<2x!tg.weakint>
  %54 = tg.stack(%35, %35, %12) : !tg.weakint, !tg.weakint, !tg.weakint
  %55 = tgt.reshape %53, %54 : tensor<16x16xui32>, tensor<3x!tg.weakint>
  %56 = tgt.reshape %55, %52 : tensor<16x16x1xui32>, tensor<2x!tg.weakint>
  %57 = tgt.permute %56 [1, 0] : tensor<16x16xui32>
  %58 = tgt.permute %57 [1, 0] : tensor<16x16xui32>
  %59 = tgt.reduce <add> 1 %58 : tensor<16x16xui32>
  %60 = tg.const -1 : !tg.weakint
  %61 = tg.add %59, %60 : tensor<16xui32>, !tg.weakint
  %62 = tg.add %61, %35 : tensor<16xui32>, !tg.weakint
  %63 = tg.cast %62 to ui64 : tensor<16xui32>
  %64 = tg.shl %63, %14 : tensor<16xui64>, !tg.weakint
  %65 = tg.cast %61 to ui64 : tensor<16xui32>
  %66 = tg.or %64, %65 : tensor<16xui64>, tensor<16xui64>
  %67 = tgt.shrink %26, %11, %12 : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
  %68 = tg.mul %14, %60 : !tg.weakint, !tg.weakint
  %69 = tg.add %67, %68 : tensor<1xui32, #tg.addrspace<global>>, !tg.weakint
  %70 = tgt.shrink %26, %12, %12 : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
  %71 = tg.mul %11, %60 : !tg.weakint, !tg.weakint
  %72 = tg.add %70, %71 : tensor<1xui32, #tg.addrspace<global>>, !tg.weakint
  %73 = tgt.reshape %67, %18 : tensor<1xui32, #tg.addrspace<global>>, !tg.void
  %74 = tg.cmplt %73, %14 : tensor<ui32, #tg.addrspace<global>>, !tg.weakint
  %75 = tg.cast %74 to ui32 : i1
  %76 = tg.mul %75, %60 : ui32, !tg.weakint
  %77 = tg.add %72, %76 : tensor<1xui32>, ui32
  %78 = tg.stack(%69, %77) : tensor<1xui32>, tensor<1xui32>
  %79 = tgt.reshape %78, %0 : tensor<2x1xui32>, !tg.weakint
  %80 = tgt.shrink %79, %12, %12 : tensor<2xui32>, !tg.weakint, !tg.weakint
  %81 = tg.add %80, %11 : tensor<1xui32>, !tg.weakint
  %82 = tgt.shrink %79, %11, %12 : tensor<2xui32>, !tg.weakint, !tg.weakint
  %83 = tg.add %82, %11 : tensor<1xui32>, !tg.weakint
  %84 = tg.cmplt %83, %82 : tensor<1xui32>, tensor<1xui32>
  %85 = tg.cast %84 to ui32 : tensor<1xi1>
  %86 = tg.add %81, %85 : tensor<1xui32>, tensor<1xui32>
  %87 = tg.cast %86 to ui64 : tensor<1xui32>
  %88 = tg.shl %87, %14 : tensor<1xui64>, !tg.weakint
  %89 = tg.cast %83 to ui64 : tensor<1xui32>
  %90 = tg.or %88, %89 : tensor<1xui64>, tensor<1xui64>
  %91 = tgt.shrink %5, %12, %12 : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
  %92 = tgt.reshape %91, %18 : tensor<1xui32, #tg.addrspace<global>>, !tg.void
  %93 = tg.cast %92 to ui64 : tensor<ui32, #tg.addrspace<global>>
  %94 = tg.shl %93, %14 : tensor<ui64, #tg.addrspace<global>>, !tg.weakint
  %95 = tgt.shrink %5, %11, %12 : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
  %96 = tgt.reshape %95, %18 : tensor<1xui32, #tg.addrspace<global>>, !tg.void
  %97 = tg.cast %96 to ui64 : tensor<ui32, #tg.addrspace<global>>
  %98 = tg.or %94, %97 : ui64, tensor<ui64, #tg.addrspace<global>>
  %99 = tg.threefry %90, %98 : tensor<1xui64>, ui64
  %100 = tg.cast %99 to ui32 : tensor<1xui64>
  %101 = tg.shr %99, %14 : tensor<1xui64>, !tg.weakint
  %102 = tg.cast %101 to ui32 : tensor<1xui64>
  %103 = tg.stack(%100, %102) : tensor<1xui32>, tensor<1xui32>
  %104 = tgt.reshape %103, %0 : tensor<2x1xui32>, !tg.weakint
  %105 = tgt.shrink %104, %12, %12 : tensor<2xui32>, !tg.weakint, !tg.weakint
  %106 = tgt.reshape %105, %18 : tensor<1xui32>, !tg.void
  %107 = tg.cast %106 to ui64 : ui32
  %108 = tg.shl %107, %14 : ui64, !tg.weakint
  %109 = tgt.shrink %104, %11, %12 : tensor<2xui32>, !tg.weakint, !tg.weakint
  %110 = tgt.reshape %109, %18 : tensor<1xui32>, !tg.void
  %111 = tg.cast %110 to ui64 : ui32
  %112 = tg.or %108, %111 : ui64, ui64
  %113 = tg.threefry %66, %112 : tensor<16xui64>, ui64
  %114 = tg.cast %113 to ui32 : tensor<16xui64>
  %115 = tg.shr %113, %14 : tensor<16xui64>, !tg.weakint
  %116 = tg.cast %115 to ui32 : tensor<16xui64>
  %117 = tg.stack(%114, %116) : tensor<16xui32>, tensor<16xui32>
  %118 = tgt.reshape %117, %14 : tensor<2x16xui32>, !tg.weakint
  %119 = tg.stack(%118) : tensor<32xui32>
  %120 = tgt.reshape %119, %14 : tensor<1x32xui32>, !tg.weakint
  %121 = tg.const 9 : !tg.weakint
  %122 = tg.shr %120, %121 : tensor<32xui32>, !tg.weakint
  %123 = tg.const 1065353216 : !tg.weakint
  %124 = tg.or %122, %123 : tensor<32xui32>, !tg.weakint
  %125 = tg.bitcast %124 to f32 : tensor<32xui32>
  %126 = tg.const 1.0 : !tg.weakfloat
  %127 = tg.const -1.0 : !tg.weakfloat
  %128 = tg.mul %126, %127 : !tg.weakfloat, !tg.weakfloat
  %129 = tg.add %125, %128 : tensor<32xf32>, !tg.weakfloat
  %130 = tgt.reshape %129, %30 : tensor<32xf32>, tensor<2x!tg.weakint>
  %131 = tgk.store %130, %31 : tensor<4x8xf32>, tensor<4x8xf32, #tg.addrspace<global>>
  %132 = tg.after %31 deps(%131 : !tg.void) : tensor<4x8xf32, #tg.addrspace<global>>
  %133 = tg.sink(%5, %10, %26, %132) : tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<4x8xf32, #tg.addrspace<global>>
  %134 = tg.buffer <slot = 424, dtype = ui32, device = "CPU"> shape(%0 : !tg.weakint)
  %135 = tg.buffer <slot = 422, dtype = ui32, device = "PYTHON"> shape(%0 : !tg.weakint)
  %136 = tg.buffer <slot = 425, dtype = ui32, device = "CPU"> shape(%0 : !tg.weakint)
  %137 = tg.buffer <slot = 423, dtype = ui32, device = "PYTHON"> shape(%0 : !tg.weakint)
  %138 = tg.buffer <slot = 426, dtype = f32, device = "CPU"> shape(%14 : !tg.weakint)
  %139 = tg.call %133(%134, %135, %136, %137, %138) {arg = #tg.call_info<>} : (!tg.void, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<32xf32, #tg.addrspace<global>>) -> !tg.void
}

// CHECK: [[V0:%[0-9]+]] = tg.const 2 : !tg.weakint
// CHECK: [[V1:%[0-9]+]] = tg.param <slot = 0, dtype = ui32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V2:%[0-9]+]] = tg.param <slot = 0, dtype = ui32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V3:%[0-9]+]] = tgk.range [[V0]] [0] <weak> : !tg.weakint
// CHECK: [[V4:%[0-9]+]] = tgk.index [[V2]][[[V3]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V5:%[0-9]+]] = tg.param <slot = 1, dtype = ui32, device = "PYTHON"> shape([[V0]] : !tg.weakint)
// CHECK: [[V6:%[0-9]+]] = tgk.index [[V5]][[[V3]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V7:%[0-9]+]] = tgk.store [[V6]], [[V4]] : tensor<ui32, #tg.addrspace<global>>, tensor<ui32, #tg.addrspace<global>>
// CHECK: [[V8:%[0-9]+]] = tgk.end [[V7]], [[V3]] : !tg.void, !tg.weakint
// CHECK: [[V9:%[0-9]+]] = tg.sink([[V8]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V10:%[0-9]+]] = tg.param <slot = 1, dtype = ui32, device = "PYTHON"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V11:%[0-9]+]] = tg.call [[V9]]([[V1]], [[V10]]) {arg = #tg.call_info<>} : (!tg.void, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V12:%[0-9]+]] = tg.after [[V1]] deps([[V11]] : !tg.void) : tensor<2xui32, #tg.addrspace<global>>
// CHECK: [[V13:%[0-9]+]] = tg.param <slot = 2, dtype = ui32, device = "CPU"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V14:%[0-9]+]] = tg.param <slot = 3, dtype = ui32, device = "PYTHON"> shape([[V0]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V15:%[0-9]+]] = tg.call [[V9]]([[V13]], [[V14]]) {arg = #tg.call_info<>} : (!tg.void, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V16:%[0-9]+]] = tg.after [[V13]] deps([[V15]] : !tg.void) : tensor<2xui32, #tg.addrspace<global>>
// CHECK: [[V17:%[0-9]+]] = tg.const 0 : !tg.weakint
// CHECK: [[V18:%[0-9]+]] = tg.cmpne [[V3]], [[V17]] : !tg.weakint, !tg.weakint
// CHECK: [[V19:%[0-9]+]] = tg.const 1 : !tg.weakint
// CHECK: [[V20:%[0-9]+]] = tgk.index [[V2]][[[V19]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V21:%[0-9]+]] = tgk.index [[V2]][[[V17]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V22:%[0-9]+]] = tg.const 32 : !tg.weakint
// CHECK: [[V23:%[0-9]+]] = tg.add [[V21]], [[V22]] : tensor<ui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V24:%[0-9]+]] = tg.cmplt [[V23]], [[V21]] : ui32, tensor<ui32, #tg.addrspace<global>>
// CHECK: [[V25:%[0-9]+]] = tg.cast [[V24]] to ui32 : i1
// CHECK: [[V26:%[0-9]+]] = tg.add [[V20]], [[V25]] : tensor<ui32, #tg.addrspace<global>>, ui32
// CHECK: [[V27:%[0-9]+]] = tg.where [[V18]], [[V26]], [[V23]] : i1, ui32, ui32
// CHECK: [[V28:%[0-9]+]] = tgk.store [[V27]], [[V4]] : ui32, tensor<ui32, #tg.addrspace<global>>
// CHECK: [[V29:%[0-9]+]] = tgk.end [[V28]], [[V3]] : !tg.void, !tg.weakint
// CHECK: [[V30:%[0-9]+]] = tg.sink([[V29]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V31:%[0-9]+]] = tg.call [[V30]]([[V16]]) {arg = #tg.call_info<>} : (!tg.void, tensor<2xui32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V32:%[0-9]+]] = tg.after [[V16]] deps([[V31]] : !tg.void) : tensor<2xui32, #tg.addrspace<global>>
// CHECK: [[V33:%[0-9]+]] = tg.param <slot = 4, dtype = f32, device = "CPU"> shape([[V22]] : !tg.weakint) {tg.tag = []}
// CHECK: [[V34:%[0-9]+]] = tg.param <slot = 0, dtype = f32, device = "CPU"> shape([[V22]] : !tg.weakint)
// CHECK: [[V35:%[0-9]+]] = tgk.range [[V22]] [0] <weak> : !tg.weakint
// CHECK: [[V36:%[0-9]+]] = tgk.index [[V34]][[[V35]]] : tensor<32xf32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V37:%[0-9]+]] = tg.const 16 : !tg.weakint
// CHECK: [[V38:%[0-9]+]] = tg.floordiv [[V35]], [[V37]] : !tg.weakint, !tg.weakint
// CHECK: [[V39:%[0-9]+]] = tg.cmpne [[V38]], [[V17]] : !tg.weakint, !tg.weakint
// CHECK: [[V40:%[0-9]+]] = tg.floormod [[V35]], [[V37]] : !tg.weakint, !tg.weakint
// CHECK: [[V41:%[0-9]+]] = tg.add [[V40]], [[V19]] : !tg.weakint, !tg.weakint
// CHECK: [[V42:%[0-9]+]] = tg.cast [[V41]] to ui32 : !tg.weakint
// CHECK: [[V43:%[0-9]+]] = tg.const 15 : !tg.weakint
// CHECK: [[V44:%[0-9]+]] = tg.add [[V42]], [[V43]] : ui32, !tg.weakint
// CHECK: [[V45:%[0-9]+]] = tg.cast [[V44]] to ui64 : ui32
// CHECK: [[V46:%[0-9]+]] = tg.shl [[V45]], [[V22]] : ui64, !tg.weakint
// CHECK: [[V47:%[0-9]+]] = tg.const -1 : !tg.weakint
// CHECK: [[V48:%[0-9]+]] = tg.add [[V42]], [[V47]] : ui32, !tg.weakint
// CHECK: [[V49:%[0-9]+]] = tg.cast [[V48]] to ui64 : ui32
// CHECK: [[V50:%[0-9]+]] = tg.or [[V46]], [[V49]] : ui64, ui64
// CHECK: [[V51:%[0-9]+]] = tg.param <slot = 1, dtype = ui32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V52:%[0-9]+]] = tgk.index [[V51]][[[V19]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V53:%[0-9]+]] = tgk.index [[V51]][[[V17]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V54:%[0-9]+]] = tg.cmplt [[V53]], [[V22]] : tensor<ui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V55:%[0-9]+]] = tg.cast [[V54]] to ui32 : i1
// CHECK: [[V56:%[0-9]+]] = tg.mul [[V55]], [[V47]] : ui32, !tg.weakint
// CHECK: [[V57:%[0-9]+]] = tg.add [[V52]], [[V56]] : tensor<ui32, #tg.addrspace<global>>, ui32
// CHECK: [[V58:%[0-9]+]] = tg.cast [[V57]] to ui64 : ui32
// CHECK: [[V59:%[0-9]+]] = tg.shl [[V58]], [[V22]] : ui64, !tg.weakint
// CHECK: [[V60:%[0-9]+]] = tg.const -32 : !tg.weakint
// CHECK: [[V61:%[0-9]+]] = tg.add [[V53]], [[V60]] : tensor<ui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V62:%[0-9]+]] = tg.cast [[V61]] to ui64 : ui32
// CHECK: [[V63:%[0-9]+]] = tg.or [[V59]], [[V62]] : ui64, ui64
// CHECK: [[V64:%[0-9]+]] = tg.param <slot = 2, dtype = ui32, device = "CPU"> shape([[V0]] : !tg.weakint)
// CHECK: [[V65:%[0-9]+]] = tgk.index [[V64]][[[V19]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V66:%[0-9]+]] = tg.cast [[V65]] to ui64 : tensor<ui32, #tg.addrspace<global>>
// CHECK: [[V67:%[0-9]+]] = tg.shl [[V66]], [[V22]] : tensor<ui64, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V68:%[0-9]+]] = tgk.index [[V64]][[[V17]]] : tensor<2xui32, #tg.addrspace<global>>, !tg.weakint
// CHECK: [[V69:%[0-9]+]] = tg.cast [[V68]] to ui64 : tensor<ui32, #tg.addrspace<global>>
// CHECK: [[V70:%[0-9]+]] = tg.or [[V67]], [[V69]] : ui64, tensor<ui64, #tg.addrspace<global>>
// CHECK: [[V71:%[0-9]+]] = tg.threefry [[V63]], [[V70]] : ui64, ui64
// CHECK: [[V72:%[0-9]+]] = tg.shr [[V71]], [[V22]] : ui64, !tg.weakint
// CHECK: [[V73:%[0-9]+]] = tg.shl [[V72]], [[V22]] : ui64, !tg.weakint
// CHECK: [[V74:%[0-9]+]] = tg.cast [[V71]] to ui32 : ui64
// CHECK: [[V75:%[0-9]+]] = tg.cast [[V74]] to ui64 : ui32
// CHECK: [[V76:%[0-9]+]] = tg.or [[V73]], [[V75]] : ui64, ui64
// CHECK: [[V77:%[0-9]+]] = tg.threefry [[V50]], [[V76]] : ui64, ui64
// CHECK: [[V78:%[0-9]+]] = tg.shr [[V77]], [[V22]] : ui64, !tg.weakint
// CHECK: [[V79:%[0-9]+]] = tg.cast [[V78]] to ui32 : ui64
// CHECK: [[V80:%[0-9]+]] = tg.cast [[V77]] to ui32 : ui64
// CHECK: [[V81:%[0-9]+]] = tg.where [[V39]], [[V79]], [[V80]] : i1, ui32, ui32
// CHECK: [[V82:%[0-9]+]] = tg.const 9 : !tg.weakint
// CHECK: [[V83:%[0-9]+]] = tg.shr [[V81]], [[V82]] : ui32, !tg.weakint
// CHECK: [[V84:%[0-9]+]] = tg.const 1065353216 : !tg.weakint
// CHECK: [[V85:%[0-9]+]] = tg.or [[V83]], [[V84]] : ui32, !tg.weakint
// CHECK: [[V86:%[0-9]+]] = tg.bitcast [[V85]] to f32 : ui32
// CHECK: [[V87:%[0-9]+]] = tg.const -1.0 : !tg.weakfloat
// CHECK: [[V88:%[0-9]+]] = tg.add [[V86]], [[V87]] : f32, !tg.weakfloat
// CHECK: [[V89:%[0-9]+]] = tgk.store [[V88]], [[V36]] : f32, tensor<f32, #tg.addrspace<global>>
// CHECK: [[V90:%[0-9]+]] = tgk.end [[V89]], [[V35]] : !tg.void, !tg.weakint
// CHECK: [[V91:%[0-9]+]] = tg.sink([[V90]]) {arg = #tg.kernel_info<name = "test", axis_types = [], applied_opts = []>} : !tg.void
// CHECK: [[V92:%[0-9]+]] = tg.call [[V91]]([[V33]], [[V32]], [[V12]]) {arg = #tg.call_info<>} : (!tg.void, tensor<32xf32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>) -> !tg.void
// CHECK: [[V93:%[0-9]+]] = tg.after [[V33]] deps([[V92]] : !tg.void) : tensor<32xf32, #tg.addrspace<global>>
// CHECK: [[V94:%[0-9]+]] = tg.sink([[V12]], [[V16]], [[V32]], [[V93]]) : tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<2xui32, #tg.addrspace<global>>, tensor<32xf32, #tg.addrspace<global>>
