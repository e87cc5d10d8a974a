// RUN: tinygrad-opt --tg-convert-to-llvm-cpu --reconcile-unrealized-casts %s | FileCheck %s
// A vector built lane by lane wider than 64 lanes (a gather's loads) is
// built as 16-lane pieces and a balanced tree of shuffles (ConvertToLLVMCPU
// SplitWideFromElements), not one insertelement chain as long as the vector:
// InstCombine walks such a chain again from each link (324 lanes: 0.25 s).
// 70 lanes: pieces of 16, 16, 16, 16 and 6; 32 + 32 -> 64; the 6 widened
// with poison lanes to 64, then 64 + 6 -> 70.

// CHECK-LABEL: llvm.func @wide
// CHECK-NOT: llvm.insertelement {{.*}} : vector<70xf32>
// CHECK-COUNT-2: llvm.shufflevector {{.*}} : vector<16xf32>
// CHECK: llvm.shufflevector {{.*}} : vector<32xf32>
// CHECK: llvm.shufflevector {{.*}} [0, 1, 2, 3, 4, 5, -1, {{.*}}] : vector<6xf32>
// CHECK: llvm.shufflevector {{.*}} [0, 1, {{.*}}, 68, 69] : vector<64xf32>
// CHECK: llvm.return {{.*}} : vector<70xf32>
func.func @wide(%a: f32, %b: f32) -> vector<70xf32> {
  %v = vector.from_elements %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b, %a, %b : vector<70xf32>
  return %v : vector<70xf32>
}

// 64 lanes and fewer stay one from_elements (one insertelement chain).
// CHECK-LABEL: llvm.func @narrow
// CHECK-NOT: llvm.shufflevector
// CHECK: llvm.return {{.*}} : vector<4xf32>
func.func @narrow(%a: f32, %b: f32) -> vector<4xf32> {
  %v = vector.from_elements %a, %b, %a, %b : vector<4xf32>
  return %v : vector<4xf32>
}
