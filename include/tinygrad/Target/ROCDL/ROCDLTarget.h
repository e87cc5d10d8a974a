//===- ROCDLTarget.h - AMDGCN and HSACO from the ROCDL dialect -----*- C++ -*-===//
//
// The AMD targets' serialization, in-process: a gpu.module that
// `tg-gpu-to-rocdl` converted (llvm + rocdl ops, a #rocdl.target naming the
// chip, wave size and code object version) becomes AMDGCN assembly or a
// relocatable object through LLVM's AMDGPU backend, with ROCm's device
// libraries (ocml, ockl) linked for the __ocml_*/__ockl_* calls, and the
// object becomes an HSACO (the shared ELF the HSA runtime loads) through
// lld: in-process (liblld) when built with it, else the ld.lld executable,
// or ROCm's comgr where it supports the chip (Debian's 5.2: gfx90a and
// older). Only serialization lives here; the conversion is
// lib/Conversion/GPUToROCDL.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_ROCDL_ROCDLTARGET_H
#define TINYGRAD_TARGET_ROCDL_ROCDLTARGET_H

#include "mlir/IR/BuiltinOps.h"

#include "tinygrad/Target/GPU/PhaseTimes.h"

#include <string>

namespace mlir::tinygrad::rocdl_target {

/// How the relocatable object becomes an HSACO.
enum class HsacoLinker {
  Auto,  ///< lld in-process when built with liblld, else the ld.lld executable
  Lld,   ///< lld in-process (liblld)
  LdLld, ///< the ld.lld executable (ld.lld-22 on PATH or LLVM's bin directory)
  Comgr, ///< ROCm's comgr (libamd_comgr.so.2, opened at run time)
};

struct Options {
  /// ROCm's device-library bitcode (ocml.bc, ockl.bc); "": TG_ROCM_DEVICE_LIBS,
  /// else Debian's /usr/lib/x86_64-linux-gnu/amdgcn/bitcode, else
  /// /opt/rocm/amdgcn/bitcode.
  std::string deviceLibs;
  HsacoLinker linker = HsacoLinker::Auto;
  /// Where the serialization's phases are timed (nullptr: not timed).
  PhaseTimes *phases = nullptr;
};

/// AMDGCN assembly for the #rocdl.target of the one gpu.module in `module`.
FailureOr<std::string> emitAssembly(ModuleOp module, const Options &options = {});
/// The ELF relocatable object of the same.
FailureOr<std::string> emitObject(ModuleOp module, const Options &options = {});
/// `object` (for `chip`, code object version `abi` x100) linked into an
/// HSACO, or an error at `loc` with the linker's messages.
FailureOr<std::string> linkHsaco(Location loc, StringRef object, StringRef chip, unsigned abi,
                                 const Options &options = {});
/// emitObject then linkHsaco.
FailureOr<std::string> emitHsaco(ModuleOp module, const Options &options = {});

/// Whether this build links lld in-process (liblld-22-dev was found).
bool hasInProcessLld();

/// Registers `--emit-amdgcn` and `--emit-hsaco` for tinygrad-translate.
void registerTranslations();

} // namespace mlir::tinygrad::rocdl_target

#endif
