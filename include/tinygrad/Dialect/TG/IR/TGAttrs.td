//===- TGAttrs.td - tinygrad arg structures as attributes --*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_TG_IR_TGATTRS_TD
#define TINYGRAD_DIALECT_TG_IR_TGATTRS_TD

include "tinygrad/Dialect/TG/IR/TGDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def TG_AddrSpace : I32EnumAttr<"AddrSpace", "tinygrad AddrSpace", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Local", 1, "local">,
    I32EnumAttrCase<"Reg", 2, "reg">,
    I32EnumAttrCase<"ALU", 3, "alu">]> {
  let cppNamespace = "::mlir::tinygrad::tg";
  let genSpecializedAttr = 0;
}
def TG_AddrSpaceAttr : EnumAttr<TG_Dialect, TG_AddrSpace, "addrspace"> {
  let assemblyFormat = "`<` $value `>`";
}

// Enum order is tinygrad's: it is also the order of axis_to_pos ties.
def TG_AxisType : I32EnumAttr<"AxisType", "tinygrad AxisType", [
    I32EnumAttrCase<"Device", 0, "device">,
    I32EnumAttrCase<"Global", 1, "global">,
    I32EnumAttrCase<"Warp", 2, "warp">,
    I32EnumAttrCase<"Local", 3, "local">,
    I32EnumAttrCase<"Weak", 4, "weak">,
    I32EnumAttrCase<"GroupReduce", 5, "group_reduce">,
    I32EnumAttrCase<"Reduce", 6, "reduce">,
    I32EnumAttrCase<"Upcast", 7, "upcast">,
    I32EnumAttrCase<"Unroll", 8, "unroll">,
    I32EnumAttrCase<"Thread", 9, "thread">,
    I32EnumAttrCase<"Placeholder", 10, "placeholder">,
    I32EnumAttrCase<"Loop", 11, "loop">]> {
  let cppNamespace = "::mlir::tinygrad::tg";
  let genSpecializedAttr = 0;
}
def TG_AxisTypeAttr : EnumAttr<TG_Dialect, TG_AxisType, "axis_type"> {
  let assemblyFormat = "`<` $value `>`";
}

def TG_OptOps : I32EnumAttr<"OptOps", "tinygrad kernel optimization", [
    I32EnumAttrCase<"TC", 0, "tc">,
    I32EnumAttrCase<"Upcast", 1, "upcast">,
    I32EnumAttrCase<"Unroll", 2, "unroll">,
    I32EnumAttrCase<"Local", 3, "local">,
    I32EnumAttrCase<"Thread", 4, "thread">,
    I32EnumAttrCase<"Group", 5, "group">,
    I32EnumAttrCase<"GroupTop", 6, "grouptop">,
    I32EnumAttrCase<"NoLocals", 7, "nolocals">,
    I32EnumAttrCase<"PadTo", 8, "padto">,
    I32EnumAttrCase<"Swap", 9, "swap">]> {
  let cppNamespace = "::mlir::tinygrad::tg";
  let genSpecializedAttr = 0;
}
def TG_OptOpsAttr : EnumAttr<TG_Dialect, TG_OptOps, "optops"> {
  let assemblyFormat = "`<` $value `>`";
}

// GroupOp.Reduce: the ops a REDUCE/ALLREDUCE may combine with.
def TG_ReduceKind : I32EnumAttr<"ReduceKind", "reduction operator", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Mul", 1, "mul">,
    I32EnumAttrCase<"Max", 2, "max">]> {
  let cppNamespace = "::mlir::tinygrad::tg";
  let genSpecializedAttr = 0;
}
def TG_ReduceKindAttr : EnumAttr<TG_Dialect, TG_ReduceKind, "reduce_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Structured args
//===----------------------------------------------------------------------===//

class TG_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TG_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def TG_InvalidAttr : TG_Attr<"Invalid", "invalid"> {
  let summary = "tinygrad's Invalid: the bool sentinel of a masked (gated) lane";
}

def TG_ParamAttr : TG_Attr<"Param", "param"> {
  let summary = "tinygrad ParamArg: a kernel/function argument or a variable";
  let parameters = (ins
    "int64_t":$slot,
    "::mlir::Type":$dtype,
    OptionalParameter<"::mlir::ArrayAttr">:$vmin_vmax,
    OptionalParameter<"std::optional<int64_t>">:$multiple_of,
    OptionalParameter<"::mlir::StringAttr">:$name,
    DefaultValuedParameter<"::mlir::tinygrad::tg::AddrSpace",
                           "::mlir::tinygrad::tg::AddrSpace::Global">:$addrspace,
    OptionalParameter<"std::optional<int64_t>">:$axis,
    OptionalParameter<"::mlir::Attribute">:$device,
    DefaultValuedParameter<"bool", "false">:$isVolatile,
    OptionalParameter<"std::optional<int64_t>">:$size
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_OptAttr : TG_Attr<"Opt", "opt"> {
  let summary = "tinygrad Opt: one kernel optimization (op, axis, arg)";
  let parameters = (ins
    "::mlir::tinygrad::tg::OptOps":$op,
    OptionalParameter<"std::optional<int64_t>">:$axis,
    OptionalParameter<"::mlir::Attribute">:$arg
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_EstimatesAttr : TG_Attr<"Estimates", "estimates"> {
  let summary = "tinygrad Estimates (ops, lds, mem)";
  let parameters = (ins "::mlir::Attribute":$ops, "::mlir::Attribute":$lds,
                        "::mlir::Attribute":$mem);
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_KernelInfoAttr : TG_Attr<"KernelInfo", "kernel_info"> {
  let summary = "tinygrad KernelInfo: arg of a kernel SINK";
  let parameters = (ins
    StringRefParameter<"kernel name">:$name,
    "::mlir::ArrayAttr":$axis_types,
    DefaultValuedParameter<"bool", "false">:$dont_use_locals,
    "::mlir::ArrayAttr":$applied_opts,
    OptionalParameter<"::mlir::ArrayAttr">:$opts_to_apply,
    OptionalParameter<"::mlir::Attribute">:$estimates,
    DefaultValuedParameter<"int64_t", "0">:$beam
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_CallInfoAttr : TG_Attr<"CallInfo", "call_info"> {
  let summary = "tinygrad CallInfo: arg of CALL";
  let parameters = (ins
    OptionalParameter<"::mlir::StringAttr">:$grad_fxn,
    OptionalParameter<"::mlir::StringAttr">:$name,
    DefaultValuedParameter<"bool", "false">:$precompile,
    DefaultValuedParameter<"bool", "false">:$precompile_backward,
    OptionalParameter<"::mlir::Attribute">:$aux
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def TG_BufferizeOptsAttr : TG_Attr<"BufferizeOpts", "bufferize_opts"> {
  let summary = "tinygrad BufferizeOpts: arg of STAGE";
  let parameters = (ins
    OptionalParameter<"::mlir::Attribute">:$device,
    DefaultValuedParameter<"::mlir::tinygrad::tg::AddrSpace",
                           "::mlir::tinygrad::tg::AddrSpace::Global">:$addrspace,
    DefaultValuedParameter<"bool", "true">:$removable
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif
