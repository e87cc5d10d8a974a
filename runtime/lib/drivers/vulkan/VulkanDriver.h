//===- VulkanDriver.h - compute on a Vulkan device ---------------*- C++ -*-===//
//
// A VULKAN:<n> device is the n-th physical device of a Vulkan 1.2 instance
// with one compute queue. Buffers are one VkBuffer each in memory that is
// host-visible and coherent (so copies from the host are plain memmoves and
// tgrt_buffer_host_pointer works); programs are SPIR-V compute pipelines whose
// interface follows tgrt_program_desc's convention (a storage buffer per
// buffer argument, one storage buffer of 32-bit words for the scalars and the
// views' offsets). VulkanDriver.cpp opens the device and owns memory and
// programs; VulkanQueue.cpp runs device commands.
//
// Runs: each run of device commands is one command buffer (dispatches and
// copies with a full memory barrier between them, timestamps as timestamp
// queries), submitted with the next value of one timeline semaphore, which
// is the run's ticket. A run is recorded into a Frame (command buffer,
// descriptor pool, word buffer, query pool) that stays busy until the
// semaphore passes its value, so up to kMaxFrames runs are in flight and
// the engines queue work behind running work instead of waiting for it.
// Every command buffer starts with a barrier against all earlier work on
// the queue, so runs execute in submission order.
//
// Timestamps are the device's clock, converted to the host's CLOCK_MONOTONIC
// through VK_EXT_calibrated_timestamps; a device without it leaves
// timestamps to the engine (host time once the work before completed).
//
// Not built: device-local memory with staging copies (for discrete GPUs
// whose fast memory is not host-visible), push constants for the scalars,
// and mapping tgrt signals onto semaphores (queue waits stay host-side, so
// a wait on work of the same device still costs a host round trip).
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DRIVERS_VULKAN_VULKANDRIVER_H
#define TGRT_LIB_DRIVERS_VULKAN_VULKANDRIVER_H

#include "VulkanApi.h"

#include "Driver.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tgrt::vk {

/// A root buffer's Vulkan objects (Memory::handle).
struct Allocation {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize size = 0;
};

class VulkanProgram final : public ProgramImpl {
public:
  const std::string &entryName() const override { return entry; }
  std::string entry;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
  uint32_t bindings = 0;   // buffers, plus the word pack when it exists
  uint32_t packWords = 0;  // 0: no word pack
  const Api *api = nullptr;
  VkDevice device = VK_NULL_HANDLE;
  ~VulkanProgram() override;
};

/// What one run in flight owns. Free when `value` is 0.
struct Frame {
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkDescriptorPool descriptors = VK_NULL_HANDLE;
  uint32_t setCapacity = 0, descriptorCapacity = 0;
  Memory words; // scalars and view offsets of the run's launches
  VkQueryPool queries = VK_NULL_HANDLE;
  uint32_t queryCapacity = 0;
  std::vector<tgrt_signal *> stamps; // query i -> whose timestamp it is
  uint64_t value = 0;                // the semaphore value of its completion
};

class VulkanDriver final : public DeviceDriver {
public:
  ~VulkanDriver() override { destroy(); }

  Status open(unsigned index);

  void query(tgrt_device_info &info) const override;
  Status allocate(size_t size, Memory &out) override;
  void release(Memory &memory) noexcept override;
  Status loadProgram(const tgrt_program_desc &desc, std::unique_ptr<ProgramImpl> &out) override;
  Status checkLaunch(const char *function, const tgrt_program &program, const Launch &launch) override;

  // VulkanQueue.cpp
  Status submit(const DeviceCommand *commands, size_t count, uint64_t &ticket) override;
  Status wait(uint64_t ticket) override;
  bool deviceTimestamps() const override { return calibrated_; }
  void shutdown() noexcept override;

private:
  static constexpr size_t kMaxFrames = 8;

  void destroy() noexcept;
  /// Enables VK_EXT_calibrated_timestamps where the device has it with
  /// CLOCK_MONOTONIC; adds the extension's name to `extensions`.
  void probeCalibratedTimestamps(std::vector<const char *> &extensions);

  // Called with queueMutex_ held (`lock`); those that wait drop it meanwhile.
  Status submitSegment(std::unique_lock<std::mutex> &lock, const DeviceCommand *commands,
                       size_t count);
  Status acquireFrame(std::unique_lock<std::mutex> &lock, Frame *&out);
  Status reserve(Frame &frame, const DeviceCommand *commands, size_t count);
  Status recordExec(Frame &frame, const tgrt_program &program, const Launch &launch,
                    VkDeviceSize &wordsUsed);
  /// Waits (queue lock dropped) until the semaphore reaches `value`.
  Status waitValue(std::unique_lock<std::mutex> &lock, uint64_t value);
  /// Frees the frames the device has finished, writing their timestamps.
  Status retire();
  /// The device stops taking work (the last error says why); returns s.
  Status markLost(Status s);
  VkDeviceSize align(VkDeviceSize v) const {
    VkDeviceSize a = std::max<VkDeviceSize>(props_.limits.minStorageBufferOffsetAlignment, 4);
    return (v + a - 1) / a * a;
  }

  Api api_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties props_{};
  uint32_t subgroupSize_ = 1;
  uint32_t features_ = 0;
  VkDevice device_ = VK_NULL_HANDLE;
  uint32_t family_ = 0;
  uint32_t memoryType_ = 0;
  bool calibrated_ = false;
  uint64_t timestampMask_ = ~0ull;

  // Everything below is used under queueMutex_.
  std::mutex queueMutex_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkSemaphore timeline_ = VK_NULL_HANDLE;
  uint64_t timelineValue_ = 0;  // the last value submitted
  uint64_t retiredValue_ = 0;   // frames up to here are free
  std::vector<std::unique_ptr<Frame>> frames_;
  std::unique_ptr<std::string> lost_; // why the device stopped accepting work
};

} // namespace tgrt::vk

#endif // TGRT_LIB_DRIVERS_VULKAN_VULKANDRIVER_H
