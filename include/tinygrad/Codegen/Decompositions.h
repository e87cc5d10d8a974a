//===- Decompositions.h - ops the target lacks, as rule lists -----*- C++ -*-===//
//
// tinygrad's decompositions (tinygrad/codegen/decomp/) as pattern lists for
// the interned engine. Which lists run is the target's choice: the CPU
// target has no EXP2/LOG2/SIN, like tinygrad's Clang renderer, so it runs
// the transcendental list and computes tinygrad's values.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_DECOMPOSITIONS_H
#define TINYGRAD_CODEGEN_DECOMPOSITIONS_H

#include "tinygrad/Symbolic/Rewrite.h"

namespace mlir::tinygrad::decomp {

/// xexp2 / xlog2 / xsin (get_transcendental_patterns without SQRT: the CPU
/// target keeps SQRT).
const sym::PatternMatcher &transcendentalPatterns();

} // namespace mlir::tinygrad::decomp

#endif
