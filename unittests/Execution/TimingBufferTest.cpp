//===- TimingBufferTest.cpp - BEAM's timing buffers: the huge-page path ---===//
//
// exec::zeroedBuffer as the timing child uses it on the CPU: a buffer of
// 2 MiB or more is a mapping of ours, its host address on a huge-page
// boundary, advised for transparent huge pages, zero-filled, as long as
// asked (3 MiB + 4 bytes here: past a huge page and not a multiple of one),
// usable by a kernel (the runtime's add.o writes every element, read back),
// and unmapped once freed. A smaller buffer is the runtime's. Left
// untouched, a mapping has no page resident until zeroHostRegions, which
// zeroes its regions whole (and nothing past them) on any thread count.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Execution/TimingBuffer.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

using namespace mlir::tinygrad::exec;

namespace {

struct TimingBufferOnCPU : ::testing::Test {
  tgrt_device *dev = nullptr;
  void SetUp() override { ASSERT_EQ(tgrt_device_open("CPU", nullptr, &dev), TGRT_OK) << tgrt_last_error(); }
  void TearDown() override {
    if (dev)
      tgrt_device_close(dev);
  }
};

float *hostOf(const TimingBuffer &b) {
  void *p = nullptr;
  EXPECT_EQ(tgrt_buffer_host_pointer(b.buf, &p), TGRT_OK) << tgrt_last_error();
  return static_cast<float *>(p);
}

bool allZero(const void *p, size_t bytes) {
  const auto *c = static_cast<const unsigned char *>(p);
  for (size_t i = 0; i < bytes; ++i)
    if (c[i])
      return false;
  return true;
}

/// The VmFlags of the mapping of /proc/self/smaps that holds `addr`.
std::string vmFlagsAt(const void *addr) {
  std::ifstream f("/proc/self/smaps");
  auto a = reinterpret_cast<uintptr_t>(addr);
  bool inside = false;
  for (std::string line; std::getline(f, line);) {
    unsigned long lo = 0, hi = 0;
    char dash = 0;
    std::istringstream is(line);
    if (is >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = lo <= a && a < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

/// Whether [p, p + bytes) is mapped (mincore fails with ENOMEM where not).
bool mapped(void *p, size_t bytes) {
  std::vector<unsigned char> pages((bytes + 4095) / 4096);
  return ::mincore(p, bytes, pages.data()) == 0 || errno != ENOMEM;
}

TEST_F(TimingBufferOnCPU, AHugePageBufferIsAnAlignedZeroedMappingAKernelRunsOn) {
  constexpr int64_t n = (int64_t(3) << 20) / 4 + 1; // 3 MiB + 4 bytes of floats
  constexpr size_t bytes = n * sizeof(float);
  TimingBuffer out, a, b;
  for (TimingBuffer *t : {&out, &a, &b}) {
    ASSERT_EQ(zeroedBuffer(dev, bytes, *t), TGRT_OK) << tgrt_last_error();
    EXPECT_EQ(t->bytes, bytes);
    ASSERT_NE(t->map, nullptr) << "not the huge-page mapping";
    float *host = hostOf(*t);
    ASSERT_NE(host, nullptr);
    auto h = reinterpret_cast<uintptr_t>(host), m = reinterpret_cast<uintptr_t>(t->map);
    EXPECT_EQ(h % kTimingHugePage, 0u) << "not on a huge-page boundary";
    EXPECT_GE(h, m);
    EXPECT_LE(h + bytes, m + t->mapBytes) << "the buffer runs past its mapping";
    EXPECT_TRUE(allZero(host, bytes));
    // the advice where the kernel has THP ("hg": MADV_HUGEPAGE on the range)
    if (::access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0)
      EXPECT_NE(vmFlagsAt(host).find(" hg"), std::string::npos) << vmFlagsAt(host);
  }
  float *pa = hostOf(a), *pb = hostOf(b), *po = hostOf(out);
  for (int64_t i = 0; i < n; ++i) {
    pa[i] = float(i);
    pb[i] = float(2 * i);
  }
  std::ifstream f(TGRT_TEST_KERNEL_DIR "/add.o", std::ios::binary);
  std::string obj((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(obj.empty()) << TGRT_TEST_KERNEL_DIR "/add.o";
  tgrt_program *add = nullptr;
  ASSERT_EQ(tgrt_program_load(dev, obj.data(), obj.size(), "add", &add), TGRT_OK) << tgrt_last_error();
  tgrt_arg args[] = {tgrt_arg_buffer(out.buf), tgrt_arg_buffer(a.buf), tgrt_arg_buffer(b.buf), tgrt_arg_int(n)};
  ASSERT_EQ(tgrt_program_launch(add, args, 4, -1, 1), TGRT_OK) << tgrt_last_error();
  tgrt_program_free(add);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i)
    wrong += po[i] != float(3 * i);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(po[n - 1], float(3 * (n - 1))); // the element past the last huge page

  void *m = out.map;
  size_t mapBytes = out.mapBytes;
  for (TimingBuffer *t : {&out, &a, &b})
    freeTimingBuffer(*t);
  EXPECT_EQ(out.buf, nullptr);
  EXPECT_EQ(out.map, nullptr);
  EXPECT_FALSE(mapped(m, mapBytes)) << "freed, yet still mapped";
}

TEST_F(TimingBufferOnCPU, UnderAHugePageTheBufferIsTheRuntimes) {
  TimingBuffer t;
  ASSERT_EQ(zeroedBuffer(dev, kTimingHugePage - 4, t), TGRT_OK) << tgrt_last_error();
  EXPECT_EQ(t.map, nullptr);
  EXPECT_EQ(t.bytes, kTimingHugePage - 4);
  float *host = hostOf(t);
  ASSERT_NE(host, nullptr);
  EXPECT_TRUE(allZero(host, t.bytes));
  freeTimingBuffer(t);
  EXPECT_EQ(t.buf, nullptr);
}

/// Whether any page of [p, p + bytes) is resident.
bool anyResident(void *p, size_t bytes) {
  std::vector<unsigned char> pages((bytes + 4095) / 4096);
  EXPECT_EQ(::mincore(p, bytes, pages.data()), 0);
  for (unsigned char v : pages)
    if (v & 1)
      return true;
  return false;
}

TEST_F(TimingBufferOnCPU, AnUntouchedBufferFaultsNothingInUntilZeroed) {
  constexpr size_t bytes = (size_t(5) << 20) + 12;
  TimingBuffer t;
  ASSERT_EQ(zeroedBuffer(dev, bytes, t, /*touch=*/false), TGRT_OK) << tgrt_last_error();
  ASSERT_NE(t.map, nullptr);
  void *host = timingHostPointer(t);
  ASSERT_NE(host, nullptr);
  EXPECT_FALSE(anyResident(host, bytes)) << "touched before its zeroing";
  zeroHostRegions({{host, bytes}}, 2);
  std::vector<unsigned char> pages((bytes + 4095) / 4096);
  ASSERT_EQ(::mincore(host, bytes, pages.data()), 0);
  size_t absent = 0;
  for (unsigned char v : pages)
    absent += !(v & 1);
  EXPECT_EQ(absent, 0u) << "pages the zeroing left out";
  EXPECT_TRUE(allZero(host, bytes));
  freeTimingBuffer(t);
}

TEST_F(TimingBufferOnCPU, ZeroHostRegionsZeroesEachRegionWholeAndNothingElse) {
  // Regions of a huge page and odd sizes past them, inside larger blocks
  // whose guard bytes around each region must stay: cut for 1 to 8
  // threads, the cuts falling inside regions and between them.
  const size_t sizes[] = {(size_t(5) << 20) + 12, size_t(2) << 20, (size_t(3) << 20) + 4, 100};
  constexpr size_t guard = 4096;
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    std::vector<std::vector<unsigned char>> blocks;
    std::vector<std::pair<void *, size_t>> regions;
    for (size_t n : sizes) {
      blocks.emplace_back(n + 2 * guard, 0xab);
      regions.emplace_back(blocks.back().data() + guard, n);
    }
    zeroHostRegions(regions, threads);
    for (size_t i = 0; i < blocks.size(); ++i) {
      const std::vector<unsigned char> &b = blocks[i];
      EXPECT_TRUE(allZero(b.data() + guard, sizes[i])) << "region " << i << ", " << threads << " threads";
      size_t touched = 0;
      for (size_t j = 0; j < guard; ++j)
        touched += (b[j] != 0xab) + (b[guard + sizes[i] + j] != 0xab);
      EXPECT_EQ(touched, 0u) << "guard bytes of region " << i << ", " << threads << " threads";
    }
  }
  zeroHostRegions({}, 2); // nothing to zero: no thread, no fault
}

} // namespace
