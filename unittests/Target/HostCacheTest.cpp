//===- HostCacheTest.cpp - decoding the host's cache sizes ----------------===//
//
// The cache probe's two decoders on machines other than the one the tests
// run on (this CI guest hides both sysfs' cache topology and cpuid's cache
// leaves, so the probe itself only returns 0 here).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/HostCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace mlir::tinygrad::host_cache;

namespace {

// cpuid 0x8000001D as an AMD Zen 4 core reports it: L1d 32 KB, L1i 32 KB,
// L2 1 MB, and the L3 of its complex, 32 MB shared by 16 threads.
const CpuidRegs kZen4[] = {
    {0x00004121, 0x01c0003f, 0x0000003f, 0x0}, {0x00004122, 0x01c0003f, 0x0000003f, 0x0},
    {0x00004143, 0x01c0003f, 0x000007ff, 0x2}, {0x0003c163, 0x03c0003f, 0x00007fff, 0x1},
    {0x0, 0x0, 0x0, 0x0}};

} // namespace

TEST(HostCache, DecodesCpuidCacheLeaf) {
  EXPECT_EQ(fromCpuidSubleaves(kZen4, 1), 32u << 10);
  EXPECT_EQ(fromCpuidSubleaves(kZen4, 2), 1u << 20);
  EXPECT_EQ(fromCpuidSubleaves(kZen4, 3), 32u << 20);
  EXPECT_EQ(fromCpuidSubleaves(kZen4, 4), 0u);
  EXPECT_EQ(fromCpuidSubleaves({}, 3), 0u);
}

// An instruction cache never answers for its level (listed first here, it
// is 64 KB: the 32 KB data cache behind it is the answer); nothing after
// the null subleaf counts; partitions multiply (leaf 4's EBX[21:12]).
TEST(HostCache, CpuidSkipsInstructionCachesAndStopsAtNull) {
  const CpuidRegs l1[] = {{0x00000022, 0x01c0003f, 0x0000007f, 0x0}, {0x00000021, 0x01c0003f, 0x0000003f, 0x0}};
  EXPECT_EQ(fromCpuidSubleaves(l1, 1), 32u << 10);
  const CpuidRegs afterNull[] = {{0x00000021, 0x01c0003f, 0x0000003f, 0x0}, {0x0, 0x0, 0x0, 0x0},
                                 {0x00000063, 0x03c0003f, 0x00007fff, 0x0}};
  EXPECT_EQ(fromCpuidSubleaves(afterNull, 3), 0u);
  const CpuidRegs partitioned[] = {{0x00000043, 0x03c0103f, 0x000003ff, 0x0}};
  EXPECT_EQ(fromCpuidSubleaves(partitioned, 2), 16u * 2 * 64 * 1024);
}

namespace {

/// A sysfs-like cache directory under a fresh temporary folder.
struct FakeSysfs {
  llvm::SmallString<128> root;
  FakeSysfs() { EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("tg-host-cache", root)); }
  ~FakeSysfs() { llvm::sys::fs::remove_directories(root); }
  void index(int i, const char *level, const char *type, const char *size) {
    std::string dir = (root + "/index" + std::to_string(i)).str();
    ASSERT_FALSE(llvm::sys::fs::create_directories(dir));
    for (auto [name, text] : {std::pair{"level", level}, {"type", type}, {"size", size}}) {
      std::error_code ec;
      llvm::raw_fd_ostream os(dir + "/" + name, ec);
      ASSERT_FALSE(ec);
      os << text << "\n";
    }
  }
};

} // namespace

TEST(HostCache, ReadsSysfsCacheDirectory) {
  FakeSysfs fs;
  fs.index(0, "1", "Data", "48K");
  fs.index(1, "1", "Instruction", "32K");
  fs.index(2, "2", "Unified", "2048K");
  fs.index(3, "3", "Unified", "105M");
  EXPECT_EQ(fromSysfs(fs.root, 1), 48u << 10);
  EXPECT_EQ(fromSysfs(fs.root, 2), 2u << 20);
  EXPECT_EQ(fromSysfs(fs.root, 3), 105u << 20);
  EXPECT_EQ(fromSysfs(fs.root, 4), 0u);
  EXPECT_EQ(fromSysfs((fs.root + "/missing").str(), 3), 0u);
}

// The indices are read in order up to the first missing one, as the kernel
// numbers them without gaps.
TEST(HostCache, SysfsStopsAtTheFirstMissingIndex) {
  FakeSysfs fs;
  fs.index(0, "1", "Instruction", "32K");
  fs.index(2, "3", "Unified", "32768K");
  EXPECT_EQ(fromSysfs(fs.root, 3), 0u);
  EXPECT_EQ(fromSysfs(fs.root, 1), 0u);
}
