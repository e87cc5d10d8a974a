//===- Driver.cpp - opening devices by name ---------------------------------===//

#include "Driver.h"
#include "Queue.h"

#include <cstdlib>
#include <cstring>

using namespace tgrt;

Status DeviceDriver::copyIn(const Memory &, size_t, const void *, size_t) {
  return fail(TGRT_INTERNAL, "the driver has no host copies but its memory is not host-visible");
}

Status DeviceDriver::copyOut(const Memory &, size_t, void *, size_t) {
  return fail(TGRT_INTERNAL, "the driver has no host copies but its memory is not host-visible");
}

Status DeviceDriver::importHost(void *, size_t, Memory &) {
  return fail(TGRT_UNSUPPORTED, "tgrt_buffer_import_host: this device's memory is not host memory "
                                "(only the CPU device imports host memory)");
}

const char *tgrt::driverNames() { return "CPU, VULKAN, CUDA, AMD"; }

Status tgrt::openDriver(const char *function, const std::string &name,
                        const tgrt_device_options &options, std::unique_ptr<DeviceDriver> &out) {
  std::string driver = name, indexText;
  if (size_t colon = name.find(':'); colon != std::string::npos) {
    driver = name.substr(0, colon);
    indexText = name.substr(colon + 1);
  }
  unsigned index = 0;
  if (!indexText.empty()) {
    char *end = nullptr;
    unsigned long v = std::strtoul(indexText.c_str(), &end, 10);
    if (*end || indexText[0] == '-' || v > 1024)
      return failf(TGRT_INVALID_ARGUMENT, "%s: '%s' is not a device index in '%s'", function,
                   indexText.c_str(), name.c_str());
    index = static_cast<unsigned>(v);
  }
  Status (*open)(const tgrt_device_options &, unsigned, std::unique_ptr<DeviceDriver> &) = nullptr;
  if (driver == "CPU")
    open = openCPUDriver;
  else if (driver == "VULKAN")
    open = openVulkanDriver;
  else if (driver == "CUDA")
    open = openCudaDriver;
  else if (driver == "AMD")
    open = openAmdDriver;
  else
    return failf(TGRT_NOT_FOUND, "%s: no device '%s' (this runtime has: %s)", function, name.c_str(),
                 driverNames());
  // The drivers' messages say what is missing ("no CUDA driver: ...") and
  // come first, as tgrt-devices and the device checks print them; the
  // device asked for follows.
  Status s = open(options, index, out);
  if (s != TGRT_OK) {
    std::string what = tgrt_last_error(); // failf rewrites the buffer it points into
    return failf(s, "%s (%s '%s')", what.c_str(), function, name.c_str());
  }
  return TGRT_OK;
}

void tgrt::writeSignalTimestamp(tgrt_signal *signal, uint64_t ns) { signal->setTimestamp(ns); }
