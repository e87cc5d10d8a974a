//===- BeamSearch.cpp - tinygrad's beam_search over kernel opts -----------===//
#include "tinygrad/Codegen/BeamSearch.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace mlir::tinygrad::beam {
using opt::Opt;
using opt::Scheduler;
using tg::AxisType;
using tg::OptOps;

static int64_t envInt(const char *name, int64_t dflt) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtoll(v, nullptr, 10) : dflt;
}

const std::vector<Opt> &actions() {
  static const std::vector<Opt> list = [] {
    std::vector<Opt> a;
    auto add = [&](OptOps op, std::initializer_list<int64_t> amts, int64_t axes) {
      for (int64_t amt : amts)
        for (int64_t axis = 0; axis < axes; ++axis)
          a.push_back(Opt{op, axis, amt});
    };
    add(OptOps::Upcast, {0, 2, 3, 4, 5, 7}, 8);
    add(OptOps::Unroll, {0, 4, 7}, 5);
    add(OptOps::Local, {2, 3, 4, 8, 13, 16, 29}, 6);
    add(OptOps::GroupTop, {13, 16, 28, 29, 32, 49, 64, 256}, 3);
    add(OptOps::Group, {0, 4, 8, 16}, 3);
    if (envInt("BEAM_PADTO", 0))
      add(OptOps::PadTo, {32}, 7);
    a.push_back(Opt{OptOps::Local, 0, 32});
    a.push_back(Opt{OptOps::Local, 6, 2});
    // TC: (-1, 0, TC) on axis 0, then (-1, TC_OPT, TC) on axes 0..8.
    a.push_back(Opt{OptOps::TC, 0, 0});
    add(OptOps::TC, {0}, 9);
    for (int64_t a0 = 0; a0 < 5; ++a0)
      for (int64_t a1 = a0 + 1; a1 < 5; ++a1)
        a.push_back(Opt{OptOps::Swap, a0, a1});
    add(OptOps::Thread, {2, 3, 4, 5, 8, 12, 16, 24, 32, 64}, 3);
    if (envInt("NOLOCALS", 0))
      a.push_back(Opt{OptOps::NoLocals, std::nullopt, 0});
    return a;
  }();
  return list;
}

/// Scheduler.real_axis; nullopt where tinygrad raises KernelOptError.
static std::optional<int64_t> realAxis(const Scheduler &s, const Opt &o) {
  if (!o.axis || o.op == OptOps::TC)
    return -1;
  int64_t axis = *o.axis;
  if (o.op == OptOps::Unroll) {
    auto ud = s.unrollableDims();
    return axis < (int64_t)ud.size() ? std::optional<int64_t>(ud[axis]) : std::nullopt;
  }
  if (o.op == OptOps::Group || o.op == OptOps::GroupTop) {
    auto rd = s.axesOf({AxisType::Reduce});
    return axis < (int64_t)rd.size() ? std::optional<int64_t>(rd[axis]) : std::nullopt;
  }
  if (axis >= (int64_t)s.rngs().size())
    return std::nullopt;
  return axis;
}

std::vector<std::pair<unsigned, Scheduler>> kernelActions(const Scheduler &s, bool include0, int64_t maxUpcast,
                                                          int64_t maxLocal) {
  std::vector<std::pair<unsigned, Scheduler>> acted;
  if (include0)
    acted.emplace_back(0, s);
  const std::vector<Opt> &all = actions();
  auto rngs = s.rngs();
  for (auto [i, a] : llvm::enumerate(all)) {
    if (a.axis && a.op != OptOps::TC) {
      std::optional<int64_t> ax = realAxis(s, a);
      if (!ax)
        continue;
      if (*ax >= (int64_t)rngs.size())
        continue;
      std::optional<int64_t> full = Scheduler::size(rngs[*ax]);
      Opt whole{a.op, a.axis, 0};
      if (full && *full == a.arg && llvm::is_contained(all, whole))
        continue;
    }
    Scheduler s2 = s;
    if (!s2.applyOpt(a))
      continue;
    int64_t up = 1, lcl = 1;
    bool symbolic = false;
    for (auto r : s2.rngs()) {
      AxisType t = Scheduler::axisType(r);
      std::optional<int64_t> n = Scheduler::size(r);
      bool counted = t == AxisType::Upcast || t == AxisType::Unroll || t == AxisType::Warp ||
                     t == AxisType::Local || t == AxisType::GroupReduce;
      if (counted && !n) {
        symbolic = true;
        break;
      }
      if (t == AxisType::Upcast || t == AxisType::Unroll)
        up *= *n;
      else if (t == AxisType::Warp || t == AxisType::Local || t == AxisType::GroupReduce)
        lcl *= *n;
    }
    if (symbolic || up > maxUpcast || lcl > maxLocal)
      continue;
    acted.emplace_back(i + 1, std::move(s2));
  }
  return acted;
}

CandidateRunner::~CandidateRunner() = default;

SearchOptions SearchOptions::fromEnv(unsigned amt) {
  SearchOptions o;
  o.amt = amt;
  if (const char *v = std::getenv("BEAM_MIN_PROGRESS"); v && *v)
    o.minProgressS = std::strtod(v, nullptr) / 1e6;
  o.maxUpcast = opt::beamUpcastMax();
  o.maxLocal = envInt("BEAM_LOCAL_MAX", 1024);
  int64_t uops = envInt("BEAM_UOPS_MAX", 3000);
  o.maxUops = uops > 0 ? (size_t)uops : 0;
  o.compileTimeoutS = (double)envInt("BEAM_TIMEOUT_SEC", 10);
  // search.py's beam pool: PARALLEL workers, the cores by default.
  int64_t cores = std::max<int64_t>(1, (int64_t)std::thread::hardware_concurrency());
  o.compileThreads = (unsigned)std::max<int64_t>(1, envInt("PARALLEL", cores));
  o.seedHeuristic = envInt("BEAM_HEURISTIC", 1) != 0;
  // search.py's BEAM_DEBUG: a line per timed candidate and round, on stderr
  if (envInt("BEAM_DEBUG", 0))
    o.log = [](const std::string &m) { llvm::errs() << m << "\n"; };
  return o;
}

static double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

llvm::Expected<CompiledCandidate> CandidateRunner::compileHeuristic(std::vector<Opt> &) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "this runner has no heuristic");
}

std::vector<llvm::Expected<CompiledCandidate>> CandidateRunner::compileAll(llvm::ArrayRef<std::vector<Opt>> batch,
                                                                           unsigned) {
  std::vector<llvm::Expected<CompiledCandidate>> out;
  for (const std::vector<Opt> &opts : batch)
    out.push_back(compile(opts));
  return out;
}

SearchResult beamSearch(const Scheduler &start, CandidateRunner &runner, const SearchOptions &opts) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  auto t0 = std::chrono::steady_clock::now();
  SearchResult res;
  res.compileThreads = std::max(1u, opts.compileThreads);
  std::vector<std::pair<Scheduler, double>> beam{{start, inf}};
  std::set<std::string> seenLibs;
  llvm::DenseSet<sym::UOpRef> seenAsts;
  auto log = [&](const std::string &m) {
    if (opts.log)
      opts.log(m);
  };
  // The heuristic's kernel, timed before the first round: the bar the
  // search must beat, and the first early stop. Its opts (when they apply
  // to `start`) are a first-round candidate like the actions.
  res.heuristicS = inf;
  std::optional<Scheduler> seed;
  std::vector<Opt> applied;
  std::string heuristicLib; // the seed compiling to it is not timed again
  if (opts.seedHeuristic) {
    auto tc = std::chrono::steady_clock::now();
    llvm::Expected<CompiledCandidate> hc = runner.compileHeuristic(applied);
    res.compileS += secondsSince(tc);
    if (!hc) {
      log("BEAM: no heuristic kernel: " + llvm::toString(hc.takeError()));
    } else {
      ++res.compiled;
      auto tt = std::chrono::steady_clock::now();
      llvm::Expected<std::vector<double>> tms = runner.time(*hc, inf, opts.count);
      res.timeS += secondsSince(tt);
      if (!tms) {
        res.failures.push_back({applied, "run", "the heuristic's kernel: " + llvm::toString(tms.takeError())});
      } else if (!tms->empty()) {
        ++res.timed;
        res.heuristicS = *std::min_element(tms->begin(), tms->end());
        res.cutOff += std::isinf(res.heuristicS);
        heuristicLib = hc->lib;
        log("heuristic: " + std::to_string(res.heuristicS * 1e6) + " us, compile " +
            std::to_string(res.compileS * 1e3).substr(0, 6) + " ms, timing " + std::to_string(res.timeS * 1e3).substr(0, 6) +
            " ms  " + opt::toString(applied));
      }
      Scheduler s2 = start;
      bool ok = !applied.empty();
      for (const Opt &o : applied)
        if (!(ok = s2.applyOpt(o)))
          break;
      if (ok)
        seed.emplace(std::move(s2));
    }
  }
  bool exiting = false;
  while (!exiting) {
    ++res.rounds;
    // A candidate whose opts give a kernel AST an earlier candidate had
    // (the heuristic's seed where its opts are one of the actions) would
    // compile to that candidate's code and be skipped as a known lib: the
    // AST being interned, it is dropped before its compile (tinygrad
    // compiles each and drops it by its lib). Most lib duplicates have
    // different ASTs and are still found by their lib.
    std::vector<Scheduler> candidates;
    auto add = [&](Scheduler s2) {
      if (seenAsts.insert(s2.ast).second)
        candidates.push_back(std::move(s2));
      else
        ++res.deduped;
    };
    if (seed && res.rounds == 1)
      add(*seed);
    for (auto &[si, t] : beam)
      for (auto &[idx, s2] : kernelActions(si, /*include0=*/false, opts.maxUpcast, opts.maxLocal))
        add(std::move(s2));
    std::vector<std::pair<Scheduler *, double>> timed;
    double leastOps = inf;
    // The early stop's reference: tinygrad's (the last round's best), or
    // with the heuristic seeded the best time known so far.
    double known = opts.seedHeuristic ? std::min(beam[0].second, res.heuristicS) : beam[0].second;
    // The round's compiles first (concurrently where the runner can), then
    // each candidate in order, as tinygrad's pool.imap hands them back.
    std::vector<std::vector<Opt>> batch;
    for (Scheduler &c : candidates)
      batch.emplace_back(c.applied.begin(), c.applied.end());
    auto tc = std::chrono::steady_clock::now();
    std::vector<llvm::Expected<CompiledCandidate>> compiled = runner.compileAll(batch, opts.compileThreads);
    res.compileS += secondsSince(tc);
    for (size_t ci = 0; ci < candidates.size(); ++ci) {
      Scheduler &c = candidates[ci];
      const std::vector<Opt> &copts = batch[ci];
      auto fail = [&](const char *stage, std::string msg) {
        log(std::string("BEAM failed for opts: ") + opt::toString(copts) + ": " + msg);
        res.failures.push_back({copts, stage, std::move(msg)});
      };
      llvm::Expected<CompiledCandidate> &cc = compiled[ci];
      if (!cc) {
        fail("compile", llvm::toString(cc.takeError()));
        continue;
      }
      ++res.compiled;
      // _try_compile's bounds: the time limit (checked once the compile is
      // back: it runs in this process) and BEAM_UOPS_MAX.
      if (cc->compileS > opts.compileTimeoutS) {
        fail("compile", "compile took " + std::to_string(cc->compileS) + " s, over BEAM_TIMEOUT_SEC");
        continue;
      }
      if (opts.maxUops && cc->uops >= opts.maxUops) {
        fail("compile", "too many uops (" + std::to_string(cc->uops) + ")");
        continue;
      }
      if (seenLibs.count(cc->lib))
        continue;
      if (!heuristicLib.empty() && cc->lib == heuristicLib) {
        seenLibs.insert(cc->lib);
        timed.emplace_back(&c, res.heuristicS);
        continue;
      }
      // kernels that use 1000x more compute than the smallest are not timed
      double ops = cc->ops ? (double)*cc->ops : 0;
      leastOps = std::min(leastOps, ops);
      if (leastOps * 1000 < ops)
        continue;
      seenLibs.insert(cc->lib);
      auto tt = std::chrono::steady_clock::now();
      llvm::Expected<std::vector<double>> tms = runner.time(*cc, known * 3, opts.count);
      res.timeS += secondsSince(tt);
      if (!tms) {
        fail("run", llvm::toString(tms.takeError()));
        continue;
      }
      if (tms->empty()) {
        fail("run", "no time measured");
        continue;
      }
      ++res.timed;
      double best = *std::min_element(tms->begin(), tms->end());
      res.cutOff += std::isinf(best);
      timed.emplace_back(&c, best);
      if (opts.seedHeuristic)
        known = std::min(known, best);
      log(std::to_string(secondsSince(t0)).substr(0, 6) + "s: " + std::to_string(best * 1e6) + " us  " +
          std::to_string(tms->size()) + " runs, compile " + std::to_string(cc->compileS * 1e3).substr(0, 6) +
          " ms, " + std::to_string(cc->uops) + " uops  " + opt::toString(copts));
    }
    std::stable_sort(timed.begin(), timed.end(), [](auto &a, auto &b) { return a.second < b.second; });
    exiting = timed.empty() || timed[0].second < opts.minProgressS ||
              (beam[0].second - timed[0].second) < opts.minProgressS;
    std::vector<std::pair<Scheduler, double>> next;
    if (!exiting) {
      // The seed rides along: the `amt` fastest of tinygrad's candidates
      // stay (its search is a part of ours), and the seed joins them.
      Scheduler *seeded = seed && res.rounds == 1 ? &candidates[0] : nullptr;
      size_t kept = 0;
      for (auto &[c, t] : timed) // `timed` is sorted: the beam keeps its order
        if (c == seeded || kept++ < opts.amt)
          next.emplace_back(*c, t);
      beam = std::move(next);
    } else if (!timed.empty() && timed[0].second < beam[0].second) {
      next.emplace_back(*timed[0].first, timed[0].second);
      beam = std::move(next);
    }
    log("round " + std::to_string(res.rounds) + ": " + std::to_string(candidates.size()) + " -> " +
        std::to_string(timed.size()) + " timed, best " + std::to_string(beam[0].second * 1e6) + " us " +
        opt::toString(llvm::ArrayRef<Opt>(beam[0].first.applied)));
  }
  res.bestS = beam[0].second;
  if (std::isfinite(res.heuristicS) && res.heuristicS <= res.bestS) {
    // nothing searched beats the kernel without BEAM (res.opts: its opts)
    res.heuristic = true;
    res.bestS = res.heuristicS;
    res.opts = applied;
    log("BEAM: the heuristic's kernel is the fastest");
  } else {
    res.opts.assign(beam[0].first.applied.begin(), beam[0].first.applied.end());
  }
  res.searchS = secondsSince(t0);
  return res;
}

std::string optsToJSON(llvm::ArrayRef<Opt> opts) {
  llvm::json::Array arr;
  for (const Opt &o : opts)
    arr.push_back(llvm::json::Object{{"op", opt::optName(o.op)},
                                     {"axis", o.axis ? llvm::json::Value(*o.axis) : llvm::json::Value(nullptr)},
                                     {"arg", o.arg}});
  std::string s;
  llvm::raw_string_ostream(s) << llvm::json::Value(std::move(arr));
  return s;
}

llvm::Expected<std::vector<Opt>> optsFromJSON(llvm::StringRef text) {
  auto bad = [](const llvm::Twine &m) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "opts JSON: " + m);
  };
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (!v)
    return v.takeError();
  const llvm::json::Array *arr = v->getAsArray();
  if (!arr)
    return bad("not an array");
  std::vector<Opt> out;
  for (const llvm::json::Value &e : *arr) {
    const llvm::json::Object *o = e.getAsObject();
    auto name = o ? o->getString("op") : std::nullopt;
    auto arg = o ? o->getInteger("arg") : std::nullopt;
    if (!name || !arg)
      return bad("an entry needs op and arg");
    std::optional<OptOps> op;
    for (uint32_t i = 0; i <= (uint32_t)OptOps::Swap; ++i)
      if (*name == opt::optName((OptOps)i))
        op = (OptOps)i;
    if (!op)
      return bad("unknown op '" + *name + "'");
    Opt x{*op, std::nullopt, *arg};
    if (auto ax = o->getInteger("axis"))
      x.axis = *ax;
    else if (o->get("axis") && !o->get("axis")->getAsNull())
      return bad("axis is an integer or null");
    out.push_back(x);
  }
  return out;
}

} // namespace mlir::tinygrad::beam
