//===- TimingBuffer.cpp - BEAM's zero-filled timing buffers ---------------===//
#include "tinygrad/Execution/TimingBuffer.h"

#include <cstdint>
#include <cstring>
#include <sys/mman.h>

using namespace mlir::tinygrad;

void exec::freeTimingBuffer(TimingBuffer &b) {
  if (b.buf)
    tgrt_buffer_free(b.buf);
  if (b.map)
    ::munmap(b.map, b.mapBytes);
  b = TimingBuffer();
}

tgrt_status exec::zeroedBuffer(tgrt_device *dev, size_t bytes, TimingBuffer &out) {
  out = TimingBuffer();
#ifdef MADV_HUGEPAGE
  if (bytes >= kTimingHugePage) {
    constexpr size_t huge = kTimingHugePage;
    size_t mapBytes = (bytes + huge - 1) / huge * huge + huge; // room to align
    void *m = ::mmap(nullptr, mapBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m != MAP_FAILED) {
      auto *host = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(m) + huge - 1) & ~(huge - 1));
      ::madvise(host, mapBytes - huge, MADV_HUGEPAGE); // advice: 4 KiB pages where not taken
      tgrt_buffer *b = nullptr;
      if (tgrt_buffer_import_host(dev, host, bytes, &b) == TGRT_OK) {
        std::memset(host, 0, bytes); // already zero: the touch
        out = TimingBuffer{b, bytes, m, mapBytes};
        return TGRT_OK;
      }
      ::munmap(m, mapBytes); // not host memory: the runtime's
    }
  }
#endif
  if (tgrt_status s = tgrt_buffer_alloc(dev, bytes, &out.buf); s != TGRT_OK)
    return s;
  out.bytes = bytes;
  return TGRT_OK;
}
