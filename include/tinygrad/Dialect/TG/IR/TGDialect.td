//===- TGDialect.td - tinygrad core UOp dialect ------------*- tablegen -*-===//
//
// `tg` holds the UOps that are valid at every level of tinygrad's pipeline:
// constants, elementwise ALU, cast/bitcast, stack, sink/group/after,
// param/buffer and call/tuple.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_DIALECT_TG_IR_TGDIALECT_TD
#define TINYGRAD_DIALECT_TG_IR_TGDIALECT_TD

include "mlir/IR/OpBase.td"

def TG_Dialect : Dialect {
  let name = "tg";
  let cppNamespace = "::mlir::tinygrad::tg";
  let summary = "tinygrad core UOps (valid in tensor graphs, kernels and queues)";
  let description = [{
    One op per tinygrad `Ops` member that is meaningful at every level. Every
    op has exactly one result; ops whose tinygrad dtype is `void` produce a
    `!tg.void` token so that ordering edges (AFTER, END, SINK) stay SSA uses.
    dtypes map to MLIR element types with signedness kept (`si32`, `ui8`,
    `i1` for bool, `f16`, `bf16`, `f8E4M3FN`, ...) plus `!tg.weakint` and
    `!tg.weakfloat`. A value with a non-empty shape is a `tensor<...>`; memory
    (PARAM/BUFFER and views of them) carries a `#tg.addrspace<...>` encoding.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

// GroupOp.Movement: ops that only view their first operand (tinygrad's
// `base` looks through them).
def TG_MovementTrait : NativeOpTrait<"tinygrad::Movement">;

class TG_Op<string mnemonic, list<Trait> traits = []>
    : Op<TG_Dialect, mnemonic, traits>;

#endif
