//===- InitAllPasses.h - every tinygrad pass ---------------------*- C++ -*-===//
#ifndef TINYGRAD_INITALLPASSES_H
#define TINYGRAD_INITALLPASSES_H

#include "tinygrad/Conversion/Passes.h"
#include "tinygrad/Transforms/Passes.h"

namespace mlir::tinygrad {
inline void registerAllPasses() {
  registerTinygradPasses();
  registerTinygradConversionPasses();
  registerConversionPipelines();
}
} // namespace mlir::tinygrad

#endif
