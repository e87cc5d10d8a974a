// RUN: not tinygrad-opt --split-input-file --tg-kernel-graph %s 2>&1 | FileCheck %s
//
// Bad input is a located diagnostic and a non-zero exit: the tensor dialect's
// shape rules reject malformed movement ops and broadcasts as the program is
// read (naming the op and the shapes), and get_kernel_graph names what it
// cannot schedule.

%0 = tg.const 6 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.const 4 : !tg.weakint
%3 = tg.stack(%2, %2) : !tg.weakint, !tg.weakint
// CHECK: errors.mlir:[[@LINE+1]]:6: error: 'tgt.reshape' op reshape from (6,) to (4, 4) changes the element count (6 vs 16)
%4 = tgt.reshape %1, %3 : tensor<6xf32, #tg.addrspace<global>>, tensor<2x!tg.weakint>
%5 = tg.sink(%4) : tensor<4x4xf32, #tg.addrspace<global>>

// -----
%0 = tg.const 6 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
// CHECK: errors.mlir:[[@LINE+1]]:6: error: perm is not a permutation of 0..0
%2 = tgt.permute %1 [1] : tensor<6xf32, #tg.addrspace<global>>
%3 = tg.sink(%2) : tensor<6xf32, #tg.addrspace<global>>

// -----
%0 = tg.const 6 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.const 4 : !tg.weakint
%3 = tg.const 3 : !tg.weakint
// CHECK: errors.mlir:[[@LINE+1]]:6: error: 'tgt.shrink' op axis 0: offset 4 and size 3 fall outside a dim of 6
%4 = tgt.shrink %1, %2, %3 : tensor<6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%5 = tg.sink(%4) : tensor<3xf32, #tg.addrspace<global>>

// -----
%0 = tg.const 6 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.const 4 : !tg.weakint
%3 = tg.const 3 : !tg.weakint
// CHECK: errors.mlir:[[@LINE+1]]:6: error: 'tgt.pad' op axis 0: offset 4 and size 3 cannot hold a dim of 6
%4 = tgt.pad %1, %2, %3 : tensor<6xf32, #tg.addrspace<global>>, !tg.weakint, !tg.weakint
%5 = tg.sink(%4) : tensor<3xf32, #tg.addrspace<global>>

// -----
%0 = tg.const 6 : !tg.weakint
%1 = tg.param <slot = 0, dtype = f32, device = "CPU"> shape(%0 : !tg.weakint)
%2 = tg.const 4 : !tg.weakint
%3 = tg.param <slot = 1, dtype = f32, device = "CPU"> shape(%2 : !tg.weakint)
// CHECK: errors.mlir:[[@LINE+1]]:6: error: operand #1 shape (4,) does not broadcast with (6,)
%4 = tg.add %1, %3 : tensor<6xf32, #tg.addrspace<global>>, tensor<4xf32, #tg.addrspace<global>>
%5 = tg.sink(%4) : tensor<6xf32>

// -----
// CHECK: errors.mlir:[[@LINE+2]]:6: error: get_kernel_graph failed
// CHECK: note: get_kernel_graph: expected the SINK body of a CALL
%0 = tg.const 6 : !tg.weakint
