//===- Device.h - the CPU device object -------------------------*- C++ -*-===//
//
// A device owns the thread pool kernels run on and one engine per queue type
// (the CPU counterpart of a GPU's compute ring and copy/SDMA ring). Engines
// start on first submit. Closing stops both; the object itself lives until
// its last buffer, program, signal or queue is released.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DEVICE_H
#define TGRT_LIB_DEVICE_H

#include "Object.h"
#include "ThreadPool.h"

#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>

namespace tgrt {
class Engine;
} // namespace tgrt

struct tgrt_device final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x56445254; // "TRDV"
  static constexpr const char *kTypeName = "device";

  tgrt_device(); // out of line: Engine is incomplete here
  ~tgrt_device();

  std::string name;
  uint32_t numThreads = 1;
  std::unique_ptr<tgrt::ThreadPool> pool;

  /// Held shared by calls that use the pool or engines, exclusively to close.
  std::shared_mutex lifecycle;
  bool closed = false; // guarded by lifecycle

  /// Set at close when queued waits can no longer be satisfied.
  std::atomic<bool> cancelWaits{false};

  /// The engine for a queue type, started on first use. Caller holds
  /// `lifecycle` shared and has checked `closed`. Throws if the thread cannot
  /// be started.
  tgrt::Engine &engine(tgrt_queue_type type);
  /// Engines started so far (for synchronize/close).
  tgrt::Engine *startedEngine(int index);

  static constexpr int kNumEngines = 2;

private:
  std::mutex engineMutex_;
  std::unique_ptr<tgrt::Engine> engines_[kNumEngines];
};

namespace tgrt {
/// Fails with TGRT_FAILED_PRECONDITION if the device is closed (caller holds
/// device->lifecycle).
Status checkNotClosed(const tgrt_device *device, const char *function);
/// checkHandle plus checkNotClosed, for calls that create objects on a
/// device (which needs no lock held afterwards: objects may outlive close).
Status checkOpenDevice(tgrt_device *device, const char *function);
} // namespace tgrt

#endif // TGRT_LIB_DEVICE_H
