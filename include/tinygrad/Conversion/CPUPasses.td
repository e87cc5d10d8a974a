//===- CPUPasses.td - a CPU kernel to the llvm dialect -------*- tablegen -*-===//
#ifndef TINYGRAD_CONVERSION_CPUPASSES_TD
#define TINYGRAD_CONVERSION_CPUPASSES_TD

include "mlir/Pass/PassBase.td"

def ApproximateMath : Pass<"tg-approximate-math"> {
  let summary = "Expand exp2/log2/sin/... into polynomial approximations (no libm calls)";
  let description = [{
    The math ops a CPU kernel still has after tinygrad's decompositions
    become MLIR's polynomial approximations (upstream's patterns, exp2
    expanded first): they vectorize, and the object calls no libm function,
    which tinygrad's CPU loader cannot link. A module without math ops is
    left untouched without running the pattern driver.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def ExpandBF16 : Pass<"tg-expand-bf16"> {
  let summary = "Expand bf16 extf/truncf into integer operations (no compiler-rt calls)";
  let description = [{
    bf16 conversions become integer bit operations (upstream's
    arith expand patterns: round to nearest even, NaN kept quiet). LLVM
    lowers them to compiler-rt calls (`__truncsfbf2`) on hosts without
    native bf16 converts, which tinygrad's loader cannot link.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def ConvertToLLVMCPU : Pass<"tg-convert-to-llvm-cpu", "::mlir::ModuleOp"> {
  let summary = "vector/math/arith/memref/func/cf/ub to the llvm dialect in one conversion";
  let description = [{
    What upstream's six *-to-llvm passes do, as one conversion whose pattern
    sets are built once in `initialize()`: a pass manager kept across
    kernels (CPUCompiler) pays for the patterns once per context, and each
    kernel is walked by one conversion instead of six. The patterns are
    upstream's; only their grouping is ours. Kernel arguments are bare
    pointers (tinygrad's CPU calling convention), not memref descriptors.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif
