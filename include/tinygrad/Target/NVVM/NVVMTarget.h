//===- NVVMTarget.h - PTX and cubins from the NVVM dialect ---------*- C++ -*-===//
//
// The NVIDIA targets' serialization, in-process: a gpu.module that
// `tg-gpu-to-nvvm` converted (llvm + nvvm ops, a #nvvm.target naming the
// chip) becomes PTX through LLVM's NVPTX backend, with CUDA's libdevice
// linked for the __nv_* math calls and nvvm-reflect answered as nvcc's
// defaults (IEEE sqrt and division, no flush-to-zero); the PTX becomes a
// cubin through nvJitLink (ptxas as the fallback). Only serialization
// lives here; the conversion is lib/Conversion/GPUToNVVM.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_NVVM_NVVMTARGET_H
#define TINYGRAD_TARGET_NVVM_NVVMTARGET_H

#include "mlir/IR/BuiltinOps.h"

#include "tinygrad/Target/GPU/PhaseTimes.h"

#include <string>

namespace mlir::tinygrad::nvvm_target {

/// How PTX becomes a cubin.
enum class CubinLinker {
  Auto,      ///< nvJitLink when it loads, else ptxas
  NvJitLink, ///< libnvJitLink, opened at run time, in-process
  Ptxas,     ///< the toolkit's ptxas executable
};

struct Options {
  /// The CUDA toolkit (libdevice, nvJitLink, ptxas); "": CUDA_PATH,
  /// CUDA_HOME, else /usr/local/cuda.
  std::string cudaPath;
  CubinLinker linker = CubinLinker::Auto;
  /// Where the serialization's phases are timed (nullptr: not timed).
  PhaseTimes *phases = nullptr;
};

/// The CUDA toolkit directory `options` name (it may not exist).
std::string cudaToolkit(const Options &options);

/// PTX for the #nvvm.target chip of the one gpu.module in `module`. A kernel
/// calling __nv_* math without a libdevice to link is an error naming where
/// it was looked for, never PTX with unresolved externs.
FailureOr<std::string> emitPTX(ModuleOp module, const Options &options = {});

/// `ptx` (for `chip`, "sm_90") as a cubin, or an error at `loc` with the
/// linker's log.
FailureOr<std::string> linkCubin(Location loc, StringRef ptx, StringRef chip, const Options &options = {});

/// emitPTX then linkCubin.
FailureOr<std::string> emitCubin(ModuleOp module, const Options &options = {});

/// Registers `--emit-ptx` and `--emit-cubin` for tinygrad-translate.
void registerTranslations();

} // namespace mlir::tinygrad::nvvm_target

#endif
