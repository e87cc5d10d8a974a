//===- TGKOps.td - tinygrad kernel-level UOps --------------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_TGK_IR_TGKOPS_TD
#define TINYGRAD_DIALECT_TGK_IR_TGKOPS_TD

include "tinygrad/Dialect/TGK/IR/TGKDialect.td"
include "tinygrad/Dialect/TG/IR/TGAttrs.td"
include "tinygrad/Dialect/TG/IR/TGTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TGK_InferredOp<string mnemonic, list<Trait> traits = []>
    : TGK_Op<mnemonic, traits # [DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let hasVerifier = 1;
}

def TGK_RangeOp : TGK_InferredOp<"range", [Pure]> {
  let summary = "RANGE: loop iterator 0..end-1 (void end: a bound-less loop header)";
  let arguments = (ins AnyType:$end, Variadic<AnyType>:$deps,
                   DenseI64ArrayAttr:$ids, TG_AxisTypeAttr:$axis_type);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $end $ids $axis_type (`deps` `(` $deps^ `:` type($deps) `)`)? attr-dict `:` type($end)
  }];
}

def TGK_EndOp : TGK_InferredOp<"end"> {
  let summary = "END: close `ranges` around `body` (or a loop back-edge with a bool)";
  let arguments = (ins AnyType:$body, Variadic<AnyType>:$ranges);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "$body (`,` $ranges^)? attr-dict `:` type($body) (`,` type($ranges)^)?";
}

def TGK_SpecialOp : TGK_InferredOp<"special", [Pure]> {
  let summary = "SPECIAL: a GPU dimension index in [0, end) (gidx*, lidx*, idx*, core_id)";
  let arguments = (ins AnyType:$end, StrAttr:$name);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$name $end attr-dict `:` type($end)";
}

def TGK_IndexOp : TGK_InferredOp<"index", [Pure]> {
  let summary = "INDEX: pointer arithmetic and lane select, indexing from the left";
  let arguments = (ins AnyType:$buf, Variadic<AnyType>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $buf `[` $indices `]` attr-dict `:` type($buf) (`,` type($indices)^)?
  }];
}

def TGK_LoadOp : TGK_InferredOp<"load", [AttrSizedOperandSegments]> {
  let summary = "LOAD: dereference `idx`; with a gate, `alt` where the gate is false";
  let arguments = (ins AnyType:$idx, Optional<AnyType>:$alt, Optional<AnyType>:$gate);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $idx (`else` $alt^ `:` type($alt))? (`if` $gate^ `:` type($gate))? attr-dict `:` type($idx)
  }];
}

def TGK_StoreOp : TGK_InferredOp<"store"> {
  let summary = "STORE: write `value` to `target` (if `gate`); the only observable effect";
  let arguments = (ins AnyType:$target, AnyType:$value, Optional<AnyType>:$gate);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = [{
    $value `,` $target (`if` $gate^ `:` type($gate))? attr-dict `:` type($value) `,` type($target)
  }];
}

def TGK_IfOp : TGK_InferredOp<"if"> {
  let summary = "IF: open a gated block (produced by linearization for gated stores)";
  let arguments = (ins AnyType:$gate, AnyType:$idx);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "$gate `,` $idx attr-dict `:` type($gate) `,` type($idx)";
}

def TGK_EndIfOp : TGK_InferredOp<"endif"> {
  let summary = "ENDIF: close an IF";
  let arguments = (ins TG_VoidType:$if_);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "$if_ attr-dict";
}

def TGK_BarrierOp : TGK_InferredOp<"barrier"> {
  let summary = "BARRIER: workgroup barrier after deps";
  let arguments = (ins Variadic<AnyType>:$deps);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "`(` $deps `)` attr-dict (`:` type($deps)^)?";
}

def TGK_WmmaOp : TGK_InferredOp<"wmma", [Pure]> {
  let summary = "WMMA: tensor-core multiply-accumulate acc + a*b";
  let description = [{
    `arg` is tinygrad's 5-tuple (dims (N,M,K), dtype_in, device, threads,
    tc_upcast_axes or None), kept as an array attribute.
  }];
  let arguments = (ins AnyType:$a, AnyType:$b, AnyType:$acc, ArrayAttr:$arg);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc $arg attr-dict `:` type($a) `,` type($b) `,` type($acc)
  }];
}

#endif
