//===- RunsHere.h - whether a target's kernels run on this machine -*- C++ -*-===//
//
// tinygrad-run runs what it compiles wherever the target's runtime device
// opens, and says why not where it does not: a GPU target whose driver this
// machine lacks (no libcuda, no ROCm, no Vulkan ICD) is compiled only, its
// output COMPILED with the runtime's reason, never run on another device.
// The decision is the runtime's (tgrt_device_open), not a list of target
// kinds: the same binary runs CUDA kernels on a machine with a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TOOLS_RUNSHERE_H
#define TINYGRAD_TOOLS_RUNSHERE_H

#include "tinygrad-rt/runtime.h"
#include "tinygrad/Target/TargetDescription.h"
#include <string>

namespace tgrun {

/// The device `target`'s kernels run on, opened (the caller closes it), or
/// null with `whyNot` set: "--compile-only" when `compileOnly`, else the
/// runtime's reason for a GPU target whose device does not open. A CPU
/// device that does not open is an error (null, `whyNot` empty, the
/// runtime's error in tgrt_last_error()): the host always runs its kernels.
inline tgrt_device *openTargetDevice(const mlir::tinygrad::TargetDescription &target, bool compileOnly,
                                     std::string &whyNot) {
  whyNot.clear();
  if (compileOnly) {
    whyNot = "--compile-only";
    return nullptr;
  }
  tgrt_device *dev = nullptr;
  if (tgrt_device_open(target.runtimeDevice(), nullptr, &dev) == TGRT_OK)
    return dev;
  if (target.isGPU())
    whyNot = tgrt_last_error();
  return nullptr;
}

} // namespace tgrun

#endif
