// float4 loads and stores and a float -> half conversion (vector types,
// whose `alignment` lets NVPTX use ld.global.v4: without it, 4 scalar loads;
// 16-bit stores): o16[4i..4i+3] = half(a[4i..4i+3] * 2).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vec(%a: memref<1024xf32>, %o16: memref<1024xf16>) kernel
        attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c4 = arith.constant 4 : index
      %c128 = arith.constant 128 : index
      %two = arith.constant dense<2.0> : vector<4xf32>
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c128 : index
      %t = arith.addi %base, %tid : index
      %i = arith.muli %t, %c4 : index
      %v = vector.load %a[%i] {alignment = 16} : memref<1024xf32>, vector<4xf32>
      %m = arith.mulf %v, %two : vector<4xf32>
      %h = arith.truncf %m : vector<4xf32> to vector<4xf16>
      vector.store %h, %o16[%i] {alignment = 8} : memref<1024xf16>, vector<4xf16>
      gpu.return
    }
  }
}
