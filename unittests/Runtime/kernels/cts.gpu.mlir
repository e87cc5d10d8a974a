// The conformance suite's kernels for the CUDA and AMD drivers, written once
// in the gpu dialect and compiled at build time by our own routes: PTX
// (tg-gpu-to-nvvm, --emit-ptx) and HSACO per gfx chip (tg-gpu-to-rocdl,
// --emit-hsaco). Same meaning as kernels/conformance.c (CPU) and
// kernels/cts_*.spirv.mlir (Vulkan). The parameters are tinygrad's CUDA/AMD
// convention (tgrt_program_desc): the buffers' device addresses, a view's
// offset already added by the driver, then the scalars at their own size.
// 64 threads per block, as the SPIR-V kernels (Conformance.h's kLocal). The
// memrefs' static size (2^28 elements) is only what the bare-pointer
// convention needs to pass a plain address: n bounds every access.
module attributes {gpu.container_module} {
  gpu.module @cts {
    // out[i] = a[i] + b[i] for i < n (floats).
    gpu.func @cts_add(%out: memref<268435456xf32>, %a: memref<268435456xf32>, %b: memref<268435456xf32>, %n: i32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %0 = arith.muli %bid, %bdim : index
      %i = arith.addi %0, %tid : index
      %ni = arith.index_cast %n : i32 to index
      %in = arith.cmpi slt, %i, %ni : index
      scf.if %in {
        %x = memref.load %a[%i] : memref<268435456xf32>
        %y = memref.load %b[%i] : memref<268435456xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %out[%i] : memref<268435456xf32>
      }
      gpu.return
    }
    // buf[i] = buf[i] * 3 + (lo(k) ^ hi(k)) for i < n, 32-bit wrapping;
    // n is a 4-byte scalar, k an 8-byte one whose two halves both matter.
    gpu.func @cts_affine(%buf: memref<268435456xi32>, %n: i32, %k: i64) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %0 = arith.muli %bid, %bdim : index
      %i = arith.addi %0, %tid : index
      %ni = arith.index_cast %n : i32 to index
      %in = arith.cmpi slt, %i, %ni : index
      %c32 = arith.constant 32 : i64
      %c3 = arith.constant 3 : i32
      %lo = arith.trunci %k : i64 to i32
      %khi = arith.shrui %k, %c32 : i64
      %hi = arith.trunci %khi : i64 to i32
      %kk = arith.xori %lo, %hi : i32
      scf.if %in {
        %v = memref.load %buf[%i] : memref<268435456xi32>
        %m = arith.muli %v, %c3 : i32
        %r = arith.addi %m, %kk : i32
        memref.store %r, %buf[%i] : memref<268435456xi32>
      }
      gpu.return
    }
  }
}
