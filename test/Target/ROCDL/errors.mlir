// Bad input is a located error, never a crash or a silently wrong binary.
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-rocdl | not tinygrad-translate --emit-hsaco --rocm-device-libs=%t.nonexistent 2>&1 | FileCheck %s --check-prefix=NOLIBS
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-rocdl=chip=gfx999 | not tinygrad-translate --emit-hsaco 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-rocdl="chip=gfx90a wave64=false" | not tinygrad-translate --emit-hsaco 2>&1 | FileCheck %s --check-prefix=WAVE
// RUN: tinygrad-opt %S/../GPU/Inputs/add.mlir --tg-gpu-to-nvvm | not tinygrad-translate --emit-hsaco 2>&1 | FileCheck %s --check-prefix=WRONGTARGET
// Without any device library a kernel without math still compiles:
// RUN: tinygrad-opt %S/../GPU/Inputs/reduce.mlir --tg-gpu-to-rocdl | tinygrad-translate --emit-hsaco --rocm-device-libs=%t.nonexistent -o %t.hsaco
// RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOMATH

// NOLIBS: error: the kernel calls ROCm device-library functions (__ocml_*) but there is no {{.*}}.nonexistent/ocml.bc (install rocm-device-libs, or set TG_ROCM_DEVICE_LIBS / --rocm-device-libs)
// CHIP-NOT: not a recognized processor
// CHIP: error: LLVM's amdgcn backend does not know the chip 'gfx999'
// WAVE: error: gfx90a runs only 64-wide waves (wave64 must be set)
// WRONGTARGET: error: the gpu.module has no #rocdl.target (run tg-gpu-to-rocdl first)
// NOMATH: .name: reduce
