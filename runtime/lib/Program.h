//===- Program.h - loaded programs and launches ------------------*- C++ -*-===//
#ifndef TGRT_LIB_PROGRAM_H
#define TGRT_LIB_PROGRAM_H

#include "Buffer.h"

#include <vector>

struct tgrt_program final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x47505254; // "TRPG"
  static constexpr const char *kTypeName = "program";

  tgrt_program() : Object(kMagic, &Object::destroyAs<tgrt_program>) {}

  tgrt::Ref<tgrt_device> device;
  std::unique_ptr<tgrt::ProgramImpl> impl;
  /// The interface tgrt_program_desc declared (GPU formats).
  uint32_t format = TGRT_FORMAT_ELF;
  uint32_t numBuffers = 0;
  std::vector<uint8_t> scalarBytes;
  bool offsetsWord = false;
  uint32_t localSize[3] = {0, 0, 0};
};

namespace tgrt {

/// Checks a launch (handles, argument kinds, counts, devices, dispatch
/// sizes; then the driver's own checks) and fills `launch`. Buffers named
/// by the arguments are appended to `keep` when given.
Status prepareLaunch(const char *function, const tgrt_program *program, const tgrt_arg *args,
                     uint32_t numArgs, const tgrt_dispatch &dispatch, Launch &launch,
                     std::vector<Ref<tgrt_buffer>> *keep);
/// The argument interface tgrt_program_desc declared for a GPU program:
/// num_buffers buffers first, then the scalars, no more and no fewer.
Status checkArgumentKinds(const char *function, const tgrt_program &program, const Launch &launch);
/// tinygrad's CPU convention (core id argument, thread count) as a dispatch.
tgrt_dispatch cpuDispatch(int32_t coreIdArg, uint32_t nthreads);

} // namespace tgrt

#endif // TGRT_LIB_PROGRAM_H
