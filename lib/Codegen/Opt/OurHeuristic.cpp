//===- OurHeuristic.cpp - our opt choices for the vector lowering ----------===//
#include "tinygrad/Codegen/Opts.h"

namespace mlir::tinygrad::opt {

void ourOptimizations(Scheduler &k) { handCodedOptimizations(k); }

} // namespace mlir::tinygrad::opt
