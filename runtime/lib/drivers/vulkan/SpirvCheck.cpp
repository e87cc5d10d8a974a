//===- SpirvCheck.cpp - the structure of a SPIR-V module ------------------===//

#include "SpirvCheck.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace tgrt;

namespace {
constexpr uint32_t kMagic = 0x07230203u;
constexpr uint32_t kOpEntryPoint = 15, kOpFunction = 54, kOpFunctionEnd = 56;
constexpr uint32_t kGLCompute = 5;
constexpr size_t kHeaderWords = 5;
} // namespace

Status vk::checkSpirvModule(const char *function, const void *binary, size_t size, const char *entry) {
  if (size < kHeaderWords * 4 || size % 4)
    return failf(TGRT_INVALID_OBJECT, "%s: %zu bytes are not a SPIR-V module (a 5-word header and "
                                      "whole words)", function, size);
  size_t n = size / 4;
  std::vector<uint32_t> w(n);
  std::memcpy(w.data(), binary, size);
  if (w[0] != kMagic)
    return failf(TGRT_INVALID_OBJECT, "%s: not a SPIR-V module (magic 0x%08x, not 0x07230203)",
                 function, w[0]);
  if (w[3] == 0)
    return failf(TGRT_INVALID_OBJECT, "%s: SPIR-V id bound is 0", function);
  int open = 0;
  bool entryFound = false;
  uint32_t last = 0;
  for (size_t i = kHeaderWords; i < n;) {
    uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
    if (count == 0 || count > n - i)
      return failf(TGRT_INVALID_OBJECT, "%s: SPIR-V instruction at word %zu (opcode %u) has %u words, "
                                        "%zu are left: the module is truncated or corrupt",
                   function, i, op, count, n - i);
    if (op == kOpFunction && open++)
      return failf(TGRT_INVALID_OBJECT, "%s: SPIR-V function at word %zu begins inside another",
                   function, i);
    if (op == kOpFunctionEnd && --open < 0)
      return failf(TGRT_INVALID_OBJECT, "%s: SPIR-V OpFunctionEnd at word %zu without a function",
                   function, i);
    if (op == kOpEntryPoint && count >= 4 && w[i + 1] == kGLCompute) {
      // The name is a nul-terminated string packed in words i+3...
      const char *name = reinterpret_cast<const char *>(&w[i + 3]);
      size_t maxLen = (count - 3) * 4;
      if (strnlen(name, maxLen) < maxLen && std::strcmp(name, entry) == 0)
        entryFound = true;
    }
    last = op;
    i += count;
  }
  if (open != 0 || last != kOpFunctionEnd)
    return failf(TGRT_INVALID_OBJECT, "%s: the SPIR-V module does not end with a closed function: it "
                                      "is truncated", function);
  if (!entryFound)
    return failf(TGRT_NOT_FOUND, "%s: the SPIR-V module has no GLCompute entry point '%s'", function,
                 entry);
  return TGRT_OK;
}
