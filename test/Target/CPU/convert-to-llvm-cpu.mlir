// RUN: tinygrad-opt --tg-convert-to-llvm-cpu --reconcile-unrealized-casts %s | FileCheck %s
// One conversion takes every dialect the kernel lowering emits to the llvm
// dialect; kernel buffers become bare pointers (tinygrad's CPU ABI), not
// memref descriptors.

// CHECK-LABEL: llvm.func @kernel
// CHECK-SAME: (%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i32)
// CHECK-NOT: unrealized_conversion_cast
// CHECK: llvm.load {{.*}} -> vector<8xf32>
// CHECK: llvm.intr.fma
// CHECK: llvm.sdiv
// CHECK: llvm.store {{.*}} : vector<8xf32>, !llvm.ptr
// CHECK: llvm.return
func.func @kernel(%out: memref<64xf32> {llvm.noalias}, %in: memref<64xf32> {llvm.noalias}, %n: i32) {
  %c8 = arith.constant 8 : index
  %two = arith.constant 2 : i32
  %x = vector.load %in[%c8] : memref<64xf32>, vector<8xf32>
  %y = math.fma %x, %x, %x : vector<8xf32>
  %q = arith.floordivsi %n, %two : i32
  %qi = arith.index_cast %q : i32 to index
  vector.store %y, %out[%qi] : memref<64xf32>, vector<8xf32>
  return
}

