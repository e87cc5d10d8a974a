//===- BeamCPU.h - BEAM search for a kernel on the CPU ------------*- C++ -*-===//
//
// tinygrad's beam_search (Codegen/BeamSearch.h) with our compiler and
// runtime: each candidate compiles through the CPU pipeline with its opts
// as opts_to_apply and is timed through tinygrad-rt's CPU device, in a
// child process (a fault or a kernel past the time limit costs that
// candidate only), on zero-filled buffers of the kernel's sizes with each
// variable at the middle of its range (tinygrad's args_from_ast).
//
// Results are cached on disk as tinygrad's diskcache("beam_search") is:
// keyed by the kernel AST as printed, the beam width, the target (CPU
// name, features, threads) and the device, so a second search of the same
// kernel costs a file read.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_BEAMCPU_H
#define TINYGRAD_EXECUTION_BEAMCPU_H

#include "tinygrad/Codegen/BeamSearch.h"
#include "mlir/IR/Value.h"
#include <functional>
#include <optional>
#include <string>

namespace mlir::tinygrad::exec {

struct CPUBeamOptions {
  unsigned amt = 2;        ///< BEAM=amt
  unsigned maxThreads = 0; ///< cores the kernels may use (0: the host's)
  /// Skip the cache (tinygrad's IGNORE_BEAM_CACHE / CACHELEVEL=0): search,
  /// and do not write the result.
  bool ignoreCache = false;
  /// The cache folder; empty: TINYGRAD_MLIR_CACHE_DIR, else
  /// $XDG_CACHE_HOME/tinygrad-mlir (else ~/.cache/tinygrad-mlir); "beam/"
  /// under it.
  std::string cacheDir;
  /// Time candidates in a child process (default). Off: in this process,
  /// where a faulting kernel takes the process down with it.
  bool isolate = true;
  /// Seconds one candidate's runs may take before its child is killed.
  double runTimeoutS = 10;
  /// Replaces the runtime as the timer (tests: a deterministic search):
  /// the seconds one run of the candidate with these opts takes, or an
  /// error that fails the candidate. Candidates still compile for real.
  std::function<llvm::Expected<double>(llvm::ArrayRef<opt::Opt>)> timer;
  /// The BEAM_* knobs of search.py (SearchOptions::fromEnv by default);
  /// `amt` above wins.
  std::optional<beam::SearchOptions> search;
};

struct CPUBeamOutcome {
  std::vector<opt::Opt> opts; ///< opts_to_apply
  bool cached = false;        ///< read from the cache, nothing searched
  /// False when the kernel chooses its own opts (tagged, or it names
  /// opts_to_apply): `opts` are those, nothing was searched.
  bool searched = false;
  beam::SearchResult search;  ///< the search (when searched)
  std::string cacheKey;       ///< hex SHA-256 of the key text
};

/// BEAM search for the kernel SINK `root` on the host CPU. An error when
/// the kernel cannot be prepared (it would not compile at all).
llvm::Expected<CPUBeamOutcome> beamSearchForCPU(Value root, const CPUBeamOptions &opts);

/// The cache folder `opts` means (with beam/ at its end).
std::string beamCacheDir(const CPUBeamOptions &opts);

} // namespace mlir::tinygrad::exec

#endif
