//===- GPU.h - tinygrad's GPU-side codegen steps on the engine ----*- C++ -*-===//
//
// The steps of full_rewrite_to_sink that only matter where a target has
// workgroups (TargetDescription::hasLocal): the grouped reduce through
// workgroup memory (fix_group_for_reduce + add_local_buffer), the launch
// dimensions (pm_add_gpudims: GLOBAL/LOCAL ranges become SPECIAL gidx/lidx,
// grouped and split to the target's limits, global stores masked to the
// threads that own them), and the implicit barriers (pm_implicit_barriers).
// Each is a rewrite of a kernel SINK on the interned engine, as in tinygrad.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_GPU_H
#define TINYGRAD_CODEGEN_GPU_H

#include "tinygrad/Symbolic/UOp.h"
#include "tinygrad/Target/TargetDescription.h"

namespace mlir::tinygrad::gpu {

/// fix_group_for_reduce: a REDUCE over GROUP_REDUCE ranges reduces its other
/// ranges per thread, stores the partial result in a LOCAL buffer indexed
/// by the workgroup's local ids, and reduces that buffer again over fresh
/// REDUCE ranges (every thread; the global store is masked to one by
/// addGPUDims). Null with ctx.errors set on failure.
sym::UOpRef groupForReduce(sym::Context &ctx, sym::UOpRef sink);

/// pm_add_gpudims (+ pm_device_to_var): GLOBAL/THREAD ranges become
/// SPECIAL "gidx<i>" (reversed, grouped or split to globalMax), LOCAL, WARP
/// and GROUP_REDUCE ranges SPECIAL "lidx<i>" (localMax), and a global store
/// that does not depend on some local id is masked to that id being 0.
/// Null with ctx.errors set when the dimensions cannot fit the target.
sym::UOpRef addGPUDims(sym::Context &ctx, sym::UOpRef sink, const TargetDescription &target);

/// pm_implicit_barriers: an AFTER of a LOCAL buffer whose dependencies
/// store to LOCAL memory waits on a BARRIER (read after write), and a loop
/// whose body stores to and loads from the same LOCAL buffer ends with one
/// (write after read).
sym::UOpRef addImplicitBarriers(sym::Context &ctx, sym::UOpRef sink);

} // namespace mlir::tinygrad::gpu

#endif
