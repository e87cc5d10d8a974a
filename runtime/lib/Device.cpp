//===- Device.cpp - opening, querying and closing devices -----------------===//

#include "Device.h"
#include "Queue.h"

#include <cstdlib>
#include <cstring>
#include <thread>

using namespace tgrt;

namespace {
/// TGRT_WAIT_TIMEOUT_MS, else tinygrad's HCQDEV_WAIT_TIMEOUT_MS default.
uint64_t defaultWaitTimeoutMs() {
  const char *env = std::getenv("TGRT_WAIT_TIMEOUT_MS");
  if (env && *env) {
    char *end = nullptr;
    unsigned long long v = std::strtoull(env, &end, 10);
    if (!*end)
      return v;
  }
  return 30000;
}
} // namespace

tgrt_device::tgrt_device()
    : Object(kMagic, &Object::destroyAs<tgrt_device>), waitTimeoutMs(defaultWaitTimeoutMs()) {}

tgrt_device::~tgrt_device() {
  // Normally close() already stopped the engines; this covers a device whose
  // open failed half way.
  for (auto &e : engines_)
    if (e)
      e->stop();
}

Engine &tgrt_device::engine(tgrt_queue_type type) {
  std::lock_guard<std::mutex> lock(engineMutex_);
  auto &slot = engines_[type == TGRT_QUEUE_COPY ? 1 : 0];
  if (!slot)
    slot = std::make_unique<Engine>(this, type == TGRT_QUEUE_COPY ? "copy" : "compute");
  return *slot;
}

Engine *tgrt_device::startedEngine(int index) {
  std::lock_guard<std::mutex> lock(engineMutex_);
  return engines_[index].get();
}

void tgrt_device::recordFailure(Status status) {
  std::lock_guard<std::mutex> lock(failureMutex_);
  if (failure_ != TGRT_OK)
    return;
  failure_ = status;
  failureMessage_ = tgrt_last_error();
}

Status tgrt_device::takeFailure(const char *function) {
  std::lock_guard<std::mutex> lock(failureMutex_);
  if (failure_ == TGRT_OK)
    return TGRT_OK;
  Status s = std::exchange(failure_, TGRT_OK);
  return failf(s, "%s: submitted work on '%s' failed: %s", function, name.c_str(),
               failureMessage_.c_str());
}

Status tgrt::checkNotClosed(const tgrt_device *device, const char *function) {
  if (device->closed)
    return failf(TGRT_FAILED_PRECONDITION, "%s: device '%s' is closed", function,
                 device->name.c_str());
  return TGRT_OK;
}

Status tgrt::checkOpenDevice(tgrt_device *device, const char *function) {
  TGRT_RETURN_IF_ERROR(checkHandle(device, function, "device"));
  std::shared_lock<std::shared_mutex> lock(device->lifecycle);
  return checkNotClosed(device, function);
}

extern "C" {

tgrt_status tgrt_device_open(const char *name, const tgrt_device_options *options,
                             tgrt_device **out_device) {
  return apiCall("tgrt_device_open", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkOut(out_device, "tgrt_device_open", "out_device"));
    if (!name)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_device_open: name is NULL");
    tgrt_device_options opts = TGRT_DEVICE_OPTIONS_DEFAULT;
    if (options) {
      if (options->api_version != TGRT_API_VERSION)
        return failf(TGRT_INVALID_ARGUMENT,
                     "tgrt_device_open: options.api_version is %u, this runtime is version %u",
                     options->api_version, TGRT_API_VERSION);
      opts = *options;
    }
    Ref<tgrt_device> dev = Ref<tgrt_device>::adopt(new tgrt_device);
    TGRT_RETURN_IF_ERROR(openDriver("tgrt_device_open", name, opts, dev->driver));
    dev->name = name;
    *out_device = dev.leak();
    return TGRT_OK;
  });
}

tgrt_status tgrt_device_close(tgrt_device *device) {
  return apiCall("tgrt_device_close", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(device, "tgrt_device_close", "device"));
    {
      std::unique_lock<std::shared_mutex> lock(device->lifecycle);
      if (device->closed)
        return fail(TGRT_FAILED_PRECONDITION, "tgrt_device_close: device is already closed");
      device->closed = true;
    }
    // Let submitted work finish. Once every engine is idle or blocked on a
    // signal, nothing on this device can make progress; cancel such waits
    // (their work is dropped) so that close cannot hang.
    for (;;) {
      bool allQuiet = true, anyBlocked = false;
      for (int i = 0; i < tgrt_device::kNumEngines; ++i)
        if (Engine *e = device->startedEngine(i)) {
          allQuiet &= e->quiescent();
          anyBlocked |= e->blocked();
        }
      if (allQuiet && !anyBlocked)
        break;
      if (allQuiet)
        device->cancelWaits.store(true, std::memory_order_release);
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    uint64_t abandoned = 0;
    for (int i = 0; i < tgrt_device::kNumEngines; ++i)
      if (Engine *e = device->startedEngine(i)) {
        e->stop();
        abandoned += e->abandoned();
      }
    device->driver->shutdown();
    Status failed = device->takeFailure("tgrt_device_close");
    std::string message = failed != TGRT_OK ? tgrt_last_error() : "";
    // The driver goes with the device's last reference (buffers and
    // programs still held by the caller need it to be released).
    std::string name = device->name;
    device->release();
    if (failed != TGRT_OK)
      return fail(failed, message);
    if (abandoned)
      return failf(TGRT_ABORTED,
                   "tgrt_device_close: %llu queued command(s) on '%s' were abandoned: they "
                   "waited on a signal that nothing on the device could still signal",
                   (unsigned long long)abandoned, name.c_str());
    return TGRT_OK;
  });
}

tgrt_status tgrt_device_name(const tgrt_device *device, const char **out_name) {
  return apiQuery("tgrt_device_name", device, out_name, "out_name",
                  [](const tgrt_device &d) { return d.name.c_str(); });
}

tgrt_status tgrt_device_thread_count(const tgrt_device *device, uint32_t *out_count) {
  return apiQuery("tgrt_device_thread_count", device, out_count, "out_count",
                  [](const tgrt_device &d) { return d.driver->threadCount(); });
}

tgrt_status tgrt_device_query(const tgrt_device *device, tgrt_device_info *out_info) {
  return apiCall("tgrt_device_query", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(device, "tgrt_device_query", "device"));
    TGRT_RETURN_IF_ERROR(checkOut(out_info, "tgrt_device_query", "out_info"));
    if (out_info->api_version != TGRT_API_VERSION)
      return failf(TGRT_INVALID_ARGUMENT,
                   "tgrt_device_query: out_info->api_version is %u, this runtime is version %u",
                   out_info->api_version, TGRT_API_VERSION);
    tgrt_device_info info{};
    info.api_version = TGRT_API_VERSION;
    device->driver->query(info);
    *out_info = info;
    return TGRT_OK;
  });
}

tgrt_status tgrt_device_set_wait_timeout(tgrt_device *device, uint64_t timeout_ms) {
  return apiCall("tgrt_device_set_wait_timeout", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(device, "tgrt_device_set_wait_timeout", "device"));
    device->waitTimeoutMs.store(timeout_ms, std::memory_order_relaxed);
    return TGRT_OK;
  });
}

tgrt_status tgrt_device_synchronize(tgrt_device *device, uint64_t timeout_ms) {
  return apiCall("tgrt_device_synchronize", [&]() -> Status {
    TGRT_RETURN_IF_ERROR(checkHandle(device, "tgrt_device_synchronize", "device"));
    auto deadline = deadlineAfter(timeout_ms);
    for (int i = 0; i < tgrt_device::kNumEngines; ++i)
      if (Engine *e = device->startedEngine(i))
        if (!e->synchronize(deadline))
          return failf(TGRT_TIMEOUT, "tgrt_device_synchronize: the %s engine did not finish within %llu ms",
                       e->name(), (unsigned long long)timeout_ms);
    return device->takeFailure("tgrt_device_synchronize");
  });
}

} // extern "C"
