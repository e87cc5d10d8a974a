//===- BeamSearch.h - tinygrad's beam_search over kernel opts ----*- C++ -*-===//
//
// tinygrad/codegen/opt/search.py: from the kernel's Scheduler (its ranges
// before any opt), every action of tinygrad's list that applies is a
// candidate; each is compiled and timed, the `amt` fastest become the next
// beam, and the search stops when no candidate beats the best by
// BEAM_MIN_PROGRESS. The result is an opts list, applied as opts_to_apply.
//
// Compiling and timing are the caller's (CandidateRunner): the target's runner
// (Execution/BeamKernel.h) compiles with our pipeline and times through the
// runtime; tests inject a runner with a fixed timer. A candidate that fails
// to compile, runs too long or faults costs that candidate only: it is
// reported in the result and skipped.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_CODEGEN_BEAMSEARCH_H
#define TINYGRAD_CODEGEN_BEAMSEARCH_H

#include "tinygrad/Codegen/Opts.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tinygrad::beam {

/// search.py's `actions`, in its order (BEAM_PADTO and NOLOCALS from the
/// environment as there). TC's tuple arg is not an Opt arg here: TC
/// actions are kept (with arg 0) so indices match tinygrad's, and fail on
/// a target without tensor cores as tinygrad's do.
const std::vector<opt::Opt> &actions();

/// get_kernel_actions: each action that applies to `s` (with at most
/// `maxUpcast` upcast/unrolled and `maxLocal` local elements) as the
/// Scheduler after it, keyed by its index in actions() + 1 (0: `s`).
std::vector<std::pair<unsigned, opt::Scheduler>> kernelActions(const opt::Scheduler &s, bool include0,
                                                               int64_t maxUpcast, int64_t maxLocal);

/// A candidate compiled by a CandidateRunner.
struct CompiledCandidate {
  /// What identifies the compiled code (tinygrad's `lib`): candidates that
  /// compile to the same code are timed once.
  std::string lib;
  /// Estimates.ops of the kernel as compiled (nullopt: symbolic).
  std::optional<int64_t> ops;
  /// UOps of its linear form (BEAM_UOPS_MAX bounds it).
  size_t uops = 0;
  double compileS = 0;
  /// The runner's handle for time().
  unsigned handle = 0;
};

/// Compiles and times candidates for one kernel.
class CandidateRunner {
public:
  virtual ~CandidateRunner();
  /// Compiles the kernel with `opts` as opts_to_apply; an error is the
  /// candidate's own failure (reported, skipped).
  virtual llvm::Expected<CompiledCandidate> compile(llvm::ArrayRef<opt::Opt> opts) = 0;
  /// Compiles a round's candidates, results in `batch`'s order, with up to
  /// `threads` compiles at once (tinygrad's beam pool of PARALLEL
  /// workers). This one compiles them one by one through compile(); a
  /// runner that can compile concurrently overrides it.
  virtual std::vector<llvm::Expected<CompiledCandidate>> compileAll(llvm::ArrayRef<std::vector<opt::Opt>> batch,
                                                                    unsigned threads);
  /// _time_program: up to `count` runs, stopping once the fastest so far
  /// is slower than `earlyStop` seconds; the seconds of each. An error
  /// (a fault, a timeout) is the candidate's own failure.
  virtual llvm::Expected<std::vector<double>> time(const CompiledCandidate &c, double earlyStop,
                                                   unsigned count) = 0;
  /// The kernel as it compiles without BEAM (the target's heuristic, with
  /// whatever it does beyond opts), `applied` set to the opts it applied;
  /// an error where the runner has none (this default).
  virtual llvm::Expected<CompiledCandidate> compileHeuristic(std::vector<opt::Opt> &applied);
};

struct SearchOptions {
  unsigned amt = 2;                 ///< beam width (BEAM=amt)
  double minProgressS = 0.01e-6;    ///< BEAM_MIN_PROGRESS (us) in seconds
  int64_t maxUpcast = opt::kBeamUpcastMax; ///< BEAM_UPCAST_MAX
  int64_t maxLocal = 1024;          ///< BEAM_LOCAL_MAX
  size_t maxUops = 3000;            ///< BEAM_UOPS_MAX (0: unbounded)
  double compileTimeoutS = 10;      ///< BEAM_TIMEOUT_SEC
  unsigned count = 3;               ///< runs per candidate (_time_program's cnt)
  /// Candidates compiled at once (tinygrad's PARALLEL, default the cores;
  /// 0 or 1: one by one). All of a round compile before any is timed, so
  /// timings never share the cores with a compile.
  unsigned compileThreads = 1;
  /// Ours, beyond tinygrad's search (BEAM_HEURISTIC=0 turns it off): the
  /// kernel as the heuristic compiles it is timed first and competes with
  /// the search's best at the end (so BEAM is never slower than no BEAM,
  /// up to timing noise), the heuristic's opts join the first round's
  /// candidates (so the beam can start from them), and every candidate's
  /// early stop is 3x the best time known so far (the heuristic's, the
  /// round's), not only the previous round's best.
  bool seedHeuristic = true;
  /// BEAM_DEBUG-style progress lines (null: none).
  std::function<void(const std::string &)> log;

  /// The BEAM_* variables of tinygrad's search.py from the environment.
  static SearchOptions fromEnv(unsigned amt);
};

struct CandidateFailure {
  std::vector<opt::Opt> opts;
  std::string stage; ///< "compile" or "run"
  std::string message;
};

struct SearchResult {
  std::vector<opt::Opt> opts; ///< the best candidate's applied opts (opts_to_apply)
  double bestS = 0;           ///< its time (inf if nothing was timed)
  /// The heuristic's kernel won (SearchOptions::seedHeuristic): compile
  /// without opts_to_apply; `opts` are the heuristic's, for the record.
  bool heuristic = false;
  double heuristicS = 0;      ///< its time (inf if it was not timed)
  unsigned rounds = 0, compiled = 0, timed = 0;
  /// Candidates not compiled: their kernel AST was an earlier candidate's.
  unsigned deduped = 0;
  /// Of `timed`: candidates whose runs were cut off (time inf: the runner
  /// stopped them past count x the early stop).
  unsigned cutOff = 0;
  std::vector<CandidateFailure> failures;
  double searchS = 0;
  unsigned compileThreads = 1; ///< compiles at once (SearchOptions::compileThreads)
  /// Of searchS: seconds in the runner's compile() and time() calls.
  double compileS = 0, timeS = 0;
};

/// beam_search from `start` (after convert_loop_to_global).
SearchResult beamSearch(const opt::Scheduler &start, CandidateRunner &runner, const SearchOptions &opts);

/// Opts as JSON [{"op": "UPCAST", "axis": 0, "arg": 4}, ...] and back
/// (the cache's and the C API's form).
std::string optsToJSON(llvm::ArrayRef<opt::Opt> opts);
llvm::Expected<std::vector<opt::Opt>> optsFromJSON(llvm::StringRef text);

} // namespace mlir::tinygrad::beam

#endif
