// Through the whole route: a bool MUL (tinygrad's `all`), a floor division
// and a bool accumulator in private memory become valid SPIR-V without the
// Int8 capability. Before tg-gpu-legalize-arith-for-spirv and
// tg-gpu-widen-bool-memory: "'spirv.IMul' op operand #0 must be
// 8/16/32/64-bit integer ... but got 'i1'", "failed to legalize operation
// 'arith.floordivsi'", "failed to legalize operation 'memref.store'".
// RUN: tinygrad-opt %s --tg-gpu-to-spirv | FileCheck %s
// CHECK: spirv.module
// CHECK: spirv.Variable : !spirv.ptr<!spirv.struct<(!spirv.array<2 x i32>)>, Function>
// CHECK: spirv.IMul %{{.*}}, %{{.*}} : i32
// CHECK: spirv.SDiv
module attributes {gpu.container_module} {
  gpu.module @k_module attributes {spirv.target_env = #spirv.target_env<#spirv.vce<v1.3, [Shader], [SPV_KHR_storage_buffer_storage_class]>, #spirv.resource_limits<>>} {
    gpu.func @k(%arg0: memref<?xi32> {spirv.interface_var_abi = #spirv.interface_var_abi<(0, 0)>}) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %acc = memref.alloca() : memref<2xi1, #spirv.storage_class<Function>>
      %x = memref.load %arg0[%c0] : memref<?xi32>
      %y = memref.load %arg0[%c1] : memref<?xi32>
      %b0 = arith.trunci %x : i32 to i1
      %b1 = arith.trunci %y : i32 to i1
      %all = arith.muli %b0, %b1 : i1
      memref.store %all, %acc[%c1] : memref<2xi1, #spirv.storage_class<Function>>
      %r = memref.load %acc[%c1] : memref<2xi1, #spirv.storage_class<Function>>
      %w = arith.extui %r : i1 to i32
      %q = arith.floordivsi %x, %y : i32
      %s = arith.addi %w, %q : i32
      memref.store %s, %arg0[%c0] : memref<?xi32>
      gpu.return
    }
  }
}
