// --emit-cubin: PTX assembled in-process by nvJitLink, or by ptxas; the
// cubin's ELF header names the chip. Every test kernel, for sm_80 and sm_90.
// REQUIRES: cuda-toolkit, ptxas
// RUN: for k in add reduce math vec alloc matmul; do for sm in sm_80 sm_90; do \
// RUN:   tinygrad-opt %S/../GPU/Inputs/$k.mlir --tg-gpu-to-nvvm=chip=$sm -o %t.$k.$sm.mlir && \
// RUN:   tinygrad-translate --emit-ptx %t.$k.$sm.mlir -o %t.$k.$sm.ptx && \
// RUN:   %cuda_root/bin/ptxas -arch=$sm %t.$k.$sm.ptx -o %t.$k.$sm.ptxas.cubin && \
// RUN:   tinygrad-translate --emit-cubin --cubin-linker=nvjitlink %t.$k.$sm.mlir -o %t.$k.$sm.cubin && \
// RUN:   tinygrad-translate --emit-cubin --cubin-linker=ptxas %t.$k.$sm.mlir -o %t.$k.$sm.viaptxas.cubin && \
// RUN:   llvm-readelf -h -S %t.$k.$sm.cubin | FileCheck %s -DSM=$sm -DK=$k && \
// RUN:   llvm-readelf -h %t.$k.$sm.viaptxas.cubin | FileCheck %s -DSM=$sm -DK=$k --check-prefix=PTXAS \
// RUN:   || exit 1; done; done

// CHECK: Machine: NVIDIA CUDA
// CHECK: Flags: {{.*}}, [[SM]]
// CHECK-DAG: .text.[[K]]
// CHECK-DAG: .nv.info.[[K]]
// PTXAS: Flags: {{.*}}, [[SM]]
