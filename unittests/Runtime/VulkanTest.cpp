//===- VulkanTest.cpp - the Vulkan driver on the machine's Vulkan device --===//
//
// Runs on the first Vulkan device (Mesa's lavapipe in CI, installed by
// scripts/install-deps.sh). A machine without one fails these tests rather
// than skipping them: set TGRT_TEST_NO_VULKAN=1 to skip them explicitly.
// The SPIR-V kernel is kernels/add.spirv.mlir, serialized at build time:
// c[i] = a[i] + b[i] for i < n, with the driver's word pack at binding 3
// (n, then the byte offsets of the three views).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cstdlib>
#include <numeric>

using namespace tgrt_test;

namespace {

bool vulkanSkipped() {
  const char *e = std::getenv("TGRT_TEST_NO_VULKAN");
  return e && *e && std::string(e) != "0";
}

class VulkanTest : public RuntimeTest {
protected:
  const char *deviceName() const override { return "VULKAN:0"; }
  void SetUp() override {
    if (vulkanSkipped())
      GTEST_SKIP() << "TGRT_TEST_NO_VULKAN is set";
    RuntimeTest::SetUp();
  }
  tgrt_program *addProgram(uint32_t offsetsWord = 1, uint32_t local = 64) {
    std::vector<uint8_t> spv = kernelObject("add_spirv", ".spv");
    uint8_t scalarBytes[] = {4};
    tgrt_program_desc d{};
    d.api_version = TGRT_API_VERSION;
    d.format = TGRT_FORMAT_SPIRV;
    d.binary = spv.data();
    d.size = spv.size();
    d.entry_name = "add";
    d.num_buffers = 3;
    d.num_scalars = 1;
    d.scalar_bytes = scalarBytes;
    d.offsets_word = offsetsWord;
    d.local_size[0] = local, d.local_size[1] = 1, d.local_size[2] = 1;
    tgrt_program *p = nullptr;
    EXPECT_EQ(tgrt_program_create(dev, &d, &p), TGRT_OK) << tgrt_last_error();
    if (p)
      programs.push_back(p);
    return p;
  }
  static tgrt_dispatch dims(uint32_t groups, uint32_t local = 64) { return gpuDispatch(groups, local); }
};

std::vector<float> iota(size_t n, float start) { return tgrt_test::iota<float>(n, start); }

TEST_F(VulkanTest, QueryDescribesTheDevice) {
  tgrt_device_info info{};
  info.api_version = TGRT_API_VERSION;
  TGRT_ASSERT_OK(tgrt_device_query(dev, &info));
  EXPECT_STREQ(info.driver, "VULKAN");
  EXPECT_NE(std::string(info.description), "");
  EXPECT_GE(info.max_workgroup_invocations, 64u);
  EXPECT_GT(info.shared_memory_bytes, 0u);
  EXPECT_TRUE(info.features & TGRT_FEATURE_HOST_MEMORY);
  EXPECT_GE(info.buffer_offset_alignment, 1u);
}

TEST_F(VulkanTest, DispatchAddsBuffers) {
  const uint32_t n = 1000;
  tgrt_buffer *a = upload(iota(n, 0)), *b = upload(iota(n, 1000)), *c = alloc(n * 4);
  tgrt_program *p = addProgram();
  tgrt_arg args[] = {tgrt_arg_buffer(a), tgrt_arg_buffer(b), tgrt_arg_buffer(c), tgrt_arg_int(n)};
  tgrt_dispatch d = dims((n + 63) / 64);
  TGRT_ASSERT_OK(tgrt_program_dispatch(p, args, 4, &d));
  std::vector<float> out = download<float>(c, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * i + 1000.0f) << i;
  const char *entry = nullptr;
  TGRT_ASSERT_OK(tgrt_program_entry_name(p, &entry));
  EXPECT_STREQ(entry, "add");
}

TEST_F(VulkanTest, ViewsAtAnyOffsetThroughTheOffsetWords) {
  const uint32_t n = 100;
  tgrt_buffer *a = upload(iota(n + 3, 0)), *b = upload(iota(n + 1, 500)), *c = alloc((n + 5) * 4);
  // Views starting 12, 4 and 20 bytes in: none is aligned to 16.
  tgrt_buffer *va = view(a, 12, n * 4), *vb = view(b, 4, n * 4), *vc = view(c, 20, n * 4);
  tgrt_program *p = addProgram();
  tgrt_arg args[] = {tgrt_arg_buffer(va), tgrt_arg_buffer(vb), tgrt_arg_buffer(vc), tgrt_arg_int(n)};
  tgrt_dispatch d = dims(2);
  TGRT_ASSERT_OK(tgrt_program_dispatch(p, args, 4, &d));
  std::vector<float> out = download<float>(c, n + 5);
  for (uint32_t i = 0; i < n + 5; ++i) {
    float want = i < 5 ? 0.0f : (float)(i - 5 + 3) + (float)(i - 5 + 1 + 500);
    ASSERT_EQ(out[i], want) << i;
  }
}

TEST_F(VulkanTest, LaunchErrorsAreReported) {
  tgrt_buffer *a = alloc(64);
  tgrt_program *p = addProgram(/*offsetsWord=*/0);
  tgrt_arg args[] = {tgrt_arg_buffer(a), tgrt_arg_buffer(a), tgrt_arg_buffer(a), tgrt_arg_int(4)};
  tgrt_dispatch d = dims(1);
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, args, 3, &d), TGRT_INVALID_ARGUMENT, "not 3 arguments");
  tgrt_arg swapped[] = {tgrt_arg_buffer(a), tgrt_arg_buffer(a), tgrt_arg_int(4), tgrt_arg_int(4)};
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, swapped, 4, &d), TGRT_INVALID_ARGUMENT, "must be a buffer");
  tgrt_dispatch wrongLocal = dims(1, 32);
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, args, 4, &wrongLocal), TGRT_INVALID_ARGUMENT,
                    "compiled for 64x1x1");
  tgrt_dispatch zero = dims(0);
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, args, 4, &zero), TGRT_INVALID_ARGUMENT, "has a zero");
  tgrt_buffer *unaligned = view(a, 4, 16);
  tgrt_arg viewArgs[] = {tgrt_arg_buffer(unaligned), tgrt_arg_buffer(a), tgrt_arg_buffer(a), tgrt_arg_int(4)};
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, viewArgs, 4, &d), TGRT_INVALID_ARGUMENT,
                    "takes no view offsets");
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, args, 4, -1, 1), TGRT_INVALID_ARGUMENT, "compiled for");
}

TEST_F(VulkanTest, HostMemoryIsNotImported) {
  std::vector<uint8_t> host(64);
  tgrt_buffer *b = nullptr;
  TGRT_EXPECT_ERROR(tgrt_buffer_import_host(dev, host.data(), host.size(), &b), TGRT_UNSUPPORTED,
                    "only the CPU device");
  EXPECT_EQ(b, nullptr);
}

TEST_F(VulkanTest, BadProgramsAreReported) {
  uint8_t junk[64] = {1, 2, 3};
  tgrt_program_desc d{};
  d.api_version = TGRT_API_VERSION;
  d.format = TGRT_FORMAT_SPIRV;
  d.binary = junk;
  d.size = sizeof junk;
  d.entry_name = "add";
  d.local_size[0] = d.local_size[1] = d.local_size[2] = 1;
  tgrt_program *p = nullptr;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_OBJECT, "not a SPIR-V module");
  std::vector<uint8_t> spv = kernelObject("add_spirv", ".spv");
  d.binary = spv.data();
  d.size = spv.size();
  d.entry_name = nullptr;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_ARGUMENT, "needs its entry name");
  d.entry_name = "add";
  d.local_size[0] = 1u << 20;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_ARGUMENT, "local size");
  d.format = TGRT_FORMAT_ELF;
  d.local_size[0] = 1;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_UNSUPPORTED, "SPIR-V programs only");
  std::vector<uint8_t> elf = kernelObject("add");
  TGRT_EXPECT_ERROR(tgrt_program_load(dev, elf.data(), elf.size(), nullptr, &p), TGRT_UNSUPPORTED,
                    "SPIR-V programs only");
}

TEST_F(VulkanTest, MalformedSpirvIsRejectedBeforeTheDriverSeesIt) {
  // Handing a driver a malformed module is invalid usage (it may crash, or
  // spend minutes under the validation layer): every truncation of a real
  // module, a corrupt word count and a missing entry point are errors.
  std::vector<uint8_t> spv = kernelObject("add_spirv", ".spv");
  tgrt_program_desc d{};
  d.api_version = TGRT_API_VERSION;
  d.format = TGRT_FORMAT_SPIRV;
  d.entry_name = "add";
  d.num_buffers = 3;
  uint8_t four[] = {4};
  d.num_scalars = 1;
  d.scalar_bytes = four;
  d.offsets_word = 1;
  d.local_size[0] = 64, d.local_size[1] = d.local_size[2] = 1;
  tgrt_program *p = nullptr;
  for (size_t size = 0; size < spv.size(); size += 4) {
    d.binary = spv.data();
    d.size = size;
    ASSERT_EQ(tgrt_program_create(dev, &d, &p), TGRT_INVALID_OBJECT) << size << ": " << tgrt_last_error();
  }
  std::vector<uint8_t> bad = spv;
  bad[5 * 4 + 2] = 0xff; // the first instruction's word count
  d.binary = bad.data();
  d.size = bad.size();
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_OBJECT, "truncated or corrupt");
  d.binary = spv.data();
  d.entry_name = "nope";
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_NOT_FOUND, "no GLCompute entry point 'nope'");
  EXPECT_EQ(p, nullptr);
}

TEST_F(VulkanTest, TimestampsComeFromTheDevice) {
  // lavapipe has VK_EXT_calibrated_timestamps with CLOCK_MONOTONIC.
  tgrt_device_info info{};
  info.api_version = TGRT_API_VERSION;
  TGRT_ASSERT_OK(tgrt_device_query(dev, &info));
  EXPECT_TRUE(info.features & TGRT_FEATURE_DEVICE_TIMESTAMPS);
}

TEST_F(VulkanTest, QueuedDispatchesCopiesAndSignals) {
  const uint32_t n = 256;
  tgrt_buffer *a = upload(iota(n, 1)), *b = upload(iota(n, 0)), *c = alloc(n * 4), *d2 = alloc(n * 4);
  tgrt_program *p = addProgram();
  tgrt_queue *q = queue();
  tgrt_signal *s = signal(0);
  tgrt_arg args[] = {tgrt_arg_buffer(a), tgrt_arg_buffer(b), tgrt_arg_buffer(c), tgrt_arg_int(n)};
  tgrt_arg again[] = {tgrt_arg_buffer(c), tgrt_arg_buffer(c), tgrt_arg_buffer(b), tgrt_arg_int(n)};
  tgrt_dispatch d = dims(n / 64);
  // c = a + b; b = c + c; d2 = b: each step reads the one before it.
  TGRT_ASSERT_OK(tgrt_queue_dispatch(q, p, args, 4, &d));
  TGRT_ASSERT_OK(tgrt_queue_dispatch(q, p, again, 4, &d));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, d2, 0, b, 0, n * 4));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(s, 1, 60000));
  std::vector<float> out = download<float>(d2, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * ((i + 1.0f) + i)) << i;
  // The recording stays: a second submit runs it again on the new values.
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, 2));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_device_synchronize(dev, 60000));
  out = download<float>(d2, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * ((i + 1.0f) + 2.0f * ((i + 1.0f) + i))) << i;
}

TEST_F(VulkanTest, OverlappingCopyInsideOneBuffer) {
  tgrt_buffer *a = upload(iota(16, 0));
  tgrt_queue *q = queue(TGRT_QUEUE_COPY);
  TGRT_ASSERT_OK(tgrt_queue_copy(q, a, 4, a, 0, 32));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_device_synchronize(dev, 60000));
  std::vector<float> out = download<float>(a, 16);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(out[i], i == 0 ? 0.0f : i <= 8 ? (float)(i - 1) : (float)i) << i;
}

TEST(VulkanOpen, MissingDeviceOrLoaderIsAnError) {
  if (vulkanSkipped())
    GTEST_SKIP() << "TGRT_TEST_NO_VULKAN is set";
  tgrt_device *dev = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open("VULKAN:99", nullptr, &dev), TGRT_UNAVAILABLE, "no Vulkan device 99");
  TGRT_EXPECT_ERROR(tgrt_device_open("VULKAN:x", nullptr, &dev), TGRT_INVALID_ARGUMENT, "not a device index");
  TGRT_EXPECT_ERROR(tgrt_device_open("METAL", nullptr, &dev), TGRT_NOT_FOUND, "CPU, VULKAN");
  setenv("TGRT_VULKAN_LOADER", "/nonexistent/libvulkan.so.1", 1);
  TGRT_EXPECT_ERROR(tgrt_device_open("VULKAN", nullptr, &dev), TGRT_UNAVAILABLE,
                    "no Vulkan loader: /nonexistent/libvulkan.so.1");
  unsetenv("TGRT_VULKAN_LOADER");
  TGRT_ASSERT_OK(tgrt_device_open("VULKAN", nullptr, &dev));
  TGRT_EXPECT_OK(tgrt_device_close(dev));
}

} // namespace
