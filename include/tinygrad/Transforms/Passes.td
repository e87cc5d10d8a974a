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

class SymbolicPassBase<string name, string sum> : Pass<name> {
  let summary = sum;
  let dependentDialects = ["::mlir::tinygrad::tg::TGDialect"];
}

def SymbolicSimple : SymbolicPassBase<"tg-symbolic-simple",
    "tinygrad's symbolic_simple: constant folding and local algebra"> {
  let description = [{
    Rewrites every UOp graph in the anchor's blocks with tinygrad's
    `symbolic_simple` rules (self/zero folding, exact constant folding, bool
    algebra, cast chains, where folding), using tinygrad's graph_rewrite
    semantics: children first, every result rewritten again to a fixed point,
    shared sub-graphs rewritten once. Graph roots are the UOp results without
    uses; the rewritten graph replaces the old one.
  }];
}

def Symbolic : SymbolicPassBase<"tg-symbolic",
    "tinygrad's sym: the full symbolic simplifier"> {
  let description = [{
    tinygrad's `sym` (symbolic_simple + commutative ordering + term
    combination, lt folding, div/mod folding, simplify_valid and cleanups)
    plus `pm_cast_weak`, with value ranges from tinygrad's vmin/vmax rules.
    Division by zero and rule cycles are reported as errors on the root.
  }];
}

def SimplifyValid : SymbolicPassBase<"tg-simplify-valid",
    "tinygrad's sym + pm_move_where_on_load + indexing_simplify: simplify gated indices"> {
  let description = [{
    Simplifies index expressions under their validity gates (tinygrad's
    `simplify_valid` / `uop_given_valid`), moves WHERE conditions into
    gated loads (`pm_move_where_on_load`) and applies codegen's
    `indexing_simplify` (gated and image index simplification).
  }];
}

def DecomposeCPU : SymbolicPassBase<"tg-decompose-cpu",
    "tinygrad's decompositions for the CPU target (xexp2, xlog2, xsin, xpow)"> {
  let description = [{
    The ops tinygrad's Clang renderer has no code for, rewritten with
    tinygrad's own decompositions (codegen/decomp/transcendental.py): EXP2,
    LOG2 and SIN of float16/32/64 become tinygrad's 1-ulp approximations
    (Payne-Hanek reduction for large sin arguments), other float dtypes go
    through float32, POW becomes xpow. Part of what tg-lower-kernel runs.
  }];
}

def ApplyOpts : SymbolicPassBase<"tg-apply-opts",
    "tinygrad's apply_opts for the CPU: opts_to_apply, or a heuristic's opts"> {
  let description = [{
    On each kernel SINK: KernelInfo.opts_to_apply applied exactly, else the
    heuristic of `mode` (tinygrad: hand_coded_optimizations as tinygrad runs
    it for its CPU renderer; ours: our register tiles and split reduces;
    none: NOOPT). UPCAST/UNROLL/THREAD split a RANGE as tinygrad's shift_to
    does (the new range gets the next axis id and the opt's axis type);
    THREAD ranges then become the core_id variable. Part of what
    tg-lower-kernel runs. An opt that fails is an error naming it.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"ours\"",
           "whose heuristic: ours, tinygrad or none">,
    Option<"threads", "threads", "unsigned", /*default=*/"2",
           "cores available (tinygrad's global_max)">
  ];
}

def CPUThreads : SymbolicPassBase<"tg-cpu-threads",
    "The THREAD opt of tinygrad's CPU heuristics (core_id over the outer axis)"> {
  let description = [{
    On each kernel SINK: the first WEAK axis divisible by the largest thread
    count in {32,16,12,8,6,5,4,3,2} not above `threads` (about 128K ops per
    thread) becomes `core_id * (n/T) + RANGE(n/T)`, core_id a variable in
    [0, T). Outputs are computed the same way; tagged ASTs, kernels with a
    core_id already and symbolic sizes are left alone. Part of what
    tg-lower-kernel runs.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", /*default=*/"2",
           "cores available (tinygrad's global_max)">
  ];
}

def TestPrintIntRanges : Pass<"tg-test-print-int-ranges"> {
  let summary = "Test: print upstream IntegerRangeAnalysis results as remarks";
  let description = [{
    Runs upstream's `IntegerRangeAnalysis` (with `DeadCodeAnalysis` and
    `SparseConstantPropagation`, as upstream's TestIntRangeInference does)
    over the anchor and emits, for each op result with a known integer
    range, a remark `int range [lo, hi] : <type>` (bounds signed for weakint
    and si*, unsigned for ui* and bool) followed by the full
    ConstantIntRanges. Our ops implement InferIntRangeInterface with
    tinygrad's vmin/vmax (lib/Symbolic/IntRanges.cpp), so this checks those
    rules through the upstream dataflow framework.
  }];
}

#endif
