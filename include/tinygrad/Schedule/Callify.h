//===- Callify.h - tinygrad's transform_to_call -------------------*- C++ -*-===//
//
// The tensor graph tinygrad hands its scheduler (a SINK of the tensors to
// realize) becomes one stateless `CALL(SINK(assigns), *buffers)`: every
// realized value gets a buffer (`buf.after(buf.store(x))`), input buffers
// and bound variables become positional PARAMs, and the real buffers are the
// CALL's arguments. The positional form is what the schedule cache keys on.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_CALLIFY_H
#define TINYGRAD_SCHEDULE_CALLIFY_H

#include "tinygrad/Symbolic/UOp.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"
#include <string>

namespace mlir::tinygrad::sched {

struct CallifyResult {
  sym::UOpRef call = nullptr;
  /// tinygrad's buffer_map: each realized tensor-graph node -> the buffer
  /// (with its views) that holds its value after the call.
  llvm::DenseMap<sym::UOpRef, sym::UOpRef> bufferMap;
};

/// transform_to_call on `bigSink`. Fresh buffers are numbered from
/// `nextSlot` (tinygrad's process-wide UOp.unique_num), which is advanced.
/// Graphs this port does not handle (precompiled FUNCTIONs, DISK devices,
/// multi-device views, symbolic realize shapes) are an error naming the node.
llvm::Expected<CallifyResult> callify(sym::Context &ctx, sym::UOpRef bigSink,
                                      int64_t &nextSlot);

/// One past the largest device-buffer slot in `root`'s graph: where fresh
/// buffer numbers can start without colliding with the program's buffers.
int64_t nextFreeBufferSlot(sym::UOpRef root);

} // namespace mlir::tinygrad::sched

#endif
