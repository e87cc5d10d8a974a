//===- ProgramUOps.h - a compiled kernel's UOps, for tinygrad -----*- C++ -*-===//
//
// What tinygrad reads back from a compiled program besides the binary: the
// linearized UOps (PROGRAM's LINEAR), the Estimates counted on them
// (KernelInfo.estimates) and the opts applied (KernelInfo.applied_opts), all
// of the kernel as we compiled it
// (KernelSignature::linear, estOps/estLds/estMem). Exported as the corpus
// JSON node format, so the Python hook rebuilds them as tinygrad UOps.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_PROGRAMUOPS_H
#define TINYGRAD_CODEGEN_PROGRAMUOPS_H

#include "tinygrad/Conversion/KernelToStandard.h"
#include "llvm/Support/JSON.h"
#include <array>
#include <optional>

namespace mlir::tinygrad::codegen {

/// One Estimates field as tinygrad holds it (a sint): an int, or an
/// expression of the kernel's variables, then also rendered in tinygrad's
/// syntax (`expr`; the int's digits otherwise).
struct ExportedSint {
  std::optional<int64_t> value;
  std::string expr;
  llvm::json::Value json = nullptr; ///< the int, or the expression's graph
};

struct ProgramUOps {
  ExportedSint ops, lds, mem;
  /// A GPU kernel's launch (KernelSignature::globalSize/localSize):
  /// workgroups per dimension, ints or expressions of the variables.
  std::array<ExportedSint, 3> globalSize;
  /// {"applied_opts": [Opt...], "linear": graph of the LINEAR, "lanes": [...],
  /// "estimates": {"ops", "lds", "mem"}}, and for a GPU kernel
  /// "global_size": [3 sints], "local_size": [3 ints] (tinygrad's
  /// ProgramInfo.global_size / local_size).
  std::string json;
};

/// The signature's linear form and estimates, exported (a located error
/// when a node has no tinygrad form).
FailureOr<ProgramUOps> exportProgramUOps(MLIRContext *ctx, Location loc, const KernelSignature &sig);

} // namespace mlir::tinygrad::codegen

#endif
