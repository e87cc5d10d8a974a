//===- CallStubs.h - calling a kernel with N uint64 arguments ----*- C++ -*-===//
#ifndef TGRT_LIB_DRIVERS_CPU_CALLSTUBS_H
#define TGRT_LIB_DRIVERS_CPU_CALLSTUBS_H

#include <cstdint>

namespace tgrt::cpu {

/// Calls `entry` as void(uint64_t x numArgs) with args[0..numArgs)
/// (numArgs <= TGRT_MAX_ARGS).
void callKernel(void *entry, const uint64_t *args, uint32_t numArgs);

} // namespace tgrt::cpu

#endif
