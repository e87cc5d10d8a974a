//===- GpuProperties.cpp - what a GPU driver reports and checks -----------===//

#include "GpuProperties.h"

#include "Program.h"

#include <cstring>

using namespace tgrt;

void GpuProperties::describe(tgrt_device_info &info) const {
  std::strncpy(info.driver, driver, sizeof info.driver - 1);
  std::strncpy(info.description, description.c_str(), sizeof info.description - 1);
  std::strncpy(info.arch, arch.c_str(), sizeof info.arch - 1);
  info.features = TGRT_FEATURE_FLOAT16 | TGRT_FEATURE_FLOAT64 | TGRT_FEATURE_INT8 |
                  TGRT_FEATURE_INT16 | TGRT_FEATURE_INT64;
  for (int d = 0; d < 3; ++d) {
    info.max_workgroup_size[d] = maxLocal[d];
    info.max_workgroup_count[d] = maxGroups[d];
  }
  info.max_workgroup_invocations = maxThreads;
  info.shared_memory_bytes = sharedBytes;
  info.subgroup_size = subgroup;
  info.buffer_offset_alignment = 1;
}

Status GpuProperties::checkSizes(const char *function, const tgrt_program &program, const Launch &launch,
                                 uint32_t kernelMaxThreads) const {
  bool fixedLocal = program.localSize[0] && program.localSize[1] && program.localSize[2];
  uint64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    if (fixedLocal && launch.local[d] != program.localSize[d])
      return failf(TGRT_INVALID_ARGUMENT, "%s: local size %ux%ux%u, the program was compiled for %ux%ux%u",
                   function, launch.local[0], launch.local[1], launch.local[2], program.localSize[0],
                   program.localSize[1], program.localSize[2]);
    if (launch.local[d] > maxLocal[d])
      return failf(TGRT_INVALID_ARGUMENT, "%s: local size %u in dimension %d, %s (%s) allows %u", function,
                   launch.local[d], d, description.c_str(), arch.c_str(), maxLocal[d]);
    if (launch.global[d] > maxGroups[d])
      return failf(TGRT_INVALID_ARGUMENT, "%s: %u workgroups in dimension %d, %s (%s) allows %u", function,
                   launch.global[d], d, description.c_str(), arch.c_str(), maxGroups[d]);
    threads *= launch.local[d];
  }
  uint32_t limit = kernelMaxThreads && kernelMaxThreads < maxThreads ? kernelMaxThreads : maxThreads;
  if (threads > limit)
    return failf(TGRT_INVALID_ARGUMENT, "%s: %llu threads per workgroup, %s (%s) allows %u%s", function,
                 (unsigned long long)threads, description.c_str(), arch.c_str(), limit,
                 limit < maxThreads ? " for this kernel (its registers or .maxntid limit it)" : "");
  return TGRT_OK;
}
