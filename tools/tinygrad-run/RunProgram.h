//===- RunProgram.h - run a tensor program record ----------------*- C++ -*-===//
#ifndef TINYGRAD_RUN_RUNPROGRAM_H
#define TINYGRAD_RUN_RUNPROGRAM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace tgrun {
struct ProgramOptions {
  llvm::StringRef casePath;
  /// JSONL of kernel graphs by program id (python/tools/export_schedules.py),
  /// used instead of ours to compare the rest of the pipeline on them.
  llvm::StringRef kernelGraphs;
  bool json = false;
  unsigned showValues = 0;
  /// Where to write the computed outputs (a JSON array of {shape, dtype,
  /// values}); records may then leave `values` null. Empty: don't write.
  llvm::StringRef writeOutputs;
  /// `Tensor.manual_seed` of the program's RNG state (PYTHON-device buffers
  /// the record has no values for).
  uint32_t rngSeed = 1337;
  /// --emit: "host" prints the schedule as hcq queue commands to
  /// `emitPath`, "host-llvm" the host function they compile to (then it
  /// runs and compares as usual); other kinds are errors.
  llvm::StringRef emitKind, emitPath;
  /// --target: what the kernels are compiled for and run on (empty: the
  /// host CPU).
  llvm::StringRef target;
  /// --scaled-tolerance: floats also match within 1e-5 (1e-2 at 16 bits) of
  /// their output's largest magnitude (CaseValues.h, scaledFloor).
  bool scaledTolerance = false;
  /// --compile-only: compile every kernel, run nothing (COMPILED).
  bool compileOnly = false;
};

/// Schedules, compiles, runs and checks one schedules.jsonl record.
/// 0: outputs match; 2: they differ; 1: bad input or a failed step.
int runProgram(const llvm::json::Value &record, llvm::StringRef text, const ProgramOptions &opts);
} // namespace tgrun

#endif
