// --emit-hsaco: every test kernel for CDNA2 (gfx90a), CDNA3 (gfx942) and
// RDNA3 (gfx1100), compiled in-process and linked by lld; the code object's
// notes list the kernel, its arguments and its wave size, and it is code
// object v5 (ELF ABI version 3).
// REQUIRES: rocm-device-libs
// RUN: for k in add reduce math vec alloc matmul; do for chip in gfx90a:64:true gfx942:64:true gfx1100:32:false; do \
// RUN:   c=${chip%%%%:*}; w=${chip#*:}; w=${w%%%%:*}; w64=${chip##*:}; \
// RUN:   tinygrad-opt %S/../GPU/Inputs/$k.mlir --tg-gpu-to-rocdl="chip=$c wave64=$w64" -o %t.$k.$c.mlir && \
// RUN:   tinygrad-translate --emit-hsaco %t.$k.$c.mlir -o %t.$k.$c.hsaco && \
// RUN:   llvm-readelf -h --notes %t.$k.$c.hsaco | FileCheck %s -DCHIP=$c -DK=$k -DWAVE=$w \
// RUN:   || exit 1; done; done
// RUN: llvm-readelf --notes %t.add.gfx942.hsaco | FileCheck %s --check-prefix=ARGS
// RUN: llvm-readelf --notes %t.reduce.gfx1100.hsaco | FileCheck %s --check-prefix=LDS

// CHECK: OS/ABI: AMDGPU - HSA
// CHECK: ABI Version: 3
// CHECK: Type: DYN
// CHECK: Flags: {{.*}}, [[CHIP]]
// CHECK: amdhsa.kernels:
// CHECK: .name: [[K]]
// CHECK: .wavefront_size: [[WAVE]]
// CHECK: amdhsa.version:
// CHECK-NEXT: - 1
// CHECK-NEXT: - 2

// tinygrad's AMD argument layout: three global buffers, then the int.
// ARGS: .args:
// ARGS: .offset: 0
// ARGS-NEXT: .size: 8
// ARGS-NEXT: .value_kind: global_buffer
// ARGS: .offset: 8
// ARGS: .offset: 16
// ARGS: .offset: 24
// ARGS-NEXT: .size: 4
// ARGS-NEXT: .value_kind: by_value
// ARGS: .reqd_workgroup_size:
// ARGS-NEXT: - 64

// LDS: .group_segment_fixed_size: 256
