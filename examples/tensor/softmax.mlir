// softmax over the last axis of a 4x6 tensor.
// A tinygrad tensor program (the graph tinygrad hands its scheduler), in the tg/tgt dialects.
// Run by examples/tensor/run.py (make demo): scheduled, compiled and run by us, printed beside numpy.
module {
  %0 = tg.const 24 : !tg.weakint
  %1 = tg.buffer <slot = 3, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 4 : !tg.weakint
  %3 = tg.const 6 : !tg.weakint
  %4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
  %5 = tgt.reshape %1, %4 : tensor<24xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %6 = tgt.permute %5 [1, 0] : tensor<4x6xf32, #tg.addrspace<global>>
  %7 = tgt.reduce <max> 1 %6 : tensor<6x4xf32, #tg.addrspace<global>>
  %8 = tg.const 1 : !tg.weakint
  %9 = tg.stack(%2, %8) : !tg.weakint, !tg.weakint
  %10 = tgt.reshape %7, %9 : tensor<4xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %11 = tgt.detach %10 : tensor<4x1xf32, #tg.addrspace<global>>
  %12 = tg.const -1.0 : !tg.weakfloat
  %13 = tg.mul %11, %12 : tensor<4x1xf32, #tg.addrspace<global>>, !tg.weakfloat
  %14 = tg.add %5, %13 : tensor<4x6xf32, #tg.addrspace<global>>, tensor<4x1xf32>
  %15 = tg.const 1.4426950408889634 : !tg.weakfloat
  %16 = tg.mul %14, %15 : tensor<4x6xf32>, !tg.weakfloat
  %17 = tg.exp2 %16 : tensor<4x6xf32>
  %18 = tgt.permute %17 [1, 0] : tensor<4x6xf32>
  %19 = tgt.reduce <add> 1 %18 : tensor<6x4xf32>
  %20 = tgt.reshape %19, %9 : tensor<4xf32>, tensor<2x!tg.weakint>
  %21 = tg.reciprocal %20 : tensor<4x1xf32>
  %22 = tg.mul %17, %21 : tensor<4x6xf32>, tensor<4x1xf32>
  %23 = tg.sink(%22) : tensor<4x6xf32>
}
