// An arch LLVM knows but this CUDA toolkit cannot assemble (CUDA 13
// dropped sm_70): the linker's refusal, named, from either linker.
// REQUIRES: cuda-toolkit, ptxas
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm=chip=sm_70 -o %t.mlir
// RUN: not tinygrad-translate --emit-cubin --cubin-linker=nvjitlink %t.mlir 2>&1 | FileCheck %s --check-prefix=JITLINK
// RUN: not tinygrad-translate --emit-cubin --cubin-linker=ptxas %t.mlir 2>&1 | FileCheck %s --check-prefix=PTXAS

// JITLINK: error: nvJitLinkCreate(-arch=sm_70) failed with 17 (an arch this nvJitLink cannot target)
// PTXAS: error: ptxas -arch=sm_70 failed: {{.*}}'sm_70' is not defined
