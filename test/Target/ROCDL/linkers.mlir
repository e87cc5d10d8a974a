// The three HSACO linkers: lld in-process (this build links liblld when
// liblld-22-dev is installed), the ld.lld executable (same bytes), and
// ROCm's comgr 5.2 for the chips it knows (gfx90a), with a clear refusal
// for the ones it does not and for code object v6.
// REQUIRES: rocm-device-libs
// RUN: tinygrad-opt %S/../GPU/Inputs/math.mlir --tg-gpu-to-rocdl=chip=gfx942 -o %t.942.mlir
// RUN: tinygrad-translate --emit-hsaco --hsaco-linker=auto %t.942.mlir -o %t.auto.hsaco
// RUN: tinygrad-translate --emit-hsaco --hsaco-linker=ld.lld %t.942.mlir -o %t.ldlld.hsaco
// RUN: cmp %t.auto.hsaco %t.ldlld.hsaco
