// RUN: tinygrad-opt %s --pass-pipeline='builtin.module(gpu.module(gpu.func(tg-gpu-workgroup-attributions)))' -split-input-file -verify-diagnostics | FileCheck %s

// A workgroup alloc (and alloca) at the top of a kernel becomes an
// attribution; its dealloc goes; private allocs stay.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: workgroup(%[[A:.*]] : memref<16xf32, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<4xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.alloca() : memref<2xf32>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: memref.store %{{.*}}, %[[B]]
// CHECK-NOT: memref.dealloc
gpu.module @m {
  gpu.func @k(%x: f32, %y: i32) kernel {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    %b = memref.alloca() : memref<4xi32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<2xf32>
    memref.store %x, %a[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %y, %b[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
    memref.dealloc %a : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @inside_a_branch(%c: i1) kernel {
    scf.if %c {
      // expected-error @+1 {{workgroup memory allocated inside a region}}
      %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @dynamic(%n: index) kernel {
    // expected-error @+1 {{workgroup memory must have a static shape}}
    %a = memref.alloc(%n) : memref<?xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @helper() {
    // expected-error @+1 {{workgroup memory allocated outside a kernel}}
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// Several deallocs of one buffer (one per branch) all go.
// CHECK-LABEL: gpu.func @two_deallocs
// CHECK-SAME: workgroup(
// CHECK-NOT: memref.dealloc
gpu.module @m {
  gpu.func @two_deallocs(%c: i1) kernel {
    %a = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
    scf.if %c {
      memref.dealloc %a : memref<16xf32, #gpu.address_space<workgroup>>
    } else {
      memref.dealloc %a : memref<16xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}
