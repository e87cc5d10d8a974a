//===- Decompositions.h - ops the target lacks, as rule lists -----*- C++ -*-===//
//
// tinygrad's decompositions (tinygrad/codegen/decomp/) as pattern lists for
// the interned engine. Which lists run is the target's choice: the CPU
// target has no EXP2/LOG2/SIN, like tinygrad's Clang renderer, so it runs
// the transcendental list and computes tinygrad's values, and emulates the
// fp8 dtypes at half as tinygrad's dtype decompositions do.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_DECOMPOSITIONS_H
#define TINYGRAD_CODEGEN_DECOMPOSITIONS_H

#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::decomp {

/// pm_cast_float_alu: a float ALU (SIN, LOG2, EXP2, SQRT, RECIPROCAL) over
/// an operand of another dtype (`Tensor.sin` of an int tensor) takes an
/// explicit cast to its own dtype, so the decompositions below compute in
/// floats. tinygrad runs it after "final symbolic", before the decomps.
std::vector<sym::pat::Rule> castFloatAluRules();
const sym::PatternMatcher &castFloatAluPatterns();

/// get_simplifying_rewrite_patterns for the ops no target has: THREEFRY as
/// threefry2x32 in 32-bit halves (the emitter lowers FLOORDIV, FLOORMOD
/// and MAX itself, to the values those rules give).
std::vector<sym::pat::Rule> simplifyingRewriteRules();
/// tinygrad's "early decompositions": symbolic_simple with that list.
const sym::PatternMatcher &earlyDecompositionPatterns();

/// xexp2 / xlog2 / xsin (get_transcendental_patterns without SQRT: the CPU
/// target keeps SQRT).
std::vector<sym::pat::Rule> transcendentalRules();
/// get_late_rewrite_patterns for the Clang renderer's ops, where values differ:
/// RECIPROCAL as FDIV, `a*(1/b)` as `a/b`, NEG and SUB (floats, concrete ints).
std::vector<sym::pat::Rule> lateRewriteRules();
/// tinygrad's "late decompositions": both lists in one rewrite.
const sym::PatternMatcher &transcendentalPatterns();

/// Whether the CPU target emulates `dt` (tinygrad's ClangRenderer
/// supported_dtypes lacks the fp8s; half, bfloat16 and long are native).
bool emulatedOnCPU(DType dt);

/// pm_dtype_decomps on a kernel SINK: every emulated float dtype present
/// (tinygrad's dtype order) becomes uint8 storage and half compute with
/// tinygrad's f2f/f2f_clamp (rounding, saturation, NaN). Null with
/// ctx.errors set when a rewrite fails.
sym::UOpRef dtypeDecompositions(sym::Context &ctx, sym::UOpRef sink);

} // namespace mlir::tinygrad::decomp

#endif
