// Kernels over the target's launch limits are errors naming the target and
// the limit, before any binary exists (the pipelines take the limits from
// the target description: cuda:sm_N 1024 threads / 48 KB, amd:gfxN 1024 /
// 64 KB).
// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-check-limits{target=cuda:sm_90 max-threads=1024 max-x=1024 max-y=1024 max-z=64 shared-bytes=49152})))' -split-input-file -verify-diagnostics
// RUN: not tinygrad-opt %s --tg-gpu-to-nvvm=chip=sm_90 -split-input-file 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: not tinygrad-opt %s --tg-gpu-to-rocdl=chip=gfx942 -split-input-file 2>&1 | FileCheck %s --check-prefix=ROCDL

// NVVM: kernel @too_many_threads asks for 2048 threads per workgroup, cuda:sm_90 allows 1024
// NVVM: kernel @too_deep asks for 128 threads in dimension z, cuda:sm_90 allows 64
// NVVM: kernel @too_much_shared needs 65540 bytes of workgroup memory, cuda:sm_90 has 49152
// ROCDL: kernel @too_many_threads asks for 2048 threads per workgroup, amd:gfx942 allows 1024
// ROCDL: kernel @too_much_shared needs 65540 bytes of workgroup memory, amd:gfx942 has 65536

gpu.module @m {
  // expected-error @+1 {{kernel @too_many_threads asks for 2048 threads per workgroup, cuda:sm_90 allows 1024}}
  gpu.func @too_many_threads() kernel attributes {known_block_size = array<i32: 64, 32, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel @too_deep asks for 128 threads in dimension z, cuda:sm_90 allows 64}}
  gpu.func @too_deep() kernel attributes {known_block_size = array<i32: 1, 1, 128>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{kernel @too_much_shared needs 65540 bytes of workgroup memory, cuda:sm_90 has 49152}}
  gpu.func @too_much_shared() workgroup(%a : memref<16385xf32, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

// Within every limit (1024 threads, 48 KB exactly): no error.
gpu.module @m {
  gpu.func @fits() workgroup(%a : memref<12288xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 32, 1>} {
    gpu.return
  }
}
