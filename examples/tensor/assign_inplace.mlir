// in-place update a = a * 2 + b: a 2x3 (the program's first buffer), b 2x3.
// A tinygrad tensor program (the graph tinygrad hands its scheduler), in the tg/tgt dialects.
// Run by examples/tensor/run.py (make demo): scheduled, compiled and run by us, printed beside numpy.
module {
  %0 = tg.const 6 : !tg.weakint
  %1 = tg.buffer <slot = 8, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %2 = tg.const 2 : !tg.weakint
  %3 = tg.const 3 : !tg.weakint
  %4 = tg.stack(%2, %3) : !tg.weakint, !tg.weakint
  %5 = tgt.reshape %1, %4 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %6 = tg.const 2.0 : !tg.weakfloat
  %7 = tg.mul %5, %6 : tensor<2x3xf32, #tg.addrspace<global>>, !tg.weakfloat
  %8 = tg.buffer <slot = 9, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
  %9 = tgt.reshape %8, %4 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
  %10 = tg.add %7, %9 : tensor<2x3xf32>, tensor<2x3xf32, #tg.addrspace<global>>
  %11 = tgk.store %10, %5 : tensor<2x3xf32>, tensor<2x3xf32, #tg.addrspace<global>>
  %12 = tg.after %5 deps(%11 : !tg.void) : tensor<2x3xf32, #tg.addrspace<global>>
  %13 = tg.sink(%12) : tensor<2x3xf32, #tg.addrspace<global>>
}
