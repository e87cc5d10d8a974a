//===- Device.h - the device object ------------------------------*- C++ -*-===//
//
// A device is a driver's device (DeviceDriver) plus what every driver shares:
// one engine per queue type (the counterpart of a GPU's compute ring and its
// copy/SDMA ring), started on first submit, and the first failure of work
// that ran asynchronously. Closing stops the engines; the object itself lives
// until its last buffer, program, signal or queue is released.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DEVICE_H
#define TGRT_LIB_DEVICE_H

#include "Driver.h"
#include "Object.h"

#include <atomic>
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
  std::unique_ptr<tgrt::DeviceDriver> driver;

  /// Held shared by calls that use the driver or engines, exclusively to close.
  std::shared_mutex lifecycle;
  bool closed = false; // guarded by lifecycle

  /// tgrt_device_set_wait_timeout's limit for queue waits (ms).
  std::atomic<uint64_t> waitTimeoutMs;

  /// Set at close when queued waits can no longer be satisfied.
  std::atomic<bool> cancelWaits{false};

  /// The engine for a queue type, started on first use. Caller holds
  /// `lifecycle` shared and has checked `closed`. Throws if the thread cannot
  /// be started.
  tgrt::Engine &engine(tgrt_queue_type type);
  /// Engines started so far (for synchronize/close).
  tgrt::Engine *startedEngine(int index);

  static constexpr int kNumEngines = 2;

  /// Records the first failure of submitted work (the calling thread's last
  /// error); tgrt_device_synchronize and close report it.
  void recordFailure(tgrt::Status status);
  /// TGRT_OK, or the recorded failure (re-raised as the caller's last error).
  tgrt::Status takeFailure(const char *function);

private:
  std::mutex engineMutex_;
  std::unique_ptr<tgrt::Engine> engines_[kNumEngines];
  std::mutex failureMutex_;
  tgrt::Status failure_ = TGRT_OK;
  std::string failureMessage_;
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
