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

  tgrt_signal();

  tgrt::Ref<tgrt_device> device;

  /// "signal 'name'", or "signal #id" while it has no name.
  std::string describe() const;
  void setName(std::string name);

  uint64_t load() const { return value_.load(std::memory_order_acquire); }
  /// Raises the value to `value` (never lowers it) and wakes waiters.
  void raise(uint64_t value);
  /// Waits until load() >= value or the deadline passes; true if reached.
  bool waitUntil(uint64_t value, Clock::time_point deadline) const;
  void writeTimestamp();
  void setTimestamp(uint64_t ns) { timestamp_.store(ns, std::memory_order_release); }
  uint64_t timestamp() const { return timestamp_.load(std::memory_order_acquire); }

private:
  const uint64_t id_;
  std::string name_; // guarded by mutex_
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

  /// Exec, Copy and MemoryBarrier run on the device (DeviceDriver::submit),
  /// and so does Timestamp where the driver stamps on the device; the
  /// others are timeline operations of the engine.
  bool onDevice(bool deviceTimestamps) const {
    return op == Exec || op == Copy || op == MemoryBarrier || (op == Timestamp && deviceTimestamps);
  }
  DeviceCommand deviceCommand() const;
  /// The value a Signal/Wait uses in a submission of `epoch` (graphs
  /// rebase their own signals by epoch * span per launch).
  uint64_t valueAt(uint64_t epoch) const { return value + epoch * span; }

  Op op;
  Launch launch;                       // Exec
  Ref<tgrt_program> program;           // Exec
  std::vector<Ref<tgrt_buffer>> keep;  // buffers named by Exec/Copy
  Ref<tgrt_buffer> dst, src;           // Copy
  size_t dstOffset = 0, srcOffset = 0, size = 0;
  Ref<tgrt_signal> signal;             // Signal/Wait/Timestamp
  uint64_t value = 0;                  // Signal/Wait
  uint64_t span = 0;                   // Signal/Wait: per-epoch step (graphs)
};

/// An exec of `program` on `device`, checked as recording it is
/// (tgrt_queue_dispatch; also the graph recorder's).
Status makeExec(const char *function, tgrt_device *device, tgrt_program *program, const tgrt_arg *args,
                uint32_t numArgs, const tgrt_dispatch &dispatch, Command &out);
/// A copy between buffers of `device`, bounds-checked (tgrt_queue_copy).
Status makeCopy(const char *function, tgrt_device *device, tgrt_buffer *dst, size_t dstOffset,
                tgrt_buffer *src, size_t srcOffset, size_t size, Command &out);

/// A recording. `inFlight` counts the submissions holding it: the owner
/// (a queue or a graph) may change it in place only while that is 0, and
/// the engine's release of its count orders its last reads before the
/// owner's writes (shared_ptr::use_count could not: it is a relaxed read).
struct CommandList : std::vector<Command> {
  CommandList() = default;
  CommandList(const CommandList &other) : std::vector<Command>(other) {}
  CommandList &operator=(const CommandList &) = delete;
  /// True when no submission holds it (acquire: their reads are done).
  bool idle() const { return inFlight.load(std::memory_order_acquire) == 0; }
  mutable std::atomic<uint32_t> inFlight{0};
};

/// What an engine runs: a recording, and the epoch its values are taken in.
/// Holding one counts as the recording being in flight.
class Submission {
public:
  Submission() = default;
  Submission(std::shared_ptr<const CommandList> commands, uint64_t epoch)
      : commands_(std::move(commands)), epoch_(epoch) {
    if (commands_)
      commands_->inFlight.fetch_add(1, std::memory_order_relaxed);
  }
  Submission(Submission &&o) noexcept : commands_(std::move(o.commands_)), epoch_(o.epoch_) {}
  Submission &operator=(Submission &&o) noexcept {
    if (this != &o) {
      reset();
      commands_ = std::move(o.commands_);
      epoch_ = o.epoch_;
    }
    return *this;
  }
  Submission(const Submission &) = delete;
  Submission &operator=(const Submission &) = delete;
  ~Submission() { reset(); }

  const CommandList &commands() const { return *commands_; }
  uint64_t epoch() const { return epoch_; }
  /// Lets go of the recording (its owner may then change it).
  void reset() {
    if (commands_) {
      commands_->inFlight.fetch_sub(1, std::memory_order_release);
      commands_.reset();
    }
  }

private:
  std::shared_ptr<const CommandList> commands_;
  uint64_t epoch_ = 0;
};

/// One in-order execution ring of a device. Its thread starts each run of
/// device commands through the driver without waiting for it, keeps the
/// submission (and so every object it names) until the driver reports the
/// run complete, and raises the signals that follow a run only then. A
/// wait that is not yet satisfied first lets everything before it finish.
class Engine {
public:
  Engine(tgrt_device *device, const char *name);
  ~Engine(); // stops after the ring is empty
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  void submit(Submission submission);
  /// Waits until everything submitted before the call has completed (or
  /// been abandoned); false on timeout.
  bool synchronize(tgrt_signal::Clock::time_point deadline);
  /// True when the engine has nothing left to do or is blocked in a wait,
  /// i.e. it will make no progress without a signal from elsewhere.
  bool quiescent();
  bool blocked() const { return blocked_.load(std::memory_order_acquire); }
  /// Commands dropped because close cancelled the wait they were behind.
  uint64_t abandoned();
  /// Stops the thread once the ring is empty.
  void stop();
  const char *name() const { return name_; }

private:
  enum class WaitResult { Reached, Cancelled, TimedOut };

  void run();
  /// Starts a submission's device runs and performs its timeline commands.
  /// Returns the number of commands it dropped (after a failure).
  size_t execute(const Submission &submission);
  /// Waits for the device up to `ticket` and raises the signals deferred
  /// behind it; false (failure recorded) if the device failed.
  bool completeDevice(uint64_t ticket);
  /// Completes the oldest submission in flight.
  void retireOldest();
  /// Completes all device work and every submission in flight.
  bool drain();
  /// Raises a signal now, or once the device work before it completes.
  void raiseAfterDevice(tgrt_signal *signal, uint64_t value);
  WaitResult waitFor(const tgrt_signal &signal, uint64_t value);
  void finished(uint64_t submissions, uint64_t droppedCommands);

  tgrt_device *device_;
  const char *name_;
  std::mutex mutex_;
  std::condition_variable work_;
  std::condition_variable idle_;
  std::deque<Submission> ring_;
  uint64_t submitted_ = 0, completed_ = 0, abandoned_ = 0;
  bool stop_ = false;
  std::atomic<bool> blocked_{false};

  // The engine thread's own state.
  struct InFlight {
    Submission submission;
    uint64_t ticket; // the device is done with it once this ticket is
  };
  struct Deferred {
    uint64_t ticket;
    tgrt_signal *signal; // kept alive by its submission (in flight)
    uint64_t value;
  };
  std::deque<InFlight> inflight_;
  std::deque<Deferred> deferred_;
  uint64_t lastTicket_ = 0, doneTicket_ = 0;
  bool cancelled_ = false; // the last drop came from a cancelled wait
  std::vector<DeviceCommand> run_;

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
