// layernorm over the last axis of a 4x16 tensor.
// A tinygrad tensor program (the graph tinygrad hands its scheduler), in the tg/tgt dialects.
// Run by examples/tensor/run.py (make demo): scheduled, compiled and run by us, printed beside numpy.
module {
  %0 = tg.const 64 : !tg.weakint
  %1 = tg.buffer <slot = 4, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 4 : !tg.weakint
  %3 = tg.const 16 : !tg.weakint
  %4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
  %5 = tgt.reshape %1, %4 : tensor<64xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %6 = tgt.permute %5 [1, 0] : tensor<4x16xf32, #tg.addrspace<global>>
  %7 = tgt.reduce <add> 1 %6 : tensor<16x4xf32, #tg.addrspace<global>>
  %8 = tg.const 1 : !tg.weakint
  %9 = tg.stack(%2, %8) : !tg.weakint, !tg.weakint
  %10 = tgt.reshape %7, %9 : tensor<4xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %11 = tg.const 16.0 : !tg.weakfloat
  %12 = tg.reciprocal %11 : !tg.weakfloat
  %13 = tg.mul %10, %12 : tensor<4x1xf32, #tg.addrspace<global>>, !tg.weakfloat
  %14 = tg.const -1.0 : !tg.weakfloat
  %15 = tg.mul %13, %14 : tensor<4x1xf32>, !tg.weakfloat
  %16 = tg.add %5, %15 : tensor<4x16xf32, #tg.addrspace<global>>, tensor<4x1xf32>
  %17 = tg.mul %16, %16 : tensor<4x16xf32>, tensor<4x16xf32>
  %18 = tgt.permute %17 [1, 0] : tensor<4x16xf32>
  %19 = tgt.reduce <add> 1 %18 : tensor<16x4xf32>
  %20 = tgt.reshape %19, %9 : tensor<4xf32>, tensor<2x!tg.weakint>
  %21 = tg.mul %20, %12 : tensor<4x1xf32>, !tg.weakfloat
  %22 = tg.const 1.0e-05 : !tg.weakfloat
  %23 = tg.add %21, %22 : tensor<4x1xf32>, !tg.weakfloat
  %24 = tg.sqrt %23 : tensor<4x1xf32>
  %25 = tg.reciprocal %24 : tensor<4x1xf32>
  %26 = tg.mul %16, %25 : tensor<4x16xf32>, tensor<4x1xf32>
  %27 = tg.sink(%26) : tensor<4x16xf32>
}
