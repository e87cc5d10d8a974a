//===- HostCache.h - the host CPU's cache sizes ---------------------------===//
//
// How big one instance of the host's cache at a level is (what the cores
// sharing it hold), read from Linux's sysfs, else from cpuid's deterministic
// cache parameters. The decoders take their input as arguments so tests can
// feed them another machine's description.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_HOSTCACHE_H
#define TINYGRAD_TARGET_HOSTCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::tinygrad::host_cache {

/// One cpuid subleaf's registers.
struct CpuidRegs {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

/// The data or unified cache at `level` among the subleaves of the
/// deterministic cache parameters leaf (4 on Intel, 0x8000001D on AMD), in
/// order from subleaf 0: ways x partitions x line x sets; 0 when no subleaf
/// before the first null one (type 0) describes it.
uint64_t fromCpuidSubleaves(llvm::ArrayRef<CpuidRegs> subleaves, int level);

/// The data or unified cache at `level` as a sysfs cache directory
/// (/sys/devices/system/cpu/cpuN/cache) lists it in its indexK/{level,type,
/// size} files; 0 when no index before the first missing one does.
uint64_t fromSysfs(llvm::StringRef cacheDir, int level);

/// This host's: cpu0's sysfs, else cpuid (x86 only; the leaf the vendor
/// defines, read while its type field is non-null); 0 when neither says, as
/// on a guest whose hypervisor hides both.
uint64_t hostBytes(int level);

} // namespace mlir::tinygrad::host_cache

#endif // TINYGRAD_TARGET_HOSTCACHE_H
