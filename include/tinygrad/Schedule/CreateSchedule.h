//===- CreateSchedule.h - kernel graph -> LINEAR of calls --------*- C++ -*-===//
//
// tinygrad's create_schedule (kernel DAG from the buffer states each kernel
// reads and writes: RAW edges from producers, WAR edges from readers to the
// next writer of a state, Kahn order), resolve_linear_call (PARAMs -> the
// program's buffers, fresh intermediates, bound variables) and
// pm_copy_from_store.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_CREATESCHEDULE_H
#define TINYGRAD_SCHEDULE_CREATESCHEDULE_H

#include "tinygrad/Symbolic/UOp.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace mlir::tinygrad::sched {

/// create_schedule(sched_sink): a LINEAR of `body.call(*buffers)`. A cycle
/// in the kernel DAG is an error naming the buffers of the kernels on it.
llvm::Expected<sym::UOpRef> createSchedule(sym::Context &ctx, sym::UOpRef schedSink);

/// resolve_linear_call for `CALL(LINEAR, *args)`: PARAM call arguments
/// become the CALL's args, intermediate BUFFERs fresh buffers numbered from
/// `nextSlot`, and the variables of bound-variable arguments get their
/// names back inside the kernels. Returns the LINEAR.
llvm::Expected<sym::UOpRef> resolveLinearCall(sym::Context &ctx, sym::UOpRef linearCall,
                                              int64_t &nextSlot);

/// pm_copy_from_store: kernels that only move a buffer across devices
/// become COPY calls; other kernels must keep their buffers on one device.
llvm::Expected<sym::UOpRef> copyFromStore(sym::Context &ctx, sym::UOpRef linear);

/// var_vals: name -> value of the bound variables among `call`'s args that
/// the schedule's kernels use; conflicting binds are an error.
llvm::Expected<llvm::StringMap<int64_t>> boundVarVals(sym::UOpRef call, sym::UOpRef linear);

/// The compiled-kernel CALLs of a LINEAR (copies apart), as tinygrad counts.
unsigned countKernels(sym::UOpRef linear);

} // namespace mlir::tinygrad::sched

#endif
