// math.exp2/log2/sin/sqrt and a division: the math libraries and IEEE sqrt/div.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @math(%a: memref<256xf32>, %o: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c768 = arith.constant 768 : index
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<256xf32>
      %e = math.exp2 %x : f32
      %l = math.log2 %x : f32
      %s = math.sin %x : f32
      %q = math.sqrt %x : f32
      %d = arith.divf %e, %q : f32
      memref.store %e, %o[%i] : memref<1024xf32>
      %i1 = arith.addi %i, %c256 : index
      memref.store %l, %o[%i1] : memref<1024xf32>
      %i2 = arith.addi %i, %c512 : index
      memref.store %s, %o[%i2] : memref<1024xf32>
      %i3 = arith.addi %i, %c768 : index
      memref.store %d, %o[%i3] : memref<1024xf32>
      gpu.return
    }
  }
}
