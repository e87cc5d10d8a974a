// relu(x @ w + b): x 4x8, w 8x3, b 3.
// A tinygrad tensor program (the graph tinygrad hands its scheduler), in the tg/tgt dialects.
// Run by examples/tensor/run.py (make demo): scheduled, compiled and run by us, printed beside numpy.
module {
  %0 = tg.const 0.0 : !tg.weakfloat
  %1 = tg.const 32 : !tg.weakint
  %2 = tg.buffer <slot = 0, dtype = f32, device = "CPU"> shape(%1 : !tg.weakint)
  %3 = tg.const 4 : !tg.weakint
  %4 = tg.const 8 : !tg.weakint
  %5 = tg.stack(%3, %4) : !tg.weakint, !tg.weakint
  %6 = tgt.reshape %2, %5 : tensor<32xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %7 = tg.const 1 : !tg.weakint
  %8 = tg.stack(%3, %7, %4) : !tg.weakint, !tg.weakint, !tg.weakint
  %9 = tgt.reshape %6, %8 : tensor<4x8xf32, #tg.addrspace<global>>, tensor<3x!tg.weakint>
  %10 = tg.const 24 : !tg.weakint
  %11 = tg.buffer <slot = 1, dtype = f32, device = "CPU"> shape(%10 : !tg.weakint)
  %12 = tg.const 3 : !tg.weakint
  %13 = tg.stack(%4, %12) : !tg.weakint, !tg.weakint
  %14 = tgt.reshape %11, %13 : tensor<24xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %15 = tg.stack(%7, %4, %12) : !tg.weakint, !tg.weakint, !tg.weakint
  %16 = tgt.reshape %14, %15 : tensor<8x3xf32, #tg.addrspace<global>>, tensor<3x!tg.weakint>
  %17 = tgt.permute %16 [0, 2, 1] : tensor<1x8x3xf32, #tg.addrspace<global>>
  %18 = tg.mul %9, %17 : tensor<4x1x8xf32, #tg.addrspace<global>>, tensor<1x3x8xf32, #tg.addrspace<global>>
  %19 = tgt.permute %18 [2, 0, 1] : tensor<4x3x8xf32>
  %20 = tgt.reduce <add> 1 %19 : tensor<8x4x3xf32>
  %21 = tg.buffer <slot = 2, dtype = f32, device = "CPU"> shape(%12 : !tg.weakint)
  %22 = tg.add %20, %21 : tensor<4x3xf32>, tensor<3xf32, #tg.addrspace<global>>
  %23 = tg.cmplt %0, %22 : !tg.weakfloat, tensor<4x3xf32>
  %24 = tg.where %23, %22, %0 : tensor<4x3xi1>, tensor<4x3xf32>, !tg.weakfloat
  %25 = tg.sink(%24) : tensor<4x3xf32>
}
