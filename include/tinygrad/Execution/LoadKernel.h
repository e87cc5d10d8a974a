//===- LoadKernel.h - a compiled kernel onto a runtime device -*- C++ -*-===//
//
// The one place a compiled kernel becomes a runtime program: an ELF object
// through tgrt_program_load, a GPU binary through tgrt_program_create with
// the interface its signature implies (its buffers, then its variables at
// their widths; for SPIR-V the scalar pack ends with the buffers' view
// offsets, the Vulkan driver's convention). tinygrad-run, the C API's
// tgc_kernel_load and TensorProgram all load kernels through it.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_LOADKERNEL_H
#define TINYGRAD_EXECUTION_LOADKERNEL_H

#include "tinygrad/Conversion/KernelToStandard.h"
#include "tinygrad-rt/runtime.h"

#include "llvm/ADT/StringRef.h"

#include <array>

namespace mlir::tinygrad::exec {

/// `binary` in `format` (a tgrt_program_format) loaded on `device` as the
/// kernel `sig` describes; `localSize` is the workgroup size a GPU binary
/// was compiled for. The runtime's status (tgrt_last_error says why).
tgrt_status loadKernel(tgrt_device *device, uint32_t format, llvm::StringRef binary, const KernelSignature &sig,
                       const std::array<int64_t, 3> &localSize, tgrt_program **out);

} // namespace mlir::tinygrad::exec

#endif
