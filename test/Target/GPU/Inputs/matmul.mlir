// A naive 512x512x512 fp32 matmul, one output per thread in 16x16 blocks
// on a 32x32 grid: c[r, col] = sum_k a[r, k] * b[k, col]. A hand-written
// stand-in that exercises 2-D grids and loops (and scripts/device-check.sh's
// timing against torch) until the emitter produces tuned matmuls.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%a: memref<262144xf32>, %b: memref<262144xf32>, %c: memref<262144xf32>) kernel
        attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %n = arith.constant 512 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bcol = arith.muli %bx, %c16 : index
      %col = arith.addi %bcol, %tx : index
      %brow = arith.muli %by, %c16 : index
      %row = arith.addi %brow, %ty : index
      %rbase = arith.muli %row, %n : index
      %acc = scf.for %k = %c0 to %n step %c1 iter_args(%s = %zero) -> f32 {
        %ai = arith.addi %rbase, %k : index
        %kb = arith.muli %k, %n : index
        %bi = arith.addi %kb, %col : index
        %x = memref.load %a[%ai] : memref<262144xf32>
        %y = memref.load %b[%bi] : memref<262144xf32>
        %p = arith.mulf %x, %y : f32
        %s2 = arith.addf %s, %p : f32
        scf.yield %s2 : f32
      }
      %ci = arith.addi %rbase, %col : index
      memref.store %acc, %c[%ci] : memref<262144xf32>
      gpu.return
    }
  }
}
