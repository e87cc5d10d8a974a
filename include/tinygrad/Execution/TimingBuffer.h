//===- TimingBuffer.h - BEAM's zero-filled timing buffers --------*- C++ -*-===//
//
// The buffers a BEAM candidate is timed on (tinygrad's rawbufs): zero-filled
// and every page touched before the first run, so no run pays a page fault.
// On a device of host memory (the CPU) a buffer of a huge page or more is a
// mapping of ours with transparent huge pages asked for (THP's "madvise"
// mode grants them only where asked): first touching 192 MB (add_16m's
// three buffers) took 0.8-0.95 s in 4 KiB pages on the bench host, a fault
// each, against 15-140 ms in 2 MiB pages, and the timing child pays it once
// per search that needs larger buffers and again after each cut-off (a
// fresh child). Smaller buffers, and other devices, are the runtime's
// (tgrt_buffer_alloc zero-fills).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_TIMINGBUFFER_H
#define TINYGRAD_EXECUTION_TIMINGBUFFER_H

#include "tinygrad-rt/runtime.h"
#include <cstddef>

namespace mlir::tinygrad::exec {

/// Buffers from this size up are huge-page mappings where the device's
/// memory is the host's.
constexpr size_t kTimingHugePage = size_t(2) << 20;

/// A timing buffer: the runtime's, or one over a mapping of ours (`map`,
/// `mapBytes`; null for the runtime's), unmapped after the buffer is freed.
struct TimingBuffer {
  tgrt_buffer *buf = nullptr;
  size_t bytes = 0;
  void *map = nullptr;
  size_t mapBytes = 0;
};

/// A zero-filled buffer of `bytes` on `dev`, its pages touched.
tgrt_status zeroedBuffer(tgrt_device *dev, size_t bytes, TimingBuffer &out);
/// Frees the buffer and unmaps its mapping; `b` is empty after.
void freeTimingBuffer(TimingBuffer &b);

} // namespace mlir::tinygrad::exec

#endif
