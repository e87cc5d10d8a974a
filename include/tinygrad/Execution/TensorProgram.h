//===- TensorProgram.h - schedule, compile and run a tensor program -*- C++ -*-===//
//
// tinygrad's realize() end to end on one target: a tensor graph SINK is
// scheduled (sched::scheduleProgram), every kernel of the LINEAR compiled
// for the target (the CPU pipeline, or the GPU one) and loaded on the
// runtime device that target runs on (CPU, VULKAN, ...), the program's
// buffers allocated; the caller fills the input buffers, runs the LINEAR
// (as often as it likes), and reads each realized tensor back through its
// views as dense row-major bytes. tinygrad-run and the C API's tgc_program
// are both this class.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_TENSORPROGRAM_H
#define TINYGRAD_EXECUTION_TENSORPROGRAM_H

#include "tinygrad/Codegen/KernelCompiler.h"
#include "tinygrad/Execution/AheadOfTime.h"
#include "tinygrad/Target/TargetDescription.h"
#include "tinygrad/Schedule/SchedulePipeline.h"
#include "tinygrad/Symbolic/UOp.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::tinygrad::exec {

/// One of the tensor graph's device buffers: what the caller may fill.
struct BufferInfo {
  int64_t slot;
  std::string dtype;  ///< tinygrad's name ("float32", ...)
  std::string device; ///< "CPU", "PYTHON" (tinygrad's RNG state), ...
  int64_t elements;
  int64_t bytes;
};

/// One realized tensor (a source of the tensor graph's SINK).
struct OutputInfo {
  llvm::SmallVector<int64_t> shape;
  std::string dtype;
  int64_t itemsize;
  int64_t bytes; ///< elements * itemsize
};

struct ProgramOptions {
  /// What the kernels are compiled for and run on (its runtimeDevice()):
  /// the host CPU with its cores unless set.
  TargetDescription target = TargetDescription::host();
  /// Per-kernel compile options (kept texts, IR callbacks); the schedule's
  /// variable values are added to varValues for a GPU's launch.
  CompileOptions kernel;
  /// The kernel graph of a call body; empty: ours (sched::getKernelGraph).
  sched::KernelGraphFn kernelGraph;
  /// Called after scheduling ("schedule", 1, 1) and after each kernel is
  /// compiled ("compile", k, kernels): long work can show progress.
  std::function<void(llvm::StringRef stage, uint64_t done, uint64_t total)> progress;
  /// Compiles each kernel instead of a KernelCompiler of the program's own,
  /// e.g. to share the embedder's pipelines under a lock the LLVM back end
  /// needs; empty: the program's own.
  std::function<FailureOr<CompiledKernel>(Value root, const TargetDescription &, const CompileOptions &)> compile;
};

/// Which step of TensorProgram::create (or compileOnly) failed.
enum class Stage { Schedule, Compile, Runtime };

/// A tensor program's kernels compiled for a target and not run
/// (TensorProgram::compileOnly).
struct CompiledProgram {
  unsigned kernels = 0;  ///< distinct kernel bodies, each compiled once
  unsigned launches = 0; ///< kernel launches in the schedule
  unsigned copies = 0;   ///< copies in the schedule
  BinaryFormat format = BinaryFormat::ELF;
  size_t binaryBytes = 0; ///< all kernels' binaries together
  double scheduleMs = 0, compileMs = 0;
};

class TensorProgram {
public:
  /// Schedules and compiles the tensor graph SINK `tensor` (interned in
  /// `ctx`, whose MLIR context the kernels are materialized in). On an
  /// error, *failedAt (if given) says which step failed.
  static llvm::Expected<std::unique_ptr<TensorProgram>>
  create(sym::Context &ctx, sym::UOpRef tensor, const ProgramOptions &opts, Stage *failedAt = nullptr);
  /// Schedules and compiles `tensor`'s kernels as create() does, for a
  /// target no driver here runs (CUDA and AMD without their hardware): no
  /// device is opened and nothing is loaded. A kernel that does not compile,
  /// or whose launch depends on a variable the schedule does not bind, is
  /// the error it is in create().
  static llvm::Expected<CompiledProgram> compileOnly(sym::Context &ctx, sym::UOpRef tensor,
                                                     const ProgramOptions &opts, Stage *failedAt = nullptr);
  ~TensorProgram();
  TensorProgram(const TensorProgram &) = delete;
  TensorProgram &operator=(const TensorProgram &) = delete;

  /// The tensor graph's device buffers in slot order. A program's inputs
  /// are realized before it is built, so they come first.
  llvm::ArrayRef<BufferInfo> buffers() const { return bufferInfos; }
  llvm::ArrayRef<OutputInfo> outputs() const { return outputInfos; }

  /// Copies `bytes` into buffers()[index] (exactly its size).
  llvm::Error setBuffer(size_t index, const void *data, size_t bytes);
  /// Runs the LINEAR once and waits: a replay of its hcq queue commands,
  /// recorded when the program was created.
  llvm::Error run();
  /// The schedule as `hcq` ops (tg-schedule-to-hcq), what run() replays.
  void printHCQ(llvm::raw_ostream &os) const;
  /// The same compiled to host code: the llvm.func of runtime calls
  /// (convert-hcq-to-runtime) that recorded what run() replays.
  void printHostFunction(llvm::raw_ostream &os) const;
  /// The program ahead of time (AheadOfTime.h): one object holding the
  /// schedule and the kernels, and a C header; `name` prefixes the symbols,
  /// `source` is named in the header. Outputs must be dense ranges of one
  /// buffer each.
  llvm::Expected<AOTFiles> emitAOT(llvm::StringRef name, llvm::StringRef source) const;
  /// outputs()[index] as dense row-major bytes (padding reads as zero).
  llvm::Expected<std::vector<char>> readOutput(size_t index);

  unsigned numKernels() const { return kernelCount; }
  unsigned numCopies() const { return copyCount; }
  double scheduleMs() const { return scheduleTime; }
  /// Kernels, then the schedule (to a host function, recorded once).
  double compileMs() const { return compileTime; }
  /// Time of the last run().
  double runMs() const { return runTime; }
  const sched::ScheduledProgram &schedule() const { return scheduled; }

private:
  struct Impl;
  explicit TensorProgram(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
  sched::ScheduledProgram scheduled;
  std::vector<BufferInfo> bufferInfos;
  std::vector<OutputInfo> outputInfos;
  unsigned kernelCount = 0, copyCount = 0;
  double scheduleTime = 0, compileTime = 0, runTime = 0;
};

} // namespace mlir::tinygrad::exec

#endif
