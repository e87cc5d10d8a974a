//===- Driver.h - what a device driver provides ------------------*- C++ -*-===//
//
// The C API's objects (device, buffer, program, signal, queue) are the same
// for every driver: handles, reference counts, argument checks, queues
// recorded on the host, timeline signals and the engines that run submitted
// work in order. What differs per kind of hardware is behind this interface,
// as IREE's HAL drivers are: memory, programs, and running the device
// commands of a queue (launches, copies, barriers) to completion. The CPU
// driver runs ELF objects on a thread pool; the Vulkan driver records
// command buffers of compute dispatches. A run of device commands is started
// with submit() and may still be executing when it returns (the ticket says
// when it is done), so an engine can queue the next run behind it. Signals
// and waits stay host-side timeline operations of the engine; timestamps are
// device commands where the driver can stamp them in the host's clock.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DRIVER_H
#define TGRT_LIB_DRIVER_H

#include "Status.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct tgrt_buffer;
struct tgrt_program;
struct tgrt_signal;

namespace tgrt {

/// One allocation of a driver. `host` is its mapped address when the memory
/// is host-visible (null otherwise); `handle` is the driver's own object.
struct Memory {
  void *handle = nullptr;
  uint8_t *host = nullptr;
  size_t size = 0;
};

/// A loaded program, as the driver represents it.
class ProgramImpl {
public:
  virtual ~ProgramImpl() = default;
  virtual const std::string &entryName() const = 0;
};

/// A validated launch. Arguments are kept as the C API gave them (buffers
/// retained by the command that holds the launch); each driver turns them
/// into its own calling convention. (Sized to the launch: a recording of
/// many launches stays small enough to build and copy cheaply.)
struct Launch {
  uint32_t numArgs = 0;
  std::vector<tgrt_arg> args; // numArgs of them
  uint32_t global[3] = {1, 1, 1};
  uint32_t local[3] = {1, 1, 1};
  int32_t coreIdArg = -1; ///< CPU: the argument that receives the thread id
};

/// A device command: what runs on the hardware, in queue order.
struct DeviceCommand {
  enum Op { Exec, Copy, MemoryBarrier, Timestamp };
  Op op = Exec;
  const tgrt_program *program = nullptr; // Exec
  const Launch *launch = nullptr;        // Exec
  const tgrt_buffer *dst = nullptr;      // Copy
  size_t dstOffset = 0;
  const tgrt_buffer *src = nullptr;
  size_t srcOffset = 0;
  size_t size = 0;
  tgrt_signal *signal = nullptr; // Timestamp: whose slot gets the time
};

/// Writes a timestamp (ns of the host's steady clock, CLOCK_MONOTONIC) into
/// a signal's slot, for drivers that stamp on the device.
void writeSignalTimestamp(tgrt_signal *signal, uint64_t ns);

/// The host clock timestamps are given in.
using HostClock = std::chrono::steady_clock;

/// The per-device half of a driver.
class DeviceDriver {
public:
  virtual ~DeviceDriver() = default;

  /// tgrt_device_query's answer (api_version is filled by the caller).
  virtual void query(tgrt_device_info &info) const = 0;
  /// Threads a CPU launch runs on; 1 for devices that take workgroups.
  virtual uint32_t threadCount() const { return 1; }

  virtual Status allocate(size_t size, Memory &out) = 0;
  virtual void release(Memory &memory) noexcept = 0;
  /// Memory over the caller's host bytes (tgrt_buffer_import_host), never
  /// released by the driver. Only drivers whose memory is host memory.
  virtual Status importHost(void *host, size_t size, Memory &out);
  /// Host copies into and out of memory without a host mapping.
  virtual Status copyIn(const Memory &memory, size_t offset, const void *src, size_t size);
  virtual Status copyOut(const Memory &memory, size_t offset, void *dst, size_t size);

  virtual Status loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) = 0;
  /// Checks a launch against the program's interface (argument kinds and
  /// counts, local size, limits) when it is recorded.
  virtual Status checkLaunch(const char *function, const tgrt_program &program,
                             const Launch &launch) = 0;

  /// Starts `commands` in order, after everything submitted to the driver
  /// before (from any engine or a direct launch), and sets `ticket` to the
  /// run's completion ticket (0: it has already completed). Tickets grow
  /// with submission order. Timestamp commands are only given to drivers
  /// whose deviceTimestamps() is true. Thread-safe.
  virtual Status submit(const DeviceCommand *commands, size_t count, uint64_t &ticket) = 0;
  /// Waits until the run `ticket`, and every run before it, has completed:
  /// its writes visible to the host and its timestamps written. Gives up
  /// with an error after the driver's own limit rather than hang. Thread-safe.
  virtual Status wait(uint64_t ticket) {
    (void)ticket;
    return TGRT_OK;
  }
  /// Runs `commands` and returns once they have completed.
  Status run(const DeviceCommand *commands, size_t count) {
    uint64_t ticket = 0;
    TGRT_RETURN_IF_ERROR(submit(commands, count, ticket));
    return ticket ? wait(ticket) : TGRT_OK;
  }
  /// True when Timestamp commands run on the device in stream order and
  /// land in the host's clock; otherwise the engine stamps them itself once
  /// the device work before them has completed.
  virtual bool deviceTimestamps() const { return false; }

  /// The device was closed: stop threads and wait for the hardware to be
  /// idle. Memory and programs stay valid to release afterwards.
  virtual void shutdown() noexcept {}
};

/// Opens the device `name` ("CPU", "VULKAN:1", "CUDA:0", "AMD:0"): the driver is the
/// part before ':', the index the part after it (default 0).
Status openDriver(const char *function, const std::string &name, const tgrt_device_options &options,
                  std::unique_ptr<DeviceDriver> &out);

/// The drivers this runtime has, for messages ("CPU, VULKAN, CUDA, AMD").
const char *driverNames();

/// Driver entry points (one per driver, in drivers/<name>/).
Status openCPUDriver(const tgrt_device_options &options, unsigned index,
                     std::unique_ptr<DeviceDriver> &out);
Status openVulkanDriver(const tgrt_device_options &options, unsigned index,
                        std::unique_ptr<DeviceDriver> &out);
Status openCudaDriver(const tgrt_device_options &options, unsigned index,
                      std::unique_ptr<DeviceDriver> &out);
Status openAmdDriver(const tgrt_device_options &options, unsigned index,
                     std::unique_ptr<DeviceDriver> &out);

} // namespace tgrt

#endif // TGRT_LIB_DRIVER_H
