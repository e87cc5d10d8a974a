//===- GpuProperties.h - what a GPU driver reports and checks ----*- C++ -*-===//
//
// The CUDA and AMD drivers run kernel-parameter programs (cubin, PTX,
// HSACO) on hardware with the same kinds of limits: threads per workgroup
// per dimension and in all, workgroups per dimension, workgroup memory and
// the subgroup (warp, wave) width. They read them from the hardware once and
// answer tgrt_device_query and the launch checks from here.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_GPUPROPERTIES_H
#define TGRT_LIB_GPUPROPERTIES_H

#include "Driver.h"

#include <string>

namespace tgrt {

struct GpuProperties {
  const char *driver = "";  ///< "CUDA", "AMD"
  std::string description;  ///< the product name
  std::string arch;         ///< "sm_90", "gfx942"
  uint32_t maxLocal[3] = {};
  uint32_t maxGroups[3] = {}; ///< workgroups per dimension
  uint32_t maxThreads = 0;    ///< threads per workgroup
  uint32_t sharedBytes = 0;
  uint32_t subgroup = 0;

  /// tgrt_device_query's answer: every dtype width is native, memory is not
  /// host-visible, a view binds at any offset (it is passed as an address).
  void describe(tgrt_device_info &info) const;
  /// The launch's local size is the program's compiled one (when it
  /// declared one: its block size may be folded into the code) and within
  /// the limits, as are its workgroup counts; at most `kernelMaxThreads`
  /// threads per workgroup (the kernel's own limit; 0: the device's).
  Status checkSizes(const char *function, const tgrt_program &program, const Launch &launch,
                    uint32_t kernelMaxThreads = 0) const;
};

} // namespace tgrt

#endif // TGRT_LIB_GPUPROPERTIES_H
