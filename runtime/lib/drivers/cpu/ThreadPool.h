//===- ThreadPool.h - persistent workers for parallel launches --*- C++ -*-===//
//
// A fixed set of std::threads that run one parallel-for at a time. The
// calling thread takes part, so a pool of N threads has N-1 workers and a
// parallelFor over n items runs on min(n, N) threads. Items are handed out
// through an atomic counter, so n may exceed N.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_THREADPOOL_H
#define TGRT_LIB_THREADPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace tgrt {

class ThreadPool {
public:
  using Task = void (*)(void *context, uint32_t index);

  /// Starts threads-1 workers (threads >= 1). Throws std::system_error if a
  /// thread cannot be started (after stopping the ones that did).
  explicit ThreadPool(uint32_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  uint32_t size() const { return static_cast<uint32_t>(workers_.size()) + 1; }

  /// Calls task(context, i) for every i in [0, n), in parallel, and returns
  /// when all calls have returned. Concurrent callers are serialized.
  void parallelFor(uint32_t n, Task task, void *context);

  /// Number of threads the calling machine lets this process run on.
  static uint32_t availableCores();

private:
  void workerLoop(uint32_t workerIndex);
  void runItems();

  std::vector<std::thread> workers_;
  std::mutex jobMutex_; // one parallelFor at a time

  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  bool stop_ = false;
  uint64_t generation_ = 0;
  uint32_t helpers_ = 0; // workers taking part in the current job
  uint32_t pending_ = 0; // helpers not yet finished with it

  // The current job (written under mutex_ before generation_ changes).
  Task task_ = nullptr;
  void *context_ = nullptr;
  uint32_t count_ = 0;
  std::atomic<uint32_t> next_{0};
};

} // namespace tgrt

#endif // TGRT_LIB_THREADPOOL_H
