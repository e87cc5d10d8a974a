//===- HeapReserve.cpp - malloc's top pad for the GPU back ends -----------===//
//
// nvJitLink (and to a lesser degree LLVM's GPU back ends and lld) allocate
// and free tens of megabytes per kernel. With glibc's defaults the freed
// top of the heap goes back to the kernel after each compile (trim above
// 128 KiB, a dynamic mmap threshold), so the next compile page-faults it
// all in again: in a process that has done other work (a Python host with
// tinygrad imported, the compiler's own MLIR/LLVM state) nvJitLink took
// 15-20 ms of CPU per small kernel against 6 with the memory kept (process
// CPU time, the same PTX, bench/gpu/run.py's kernels). Keeping 32 MiB of
// slack at the top of the heap (M_TOP_PAD; 64 MiB measured no better) keeps
// those pages mapped between compiles. It is process-wide, so it is set
// once, when the first GPU binary is made, and TG_MALLOC_TOP_PAD (bytes; 0:
// leave malloc as it is) overrides it.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include <cstdlib>
#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace mlir::tinygrad;

size_t gpu_codegen::reserveHeapForBackends() {
  static size_t pad = [] {
    size_t bytes = size_t(32) << 20;
    if (const char *env = std::getenv("TG_MALLOC_TOP_PAD"); env && *env)
      bytes = std::strtoull(env, nullptr, 10);
#if defined(__GLIBC__)
    if (bytes && mallopt(M_TOP_PAD, static_cast<int>(bytes)) == 1)
      return bytes;
#endif
    return size_t(0);
  }();
  return pad;
}
