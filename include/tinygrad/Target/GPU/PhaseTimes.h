//===- PhaseTimes.h - where a GPU compile's time went --------------*- C++ -*-===//
//
// A kernel's GPU compile (GPUPipeline.cpp) records the milliseconds of each
// phase: our codegen, the MLIR lowering, and inside the serialization the
// LLVM IR translation, the math library link, LLVM's optimization, the
// backend's code generation and the cubin/HSACO link. tgc_kernel_text's
// TGC_TEXT_PHASES gives them as JSON (bench/gpu/profile.py sums them over
// the corpus), so that a compile-time target is checked phase by phase.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_TARGET_GPU_PHASETIMES_H
#define TINYGRAD_TARGET_GPU_PHASETIMES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <string>
#include <utility>

namespace mlir::tinygrad {

/// Phase names and milliseconds, in the order they ran; a phase that runs
/// twice (a second library) adds to its first entry.
class PhaseTimes {
public:
  void add(llvm::StringRef phase, double ms);
  const llvm::SmallVector<std::pair<std::string, double>> &entries() const { return entries_; }
  /// The milliseconds of `phase` (0 if it did not run).
  double get(llvm::StringRef phase) const {
    for (const auto &[name, ms] : entries_)
      if (name == phase)
        return ms;
    return 0;
  }
  /// {"codegen": 1.25, ...}
  std::string json() const;

  /// Times its scope into `times` (nullptr: nothing recorded).
  class Scope {
  public:
    Scope(PhaseTimes *times, llvm::StringRef phase)
        : times_(times), phase_(phase), t0_(std::chrono::steady_clock::now()) {}
    ~Scope() {
      if (times_)
        times_->add(phase_, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0_).count());
    }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    PhaseTimes *times_;
    llvm::StringRef phase_;
    std::chrono::steady_clock::time_point t0_;
  };

private:
  llvm::SmallVector<std::pair<std::string, double>> entries_;
};

} // namespace mlir::tinygrad

#endif
