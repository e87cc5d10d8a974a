//===- TimingBuffer.cpp - BEAM's zero-filled timing buffers ---------------===//
#include "tinygrad/Execution/TimingBuffer.h"

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <sys/mman.h>
#include <thread>
#include <vector>

using namespace mlir::tinygrad;

void exec::freeTimingBuffer(TimingBuffer &b) {
  if (b.buf)
    tgrt_buffer_free(b.buf);
  if (b.map)
    ::munmap(b.map, b.mapBytes);
  b = TimingBuffer();
}

void *exec::timingHostPointer(const TimingBuffer &b) {
  void *host = nullptr;
  if (!b.buf || tgrt_buffer_host_pointer(b.buf, &host) != TGRT_OK)
    return nullptr;
  return host;
}

void exec::zeroHostRegions(llvm::ArrayRef<std::pair<void *, size_t>> regions, unsigned threads) {
  // The regions end to end, cut in `t` runs of whole huge pages (a page is
  // faulted by one thread only), a run to each thread.
  size_t total = 0;
  for (auto [p, n] : regions)
    total += n;
  unsigned t = (unsigned)std::max<size_t>(1, std::min<size_t>(threads, total / kTimingHugePage));
  size_t per = (total / t + kTimingHugePage - 1) / kTimingHugePage * kTimingHugePage;
  std::vector<std::vector<std::pair<char *, size_t>>> runs(t);
  size_t at = 0; // the offset of the region's start, end to end
  for (auto [p, n] : regions) {
    for (size_t off = 0; off < n;) {
      size_t w = std::min<size_t>((at + off) / per, t - 1);
      size_t len = w + 1 == t ? n - off : std::min(n - off, (w + 1) * per - (at + off));
      runs[w].emplace_back(static_cast<char *>(p) + off, len);
      off += len;
    }
    at += n;
  }
  auto work = [&](unsigned w) {
    for (auto [p, n] : runs[w])
      std::memset(p, 0, n);
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < t; ++w)
    pool.emplace_back(work, w);
  work(0);
  for (std::thread &th : pool)
    th.join();
}

tgrt_status exec::zeroedBuffer(tgrt_device *dev, size_t bytes, TimingBuffer &out, bool touch) {
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
        if (touch)
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
