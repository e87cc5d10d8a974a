//===- HeapReserveTest.cpp - the GPU back ends' heap stays mapped ---------===//
#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace mlir::tinygrad;

// What nvJitLink does per kernel, in small: megabytes of blocks under the
// mmap threshold, touched, then all freed. With glibc's defaults the freed
// top of the heap is handed back at once (trimmed above 128 KiB) and the
// next kernel faults it in again; after reserveHeapForBackends it is kept.
TEST(HeapReserve, FreedHeapTopStaysMapped) {
#if !defined(__GLIBC__)
  EXPECT_EQ(gpu_codegen::reserveHeapForBackends(), 0u);
#else
  unsetenv("TG_MALLOC_TOP_PAD"); // read once, at the first call below
  ASSERT_EQ(gpu_codegen::reserveHeapForBackends(), size_t(32) << 20);
  std::vector<void *> blocks;
  for (int i = 0; i < 256; ++i) { // 16 MiB in 64 KiB blocks
    blocks.push_back(std::malloc(64 << 10));
    std::memset(blocks.back(), 1, 64 << 10);
  }
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it)
    std::free(*it);
  EXPECT_GE(mallinfo2().keepcost, size_t(15) << 20);
#endif
}
