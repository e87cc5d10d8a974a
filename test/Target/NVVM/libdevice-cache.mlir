// libdevice reduced once per set of names kernels call, in one process
// (lib/Target/GPU/DeviceLibrary.cpp): a kernel whose set was reduced before
// (the third) still links every body it calls, a kernel with another set
// (the second) gets its own, and the PTX is the same as linking from the
// whole file each time (TG_DEVICE_LIBRARY_CACHE=0).
// REQUIRES: cuda-toolkit
// RUN: tinygrad-opt %s --split-input-file --tg-gpu-to-nvvm -o %t.nvvm
// RUN: tinygrad-translate --split-input-file --emit-ptx %t.nvvm -o %t.cached.ptx
// RUN: env TG_DEVICE_LIBRARY_CACHE=0 tinygrad-translate --split-input-file --emit-ptx %t.nvvm -o %t.whole.ptx
// RUN: diff %t.cached.ptx %t.whole.ptx
// RUN: FileCheck %s < %t.cached.ptx

// CHECK-NOT: .extern
// CHECK-LABEL: .visible .entry exp_sin(
// CHECK-DAG: ex2.approx.f32
// CHECK-DAG: cvt.rni.s32.f32
// CHECK-LABEL: .visible .entry root(
// CHECK: sqrt.rn.f32
// CHECK-NOT: ex2.approx
// CHECK-LABEL: .visible .entry exp_sin(
// CHECK-DAG: ex2.approx.f32
// CHECK-DAG: cvt.rni.s32.f32
// CHECK-NOT: .extern

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exp_sin(%a: memref<256xf32>, %o: memref<512xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c256 = arith.constant 256 : index
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<256xf32>
      %e = math.exp2 %x : f32
      %s = math.sin %x : f32
      memref.store %e, %o[%i] : memref<512xf32>
      %i1 = arith.addi %i, %c256 : index
      memref.store %s, %o[%i1] : memref<512xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @root(%a: memref<256xf32>, %o: memref<256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<256xf32>
      %q = math.sqrt %x : f32
      memref.store %q, %o[%i] : memref<256xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @exp_sin(%a: memref<256xf32>, %o: memref<512xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c256 = arith.constant 256 : index
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<256xf32>
      %e = math.exp2 %x : f32
      %s = math.sin %x : f32
      memref.store %e, %o[%i] : memref<512xf32>
      %i1 = arith.addi %i, %c256 : index
      memref.store %s, %o[%i1] : memref<512xf32>
      gpu.return
    }
  }
}
