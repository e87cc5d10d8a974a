//===- VulkanQueue.cpp - runs of device commands on the Vulkan queue ------===//
//
// A run becomes one command buffer in a Frame, submitted with the next
// value of the device's timeline semaphore; that value is the run's ticket.
// submit() returns once the run is queued; wait() blocks on the semaphore
// (without the queue lock, so other engines keep submitting) and retires
// finished frames, converting their timestamp queries to the host clock.
//
//===----------------------------------------------------------------------===//

#include "VulkanDriver.h"

#include "Buffer.h"
#include "Program.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

using namespace tgrt;
using namespace tgrt::vk;

namespace {

/// Waiting for a run gives up after this long (TGRT_VULKAN_TIMEOUT_MS
/// overrides it): a kernel that never ends is an error, not a hang.
uint64_t runTimeoutMs() {
  const char *env = std::getenv("TGRT_VULKAN_TIMEOUT_MS");
  return env && *env ? std::strtoull(env, nullptr, 10) : 600000;
}

/// A copy inside one buffer whose ranges overlap: tgrt_queue_copy allows it
/// (memmove semantics), vkCmdCopyBuffer does not, so the host does it.
bool overlappingCopy(const DeviceCommand &c) {
  if (c.op != DeviceCommand::Copy || c.src->root != c.dst->root || !c.size)
    return false;
  size_t s = c.src->offset + c.srcOffset, d = c.dst->offset + c.dstOffset;
  return s < d + c.size && d < s + c.size;
}

} // namespace

Status VulkanDriver::markLost(Status s) {
  if (!lost_)
    lost_ = std::make_unique<std::string>(tgrt_last_error());
  return s;
}

void VulkanDriver::shutdown() noexcept {
  std::lock_guard<std::mutex> lock(queueMutex_);
  if (!device_)
    return;
  api_.vkDeviceWaitIdle(device_);
  (void)retire();
}

Status VulkanDriver::submit(const DeviceCommand *commands, size_t count, uint64_t &ticket) {
  std::unique_lock<std::mutex> lock(queueMutex_);
  if (lost_)
    return failf(TGRT_ABORTED, "Vulkan device '%s' is unusable after an earlier failure: %s",
                 props_.deviceName, lost_->c_str());
  ticket = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= count; ++i) {
    if (i < count && !overlappingCopy(commands[i]))
      continue;
    if (i > begin) {
      if (Status s = submitSegment(lock, commands + begin, i - begin); s != TGRT_OK)
        return markLost(s); // what was recorded since cannot be trusted
      ticket = timelineValue_;
    }
    if (i < count) {
      // The host's memmove goes between the device work around it.
      if (timelineValue_ > retiredValue_)
        TGRT_RETURN_IF_ERROR(waitValue(lock, timelineValue_));
      const DeviceCommand &c = commands[i];
      std::memmove(c.dst->data + c.dstOffset, c.src->data + c.srcOffset, c.size);
      ticket = 0; // nothing of this run is left on the device
    }
    begin = i + 1;
  }
  return TGRT_OK;
}

Status VulkanDriver::wait(uint64_t ticket) {
  std::unique_lock<std::mutex> lock(queueMutex_);
  if (ticket <= retiredValue_)
    return TGRT_OK;
  return waitValue(lock, ticket);
}

Status VulkanDriver::waitValue(std::unique_lock<std::mutex> &lock, uint64_t value) {
  VkSemaphore semaphore = timeline_;
  uint64_t limitMs = runTimeoutMs();
  lock.unlock();
  auto wi = vk::make<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  wi.semaphoreCount = 1;
  wi.pSemaphores = &semaphore;
  wi.pValues = &value;
  VkResult r = api_.vkWaitSemaphores(device_, &wi, limitMs * 1000000ull);
  lock.lock();
  if (r == VK_TIMEOUT)
    return markLost(failf(TGRT_TIMEOUT,
                          "Vulkan: run %llu did not complete within %llu ms (TGRT_VULKAN_TIMEOUT_MS)",
                          (unsigned long long)value, (unsigned long long)limitMs));
  if (r != VK_SUCCESS)
    return markLost(vk::check(r, "vkWaitSemaphores"));
  return retire();
}

Status VulkanDriver::retire() {
  uint64_t done = 0;
  TGRT_VK_CHECK(api_.vkGetSemaphoreCounterValue(device_, timeline_, &done));
  if (done <= retiredValue_)
    return TGRT_OK;
  // One calibration for all the frames retired now: the device's clock and
  // CLOCK_MONOTONIC read together.
  uint64_t deviceNow = 0, hostNow = 0;
  bool haveCalibration = false;
  for (auto &f : frames_) {
    if (!f->value || f->value > done)
      continue;
    if (lost_) // their signals may be gone: the engines gave up on this work
      f->stamps.clear();
    if (!f->stamps.empty()) {
      if (!haveCalibration) {
        VkCalibratedTimestampInfoEXT infos[2];
        for (auto &i : infos)
          i = vk::make<VkCalibratedTimestampInfoEXT>(VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT);
        infos[0].timeDomain = VK_TIME_DOMAIN_DEVICE_EXT;
        infos[1].timeDomain = VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
        uint64_t stamps[2] = {0, 0}, deviation = 0;
        TGRT_VK_CHECK(api_.vkGetCalibratedTimestampsEXT(device_, 2, infos, stamps, &deviation));
        deviceNow = stamps[0];
        hostNow = stamps[1];
        haveCalibration = true;
      }
      std::vector<uint64_t> ticks(f->stamps.size());
      TGRT_VK_CHECK(api_.vkGetQueryPoolResults(device_, f->queries, 0,
                                               static_cast<uint32_t>(ticks.size()),
                                               ticks.size() * sizeof(uint64_t), ticks.data(),
                                               sizeof(uint64_t), VK_QUERY_RESULT_64_BIT));
      double period = props_.limits.timestampPeriod;
      for (size_t q = 0; q < ticks.size(); ++q) {
        // The stamp lies before deviceNow (the work has completed).
        uint64_t ago = (deviceNow - ticks[q]) & timestampMask_;
        uint64_t agoNs = static_cast<uint64_t>(static_cast<double>(ago) * period);
        writeSignalTimestamp(f->stamps[q], hostNow > agoNs ? hostNow - agoNs : 0);
      }
      f->stamps.clear();
    }
    f->value = 0;
  }
  retiredValue_ = done;
  return TGRT_OK;
}

Status VulkanDriver::acquireFrame(std::unique_lock<std::mutex> &lock, Frame *&out) {
  for (;;) {
    for (auto &f : frames_)
      if (!f->value) {
        out = f.get();
        return TGRT_OK;
      }
    if (frames_.size() < kMaxFrames)
      break;
    // Every frame is in flight: the oldest frees first.
    uint64_t oldest = UINT64_MAX;
    for (auto &f : frames_)
      oldest = std::min(oldest, f->value);
    TGRT_RETURN_IF_ERROR(waitValue(lock, oldest));
  }
  auto f = std::make_unique<Frame>();
  auto cpi = vk::make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  cpi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  cpi.queueFamilyIndex = family_;
  TGRT_VK_CHECK(api_.vkCreateCommandPool(device_, &cpi, nullptr, &f->pool));
  auto cai = vk::make<VkCommandBufferAllocateInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  cai.commandPool = f->pool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  VkResult r = api_.vkAllocateCommandBuffers(device_, &cai, &f->cmd);
  if (r != VK_SUCCESS) {
    api_.vkDestroyCommandPool(device_, f->pool, nullptr);
    return vk::check(r, "vkAllocateCommandBuffers");
  }
  frames_.push_back(std::move(f));
  out = frames_.back().get();
  return TGRT_OK;
}

Status VulkanDriver::reserve(Frame &frame, const DeviceCommand *commands, size_t count) {
  uint32_t sets = 0, descriptors = 0, queries = 0;
  VkDeviceSize wordBytes = 0;
  for (size_t i = 0; i < count; ++i) {
    if (commands[i].op == DeviceCommand::Timestamp)
      ++queries;
    if (commands[i].op != DeviceCommand::Exec)
      continue;
    const auto &p = static_cast<const VulkanProgram &>(*commands[i].program->impl);
    ++sets;
    descriptors += p.bindings;
    wordBytes += align(uint64_t(p.packWords) * 4);
  }
  if (!frame.descriptors || sets > frame.setCapacity || descriptors > frame.descriptorCapacity) {
    if (frame.descriptors)
      api_.vkDestroyDescriptorPool(device_, frame.descriptors, nullptr);
    frame.descriptors = VK_NULL_HANDLE;
    frame.setCapacity = std::max<uint32_t>(std::max(sets, 2 * frame.setCapacity), 16);
    frame.descriptorCapacity = std::max<uint32_t>(std::max(descriptors, 2 * frame.descriptorCapacity), 64);
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, frame.descriptorCapacity};
    auto dpi = vk::make<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    dpi.maxSets = frame.setCapacity;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &size;
    TGRT_VK_CHECK(api_.vkCreateDescriptorPool(device_, &dpi, nullptr, &frame.descriptors));
  } else {
    TGRT_VK_CHECK(api_.vkResetDescriptorPool(device_, frame.descriptors, 0));
  }
  if (wordBytes > frame.words.size) {
    if (frame.words.handle)
      release(frame.words);
    TGRT_RETURN_IF_ERROR(allocate(std::max<VkDeviceSize>(wordBytes, 2 * frame.words.size), frame.words));
  }
  if (queries > frame.queryCapacity) {
    if (frame.queries)
      api_.vkDestroyQueryPool(device_, frame.queries, nullptr);
    frame.queries = VK_NULL_HANDLE;
    frame.queryCapacity = std::max<uint32_t>(std::max(queries, 2 * frame.queryCapacity), 8);
    auto qpi = vk::make<VkQueryPoolCreateInfo>(VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO);
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpi.queryCount = frame.queryCapacity;
    TGRT_VK_CHECK(api_.vkCreateQueryPool(device_, &qpi, nullptr, &frame.queries));
  }
  return TGRT_OK;
}

Status VulkanDriver::recordExec(Frame &frame, const tgrt_program &program, const Launch &launch,
                                VkDeviceSize &wordsUsed) {
  const auto &p = static_cast<const VulkanProgram &>(*program.impl);
  auto dsi = vk::make<VkDescriptorSetAllocateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  dsi.descriptorPool = frame.descriptors;
  dsi.descriptorSetCount = 1;
  dsi.pSetLayouts = &p.setLayout;
  VkDescriptorSet set;
  TGRT_VK_CHECK(api_.vkAllocateDescriptorSets(device_, &dsi, &set));

  VkDeviceSize alignment = props_.limits.minStorageBufferOffsetAlignment;
  VkDescriptorBufferInfo infos[TGRT_MAX_ARGS + 1];
  uint32_t words[2 * TGRT_MAX_ARGS + TGRT_MAX_ARGS];
  uint32_t nwords = 0;
  for (uint32_t i = program.numBuffers; i < launch.numArgs; ++i) {
    uint64_t v = launch.args[i].value;
    words[nwords++] = static_cast<uint32_t>(v);
    if (program.scalarBytes[i - program.numBuffers] == 8)
      words[nwords++] = static_cast<uint32_t>(v >> 32);
  }
  for (uint32_t i = 0; i < program.numBuffers; ++i) {
    const tgrt_buffer *b = launch.args[i].buffer;
    const auto *a = static_cast<const Allocation *>(b->root->memory.handle);
    VkDeviceSize base = b->offset / alignment * alignment;
    infos[i].buffer = a->buffer;
    infos[i].offset = base;
    infos[i].range = VK_WHOLE_SIZE;
    if (program.offsetsWord)
      words[nwords++] = static_cast<uint32_t>(b->offset - base);
  }
  if (p.packWords) {
    const auto *ring = static_cast<const Allocation *>(frame.words.handle);
    std::memcpy(frame.words.host + wordsUsed, words, nwords * 4);
    infos[program.numBuffers].buffer = ring->buffer;
    infos[program.numBuffers].offset = wordsUsed;
    infos[program.numBuffers].range = nwords * 4;
    wordsUsed += align(nwords * 4);
  }
  VkWriteDescriptorSet writes[TGRT_MAX_ARGS + 1];
  for (uint32_t i = 0; i < p.bindings; ++i) {
    writes[i] = vk::make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  api_.vkUpdateDescriptorSets(device_, p.bindings, writes, 0, nullptr);
  api_.vkCmdBindPipeline(frame.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
  api_.vkCmdBindDescriptorSets(frame.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0,
                               nullptr);
  api_.vkCmdDispatch(frame.cmd, launch.global[0], launch.global[1], launch.global[2]);
  return TGRT_OK;
}

Status VulkanDriver::submitSegment(std::unique_lock<std::mutex> &lock, const DeviceCommand *commands,
                                   size_t count) {
  Frame *frame = nullptr;
  TGRT_RETURN_IF_ERROR(acquireFrame(lock, frame));
  TGRT_RETURN_IF_ERROR(reserve(*frame, commands, count));
  TGRT_VK_CHECK(api_.vkResetCommandPool(device_, frame->pool, 0));
  auto bi = vk::make<VkCommandBufferBeginInfo>(VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkCommandBuffer cmd = frame->cmd;
  TGRT_VK_CHECK(api_.vkBeginCommandBuffer(cmd, &bi));
  uint32_t queries = 0;
  for (size_t i = 0; i < count; ++i)
    queries += commands[i].op == DeviceCommand::Timestamp;
  if (queries)
    api_.vkCmdResetQueryPool(cmd, frame->queries, 0, queries);
  // Every command sees every earlier one's writes (tinygrad's queues are in
  // order): a full barrier between commands, and before the first one a
  // barrier against everything submitted earlier (earlier runs may still be
  // executing) and the host's writes.
  const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  const VkAccessFlags reads = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                              VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  auto barrier = vk::make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = reads;
  auto first = vk::make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  first.srcAccessMask = barrier.srcAccessMask | VK_ACCESS_HOST_WRITE_BIT;
  first.dstAccessMask = reads;
  api_.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT | stages, stages, 0, 1, &first, 0, nullptr,
                            0, nullptr);
  VkDeviceSize wordsUsed = 0;
  uint32_t query = 0;
  frame->stamps.clear();
  for (size_t i = 0; i < count; ++i) {
    const DeviceCommand &c = commands[i];
    if (i > 0)
      api_.vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &barrier, 0, nullptr, 0, nullptr);
    switch (c.op) {
    case DeviceCommand::Exec:
      TGRT_RETURN_IF_ERROR(recordExec(*frame, *c.program, *c.launch, wordsUsed));
      break;
    case DeviceCommand::Copy: {
      if (!c.size)
        break;
      VkBufferCopy region{c.src->offset + c.srcOffset, c.dst->offset + c.dstOffset, c.size};
      const auto *src = static_cast<const Allocation *>(c.src->root->memory.handle);
      const auto *dst = static_cast<const Allocation *>(c.dst->root->memory.handle);
      api_.vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
      break;
    }
    case DeviceCommand::Timestamp:
      // After the barrier above: once everything before it has completed.
      api_.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, frame->queries, query++);
      frame->stamps.push_back(c.signal);
      break;
    case DeviceCommand::MemoryBarrier:
      break; // the barrier before the next command is already full
    }
  }
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT;
  api_.vkCmdPipelineBarrier(cmd, stages, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0, nullptr);
  TGRT_VK_CHECK(api_.vkEndCommandBuffer(cmd));

  uint64_t value = timelineValue_ + 1;
  auto tsi = vk::make<VkTimelineSemaphoreSubmitInfo>(VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
  tsi.signalSemaphoreValueCount = 1;
  tsi.pSignalSemaphoreValues = &value;
  auto si = vk::make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  si.pNext = &tsi;
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  si.signalSemaphoreCount = 1;
  si.pSignalSemaphores = &timeline_;
  TGRT_VK_CHECK(api_.vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE));
  timelineValue_ = value;
  frame->value = value;
  return TGRT_OK;
}
