//===- HCQDialect.td - hardware command queues -------------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_HCQ_IR_HCQDIALECT_TD
#define TINYGRAD_DIALECT_HCQ_IR_HCQDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def HCQ_Dialect : Dialect {
  let name = "hcq";
  let cppNamespace = "::mlir::tinygrad::hcq";
  let summary = "tinygrad's hardware command queues and program artefacts";
  let description = [{
    Two layers. (1) The UOps that describe compiled programs and HCQ2 command
    graphs: PROGRAM, LINEAR, SOURCE, BINARY, GETADDR, INS, CUSTOM_FUNCTION.
    (2) tinygrad's HWQueue vocabulary, one op per runtime entry point (the
    IREE HAL idea: op, ABI name and C function kept in lock-step): device,
    queue, signals, buffers, executables, wait/signal/timestamp/
    memory_barrier/exec/copy/submit. Ops.WAIT maps to `hcq.wait`.
  }];
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class HCQ_Op<string mnemonic, list<Trait> traits = []>
    : Op<HCQ_Dialect, mnemonic, traits>;

class HCQ_Type<string name, string typeMnemonic>
    : TypeDef<HCQ_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def HCQ_DeviceType : HCQ_Type<"Device", "device"> {
  let summary = "an opened device (\"CPU\", \"CUDA:0\", \"AMD\", ...)";
}
def HCQ_QueueType : HCQ_Type<"Queue", "queue"> {
  let summary = "a hardware queue being recorded (compute or copy)";
}
def HCQ_SignalType : HCQ_Type<"Signal", "signal"> {
  let summary = "a timeline signal: monotonically increasing u64 value + timestamp";
}
def HCQ_BufferType : HCQ_Type<"Buffer", "buffer"> {
  let summary = "device memory";
}
def HCQ_ExecutableType : HCQ_Type<"Executable", "executable"> {
  let summary = "a program loaded on a device (ELF / cubin / hsaco / SPIR-V)";
}

def HCQ_QueueKind : I32EnumAttr<"QueueKind", "queue engine", [
    I32EnumAttrCase<"Compute", 0, "compute">,
    I32EnumAttrCase<"Copy", 1, "copy">]> {
  let cppNamespace = "::mlir::tinygrad::hcq";
  let genSpecializedAttr = 0;
}
def HCQ_QueueKindAttr : EnumAttr<HCQ_Dialect, HCQ_QueueKind, "queue_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif
