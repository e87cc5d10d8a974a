//===- TGTypes.td - tinygrad dtypes that MLIR lacks --------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_TG_IR_TGTYPES_TD
#define TINYGRAD_DIALECT_TG_IR_TGTYPES_TD

include "tinygrad/Dialect/TG/IR/TGDialect.td"
include "mlir/IR/AttrTypeBase.td"

class TG_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TG_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TG_VoidType : TG_Type<"Void", "void"> {
  let summary = "effect token: the value of a UOp whose dtype is void";
  let description = [{
    SINK, STORE, GROUP, END, BARRIER, ... have no data in tinygrad but are
    still used as sources (AFTER deps, END bodies, SINK srcs). Giving them a
    token result keeps those edges as SSA uses.
  }];
}

def TG_WeakIntType : TG_Type<"WeakInt", "weakint"> {
  let summary = "untyped integer literal / index arithmetic (tinygrad weakint)";
}

def TG_WeakFloatType : TG_Type<"WeakFloat", "weakfloat"> {
  let summary = "untyped float literal (tinygrad weakfloat)";
}

#endif
