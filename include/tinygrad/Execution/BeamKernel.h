//===- BeamKernel.h - BEAM search for a kernel on a target's device -*- C++ -*-===//
//
// tinygrad's beam_search (Codegen/BeamSearch.h) with our compiler and
// runtime, for any target: each candidate compiles through the target's
// pipeline (KernelCompiler) with its opts as opts_to_apply and is timed
// through tinygrad-rt on the device that runs the target's kernels
// (TargetDescription::runtimeDevice), on zero-filled buffers of the
// kernel's sizes with each variable at the middle of its range (tinygrad's
// args_from_ast).
//
// CPU candidates run in a child process (a fault or a kernel past the time
// limit costs that candidate only). GPU candidates run in this process, as
// tinygrad times them, through tgrt_program_dispatch: a launch the driver
// fails (a lost device, a program it rejects) fails that candidate; each run
// is timed on the host around the dispatch and its wait.
//
// Results are cached on disk as tinygrad's diskcache("beam_search") is:
// keyed by the kernel AST as printed, the beam width, the target (its name,
// features, threads) and the device, so a second search of the same kernel
// costs a file read.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_EXECUTION_BEAMKERNEL_H
#define TINYGRAD_EXECUTION_BEAMKERNEL_H

#include "tinygrad/Codegen/BeamSearch.h"
#include "tinygrad/Codegen/CompiledKernel.h"
#include "tinygrad/Execution/Isolated.h"
#include "tinygrad/Target/TargetDescription.h"
#include "mlir/IR/Value.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tinygrad::exec {

struct BeamOptions {
  unsigned amt = 2;        ///< BEAM=amt
  /// The target the candidates compile for (nullopt: the host CPU with
  /// maxThreads cores).
  std::optional<TargetDescription> target;
  unsigned maxThreads = 0; ///< the host CPU's cores the kernels may use (0: all)
  /// The runtime device candidates are timed on ("VULKAN:1"); empty: the
  /// target's (TargetDescription::runtimeDevice).
  std::string device;
  /// Skip the cache (tinygrad's IGNORE_BEAM_CACHE / CACHELEVEL=0): search,
  /// and do not write the result.
  bool ignoreCache = false;
  /// The cache folder; empty: TINYGRAD_MLIR_CACHE_DIR, else
  /// $XDG_CACHE_HOME/tinygrad-mlir (else ~/.cache/tinygrad-mlir); "beam/"
  /// under it.
  std::string cacheDir;
  /// Time CPU candidates in a child process (default). Off: in this
  /// process, where a faulting kernel takes the process down with it.
  bool isolate = true;
  /// Seconds one CPU candidate's runs may take before its child is killed.
  double runTimeoutS = 10;
  /// Replaces the runtime as the timer (tests: a deterministic search):
  /// the seconds one run of the candidate with these opts takes, or an
  /// error that fails the candidate. Candidates still compile for real.
  std::function<llvm::Expected<double>(llvm::ArrayRef<opt::Opt>)> timer;
  /// The BEAM_* knobs of search.py (SearchOptions::fromEnv by default);
  /// `amt` above wins.
  std::optional<beam::SearchOptions> search;
};

struct BeamOutcome {
  std::vector<opt::Opt> opts; ///< opts_to_apply
  /// The kernel without BEAM (its heuristic) was the fastest: compile it
  /// with no opts_to_apply (`opts` are what its heuristic applies).
  bool heuristic = false;
  bool cached = false;        ///< read from the cache, nothing searched
  /// False when the kernel chooses its own opts (tagged, or it names
  /// opts_to_apply): `opts` are those, nothing was searched.
  bool searched = false;
  beam::SearchResult search;  ///< the search (when searched)
  std::string cacheKey;       ///< hex SHA-256 of the key text
  std::string device;         ///< the device the candidates were timed on
  /// What `opts` compile to (a CPU search's, when searched and a candidate
  /// was timed): the winning candidate's compile, the kernel the compile
  /// with `opts` as opts_to_apply gives (the heuristic's without them), so
  /// a caller need not compile it again.
  std::optional<CompiledKernel> kernel;
  /// Timing children this process has started so far, after the search:
  /// one serves every search (with its buffers), and a fault or a cut-off
  /// costs one more.
  unsigned timingChildStarts = 0;
};

/// BEAM search for the kernel SINK `root` on the options' target and
/// device. An error when the kernel cannot be prepared (it would not
/// compile at all).
llvm::Expected<BeamOutcome> beamSearchKernel(Value root, const BeamOptions &opts);

/// One CPU candidate's timing in `worker`'s child: `request` makes the
/// child run the kernel up to `count` times, stopping once its fastest run
/// is slower than `earlyStop` seconds, and reply its run times ("t0 t1
/// ..."). As tinygrad's BEAM_DEV_TIMEOUT, a candidate whose runs go on past
/// `count` x `earlyStop` (+ kTimingLoadS for the request and the object's
/// load) cannot be the best: the child is killed there and the candidate
/// is `count` runs of inf (ranked last, not a failure). Once the child says
/// the object is loaded (IsolatedWorker::notice), the first run gets
/// `earlyStop` + `firstRunSlackS`: a first run slower than the early stop
/// ends the candidate whatever follows (the fastest run is then slower), so
/// a cut-off costs one early stop and the slack, not `count` early stops
/// nor the load's allowance (resnet_3x3_256x14: 7 cut-offs of about 0.14 s
/// each, most of it the allowance, until the load was bounded apart; 11 of
/// about 60 ms, 2 early stops and 30 ms of slack each, until the first run
/// was). Once the child says the first run is in, the others get (`count`
/// - 1) x `earlyStop` + kTimingRunSlackS from then: a kill there would
/// lose a candidate whose fastest run is under the early stop, so their
/// slack is wider. Without an early stop, or
/// where that bound is past `runTimeoutS`, the bound is runTimeoutS and a
/// run past it is an error ("timed out"), as is a fault.
inline constexpr double kTimingLoadS = 0.1;
inline constexpr double kTimingRunSlackS = 0.03;
/// The first run's least slack past the early stop: the child's run and
/// its reply against the parent's clock (the search passes more: what a
/// fresh child costs, as a cut-off costs one).
inline constexpr double kTimingFirstRunSlackS = 0.01;
llvm::Expected<std::vector<double>> timeInChild(IsolatedWorker &worker, const std::string &request,
                                                double earlyStop, unsigned count, double runTimeoutS,
                                                double firstRunSlackS = kTimingFirstRunSlackS);

/// The cache folder `opts` means (with beam/ at its end).
std::string beamCacheDir(const BeamOptions &opts);

} // namespace mlir::tinygrad::exec

#endif
