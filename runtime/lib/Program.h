//===- Program.h - loaded programs and kernel calls --------------*- C++ -*-===//
#ifndef TGRT_LIB_PROGRAM_H
#define TGRT_LIB_PROGRAM_H

#include "Buffer.h"
#include "ElfLoader.h"

#include <vector>

struct tgrt_program final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x47505254; // "TRPG"
  static constexpr const char *kTypeName = "program";

  tgrt_program() : Object(kMagic, &Object::destroyAs<tgrt_program>) {}

  tgrt::Ref<tgrt_device> device;
  tgrt::LoadedImage image;
};

namespace tgrt {

/// A validated launch: entry point and every argument as tinygrad's CPU
/// convention passes it (uint64 each).
struct KernelCall {
  void *entry = nullptr;
  uint64_t args[TGRT_MAX_ARGS] = {};
  uint32_t numArgs = 0;
  int32_t coreIdArg = -1;
  uint32_t nthreads = 1;
};

/// Checks a launch's arguments against the program and fills `call`.
/// Buffers named by the arguments are appended to `keep` when given.
Status prepareCall(const char *function, const tgrt_program *program, const tgrt_arg *args,
                   uint32_t numArgs, int32_t coreIdArg, uint32_t nthreads, KernelCall &call,
                   std::vector<Ref<tgrt_buffer>> *keep);

/// Runs the call (once, or once per thread id in parallel on `pool`).
void runCall(ThreadPool &pool, const KernelCall &call);

} // namespace tgrt

#endif // TGRT_LIB_PROGRAM_H
