//===- TargetDescription.h - what a backend is and can do ---------*- C++ -*-===//
//
// One description per target, as tinygrad's Renderer and Triton's TargetInfo
// are: the launch limits and capabilities tinygrad's opts and gpudims read
// (has_local, global_max, local_max, shared_max, ...), the dtypes and ops the
// target computes natively (tinygrad's supported_dtypes and code_for_op keys,
// which decide what is decomposed), the vector and cache sizes our own
// heuristics tile for, and the forms the conversion to upstream dialects
// emits (entry ABI, workgroup memory, math). Heuristics, decompositions and
// the lowering read this; nothing else may branch on which target it is.
//
// Targets are named by strings, the same ones the C API, tinygrad-run and the
// Python front end take: "cpu", "vulkan", "cuda:sm_90", "amd:gfx942".
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_TARGETDESCRIPTION_H
#define TINYGRAD_TARGET_TARGETDESCRIPTION_H

#include "tinygrad/Support/DType.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::tinygrad {

enum class TargetKind { CPU, Vulkan, CUDA, AMD };

/// How a kernel receives its arguments.
enum class EntryABI {
  /// tinygrad's CPU ABI: a function of one pointer per buffer, then each
  /// variable as an integer, then core_id; an ELF object's first function.
  CPUFunction,
  /// SPIR-V for the runtime's Vulkan driver: storage buffer i per buffer,
  /// then one storage buffer of 32-bit words (scalars, then each buffer's
  /// byte offset inside its binding; tgrt_program_desc).
  VulkanBindings,
  /// A GPU kernel's parameters: device pointers, then scalars (CUDA, HIP).
  KernelParams,
};

/// How LOCAL buffers (workgroup memory) are emitted: the conversions to
/// SPIR-V and to NVVM/ROCDL accept opposite forms.
enum class WorkgroupMemoryForm {
  StackArray,       ///< CPU: no workgroups, an aligned stack array
  AllocInSpace,     ///< SPIR-V: memref.alloc in the Workgroup storage class
  FuncAttribution,  ///< NVVM/ROCDL: gpu.func workgroup(...) attributions
};

/// Where math ops that stay native after the decompositions go.
enum class MathLowering {
  HostLLVM,   ///< llvm intrinsics / polynomial approximations (CPU)
  SPIRVGLSL,  ///< convert-math-to-spirv (GLSL.std.450)
  Libdevice,  ///< __nv_* from the CUDA toolkit's libdevice
  OCML,       ///< __ocml_* from ROCm's device libraries, or amdgcn intrinsics
};

/// Whose hand-coded heuristic picks a kernel's opts when it names none and
/// the caller asks for ours (TG_OPTS=tinygrad always takes tinygrad's).
enum class OptHeuristic {
  /// Ours (lib/Codegen/Opt/OurHeuristic.cpp): tuned for the CPU's vector
  /// lowering (register tiles, thread splits, staged panels).
  Ours,
  /// tinygrad's hand_coded_optimizations for its renderer (LOCAL/GROUP/
  /// UPCAST tiles): a GPU's until it has its own; ours applied nothing to
  /// a 4096 matmul there (one thread per output).
  TinygradHandCoded,
};

/// The ALU ops tinygrad's renderers may or may not have (code_for_op keys
/// that change which decompositions run).
enum class NativeOp : unsigned { Exp2, Log2, Sin, Sqrt, Reciprocal, Trunc, FDiv, MulAcc, Max, Count };

struct TargetDescription {
  // -- identity --
  TargetKind kind = TargetKind::CPU;
  std::string name = "cpu"; ///< the string it was parsed from, canonical
  std::string arch;         ///< host CPU name, "sm_90", "gfx942", "vulkan1.2"

  // -- tinygrad's Renderer flags and limits --
  bool hasLocal = false;  ///< workgroups and local ids (LOCAL/GROUP opts)
  bool hasShared = false; ///< workgroup memory (GROUP's staged reduce)
  bool hasThreads = true; ///< the CPU's THREAD opt (core_id)
  bool supportsFloat4 = true;
  std::array<int64_t, 3> globalMax = {1, 0, 0}; ///< per dimension; CPU: threads
  std::array<int64_t, 3> localMax = {0, 0, 0};
  int64_t globalProdMax = 0;  ///< 0: no limit on the product
  int64_t localProdMax = 0;   ///< threads per workgroup
  int64_t sharedMaxBytes = 0; ///< workgroup memory per workgroup
  unsigned subgroupSize = 1;

  // -- what computes natively --
  std::bitset<kNumDTypes> dtypes; ///< storage and arithmetic
  std::bitset<static_cast<unsigned>(NativeOp::Count)> nativeOps;
  bool has(DType dt) const { return dtypes.test(static_cast<unsigned>(dt)); }
  bool has(NativeOp op) const { return nativeOps.test(static_cast<unsigned>(op)); }
  /// math.fma rounds once (false: the device computes it as a multiply and
  /// an add; lavapipe does, so tinygrad's contracted C is matched in f64).
  bool fusedFMA = true;
  /// Loop iterations one thread may run in all, every loop counted (0: no
  /// limit). lavapipe's gallivm exits every loop once 65535 are spent, so
  /// tg-gpu-loop-budget unrolls loops to fit or refuses the kernel.
  uint64_t maxLoopIterations = 0;

  // -- how opts are chosen, and what our heuristics size tiles for --
  OptHeuristic heuristic = OptHeuristic::Ours;
  unsigned vectorBytes = 32, vectorRegs = 16; ///< CPU vector registers
  unsigned cacheBytes = 256 << 10;            ///< one core's L2
  uint64_t lastCacheBytes = 8 << 20;          ///< one instance of the last-level cache (a core complex on AMD); 8 MB where the host does not say
  /// A kernel streams an output past the caches only when it is memory-bound:
  /// at most this many ALU nodes per buffer access (INDEX). Above it the
  /// write-allocate reads hide behind the arithmetic and streaming only loses
  /// the output's lines (softmax's exp-and-divide kernel: ~12 per access, 5-30%
  /// slower streamed; add 1.7 and layernorm's last kernel 2.5 gain 1.3x).
  unsigned streamMaxOpsPerAccess = 4;
  unsigned maxVectorLanes = 64;               ///< widest vector value emitted
  /// The most lanes one value of a kernel may have (its UPCAST and UNROLL
  /// axes): more is refused with a diagnostic. LLVM 22's x86 instruction
  /// selection aborts the process on `<32784 x float>` and `<32784 x i1>`
  /// ("SmallVector unable to grow"; `llc-22` on znver5, znver4 and
  /// skylake-avx512, where every scalar type compiled at 16384 lanes); the
  /// GPU targets scalarize vectors and take the same bound.
  uint64_t maxValueLanes = 16384;

  // -- the forms the conversion emits --
  EntryABI abi = EntryABI::CPUFunction;
  WorkgroupMemoryForm workgroupMemory = WorkgroupMemoryForm::StackArray;
  MathLowering math = MathLowering::HostLLVM;
  unsigned indexBits = 64; ///< widest index math the target computes in

  bool isGPU() const { return kind != TargetKind::CPU; }
  /// The runtime device kernels for this target run on (tgrt_device_open's
  /// name): "CPU", "VULKAN", "CUDA" or "AMD".
  const char *runtimeDevice() const {
    switch (kind) {
    case TargetKind::CPU:
      return "CPU";
    case TargetKind::Vulkan:
      return "VULKAN";
    case TargetKind::CUDA:
      return "CUDA";
    case TargetKind::AMD:
      return "AMD";
    }
    return "CPU";
  }

  /// The host CPU with `threads` cores for the THREAD opt (0: the host's).
  static TargetDescription host(unsigned threads = 0);
  /// Vulkan with the capabilities of the device the runtime reports (the
  /// defaults are lavapipe's: every dtype but fp8 and bf16, 1024 threads
  /// per group, 32 KB of workgroup memory, subgroup 8).
  static TargetDescription vulkan();
  /// NVIDIA: "sm_80", "sm_89", "sm_90", ...
  static std::optional<TargetDescription> cuda(llvm::StringRef arch, std::string *error = nullptr);
  /// AMD: "gfx90a", "gfx942", "gfx1100", ...
  static std::optional<TargetDescription> amd(llvm::StringRef arch, std::string *error = nullptr);

  /// "cpu", "vulkan", "cuda:sm_90", "amd:gfx942"; nullopt with `error` naming
  /// what is wrong (an unknown target or arch) otherwise.
  static std::optional<TargetDescription> parse(llvm::StringRef target, std::string *error = nullptr);
};

/// The targets parse() accepts, for messages and --help.
const char *knownTargets();

} // namespace mlir::tinygrad

#endif // TINYGRAD_TARGET_TARGETDESCRIPTION_H
