//===- HCQToRuntime.h - hcq ops as runtime calls in LLVM ---------*- C++ -*-===//
//
// convert-hcq-to-runtime: every `func.func` of hcq queue commands (what
// tg-schedule-to-hcq builds) becomes an `llvm.func` of the same name that
// calls, per op, its function of tinygrad-rt/hcq.h (hcq.queue ->
// tgrt_hcq_queue, hcq.exec -> tgrt_hcq_exec, ...; IREE's HAL import
// idea): one host function per schedule, with the signature
//
//   void NAME(tgrt_hcq_state *state, void *const *objects, const int64_t *vars)
//
// (objects: the function's device, buffer and executable arguments in
// order; vars: its i64 arguments). It needs nothing but the runtime to run:
// JIT-compiled in-process (exec::HCQHostFunction) or emitted as an object.
// An op without a runtime call (hcq.device, hcq.alloc, hcq.load_program,
// the program artefacts) is a located error.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CONVERSION_HCQTORUNTIME_H
#define TINYGRAD_CONVERSION_HCQTORUNTIME_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tinygrad {

#define GEN_PASS_DECL
#include "tinygrad/Conversion/HCQPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tinygrad/Conversion/HCQPasses.h.inc"

/// Converts every func.func of `module` that takes or uses hcq values.
LogicalResult convertHCQToRuntime(ModuleOp module);

} // namespace mlir::tinygrad

#endif
