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
// The first touch of a fresh mapping is the host's page faults: where the
// VM's memory is cold on its host (given back to it since last used) ~3.5
// ms a huge page (115 ms for 64 MB; 5-7 ms warm), taken in parallel for
// each CPU faulting. So the timing child allocates a search's buffers
// untouched and zeroes them all at once on the search's threads
// (zeroHostRegions): 192 MB cold took 352-467 ms on one thread and 145-236
// ms on two in the timing child on the bench host (2 vCPUs).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_TIMINGBUFFER_H
#define TINYGRAD_EXECUTION_TIMINGBUFFER_H

#include "tinygrad-rt/runtime.h"
#include "llvm/ADT/ArrayRef.h"
#include <cstddef>
#include <utility>

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

/// A zero-filled buffer of `bytes` on `dev`, its pages touched; with
/// `touch` false a huge-page mapping is left untouched (zero, as every fresh
/// anonymous mapping, its pages not yet faulted in: the caller touches it,
/// e.g. by zeroHostRegions).
tgrt_status zeroedBuffer(tgrt_device *dev, size_t bytes, TimingBuffer &out, bool touch = true);
/// The host memory of `b` when it has one (the CPU's), else null.
void *timingHostPointer(const TimingBuffer &b);
/// Zeroes every region (host memory), split in chunks of whole huge pages
/// over up to `threads` threads (this one among them).
void zeroHostRegions(llvm::ArrayRef<std::pair<void *, size_t>> regions, unsigned threads);
/// Frees the buffer and unmaps its mapping; `b` is empty after.
void freeTimingBuffer(TimingBuffer &b);

} // namespace mlir::tinygrad::exec

#endif
