//===- ThreadPool.cpp - persistent workers for parallel launches ----------===//

#include "ThreadPool.h"

#include <sched.h>

namespace tgrt {

ThreadPool::ThreadPool(uint32_t threads) {
  try {
    for (uint32_t i = 1; i < threads; ++i)
      workers_.emplace_back([this, i] { workerLoop(i - 1); });
  } catch (...) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread &t : workers_)
      t.join();
    throw;
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread &t : workers_)
    t.join();
}

uint32_t ThreadPool::availableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0)
      return static_cast<uint32_t>(n);
  }
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

void ThreadPool::runItems() {
  for (;;) {
    uint32_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= count_)
      return;
    task_(context_, i);
  }
}

void ThreadPool::parallelFor(uint32_t n, Task task, void *context) {
  if (n == 0)
    return;
  std::lock_guard<std::mutex> job(jobMutex_);
  uint32_t helpers = std::min<uint32_t>(static_cast<uint32_t>(workers_.size()), n - 1);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = task;
    context_ = context;
    count_ = n;
    next_.store(0, std::memory_order_relaxed);
    helpers_ = helpers;
    pending_ = helpers;
    if (helpers)
      ++generation_;
  }
  if (helpers)
    wake_.notify_all();
  runItems();
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
}

void ThreadPool::workerLoop(uint32_t workerIndex) {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_)
      return;
    seen = generation_;
    if (workerIndex >= helpers_)
      continue;
    lock.unlock();
    runItems();
    lock.lock();
    if (--pending_ == 0)
      done_.notify_one();
  }
}

} // namespace tgrt
