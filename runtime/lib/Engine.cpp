//===- Engine.cpp - a device's in-order execution ring --------------------===//

#include "Queue.h"

#include <cstring>

using namespace tgrt;

namespace {
// A blocked wait re-checks the device's cancel flag this often.
constexpr auto kCancelPoll = std::chrono::milliseconds(20);
} // namespace

Engine::Engine(tgrt_device *device, const char *name) : device_(device), name_(name) {
  thread_ = std::thread([this] { run(); });
}

Engine::~Engine() { stop(); }

void Engine::submit(std::shared_ptr<const CommandList> batch) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ring_.push_back(std::move(batch));
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
  return ring_.empty() || blocked_.load(std::memory_order_acquire);
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

bool Engine::waitFor(const tgrt_signal &signal, uint64_t value) {
  if (signal.load() >= value)
    return true;
  blocked_.store(true, std::memory_order_release);
  bool reached = false;
  for (;;) {
    if (signal.waitUntil(value, tgrt_signal::Clock::now() + kCancelPoll)) {
      reached = true;
      break;
    }
    if (device_->cancelWaits.load(std::memory_order_acquire) && signal.load() < value)
      break;
  }
  blocked_.store(false, std::memory_order_release);
  return reached;
}

size_t Engine::execute(const CommandList &batch) {
  std::vector<DeviceCommand> run;
  size_t i = 0, n = batch.size();
  while (i < n) {
    const Command &c = batch[i];
    if (c.onDevice()) {
      // A run of device commands goes to the driver at once (one command
      // buffer on a GPU); it has completed when run() returns.
      size_t j = i;
      run.clear();
      while (j < n && batch[j].onDevice())
        run.push_back(batch[j++].deviceCommand());
      Status s = device_->driver->run(run.data(), run.size());
      if (s != TGRT_OK) {
        device_->recordFailure(s);
        return i;
      }
      i = j;
      continue;
    }
    switch (c.op) {
    case Command::Signal:
      c.signal->raise(c.value);
      break;
    case Command::Wait:
      if (!waitFor(*c.signal, c.value))
        return i;
      break;
    case Command::Timestamp:
      c.signal->writeTimestamp();
      break;
    default:
      break;
    }
    ++i;
  }
  return n;
}

void Engine::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_.wait(lock, [this] { return stop_ || !ring_.empty(); });
    if (ring_.empty())
      return; // stop_ with nothing left
    std::shared_ptr<const CommandList> batch = ring_.front();
    lock.unlock();
    size_t total = batch->size();
    size_t done = execute(*batch);
    batch.reset(); // drop references before reporting completion
    lock.lock();
    ring_.pop_front();
    ++completed_;
    if (done < total) {
      // A cancelled wait or a failed device command: what follows it on
      // this ring can never run in order, so drop it all.
      abandoned_ += total - done;
      for (const auto &b : ring_)
        abandoned_ += b->size();
      completed_ += ring_.size();
      ring_.clear();
    }
    idle_.notify_all();
  }
}
