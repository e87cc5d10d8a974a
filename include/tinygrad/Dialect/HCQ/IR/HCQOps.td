//===- HCQOps.td - hardware command queue ops --------------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_HCQ_IR_HCQOPS_TD
#define TINYGRAD_DIALECT_HCQ_IR_HCQOPS_TD

include "tinygrad/Dialect/HCQ/IR/HCQDialect.td"
include "tinygrad/Dialect/TG/IR/TGTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Program artefacts and HCQ2 UOps
//===----------------------------------------------------------------------===//

def HCQ_ProgramOp : HCQ_Op<"program"> {
  let summary = "PROGRAM: (SINK[, LINEAR[, SOURCE[, BINARY]]]) plus ProgramInfo";
  let arguments = (ins Variadic<AnyType>:$srcs, OptionalAttr<AnyAttr>:$arg);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "$srcs attr-dict `:` type($srcs)";
  let hasVerifier = 1;
}

def HCQ_LinearOp : HCQ_Op<"linear"> {
  let summary = "LINEAR: an ordered instruction list (linearized kernel or schedule)";
  let arguments = (ins Variadic<AnyType>:$srcs, OptionalAttr<AnyAttr>:$arg);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "`(` $srcs `)` attr-dict (`:` type($srcs)^)?";
}

def HCQ_SourceOp : HCQ_Op<"source", [Pure]> {
  let summary = "SOURCE: rendered code";
  let arguments = (ins StrAttr:$code);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "$code attr-dict";
}

def HCQ_BinaryOp : HCQ_Op<"binary", [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "BINARY: raw bytes; dtype uint8, shape (len,)";
  let arguments = (ins StrAttr:$data);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$data attr-dict";
}

def HCQ_GetAddrOp : HCQ_Op<"getaddr", [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "GETADDR: the uint64 address of a buffer on `device`";
  let arguments = (ins AnyType:$src, AnyAttr:$device);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src `on` `(` $device `)` attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def HCQ_InsOp : HCQ_Op<"ins"> {
  let summary = "INS: one machine instruction or HCQ2 queue command";
  let arguments = (ins Variadic<AnyType>:$srcs, AnyAttr:$arg);
  let results = (outs AnyType:$result);
  let assemblyFormat = "`(` $arg `)` ($srcs^)? attr-dict `:` functional-type($srcs, $result)";
}

def HCQ_CustomFunctionOp : HCQ_Op<"custom_function"> {
  let summary = "CUSTOM_FUNCTION: an opaque device function, invoked through CALL";
  let arguments = (ins Variadic<AnyType>:$srcs, StrAttr:$name);
  let results = (outs TG_VoidType:$result);
  // Parenthesized: a bare optional operand list would swallow the result of
  // the next op (`%x = ...`) when there are no srcs.
  let assemblyFormat = "$name (`(` $srcs^ `:` type($srcs) `)`)? attr-dict";
}

//===----------------------------------------------------------------------===//
// HWQueue vocabulary (one op per runtime entry point)
//===----------------------------------------------------------------------===//

def HCQ_DeviceOp : HCQ_Op<"device"> {
  let summary = "open a device by name";
  let arguments = (ins StrAttr:$name);
  let results = (outs HCQ_DeviceType:$result);
  let assemblyFormat = "$name attr-dict";
}

def HCQ_QueueOp : HCQ_Op<"queue"> {
  let summary = "start recording a queue of `kind` for `device`";
  let arguments = (ins HCQ_DeviceType:$device, HCQ_QueueKindAttr:$kind);
  let results = (outs HCQ_QueueType:$result);
  let assemblyFormat = "$device $kind attr-dict";
}

def HCQ_NewSignalOp : HCQ_Op<"new_signal"> {
  let summary = "create a timeline signal on `device` holding `value`";
  let arguments = (ins HCQ_DeviceType:$device, I64Attr:$value);
  let results = (outs HCQ_SignalType:$result);
  let assemblyFormat = "$device `value` $value attr-dict";
}

def HCQ_AllocOp : HCQ_Op<"alloc"> {
  let summary = "allocate `size` bytes of device memory";
  let arguments = (ins HCQ_DeviceType:$device, I64Attr:$size);
  let results = (outs HCQ_BufferType:$result);
  let assemblyFormat = "$device `size` $size attr-dict";
  let hasVerifier = 1;
}

def HCQ_LoadProgramOp : HCQ_Op<"load_program"> {
  let summary = "load a compiled program `binary` with entry `name` on `device`";
  let arguments = (ins HCQ_DeviceType:$device, StrAttr:$name, StrAttr:$binary);
  let results = (outs HCQ_ExecutableType:$result);
  let assemblyFormat = "$device $name `binary` $binary attr-dict";
}

def HCQ_WaitOp : HCQ_Op<"wait"> {
  let summary = "queue: wait until `signal` >= `value` (also tinygrad's Ops.WAIT)";
  let arguments = (ins HCQ_QueueType:$queue, HCQ_SignalType:$signal, AnyInteger:$value);
  let assemblyFormat = "$queue `,` $signal `,` $value attr-dict `:` type($value)";
}

def HCQ_SignalOp : HCQ_Op<"signal"> {
  let summary = "queue: set `signal` to `value` once prior commands finish";
  let arguments = (ins HCQ_QueueType:$queue, HCQ_SignalType:$signal, AnyInteger:$value);
  let assemblyFormat = "$queue `,` $signal `,` $value attr-dict `:` type($value)";
}

def HCQ_TimestampOp : HCQ_Op<"timestamp"> {
  let summary = "queue: record a timestamp into `signal`";
  let arguments = (ins HCQ_QueueType:$queue, HCQ_SignalType:$signal);
  let assemblyFormat = "$queue `,` $signal attr-dict";
}

def HCQ_MemoryBarrierOp : HCQ_Op<"memory_barrier"> {
  let summary = "queue: make prior writes visible to later commands";
  let arguments = (ins HCQ_QueueType:$queue);
  let assemblyFormat = "$queue attr-dict";
}

def HCQ_ExecOp : HCQ_Op<"exec"> {
  let summary = "queue: launch `program` over global x local dims with args";
  let arguments = (ins HCQ_QueueType:$queue, HCQ_ExecutableType:$program,
                   Variadic<AnyType>:$args, DenseI64ArrayAttr:$global_size,
                   DenseI64ArrayAttr:$local_size);
  let assemblyFormat = [{
    $queue `,` $program `(` $args `)` `global` $global_size `local` $local_size
    attr-dict (`:` type($args)^)?
  }];
  let hasVerifier = 1;
}

def HCQ_CopyOp : HCQ_Op<"copy"> {
  let summary = "queue: copy `size` bytes from `src` to `dst`";
  let arguments = (ins HCQ_QueueType:$queue, HCQ_BufferType:$dst,
                   HCQ_BufferType:$src, I64Attr:$size);
  let assemblyFormat = "$queue `,` $dst `,` $src `,` $size attr-dict";
  let hasVerifier = 1;
}

def HCQ_SubmitOp : HCQ_Op<"submit"> {
  let summary = "submit the recorded `queue` to `device`";
  let arguments = (ins HCQ_QueueType:$queue, HCQ_DeviceType:$device);
  let assemblyFormat = "$queue `to` $device attr-dict";
}

def HCQ_HostWaitOp : HCQ_Op<"host_wait"> {
  let summary = "host: block until `signal` >= `value`";
  let arguments = (ins HCQ_SignalType:$signal, AnyInteger:$value);
  let assemblyFormat = "$signal `,` $value attr-dict `:` type($value)";
}

#endif
