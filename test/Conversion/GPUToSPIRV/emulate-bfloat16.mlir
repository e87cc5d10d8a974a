// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-emulate-bfloat16)))' --split-input-file --verify-diagnostics | FileCheck %s

// bfloat16 memory becomes i16; a cast to bf16 is tinygrad's
// cast_float_to_bf16 on the f32's bits (round to nearest even where
// (-u & 0x7f800000) != 0, else a NaN's low bits folded into bit 16), a
// cast from it the bits shifted into an f32's top half; a bitcast to half
// reads the bits themselves (test_bitcast_bf16_from_cast: an invalid
// 32-to-16-bit OpBitcast before).
// CHECK-LABEL: gpu.func @casts
// CHECK-SAME: memref<?xi16>
// CHECK-NOT: bf16
// CHECK: %[[U:.*]] = arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.subi %c0{{.*}}, %[[U]]
// CHECK: arith.andi %{{.*}}, %c2139095040_i32
// CHECK: arith.addi %{{.*}}, %c32767_i32
// CHECK: arith.ori %[[U]], %c65536_i32
// CHECK: %[[B:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: memref.store %[[B]], %{{.*}} : memref<?xi16>
// CHECK: %[[L:.*]] = memref.load %{{.*}} : memref<?xi16>
// CHECK: %[[W:.*]] = arith.extui %[[L]] : i16 to i32
// CHECK: %[[S:.*]] = arith.shli %[[W]], %c16_i32
// CHECK: arith.bitcast %[[S]] : i32 to f32
// CHECK: arith.bitcast %[[L]] : i16 to f16
// CHECK: %[[K:.*]] = arith.constant 16256 : i16
// CHECK: memref.store %[[K]]
gpu.module @m {
  gpu.func @casts(%x: f32, %buf: memref<?xbf16>, %out: memref<?xf32>, %h: memref<?xf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = arith.truncf %x : f32 to bf16
    memref.store %t, %buf[%c0] : memref<?xbf16>
    %l = memref.load %buf[%c1] : memref<?xbf16>
    %e = arith.extf %l : bf16 to f32
    memref.store %e, %out[%c0] : memref<?xf32>
    %bc = arith.bitcast %l : bf16 to f16
    memref.store %bc, %h[%c0] : memref<?xf16>
    %one = arith.constant 1.0 : bf16
    memref.store %one, %buf[%c1] : memref<?xbf16>
    gpu.return
  }
}

// -----

// Integers to and from bfloat16 go through f32, as tinygrad's casts do.
// CHECK-LABEL: gpu.func @ints
// CHECK: arith.sitofp %{{.*}} : i32 to f32
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK: arith.shli
// CHECK: arith.fptosi %{{.*}} : f32 to i32
gpu.module @m {
  gpu.func @ints(%i: i32, %buf: memref<?xbf16>, %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %f = arith.sitofp %i : i32 to bf16
    memref.store %f, %buf[%c0] : memref<?xbf16>
    %l = memref.load %buf[%c0] : memref<?xbf16>
    %n = arith.fptosi %l : bf16 to i32
    memref.store %n, %out[%c0] : memref<?xi32>
    gpu.return
  }
}

// -----

// Arithmetic in bfloat16 itself (the emitter computes it in f32) is an error.
gpu.module @m {
  gpu.func @arith(%buf: memref<?xbf16>) kernel {
    %c0 = arith.constant 0 : index
    %l = memref.load %buf[%c0] : memref<?xbf16>
    // expected-error @+1 {{tg-gpu-emulate-bfloat16: 'arith.addf' computes in bfloat16}}
    %s = arith.addf %l, %l : bf16
    memref.store %s, %buf[%c0] : memref<?xbf16>
    gpu.return
  }
}
