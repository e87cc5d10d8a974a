// sum of 64 floats per workgroup through workgroup memory and barriers
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<4096xf32>, %out: memref<64xf32>)
        workgroup(%sh: memref<64xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<4096xf32>
      memref.store %x, %sh[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %zero = arith.cmpi eq, %tid, %c0 : index
      scf.if %zero {
        %init = arith.constant 0.0 : f32
        %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %init) -> f32 {
          %v = memref.load %sh[%k] : memref<64xf32, #gpu.address_space<workgroup>>
          %a = arith.addf %acc, %v : f32
          scf.yield %a : f32
        }
        memref.store %s, %out[%bid] : memref<64xf32>
      }
      gpu.return
    }
  }
}
