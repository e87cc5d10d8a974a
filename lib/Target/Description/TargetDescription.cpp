//===- TargetDescription.cpp - the targets we compile for -----------------===//
//
// Each target is data: tinygrad's Renderer limits for it (global_max,
// local_max, shared_max, ...), the dtypes and ops it has natively, and the
// forms its conversion emits. The CPU's vector and cache sizes are probed
// from the host once per process.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/TargetDescription.h"
#include "tinygrad/Target/HostCache.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <unistd.h>

using namespace mlir::tinygrad;

namespace {

void setDTypes(TargetDescription &t, std::initializer_list<DType> dts) {
  t.dtypes.reset();
  for (DType d : dts)
    t.dtypes.set(static_cast<unsigned>(d));
}

void setOps(TargetDescription &t, std::initializer_list<NativeOp> ops) {
  t.nativeOps.reset();
  for (NativeOp o : ops)
    t.nativeOps.set(static_cast<unsigned>(o));
}

/// What every GPU target shares: tinygrad's GPU renderers' flags.
TargetDescription gpuBase(TargetKind kind) {
  TargetDescription t;
  t.kind = kind;
  t.hasLocal = true;
  t.hasShared = true;
  t.hasThreads = false;
  t.heuristic = OptHeuristic::TinygradHandCoded;
  t.supportsFloat4 = true;
  t.vectorBytes = 16;
  t.vectorRegs = 0;
  t.maxVectorLanes = 4;
  t.indexBits = 32;
  return t;
}

} // namespace

TargetDescription TargetDescription::host(unsigned threads) {
  // The host does not change while we run: read it once.
  static const TargetDescription probed = [] {
    TargetDescription t;
    t.kind = TargetKind::CPU;
    t.name = "cpu";
    t.arch = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> f = llvm::sys::getHostCPUFeatures();
    if (f.lookup("avx512f"))
      t.vectorBytes = 64, t.vectorRegs = 32;
    // A core's L2 as the C library reports it where neither source says.
    uint64_t l2 = host_cache::hostBytes(2);
    if (!l2) {
      long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
      l2 = v > 0 ? (uint64_t)v : 0;
    }
    if (l2)
      t.cacheBytes = (unsigned)std::min<uint64_t>(l2, 1u << 30);
    // The L3 only as one instance: the C library's figure is the whole
    // package's on AMD (glibc 2.36 reads cpuid 0x80000006: 320 MB on an
    // EPYC whose complexes share 32 MB each, 508 MB on a 2-vCPU Zen 5 guest
    // whose hypervisor hides sysfs' cache topology and leaf 0x8000001D), so
    // such a host keeps the default.
    if (uint64_t l3 = host_cache::hostBytes(3))
      t.lastCacheBytes = l3;
    // tinygrad's ClangRenderer: every dtype but the fp8s (emulated at half).
    setDTypes(t, {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32,
                  DType::UInt32, DType::Int64, DType::UInt64, DType::Float16, DType::BFloat16,
                  DType::Float32, DType::Float64});
    // Its code_for_op: no EXP2/LOG2/SIN/RECIPROCAL (decomposed), SQRT and
    // TRUNC as builtins, FDIV.
    setOps(t, {NativeOp::Sqrt, NativeOp::Trunc, NativeOp::FDiv});
    t.hasThreads = true;
    t.hasLocal = t.hasShared = false;
    t.abi = EntryABI::CPUFunction;
    t.workgroupMemory = WorkgroupMemoryForm::StackArray;
    t.math = MathLowering::HostLLVM;
    t.indexBits = 64;
    return t;
  }();
  TargetDescription t = probed;
  unsigned n = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  t.globalMax = {n, 0, 0};
  // A VM's sysfs may report the whole socket's L3 (260 MB on a 2-vCPU
  // Sapphire Rapids guest): TG_LAST_CACHE_BYTES states the share to plan for.
  if (const char *e = std::getenv("TG_LAST_CACHE_BYTES"))
    if (uint64_t v = std::strtoull(e, nullptr, 10))
      t.lastCacheBytes = v;
  return t;
}

TargetDescription TargetDescription::vulkan() {
  TargetDescription t = gpuBase(TargetKind::Vulkan);
  t.name = "vulkan";
  t.arch = "vulkan1.2";
  // tinygrad has no Vulkan renderer; its WebGPU one (the other portable
  // shader target) has these limits, within every Vulkan device's guaranteed
  // workgroup counts; lavapipe's threads per group and workgroup memory.
  // No float4: vector-element buffers would bind views only at multiples of
  // 16 bytes (see the runtime's offset words).
  t.globalMax = {65535, 65535, 65535};
  t.localMax = {256, 256, 64};
  t.localProdMax = 1024;
  t.supportsFloat4 = false;
  t.sharedMaxBytes = 32768;
  t.subgroupSize = 8;
  // bfloat16 is its bits in an i16 with tinygrad's manual casts
  // (tg-gpu-emulate-bfloat16), as tinygrad's renderers without the type.
  setDTypes(t, {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32,
                DType::UInt32, DType::Int64, DType::UInt64, DType::Float16, DType::BFloat16, DType::Float32,
                DType::Float64});
  // GLSL.std.450's exp2/log2/sin carry no precision guarantee Vulkan
  // implementations agree on: tinygrad's decompositions give its values.
  setOps(t, {NativeOp::Sqrt, NativeOp::Trunc, NativeOp::FDiv, NativeOp::Max});
  // lavapipe's GLSL.std.450 Fma rounds twice (measured: the same results
  // as an OpFMul and an OpFAdd); a device's fma is not queried yet.
  t.fusedFMA = false;
  // lavapipe's loop limiter (gallivm's LP_MAX_TGSI_LOOP_ITERATIONS): one
  // counter per invocation for every loop iteration; a device's is not
  // queried yet.
  t.maxLoopIterations = 65535;
  t.abi = EntryABI::VulkanBindings;
  t.workgroupMemory = WorkgroupMemoryForm::AllocInSpace;
  t.math = MathLowering::SPIRVGLSL;
  return t;
}

std::optional<TargetDescription> TargetDescription::cuda(llvm::StringRef arch, std::string *error) {
  unsigned sm = 0;
  const std::string given = arch.str(); // arch is consumed below
  if (!arch.consume_front("sm_") || arch.consumeInteger(10, sm) || !(arch.empty() || arch == "a") ||
      sm < 75) {
    if (error)
      *error = "unknown CUDA arch '" + given + "' (sm_75 or newer, e.g. sm_80, sm_89, sm_90)";
    return std::nullopt;
  }
  TargetDescription t = gpuBase(TargetKind::CUDA);
  t.arch = "sm_" + std::to_string(sm) + arch.str();
  t.name = "cuda:" + t.arch;
  // tinygrad's CUDARenderer: global_max (2^31-1, 65535, 65535), local_max
  // (1024, 1024, 64), 48 KB of static shared memory (more needs opt-in).
  t.globalMax = {2147483647, 65535, 65535};
  t.localMax = {1024, 1024, 64};
  t.localProdMax = 1024;
  t.sharedMaxBytes = 49152;
  t.subgroupSize = 32;
  setDTypes(t, {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32,
                DType::UInt32, DType::Int64, DType::UInt64, DType::Float16, DType::Float32,
                DType::Float64});
  if (sm >= 80)
    t.dtypes.set(static_cast<unsigned>(DType::BFloat16));
  if (sm >= 89)
    t.dtypes.set(static_cast<unsigned>(DType::FP8E4M3)), t.dtypes.set(static_cast<unsigned>(DType::FP8E5M2));
  setOps(t, {NativeOp::Exp2, NativeOp::Log2, NativeOp::Sin, NativeOp::Sqrt, NativeOp::Reciprocal,
             NativeOp::Trunc, NativeOp::FDiv, NativeOp::Max, NativeOp::MulAcc});
  t.abi = EntryABI::KernelParams;
  t.workgroupMemory = WorkgroupMemoryForm::FuncAttribution;
  t.math = MathLowering::Libdevice;
  return t;
}

std::optional<TargetDescription> TargetDescription::amd(llvm::StringRef arch, std::string *error) {
  static const char *const kChips[] = {"gfx90a", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1030",
                                      "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201"};
  llvm::StringRef chip = arch;
  if (std::find(std::begin(kChips), std::end(kChips), chip) == std::end(kChips)) {
    if (error)
      *error = "unknown AMD arch '" + arch.str() + "' (gfx90a, gfx942, gfx950, gfx1030, gfx1100, gfx1200, ...)";
    return std::nullopt;
  }
  TargetDescription t = gpuBase(TargetKind::AMD);
  t.arch = chip.str();
  t.name = "amd:" + t.arch;
  // tinygrad's HIPRenderer: global_max and global_prod_max as below, no
  // local_max of its own (the Renderer default); the hardware's 1024 threads
  // per workgroup bound what a kernel may ask for. CDNA runs waves of 64,
  // RDNA of 32; 64 KB of LDS per workgroup.
  bool rdna = chip.starts_with("gfx1");
  t.globalMax = {2147483647, 65535, 65535};
  t.globalProdMax = 0xFFFFFFFF;
  t.localMax = {0x8FFFFFFF, 0x8FFFFFFF, 0x8FFFFFFF};
  t.localProdMax = 1024;
  t.sharedMaxBytes = 65536;
  t.subgroupSize = rdna ? 32 : 64;
  setDTypes(t, {DType::Bool, DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32,
                DType::UInt32, DType::Int64, DType::UInt64, DType::Float16, DType::BFloat16,
                DType::Float32, DType::Float64});
  setOps(t, {NativeOp::Exp2, NativeOp::Log2, NativeOp::Sqrt, NativeOp::Trunc, NativeOp::FDiv,
             NativeOp::Max, NativeOp::MulAcc});
  t.abi = EntryABI::KernelParams;
  t.workgroupMemory = WorkgroupMemoryForm::FuncAttribution;
  t.math = MathLowering::OCML;
  return t;
}

std::optional<TargetDescription> TargetDescription::parse(llvm::StringRef target, std::string *error) {
  auto [driver, arch] = target.split(':');
  std::string lower = driver.lower();
  if (lower == "cpu" && arch.empty())
    return host();
  if (lower == "vulkan" && arch.empty())
    return vulkan();
  if (lower == "cuda" && !arch.empty())
    return cuda(arch, error);
  if ((lower == "amd" || lower == "hip") && !arch.empty())
    return amd(arch, error);
  if (error)
    *error = "unknown target '" + target.str() + "' (known: " + knownTargets() + ")";
  return std::nullopt;
}

const char *mlir::tinygrad::knownTargets() { return "cpu, vulkan, cuda:sm_<N>, amd:gfx<N>"; }
