// RUN: tinygrad-opt --tg-expand-bf16 %s | FileCheck %s
// bf16 converts become integer arithmetic: LLVM would otherwise call
// compiler-rt's __truncsfbf2 on hosts without native bf16 converts, which
// tinygrad's object loader cannot resolve.

// CHECK-LABEL: func.func @to_bf16
// CHECK-NOT: arith.truncf
// CHECK: arith.shrui
// CHECK: arith.bitcast {{.*}} : i16 to bf16
func.func @to_bf16(%x: f32) -> bf16 {
  %r = arith.truncf %x : f32 to bf16
  return %r : bf16
}

// CHECK-LABEL: func.func @from_bf16
// CHECK-NOT: arith.extf
// CHECK: arith.shli
func.func @from_bf16(%x: bf16) -> f32 {
  %r = arith.extf %x : bf16 to f32
  return %r : f32
}
