//===- TGKDialect.td - tinygrad kernel-level UOps ----------*- tablegen -*-===//
#ifndef TINYGRAD_DIALECT_TGK_IR_TGKDIALECT_TD
#define TINYGRAD_DIALECT_TGK_IR_TGKDIALECT_TD

include "mlir/IR/OpBase.td"

def TGK_Dialect : Dialect {
  let name = "tgk";
  let cppNamespace = "::mlir::tinygrad::tgk";
  let summary = "tinygrad kernel-level UOps: ranges, indexing, memory, GPU specials";
  let description = [{
    Loops are RANGE values closed by END; they stay a DAG (no regions) until
    linearization, exactly like tinygrad, so that index expressions over
    ranges can be simplified as plain values. STORE is the one observable
    effect; the tensor graph's assign uses it too.
  }];
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect"];
}

class TGK_Op<string mnemonic, list<Trait> traits = []>
    : Op<TGK_Dialect, mnemonic, traits>;

#endif
