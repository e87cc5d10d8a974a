//===- Passes.td - cross-dialect tinygrad passes -----------*- tablegen -*-===//
#ifndef TINYGRAD_TRANSFORMS_PASSES_TD
#define TINYGRAD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def VerifySpec : Pass<"tg-verify-spec"> {
  let summary = "Check tinygrad's phase spec (tinygrad/uop/spec.py) on every UOp";
  let description = [{
    Runs one of tinygrad's spec matchers over every op nested under the
    anchor: rules are tried in tinygrad's order, the first rule with an
    opinion decides, and a UOp that no rule accepts is rejected. The
    diagnostic names the rule and the offending operand.

    Phases: `shared`, `tensor` (the graph handed to the scheduler and kernel
    ASTs entering codegen), `program` (after codegen), `hcq`,
    `kernel_graph` (the scheduler's output) and `full` (the union used on
    every construction at SPEC=2).
  }];
  let options = [
    Option<"phase", "phase", "std::string", /*default=*/"\"full\"",
           "spec to check: shared, tensor, program, hcq, kernel_graph, full">
  ];
}

#endif
