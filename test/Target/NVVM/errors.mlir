// Bad input is a located error, never a crash or a silently wrong binary.
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm=chip=sm_99 | not tinygrad-translate --emit-ptx 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not tinygrad-translate --emit-ptx %S/../GPU/Inputs/add.mlir 2>&1 | FileCheck %s --check-prefix=UNCONVERTED
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-rocdl | not tinygrad-translate --emit-ptx 2>&1 | FileCheck %s --check-prefix=WRONGTARGET
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm | not tinygrad-translate --emit-cubin --cuda-path=%t.nonexistent --cubin-linker=ptxas 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm | env TG_NVJITLINK_LIBRARY=%t.nonexistent/libnvJitLink.so.13 not tinygrad-translate --emit-cubin --cuda-path=%t.nonexistent --cubin-linker=nvjitlink 2>&1 | FileCheck %s --check-prefix=NOJITLINK

// CHIP-NOT: not a recognized processor
// CHIP: error: LLVM's nvptx64 backend does not know the chip 'sm_99'
// UNCONVERTED: error: the gpu.module has no #nvvm.target (run tg-gpu-to-nvvm first)
// WRONGTARGET: error: the gpu.module has no #nvvm.target
// NOPTXAS: error: cannot make a cubin: no ptxas at {{.*}}.nonexistent/bin/ptxas
// NOJITLINK: error: cannot make a cubin: no nvJitLink {{.*}}.nonexistent/libnvJitLink.so.13
