// REQUIRES: rocm-device-libs
// RUN: tinygrad-opt %s --tg-gpu-to-rocdl=chip=gfx942 | tinygrad-translate --emit-amdgcn | FileCheck %s
// RUN: tinygrad-opt %s --tg-gpu-to-rocdl="chip=gfx1100 wave64=false" | tinygrad-translate --emit-amdgcn | FileCheck %s

// Five half lanes widened to f32 together, then read one by one (a 5-wide
// upcast of half values summed in f32: random-kernels --variables seed 2288
// #78). LLVM 22's AMDGPU instruction selection aborted the process on such a
// vector fpext of 5, 6 or 7 half lanes ("Cannot select: f32 = Constant<-1>");
// the serializer splits it into lanes first (ROCDLTarget.cpp,
// splitOddHalfExtends): o[i] = max over the 5 lanes of float(a[5i+k]) + 1.
// CHECK-LABEL: odd:
// CHECK-COUNT-5: v_cvt_f32_f16
// CHECK: global_store_{{dword|b32}}
// CHECK: .amdhsa_kernel odd
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @odd(%a: memref<640xf16>, %o: memref<128xf32>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c5 = arith.constant 5 : index
      %one = arith.constant dense<1.0> : vector<5xf32>
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c5 : index
      %h = vector.load %a[%i] : memref<640xf16>, vector<5xf16>
      %f = arith.extf %h : vector<5xf16> to vector<5xf32>
      %g = arith.addf %f, %one : vector<5xf32>
      %l0 = vector.extract %g[0] : f32 from vector<5xf32>
      %l1 = vector.extract %g[1] : f32 from vector<5xf32>
      %l2 = vector.extract %g[2] : f32 from vector<5xf32>
      %l3 = vector.extract %g[3] : f32 from vector<5xf32>
      %l4 = vector.extract %g[4] : f32 from vector<5xf32>
      %m0 = arith.maximumf %l0, %l1 : f32
      %m1 = arith.maximumf %m0, %l2 : f32
      %m2 = arith.maximumf %m1, %l3 : f32
      %m3 = arith.maximumf %m2, %l4 : f32
      memref.store %m3, %o[%tid] : memref<128xf32>
      gpu.return
    }
  }
}
