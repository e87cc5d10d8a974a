// ROCm's comgr (Debian's 5.2) as the HSACO linker.
// REQUIRES: rocm-device-libs, comgr
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-rocdl=chip=gfx90a | tinygrad-translate --emit-hsaco --hsaco-linker=comgr -o %t.hsaco
// RUN: llvm-readelf -h --notes %t.hsaco | FileCheck %s
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-rocdl=chip=gfx942 | not tinygrad-translate --emit-hsaco --hsaco-linker=comgr 2>&1 | FileCheck %s --check-prefix=GFX942
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-rocdl="chip=gfx90a abi=600" | not tinygrad-translate --emit-hsaco --hsaco-linker=comgr 2>&1 | FileCheck %s --check-prefix=COV6

// CHECK: ABI Version: 3
// CHECK: Flags: {{.*}}, gfx90a
// CHECK: .name: math
// GFX942: error: comgr failed to link the HSACO for gfx942: comgr 5.2 does not know the ISA amdgcn-amd-amdhsa--gfx942 (it links gfx90a and older; use lld)
// COV6: error: comgr 5.2 cannot link code object v6 (it knows v4 and v5; use abi=500 or lld)
