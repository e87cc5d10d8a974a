//===- LoadKernel.cpp - a compiled kernel onto a runtime device ----------===//
#include "tinygrad/Execution/LoadKernel.h"

#include <vector>

using namespace mlir::tinygrad;

tgrt_status exec::loadKernel(tgrt_device *device, uint32_t format, llvm::StringRef binary,
                             const KernelSignature &sig, const std::array<int64_t, 3> &localSize,
                             tgrt_program **out) {
  if (format == TGRT_FORMAT_ELF)
    return tgrt_program_load(device, binary.data(), binary.size(), sig.name.c_str(), out);
  std::vector<uint8_t> scalarBytes;
  for (DType d : sig.varDTypes)
    scalarBytes.push_back(getInfo(d).bitsize == 64 ? 8 : 4);
  tgrt_program_desc d{};
  d.api_version = TGRT_API_VERSION;
  d.format = format;
  d.binary = binary.data();
  d.size = binary.size();
  d.entry_name = sig.name.c_str();
  d.num_buffers = static_cast<uint32_t>(sig.globals.size());
  d.num_scalars = static_cast<uint32_t>(scalarBytes.size());
  d.scalar_bytes = scalarBytes.data();
  // The Vulkan driver passes views through a word per buffer after the
  // scalars; the kernel-parameter formats take the view's address.
  d.offsets_word = format == TGRT_FORMAT_SPIRV ? 1 : 0;
  for (int i = 0; i < 3; ++i)
    d.local_size[i] = static_cast<uint32_t>(localSize[i]);
  return tgrt_program_create(device, &d, out);
}
