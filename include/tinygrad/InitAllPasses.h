//===- InitAllPasses.h - every tinygrad pass ---------------------*- C++ -*-===//
#ifndef TINYGRAD_INITALLPASSES_H
#define TINYGRAD_INITALLPASSES_H

#include "tinygrad/Transforms/Passes.h"

namespace mlir::tinygrad {
inline void registerAllPasses() { registerTinygradPasses(); }
} // namespace mlir::tinygrad

#endif
