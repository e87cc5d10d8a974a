//===- Engine.cpp - a device's in-order execution ring --------------------===//
//
// The engine thread takes submissions in order. Runs of device commands go
// to the driver, which may still be executing them when submit returns; the
// submission stays in flight (holding its programs, buffers and signals)
// until the driver's ticket says the run completed. A Signal after device
// work is raised only then, so a signal never runs ahead of the work it
// orders. A Wait that is not yet satisfied first completes everything in
// flight (its signal may be one of ours), then blocks, for at most the
// device's wait timeout.
//
//===----------------------------------------------------------------------===//

#include "Queue.h"

#include <cstring>

using namespace tgrt;

namespace {
// A blocked wait re-checks the device's cancel flag this often.
constexpr auto kCancelPoll = std::chrono::milliseconds(20);
// Submissions the engine lets run ahead of their completion.
constexpr size_t kMaxInFlight = 8;
} // namespace

Engine::Engine(tgrt_device *device, const char *name) : device_(device), name_(name) {
  thread_ = std::thread([this] { run(); });
}

Engine::~Engine() { stop(); }

void Engine::submit(Submission submission) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ring_.push_back(std::move(submission));
    ++submitted_;
  }
  work_.notify_one();
}

bool Engine::synchronize(tgrt_signal::Clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  uint64_t target = submitted_;
  auto done = [&] { return completed_ >= target; };
  if (deadline == tgrt_signal::Clock::time_point::max()) {
    idle_.wait(lock, done);
    return true;
  }
  return idle_.wait_until(lock, deadline, done);
}

bool Engine::quiescent() {
  std::lock_guard<std::mutex> lock(mutex_);
  return completed_ == submitted_ || blocked_.load(std::memory_order_acquire);
}

uint64_t Engine::abandoned() {
  std::lock_guard<std::mutex> lock(mutex_);
  return abandoned_;
}

void Engine::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  work_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

void Engine::finished(uint64_t submissions, uint64_t droppedCommands) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    completed_ += submissions;
    abandoned_ += droppedCommands;
  }
  idle_.notify_all();
}

Engine::WaitResult Engine::waitFor(const tgrt_signal &signal, uint64_t value) {
  if (signal.load() >= value)
    return WaitResult::Reached;
  uint64_t limitMs = device_->waitTimeoutMs.load(std::memory_order_relaxed);
  auto deadline = deadlineAfter(limitMs);
  blocked_.store(true, std::memory_order_release);
  WaitResult result = WaitResult::Reached;
  for (;;) {
    auto now = tgrt_signal::Clock::now();
    auto until = deadline - now > kCancelPoll ? now + kCancelPoll : deadline;
    if (signal.waitUntil(value, until))
      break;
    if (device_->cancelWaits.load(std::memory_order_acquire)) {
      result = WaitResult::Cancelled;
      break;
    }
    if (tgrt_signal::Clock::now() >= deadline) {
      result = WaitResult::TimedOut;
      break;
    }
  }
  blocked_.store(false, std::memory_order_release);
  if (result == WaitResult::TimedOut)
    device_->recordFailure(failf(TGRT_TIMEOUT,
                                 "a queue wait on the %s engine for %s to reach value %llu timed "
                                 "out after %llu ms (it is %llu); the commands behind it were dropped",
                                 name_, signal.describe().c_str(), (unsigned long long)value,
                                 (unsigned long long)limitMs, (unsigned long long)signal.load()));
  return result;
}

bool Engine::completeDevice(uint64_t ticket) {
  if (ticket > doneTicket_) {
    Status s = device_->driver->wait(ticket);
    if (s != TGRT_OK) {
      device_->recordFailure(s);
      deferred_.clear(); // the work they follow did not complete
      return false;
    }
    doneTicket_ = ticket;
  }
  while (!deferred_.empty() && deferred_.front().ticket <= doneTicket_) {
    deferred_.front().signal->raise(deferred_.front().value);
    deferred_.pop_front();
  }
  return true;
}

void Engine::retireOldest() {
  InFlight &f = inflight_.front();
  completeDevice(f.ticket); // a failure is recorded; the submission ends either way
  inflight_.pop_front();    // drops its references after the device is done
  finished(1, 0);
}

bool Engine::drain() {
  bool ok = completeDevice(lastTicket_);
  size_t n = inflight_.size();
  inflight_.clear();
  if (n)
    finished(n, 0);
  return ok;
}

void Engine::raiseAfterDevice(tgrt_signal *signal, uint64_t value) {
  if (lastTicket_ > doneTicket_ || !deferred_.empty())
    deferred_.push_back({lastTicket_, signal, value});
  else
    signal->raise(value);
}

size_t Engine::execute(const Submission &submission) {
  const CommandList &batch = submission.commands();
  const bool stampOnDevice = device_->driver->deviceTimestamps();
  size_t i = 0, n = batch.size();
  while (i < n) {
    const Command &c = batch[i];
    if (c.onDevice(stampOnDevice)) {
      // A run of device commands goes to the driver at once (one command
      // buffer on a GPU).
      size_t j = i;
      run_.clear();
      while (j < n && batch[j].onDevice(stampOnDevice))
        run_.push_back(batch[j++].deviceCommand());
      uint64_t ticket = 0;
      Status s = device_->driver->submit(run_.data(), run_.size(), ticket);
      if (s != TGRT_OK) {
        device_->recordFailure(s);
        return n - i;
      }
      if (ticket > lastTicket_)
        lastTicket_ = ticket;
      i = j;
      continue;
    }
    switch (c.op) {
    case Command::Signal:
      raiseAfterDevice(c.signal.get(), c.valueAt(submission.epoch()));
      break;
    case Command::Wait: {
      uint64_t value = c.valueAt(submission.epoch());
      if (c.signal->load() >= value)
        break;
      // Our own signals in flight may be the ones it waits for.
      if (!drain())
        return n - i;
      WaitResult r = waitFor(*c.signal, value);
      if (r == WaitResult::Cancelled)
        cancelled_ = true;
      if (r != WaitResult::Reached)
        return n - i;
      break;
    }
    case Command::Timestamp:
      // The driver cannot stamp on the device: stamp once the work before
      // it has completed.
      if (!completeDevice(lastTicket_))
        return n - i;
      c.signal->writeTimestamp();
      break;
    default:
      break;
    }
    ++i;
  }
  return 0;
}

void Engine::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (ring_.empty()) {
      if (!inflight_.empty() || !deferred_.empty()) {
        // Nothing more to start: finish what is in flight.
        lock.unlock();
        drain();
        lock.lock();
        continue;
      }
      if (stop_)
        return;
      work_.wait(lock, [this] { return stop_ || !ring_.empty(); });
      continue;
    }
    Submission submission = std::move(ring_.front());
    ring_.pop_front();
    lock.unlock();
    size_t dropped = execute(submission);
    if (dropped) {
      // A cancelled or timed-out wait, or a failed device command: what
      // follows on this ring can never run in order, so drop it all. What
      // was started before still completes.
      drain();
      submission.reset();
      lock.lock();
      uint64_t more = 0, moreCommands = 0;
      for (const Submission &s : ring_)
        ++more, moreCommands += s.commands().size();
      ring_.clear();
      lock.unlock();
      // Work dropped after a failure is reported with the failure; what a
      // close cancelled is counted for close to report.
      finished(1 + more, cancelled_ ? dropped + moreCommands : 0);
      cancelled_ = false;
    } else {
      inflight_.push_back({std::move(submission), lastTicket_});
      // Whatever the device has already finished needs no waiting.
      while (!inflight_.empty() &&
             (inflight_.size() > kMaxInFlight || inflight_.front().ticket <= doneTicket_))
        retireOldest();
    }
    lock.lock();
  }
}
