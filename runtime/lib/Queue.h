//===- Queue.h - timeline signals, commands, engines, queues ----*- C++ -*-===//
//
// The CPU driver of the HCQ model. A tgrt_queue is tinygrad's HWQueue: a
// recorded list of commands (exec, copy, signal, wait, timestamp,
// memory_barrier). Submit
// hands an immutable snapshot to the device Engine of the queue's type, a
// thread that plays the role of a GPU ring: it runs snapshots in submission
// order, blocks on waits, and writes signals when it gets to them.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_QUEUE_H
#define TGRT_LIB_QUEUE_H

#include "Program.h"


#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

struct tgrt_signal final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x47535254; // "TRSG"
  static constexpr const char *kTypeName = "signal";

  using Clock = std::chrono::steady_clock;

  tgrt_signal() : Object(kMagic, &Object::destroyAs<tgrt_signal>) {}

  tgrt::Ref<tgrt_device> device;

  uint64_t load() const { return value_.load(std::memory_order_acquire); }
  /// Raises the value to `value` (never lowers it) and wakes waiters.
  void raise(uint64_t value);
  /// Waits until load() >= value or the deadline passes; true if reached.
  bool waitUntil(uint64_t value, Clock::time_point deadline) const;
  void writeTimestamp();
  uint64_t timestamp() const { return timestamp_.load(std::memory_order_acquire); }

private:
  std::atomic<uint64_t> value_{0};
  std::atomic<uint64_t> timestamp_{0};
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
};

namespace tgrt {

/// Deadline `timeout_ms` from now (TGRT_WAIT_INFINITE: never).
tgrt_signal::Clock::time_point deadlineAfter(uint64_t timeoutMs);

struct Command {
  enum Op { Exec, Copy, Signal, Wait, Timestamp, MemoryBarrier };
  explicit Command(Op op) : op(op) {}

  /// Exec, Copy and MemoryBarrier run on the device (DeviceDriver::run);
  /// the others are timeline operations of the engine.
  bool onDevice() const { return op == Exec || op == Copy || op == MemoryBarrier; }
  DeviceCommand deviceCommand() const;

  Op op;
  Launch launch;                       // Exec
  Ref<tgrt_program> program;           // Exec
  std::vector<Ref<tgrt_buffer>> keep;  // buffers named by Exec/Copy
  Ref<tgrt_buffer> dst, src;           // Copy
  size_t dstOffset = 0, srcOffset = 0, size = 0;
  Ref<tgrt_signal> signal;             // Signal/Wait/Timestamp
  uint64_t value = 0;                  // Signal/Wait
};

using CommandList = std::vector<Command>;

/// One in-order execution ring of a device.
class Engine {
public:
  Engine(tgrt_device *device, const char *name);
  ~Engine(); // stops after the ring is empty
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  void submit(std::shared_ptr<const CommandList> batch);
  /// Waits until everything submitted before the call has run (or been
  /// abandoned); false on timeout.
  bool synchronize(tgrt_signal::Clock::time_point deadline);
  /// True when the ring is empty or the engine is blocked in a wait, i.e.
  /// it will make no progress without a signal from elsewhere.
  bool quiescent();
  bool blocked() const { return blocked_.load(std::memory_order_acquire); }
  /// Commands dropped because a wait was cancelled.
  uint64_t abandoned();
  /// Stops the thread once the ring is empty.
  void stop();
  const char *name() const { return name_; }

private:
  void run();
  /// Runs commands [begin, end) of a batch: device commands in runs through
  /// the driver, timeline commands here. Returns how many ran; fewer when a
  /// wait was cancelled or the device failed.
  size_t execute(const CommandList &batch);
  bool waitFor(const tgrt_signal &signal, uint64_t value);

  tgrt_device *device_;
  const char *name_;
  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable idle_;
  std::deque<std::shared_ptr<const CommandList>> ring_;
  uint64_t submitted_ = 0, completed_ = 0, abandoned_ = 0;
  bool stop_ = false;
  std::atomic<bool> blocked_{false};
  std::thread thread_;
};

} // namespace tgrt

struct tgrt_queue final : tgrt::Object {
  static constexpr uint32_t kMagic = 0x55515254; // "TRQU"
  static constexpr const char *kTypeName = "queue";

  tgrt_queue() : Object(kMagic, &Object::destroyAs<tgrt_queue>) {}

  tgrt::Ref<tgrt_device> device;
  tgrt_queue_type type = TGRT_QUEUE_COMPUTE;
  /// The recording; copied on write when a submitted snapshot shares it.
  std::shared_ptr<tgrt::CommandList> commands = std::make_shared<tgrt::CommandList>();
};

#endif // TGRT_LIB_QUEUE_H
