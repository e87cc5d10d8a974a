//===- TGOps.td - tinygrad core UOps -----------------------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_TG_IR_TGOPS_TD
#define TINYGRAD_DIALECT_TG_IR_TGOPS_TD

include "tinygrad/Dialect/TG/IR/TGDialect.td"
include "tinygrad/Dialect/TG/IR/TGTypes.td"
include "tinygrad/Dialect/TG/IR/TGAttrs.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

// Ops whose result type is derived from operands and attributes with
// tinygrad's dtype_from_uop / _shape rules (see TypeRules.cpp).
class TG_InferredOp<string mnemonic, list<Trait> traits = []>
    : TG_Op<mnemonic, traits # [DeclareOpInterfaceMethods<InferTypeOpInterface>]>;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def TG_ConstOp : TG_Op<"const", [ConstantLike, Pure]> {
  let summary = "CONST: a scalar literal (int, float, bool or Invalid)";
  let description = [{
    tinygrad's CONST. The value is a 128-bit integer (Python ints of every
    dtype fit), an f64 float (already rounded to the dtype), a bool, or
    `invalid` (bool-typed gated-lane sentinel). The result type is stated:
    weak consts are `!tg.weakint`/`!tg.weakfloat`, strong ones name a dtype.

    ```mlir
    %0 = tg.const 16 : !tg.weakint
    %1 = tg.const 1.5 : f32
    %2 = tg.const invalid : i1
    ```
  }];
  let arguments = (ins AnyAttr:$value);
  let results = (outs AnyType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise ALU (GroupOp.ALU)
//===----------------------------------------------------------------------===//

class TG_ALUOp<string mnemonic, string aluOp, list<Trait> traits = []>
    : TG_InferredOp<mnemonic, traits # [Pure]> {
  let results = (outs AnyType:$result);
  let hasFolder = 1;
  let hasVerifier = 1;
  code aluKind = "::mlir::tinygrad::ALUOp::" # aluOp;
  let extraClassDeclaration = [{
    static constexpr ::mlir::tinygrad::ALUOp kALUOp = }] # aluKind # [{;
  }];
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, std::optional<::mlir::Location> loc,
        ::mlir::ValueRange operands, ::mlir::DictionaryAttr,
        ::mlir::OpaqueProperties, ::mlir::RegionRange,
        ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      return ::mlir::tinygrad::tg::inferALUType(ctx, loc, kALUOp, operands,
                                                results);
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::tinygrad::tg::verifyALUSpec(getOperation(), kALUOp);
    }
    ::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {
      return ::mlir::tinygrad::tg::foldALU(getOperation(), kALUOp,
                                           adaptor.getOperands());
    }
  }];
}

class TG_UnaryOp<string mnemonic, string aluOp, string sum>
    : TG_ALUOp<mnemonic, aluOp> {
  let summary = sum;
  let arguments = (ins AnyType:$src);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

class TG_BinaryOp<string mnemonic, string aluOp, string sum,
                  list<Trait> traits = []>
    : TG_ALUOp<mnemonic, aluOp, traits> {
  let summary = sum;
  let arguments = (ins AnyType:$lhs, AnyType:$rhs);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
}

def TG_Exp2Op : TG_UnaryOp<"exp2", "Exp2", "EXP2: 2**x">;
def TG_Log2Op : TG_UnaryOp<"log2", "Log2", "LOG2: log base 2">;
def TG_SinOp : TG_UnaryOp<"sin", "Sin", "SIN: sine">;
def TG_SqrtOp : TG_UnaryOp<"sqrt", "Sqrt", "SQRT: square root">;
def TG_ReciprocalOp : TG_UnaryOp<"reciprocal", "Reciprocal", "RECIPROCAL: 1/x">;
def TG_NegOp : TG_UnaryOp<"neg", "Neg", "NEG: -x (renderer-level)">;
def TG_TruncOp : TG_UnaryOp<"trunc", "Trunc", "TRUNC: round toward zero"> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}

def TG_AddOp : TG_BinaryOp<"add", "Add", "ADD", [Commutative]> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_MulOp : TG_BinaryOp<"mul", "Mul", "MUL", [Commutative]> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_ShlOp : TG_BinaryOp<"shl", "Shl", "SHL: shift left (ints only)"> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_ShrOp : TG_BinaryOp<"shr", "Shr", "SHR: shift right (ints only)"> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_CDivOp : TG_BinaryOp<"cdiv", "CDiv", "CDIV: C truncating division (x/0 = 0)">;
def TG_MaxOp : TG_BinaryOp<"max", "Max", "MAX", [Commutative]> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_CModOp : TG_BinaryOp<"cmod", "CMod", "CMOD: C remainder, x - cdiv(x,y)*y">;
def TG_CmpLtOp : TG_BinaryOp<"cmplt", "CmpLt", "CMPLT: x < y (bool)"> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_CmpNeOp : TG_BinaryOp<"cmpne", "CmpNe", "CMPNE: x != y (bool)", [Commutative]> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_CmpEqOp : TG_BinaryOp<"cmpeq", "CmpEq", "CMPEQ: x == y (bool)", [Commutative]>;
def TG_XorOp : TG_BinaryOp<"xor", "Xor", "XOR", [Commutative]> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_OrOp : TG_BinaryOp<"or", "Or", "OR", [Commutative]> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_AndOp : TG_BinaryOp<"and", "And", "AND", [Commutative]> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_ThreefryOp : TG_BinaryOp<"threefry", "Threefry", "THREEFRY: threefry2x32 PRNG on uint64">;
def TG_SubOp : TG_BinaryOp<"sub", "Sub", "SUB (renderer-level)">;
def TG_FDivOp : TG_BinaryOp<"fdiv", "FDiv", "FDIV: float division">;
def TG_PowOp : TG_BinaryOp<"pow", "Pow", "POW">;
def TG_FloorDivOp : TG_BinaryOp<"floordiv", "FloorDiv", "FLOORDIV: Python // (x//0 = 0)"> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}
def TG_FloorModOp : TG_BinaryOp<"floormod", "FloorMod", "FLOORMOD: Python % (x%0 = 0)"> {
  let hasCanonicalizer = 1; // TGCanonicalization.td
}

def TG_WhereOp : TG_ALUOp<"where", "Where"> {
  let summary = "WHERE: cond ? t : f";
  let hasCanonicalizer = 1; // TGCanonicalization.td
  let arguments = (ins AnyType:$cond, AnyType:$t, AnyType:$f);
  let assemblyFormat = [{
    $cond `,` $t `,` $f attr-dict `:` type($cond) `,` type($t) `,` type($f)
  }];
}
def TG_MulAccOp : TG_ALUOp<"mulacc", "MulAcc"> {
  let summary = "MULACC: a*b+c";
  let arguments = (ins AnyType:$a, AnyType:$b, AnyType:$c);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

class TG_CastLikeOp<string mnemonic, string sum> : TG_InferredOp<mnemonic, [Pure]> {
  let summary = sum;
  let arguments = (ins AnyType:$src, TypeAttr:$dtype);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src `to` $dtype attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
}
def TG_CastOp : TG_CastLikeOp<"cast", "CAST: value conversion to `dtype`">;
def TG_BitcastOp : TG_CastLikeOp<"bitcast",
    "BITCAST: reinterpret storage as `dtype` (rescales the last dim)">;

//===----------------------------------------------------------------------===//
// Structure: stack, sink, group, after, tuple
//===----------------------------------------------------------------------===//

def TG_StackOp : TG_InferredOp<"stack", [Pure]> {
  let summary = "STACK: join srcs along a new leading axis (also shape tuples)";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let results = (outs AnyType:$result);
  let assemblyFormat = "`(` $srcs `)` attr-dict (`:` type($srcs)^)?";
  let hasVerifier = 1;
}

def TG_SinkOp : TG_InferredOp<"sink"> {
  let summary = "SINK: the root collecting outputs/effects; a kernel if arg is KernelInfo";
  let arguments = (ins Variadic<AnyType>:$srcs, OptionalAttr<AnyAttr>:$arg);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "`(` $srcs `)` attr-dict (`:` type($srcs)^)?";
}

def TG_GroupOp : TG_InferredOp<"group"> {
  let summary = "GROUP: unordered merge of stores/ENDs/INS";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "`(` $srcs `)` attr-dict (`:` type($srcs)^)?";
  let hasVerifier = 1;
}

def TG_AfterOp : TG_InferredOp<"after"> {
  let summary = "AFTER: pass src through, ordered after deps (assign = store then after)";
  let arguments = (ins AnyType:$src, Variadic<AnyType>:$deps);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $src (`deps` `(` $deps^ `:` type($deps) `)`)? attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def TG_TupleOp : TG_InferredOp<"tuple", [Pure]> {
  let summary = "TUPLE: pack values; the body of a value-producing CALL";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let results = (outs TG_VoidType:$result);
  let assemblyFormat = "`(` $srcs `)` attr-dict (`:` type($srcs)^)?";
}

def TG_GetTupleOp : TG_Op<"gettuple", [Pure]> {
  let summary = "GETTUPLE: element `index` of a TUPLE (or a CALL with a TUPLE body)";
  let arguments = (ins AnyType:$src, I64Attr:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$src `[` $index `]` attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def TG_NoopOp : TG_Op<"noop"> {
  let summary = "NOOP: placeholder node (any srcs, stated dtype)";
  let arguments = (ins Variadic<AnyType>:$srcs);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$srcs attr-dict `:` functional-type($srcs, $result)";
}

//===----------------------------------------------------------------------===//
// Storage: param, buffer
//===----------------------------------------------------------------------===//

class TG_StorageOp<string mnemonic, string sum> : TG_InferredOp<mnemonic> {
  let summary = sum;
  let arguments = (ins Optional<AnyType>:$shape, TG_ParamAttr:$arg);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$arg (`shape` `(` $shape^ `:` type($shape) `)`)? attr-dict";
  let hasVerifier = 1;
}
def TG_ParamOp : TG_StorageOp<"param",
    "PARAM: a kernel/function argument (buffer, or ALU scalar variable)">;
def TG_BufferOp : TG_StorageOp<"buffer",
    "BUFFER: concrete storage (GLOBAL on a device; LOCAL/REG scratch in kernels)">;

//===----------------------------------------------------------------------===//
// Calls and custom code
//===----------------------------------------------------------------------===//

def TG_CallOp : TG_Op<"call"> {
  let summary = "CALL: substitute PARAM k of `body` with args[k] (or call an address)";
  let description = [{
    The body (SINK/TUPLE/PROGRAM/LINEAR/COPY/CUSTOM_FUNCTION value, or a
    uint64 function address) is the first operand, as in tinygrad: bodies
    are shared DAGs, and keeping them as operands keeps that sharing.
  }];
  let arguments = (ins AnyType:$body, Variadic<AnyType>:$args,
                   OptionalAttr<AnyAttr>:$arg);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $body `(` $args `)` attr-dict `:` functional-type(operands, $result)
  }];
  let hasVerifier = 1;
}

def TG_CustomOp : TG_Op<"custom"> {
  let summary = "CUSTOM: a line of target code; {0},{1}.. are the rendered srcs";
  let arguments = (ins Variadic<AnyType>:$srcs, StrAttr:$fmt);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$fmt ($srcs^)? attr-dict `:` functional-type($srcs, $result)";
}
def TG_CustomIOp : TG_Op<"customi"> {
  let summary = "CUSTOMI: inline target expression; {0},{1}.. are the rendered srcs";
  let arguments = (ins Variadic<AnyType>:$srcs, StrAttr:$fmt);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$fmt ($srcs^)? attr-dict `:` functional-type($srcs, $result)";
}

#endif
