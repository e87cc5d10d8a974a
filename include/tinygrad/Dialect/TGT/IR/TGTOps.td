//===- TGTOps.td - tinygrad tensor-level UOps --------------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_TGT_IR_TGTOPS_TD
#define TINYGRAD_DIALECT_TGT_IR_TGTOPS_TD

include "tinygrad/Dialect/TGT/IR/TGTDialect.td"
include "tinygrad/Dialect/TG/IR/TGAttrs.td"
include "tinygrad/Dialect/TG/IR/TGDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TGT_InferredOp<string mnemonic, list<Trait> traits = []>
    : TGT_Op<mnemonic, traits # [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let results = (outs AnyType:$result);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Movement (GroupOp.Movement + UNSHARD)
//===----------------------------------------------------------------------===//

def TGT_ReshapeOp : TGT_InferredOp<"reshape", [TG_MovementTrait]> {
  let summary = "RESHAPE: reinterpret in row-major order (prod(shape) kept)";
  let arguments = (ins AnyType:$src, AnyType:$shape);
  let assemblyFormat = "$src `,` $shape attr-dict `:` type($src) `,` type($shape)";
}

def TGT_ExpandOp : TGT_InferredOp<"expand", [TG_MovementTrait]> {
  let summary = "EXPAND: prepend the axes `shape` (size-1 broadcasting is implicit)";
  let arguments = (ins AnyType:$src, AnyType:$shape);
  let assemblyFormat = "$src `,` $shape attr-dict `:` type($src) `,` type($shape)";
}

def TGT_PermuteOp : TGT_InferredOp<"permute", [TG_MovementTrait]> {
  let summary = "PERMUTE: reorder axes by `perm`";
  let arguments = (ins AnyType:$src, DenseI64ArrayAttr:$perm);
  let assemblyFormat = "$src $perm attr-dict `:` type($src)";
}

def TGT_FlipOp : TGT_InferredOp<"flip", [TG_MovementTrait]> {
  let summary = "FLIP: reverse the flagged axes";
  let arguments = (ins AnyType:$src, DenseBoolArrayAttr:$flags);
  let assemblyFormat = "$src $flags attr-dict `:` type($src)";
}

def TGT_PadOp : TGT_InferredOp<"pad", [TG_MovementTrait]> {
  let summary = "PAD: place src at `offsets` in an Invalid-filled result of `sizes`";
  let arguments = (ins AnyType:$src, AnyType:$offsets, AnyType:$sizes);
  let assemblyFormat = [{
    $src `,` $offsets `,` $sizes attr-dict `:` type($src) `,` type($offsets) `,` type($sizes)
  }];
}

def TGT_ShrinkOp : TGT_InferredOp<"shrink", [TG_MovementTrait]> {
  let summary = "SHRINK: keep `sizes` elements from `offsets` per axis (also a vector view of a buffer)";
  let arguments = (ins AnyType:$src, AnyType:$offsets, AnyType:$sizes);
  let assemblyFormat = [{
    $src `,` $offsets `,` $sizes attr-dict `:` type($src) `,` type($offsets) `,` type($sizes)
  }];
}

def TGT_UnshardOp : TGT_InferredOp<"unshard"> {
  let summary = "UNSHARD: concatenate the shards of each range along its axis";
  let arguments = (ins AnyType:$src, Variadic<AnyType>:$ranges, DenseI64ArrayAttr:$axes);
  let assemblyFormat = [{
    $src `,` $axes (`ranges` `(` $ranges^ `:` type($ranges) `)`)? attr-dict `:` type($src)
  }];
}

//===----------------------------------------------------------------------===//
// Reduce
//===----------------------------------------------------------------------===//

def TGT_ReduceOp : TGT_InferredOp<"reduce"> {
  let summary = "REDUCE: reduce the first `n` axes (tensor) or over `ranges` (kernel)";
  let arguments = (ins AnyType:$src, Variadic<AnyType>:$ranges,
                   TG_ReduceKindAttr:$kind, I64Attr:$n);
  let assemblyFormat = [{
    $kind $n $src (`ranges` `(` $ranges^ `:` type($ranges) `)`)? attr-dict `:` type($src)
  }];
}

def TGT_AllReduceOp : TGT_InferredOp<"allreduce"> {
  let summary = "ALLREDUCE: reduce a multi-device value across `device`";
  let arguments = (ins AnyType:$src, TG_ReduceKindAttr:$kind, AnyAttr:$device);
  let assemblyFormat = "$kind $src `on` `(` $device `)` attr-dict `:` type($src)";
}

//===----------------------------------------------------------------------===//
// Buffer markers and copies
//===----------------------------------------------------------------------===//

class TGT_PassOp<string mnemonic, string sum> : TGT_InferredOp<mnemonic> {
  let summary = sum;
  let arguments = (ins AnyType:$src, OptionalAttr<AnyAttr>:$arg);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}
def TGT_ContiguousOp : TGT_PassOp<"contiguous",
    "CONTIGUOUS: materialize src (arg: optional Opts for the kernel)">;
def TGT_ContiguousBackwardOp : TGT_PassOp<"contiguous_backward",
    "CONTIGUOUS_BACKWARD: contiguous in the backward pass">;
def TGT_DetachOp : TGT_PassOp<"detach", "DETACH: stop gradient">;

def TGT_StageOp : TGT_InferredOp<"stage"> {
  let summary = "STAGE: materialize src over `ranges` (later BUFFER + STORE)";
  let arguments = (ins AnyType:$src, Variadic<AnyType>:$ranges,
                   TG_BufferizeOptsAttr:$opts);
  let assemblyFormat = [{
    $src (`ranges` `(` $ranges^ `:` type($ranges) `)`)? $opts attr-dict `:` type($src)
  }];
}

def TGT_CopyOp : TGT_InferredOp<"copy"> {
  let summary = "COPY: move src to `device` (never changes shape)";
  let arguments = (ins AnyType:$src, AnyAttr:$device);
  let assemblyFormat = "$src `to` `(` $device `)` attr-dict `:` type($src)";
}

def TGT_MSelectOp : TGT_InferredOp<"mselect"> {
  let summary = "MSELECT: pick device `index`'s shard of a multi-device value";
  let arguments = (ins AnyType:$src, I64Attr:$index);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` type($src)";
}

def TGT_MStackOp : TGT_InferredOp<"mstack"> {
  let summary = "MSTACK: build a multi-device value from per-device values";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let assemblyFormat = "$srcs attr-dict `:` type($srcs)";
}

#endif
