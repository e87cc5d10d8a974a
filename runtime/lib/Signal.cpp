//===- Signal.cpp - timeline signals --------------------------------------===//
//
// A signal is HCQ's 16-byte slot: a uint64 value that only grows and a
// timestamp written by queue commands. On the CPU the value is an atomic
// with a condition variable for blocking waits.
//
//===----------------------------------------------------------------------===//

#include "Queue.h"

using namespace tgrt;

namespace {
std::atomic<uint64_t> nextSignalId{1};
} // namespace

tgrt_signal::tgrt_signal()
    : Object(kMagic, &Object::destroyAs<tgrt_signal>), id_(nextSignalId.fetch_add(1)) {}

std::string tgrt_signal::describe() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (name_.empty())
    return "signal #" + std::to_string(id_);
  return "signal '" + name_ + "'";
}

void tgrt_signal::setName(std::string name) {
  std::lock_guard<std::mutex> lock(mutex_);
  name_ = std::move(name);
}

void tgrt_signal::raise(uint64_t value) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (value <= value_.load(std::memory_order_relaxed))
      return;
    value_.store(value, std::memory_order_release);
  }
  changed_.notify_all();
}

bool tgrt_signal::waitUntil(uint64_t value, Clock::time_point deadline) const {
  if (load() >= value)
    return true;
  std::unique_lock<std::mutex> lock(mutex_);
  if (deadline == Clock::time_point::max()) {
    changed_.wait(lock, [&] { return load() >= value; });
    return true;
  }
  return changed_.wait_until(lock, deadline, [&] { return load() >= value; });
}

void tgrt_signal::writeTimestamp() {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch());
  timestamp_.store(static_cast<uint64_t>(ns.count()), std::memory_order_release);
}

tgrt_signal::Clock::time_point tgrt::deadlineAfter(uint64_t timeoutMs) {
  auto now = tgrt_signal::Clock::now();
  // Anything beyond ~100 years is "forever" (and avoids clock overflow).
  constexpr uint64_t kForeverMs = 100ull * 365 * 24 * 3600 * 1000;
  if (timeoutMs >= kForeverMs)
    return tgrt_signal::Clock::time_point::max();
  return now + std::chrono::milliseconds(timeoutMs);
}

extern "C" {

tgrt_status tgrt_signal_create(tgrt_device *device, uint64_t initial_value, tgrt_signal **out_signal) {
  return apiCall("tgrt_signal_create", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkOpenDevice(device, "tgrt_signal_create"));
    TGRT_RETURN_IF_ERROR(checkOut(out_signal, "tgrt_signal_create", "out_signal"));
    Ref<tgrt_signal> s = Ref<tgrt_signal>::adopt(new tgrt_signal);
    s->device = Ref<tgrt_device>::share(device);
    s->raise(initial_value);
    *out_signal = s.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_signal_destroy(tgrt_signal *signal) {
  return apiRelease("tgrt_signal_destroy", signal);
}

tgrt_status tgrt_signal_set_name(tgrt_signal *signal, const char *name) {
  return apiCall("tgrt_signal_set_name", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(signal, "tgrt_signal_set_name", "signal"));
    if (!name)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_signal_set_name: name is NULL");
    signal->setName(name);
    return TGRT_OK;
  });
}

tgrt_status tgrt_signal_value(const tgrt_signal *signal, uint64_t *out_value) {
  return apiQuery("tgrt_signal_value", signal, out_value, "out_value",
                  [](const tgrt_signal &s) { return s.load(); });
}

tgrt_status tgrt_signal_signal(tgrt_signal *signal, uint64_t value) {
  return apiCall("tgrt_signal_signal", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(signal, "tgrt_signal_signal", "signal"));
    uint64_t current = signal->load();
    if (value < current)
      return failf(TGRT_INVALID_ARGUMENT,
                   "tgrt_signal_signal: %llu is below the current value %llu (timelines only grow)",
                   (unsigned long long)value, (unsigned long long)current);
    signal->raise(value);
    return TGRT_OK;
  });
}

tgrt_status tgrt_signal_timestamp(const tgrt_signal *signal, uint64_t *out_ns) {
  return apiQuery("tgrt_signal_timestamp", signal, out_ns, "out_ns",
                  [](const tgrt_signal &s) { return s.timestamp(); });
}

tgrt_status tgrt_signal_wait(const tgrt_signal *signal, uint64_t value, uint64_t timeout_ms) {
  return apiCall("tgrt_signal_wait", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(signal, "tgrt_signal_wait", "signal"));
    if (!signal->waitUntil(value, deadlineAfter(timeout_ms)))
      return failf(TGRT_TIMEOUT, "tgrt_signal_wait: %s did not reach value %llu within %llu ms (it is %llu)",
                   signal->describe().c_str(), (unsigned long long)value,
                   (unsigned long long)timeout_ms, (unsigned long long)signal->load());
    return TGRT_OK;
  });
}

} // extern "C"
