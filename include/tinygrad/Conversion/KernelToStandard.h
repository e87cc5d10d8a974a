//===- KernelToStandard.h - program-level kernels to upstream dialects -*- C++ -*-===//
//
// A kernel (a SINK with KernelInfo over END/STORE/INDEX/RANGE/REDUCE/ALU) is
// a dataflow graph whose loops are implicit: RANGE opens an iteration space,
// END and REDUCE close it. The lowering gives it explicit structure in
// upstream MLIR: one func.func whose arguments follow tinygrad's CPU calling
// convention (buffers in slot order, then scalar variables), RANGE → scf.for,
// REDUCE → an accumulator updated in its ranges, gated accesses → scf.if,
// ALU → arith/math with tinygrad's C semantics.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CONVERSION_KERNELTOSTANDARD_H
#define TINYGRAD_CONVERSION_KERNELTOSTANDARD_H

#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Symbolic/UOp.h"
#include "tinygrad/Target/TargetDescription.h"
#include "mlir/IR/BuiltinOps.h"
#include <array>
#include <string>
#include <vector>

namespace mlir::tinygrad {

/// Launch metadata, as tinygrad's ProgramInfo.
struct KernelSignature {
  std::string name;
  std::vector<int64_t> globals;  ///< buffer slots, in argument order
  std::vector<int64_t> bufferElems; ///< elements each of those buffers needs
  std::vector<int64_t> outs, ins;
  std::vector<std::string> vars; ///< scalar arguments after the buffers
  /// The dtype tinygrad's C declares each var with: a 64-bit one is an i64
  /// argument, every other an i32 (each passed in a 64-bit slot).
  std::vector<DType> varDTypes;
  int64_t coreIdArg = -1;        ///< argument index of core_id, -1 if none
  int64_t threads = 1;           ///< global_size[0]
  std::vector<opt::Opt> appliedOpts; ///< what apply_opts applied
  /// Time in the engine passes (load collapse .. decompositions), before
  /// the emitter.
  double passesMs = 0;
  /// The kernel as compiled, in tinygrad's linear form (what its PROGRAM's
  /// LINEAR lists): the emitted program's UOps in op order, every loop a
  /// RANGE ... END, a value read from memory a LOAD(INDEX), a REDUCE over
  /// loops a REG accumulator (BUFFER, STORE of the identity, LOAD, the
  /// ALU, STORE) as tinygrad lowers it. Nodes of the kernel's sym::Context
  /// (valid while it lives); `linearLanes[i]` is the vector width of the
  /// LINEAR's i-th source (1: a scalar).
  sym::UOpRef linear = nullptr;
  std::vector<unsigned> linearLanes;
  /// tinygrad's Estimates.from_uops(ignore_indexing=True) on `linear`:
  /// weakint expressions, CONSTs unless a loop runs to a variable.
  sym::UOpRef estOps = nullptr, estLds = nullptr, estMem = nullptr;

  // -- GPU targets (TargetDescription::hasLocal) --
  bool gpu = false; ///< a gpu.func with the launch below
  /// The launch: workgroups per dimension (the gidx SPECIALs' sizes, weakint
  /// expressions of the variables where they depend on them; null for 1) and
  /// threads per workgroup (the lidx sizes, constants), as tinygrad's
  /// ProgramInfo.global_size / local_size. Nodes of the kernel's sym::Context.
  std::array<sym::UOpRef, 3> globalSize = {nullptr, nullptr, nullptr};
  std::array<int64_t, 3> localSize = {1, 1, 1};
  /// Vulkan bindings: the 32-bit words of the scalar pack before the view
  /// offsets (each variable 1 word, 8-byte ones 2).
  unsigned scalarWords = 0;
};

/// The host's core count (what maxThreads = 0 means).
unsigned hostThreads();

/// Emits `kernel` (an interned SINK) after the codegen steps for the target:
/// on the CPU a func.func named `name` at the end of `module`; on a GPU
/// target a gpu.module `name`_module holding one gpu.func `name` kernel
/// (KernelEmitter.cpp: the entry ABI, workgroup and private memory forms).
/// Fails with a diagnostic at `loc` naming the op it cannot lower.
/// `info` is the kernel's KernelInfo (opts_to_apply / applied_opts; may be
/// null); `optMode` says whose heuristic picks the opts when it names none.
FailureOr<KernelSignature> lowerKernelToStandard(ModuleOp module, sym::UOpRef kernel,
                                                 llvm::StringRef name, Location loc,
                                                 const TargetDescription &target,
                                                 tg::KernelInfoAttr info = {},
                                                 opt::OptMode optMode = opt::OptMode::Ours);

} // namespace mlir::tinygrad

#endif
