//===- TGTDialect.td - tinygrad tensor-level UOps ----------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_TGT_IR_TGTDIALECT_TD
#define TINYGRAD_DIALECT_TGT_IR_TGTDIALECT_TD

include "mlir/IR/OpBase.td"

def TGT_Dialect : Dialect {
  let name = "tgt";
  let cppNamespace = "::mlir::tinygrad::tgt";
  let summary = "tinygrad tensor-level UOps: movement, reduce, buffer markers, multi-device";
  let description = [{
    Ops that exist in the tensor graph handed to the scheduler and disappear
    in rangeify. Shapes follow tinygrad's leading-axis conventions: EXPAND
    prepends axes, REDUCE reduces the leading `n` axes. Shape operands are
    UOps (a STACK of weakint, possibly symbolic), as in tinygrad.
  }];
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect"];
}

class TGT_Op<string mnemonic, list<Trait> traits = []>
    : Op<TGT_Dialect, mnemonic, traits>;

#endif
