// c[i] = a[i] + b[i] for i < n: three buffers and a scalar, 64 threads per block.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>, %n: i32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %0 = arith.muli %bid, %bdim : index
      %i = arith.addi %0, %tid : index
      %ni = arith.index_cast %n : i32 to index
      %in = arith.cmpi slt, %i, %ni : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<1024xf32>
        %y = memref.load %b[%i] : memref<1024xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %c[%i] : memref<1024xf32>
      }
      gpu.return
    }
  }
}
