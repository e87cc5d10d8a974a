// Workgroup memory in the form SPIR-V needs (memref.alloc in the workgroup
// address space): tg-gpu-workgroup-attributions moves it to an attribution,
// which NVVM lowers to .shared and ROCDL to LDS (never a per-thread malloc).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @alloc(%in: memref<1024xf32>, %out: memref<1024xf32>) kernel
        attributes {known_block_size = array<i32: 32, 1, 1>} {
      %sh = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c32 : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<1024xf32>
      memref.store %x, %sh[%tid] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = arith.subi %c31, %tid : index
      %y = memref.load %sh[%r] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %y, %out[%i] : memref<1024xf32>
      memref.dealloc %sh : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
