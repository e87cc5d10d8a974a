//===- HCQPasses.td - hcq queue commands to runtime calls ----*- tablegen -*-===//
#ifndef TINYGRAD_CONVERSION_HCQPASSES_TD
#define TINYGRAD_CONVERSION_HCQPASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertHCQToRuntime : Pass<"convert-hcq-to-runtime", "::mlir::ModuleOp"> {
  let summary = "hcq queue commands as calls of the runtime's tgrt_hcq_* functions";
  let description = [{
    Every `func.func` of hcq queue commands (what tg-schedule-to-hcq builds)
    becomes an `llvm.func` of the same name that calls, per op, its function
    of tinygrad-rt/hcq.h (`hcq.queue` -> `tgrt_hcq_queue`, `hcq.exec` ->
    `tgrt_hcq_exec`, ...; IREE's HAL import idea): one host function per
    schedule, `void NAME(tgrt_hcq_state *, void *const *objects, const
    int64_t *vars)`, that needs nothing but the runtime to run (JIT-compiled
    in-process or emitted as an object). An op without a runtime call
    (`hcq.device`, `hcq.alloc`, `hcq.load_program`, the program artefacts)
    is a located error.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif
