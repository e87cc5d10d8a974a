//===- HostCache.cpp - the host CPU's cache sizes -------------------------===//
#include "tinygrad/Target/HostCache.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace mlir::tinygrad::host_cache {

uint64_t fromCpuidSubleaves(llvm::ArrayRef<CpuidRegs> subleaves, int level) {
  for (const CpuidRegs &r : subleaves) {
    unsigned type = r.eax & 31; // 0 null (no more caches), 1 data, 2 instruction, 3 unified
    if (type == 0)
      break;
    if (type == 2 || (int)(r.eax >> 5 & 7) != level)
      continue;
    uint64_t ways = (r.ebx >> 22) + 1, partitions = (r.ebx >> 12 & 0x3ff) + 1, line = (r.ebx & 0xfff) + 1,
             sets = (uint64_t)r.ecx + 1;
    return ways * partitions * line * sets;
  }
  return 0;
}

uint64_t fromSysfs(llvm::StringRef cacheDir, int level) {
  for (int i = 0; i < 16; ++i) {
    std::string dir = cacheDir.str() + "/index" + std::to_string(i) + "/";
    std::ifstream lv(dir + "level"), ty(dir + "type"), sz(dir + "size");
    int l = 0;
    std::string type, size;
    if (!(lv >> l) || !(ty >> type) || !(sz >> size))
      break;
    if (l != level || type == "Instruction" || size.empty())
      continue;
    uint64_t n = std::strtoull(size.c_str(), nullptr, 10);
    char unit = size.back();
    return unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : n;
  }
  return 0;
}

namespace {

/// This CPU's deterministic cache parameters subleaves (empty where the
/// vendor has none, AMD without TOPOEXT, or a hypervisor leaves the leaf
/// out of range).
std::vector<CpuidRegs> hostCpuidSubleaves() {
  std::vector<CpuidRegs> out;
#if defined(__x86_64__) || defined(__i386__)
  CpuidRegs r;
  if (!__get_cpuid(0, &r.eax, &r.ebx, &r.ecx, &r.edx))
    return out;
  bool intel = r.ebx == 0x756e6547;                      // "GenuineIntel"
  bool amd = r.ebx == 0x68747541 || r.ebx == 0x6f677948; // "AuthenticAMD", "HygonGenuine"
  unsigned leaf = intel ? 4 : 0x8000001D;
  if (amd && !(__get_cpuid(0x80000001, &r.eax, &r.ebx, &r.ecx, &r.edx) && (r.ecx >> 22 & 1)))
    return out;
  if ((!intel && !amd) || leaf > __get_cpuid_max(leaf & 0x80000000, nullptr))
    return out;
  for (unsigned i = 0; i < 16; ++i) {
    __cpuid_count(leaf, i, r.eax, r.ebx, r.ecx, r.edx);
    out.push_back(r);
    if ((r.eax & 31) == 0)
      break;
  }
#endif
  return out;
}

} // namespace

uint64_t hostBytes(int level) {
  if (uint64_t b = fromSysfs("/sys/devices/system/cpu/cpu0/cache", level))
    return b;
  return fromCpuidSubleaves(hostCpuidSubleaves(), level);
}

} // namespace mlir::tinygrad::host_cache
