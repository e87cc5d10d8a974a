//===- BeamTest.cpp - tgc_beam_search: semantics, cache, failures ---------===//
//
// The search runs with an injected timer (tgc_beam_options.timer): each
// candidate still compiles through our pipeline, but its time is a
// function of its opts, so the search is deterministic and its result is
// known: the beam width, the early stop, a failing candidate and the cache
// are checked against what tinygrad's beam_search does with those times.
//
//===----------------------------------------------------------------------===//
#include "TestInputs.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
using tgctest::lastError;
using tgctest::readInput;

/// "UPCAST:0:4" for each opt of an opts JSON array, in order.
std::vector<std::string> optKeys(const std::string &json) {
  std::vector<std::string> out;
  std::regex entry(R"re(\{[^}]*\})re"), op(R"re("op":"([A-Z_]+)")re"), axis(R"re("axis":(-?\d+|null))re"),
      arg(R"re("arg":(-?\d+))re");
  for (auto it = std::sregex_iterator(json.begin(), json.end(), entry); it != std::sregex_iterator(); ++it) {
    std::string e = it->str();
    std::smatch mo, ma, mg;
    std::regex_search(e, mo, op);
    std::regex_search(e, ma, axis);
    std::regex_search(e, mg, arg);
    out.push_back(mo[1].str() + ":" + ma[1].str() + ":" + mg[1].str());
  }
  return out;
}

/// The "opts" array of a tgc_beam_search result (the top-level one: keys
/// print sorted, so it follows "key"; each failure has its own "opts").
std::string resultOpts(const std::string &res) {
  size_t at = res.find("\"opts\":[", res.find("\"key\":"));
  size_t end = res.find(']', at);
  return at == std::string::npos ? "" : res.substr(at, end - at + 1);
}

struct Search {
  explicit Search(const char *input = "matmul_64.json") {
    EXPECT_EQ(tgc_context_create(&ctx), TGC_OK);
    std::string text = readInput(input);
    EXPECT_EQ(tgc_module_import_json(ctx, text.data(), text.size(), input, "ast", &module), TGC_OK)
        << lastError();
    char tmpl[] = "/tmp/tgc-beam-XXXXXX";
    cacheDir = mkdtemp(tmpl);
  }
  ~Search() {
    tgc_module_destroy(module);
    tgc_context_destroy(ctx);
    std::string cmd = "rm -rf '" + cacheDir + "'";
    (void)std::system(cmd.c_str());
  }
  /// Runs the search; the result JSON ("" on failure). With `kernel`,
  /// tgc_beam_search_kernel, its kernel there.
  std::string run(uint32_t beam, bool ignoreCache, tgc_beam_timer timer, void *user, tgc_kernel **kernel = nullptr) {
    tgc_beam_options o = TGC_BEAM_OPTIONS_DEFAULT;
    o.beam = beam;
    o.ignore_cache = ignoreCache;
    o.cache_dir = cacheDir.c_str();
    o.timer = timer;
    o.user_data = user;
    char *out = nullptr;
    if (kernel)
      EXPECT_EQ(tgc_beam_search_kernel(module, &o, &out, kernel), TGC_OK) << lastError();
    else
      EXPECT_EQ(tgc_beam_search(module, &o, &out), TGC_OK) << lastError();
    std::string s = out ? out : "";
    tgc_string_free(out);
    return s;
  }
  tgc_context *ctx = nullptr;
  tgc_module *module = nullptr;
  std::string cacheDir;
};

/// Times by opts: the first step UPCAST axis 0 by 4 is the best single opt
/// (0.5 s; with one more opt 0.4 s), UPCAST axis 1 by 4 the second best
/// (0.6 s) but the best with one more opt after it (0.1 s); everything
/// else 1 s. `fail` names an opts list whose candidate fails.
struct Table {
  std::string fail;
  int calls = 0;
  std::map<std::string, int> seen;
};
double tableTimer(const char *optsJSON, void *user) {
  Table &t = *static_cast<Table *>(user);
  ++t.calls;
  std::vector<std::string> k = optKeys(optsJSON);
  std::string joined;
  for (auto &s : k)
    joined += s + ",";
  ++t.seen[joined];
  if (!t.fail.empty() && joined == t.fail)
    return -1;
  if (k.empty() || k.size() > 2)
    return 1.0;
  if (k[0] == "UPCAST:0:4")
    return k.size() == 1 ? 0.5 : 0.4;
  if (k[0] == "UPCAST:1:4")
    return k.size() == 1 ? 0.6 : 0.1;
  return 1.0;
}

double jsonNumber(const std::string &res, const char *key) {
  std::string k = std::string("\"") + key + "\":";
  size_t at = res.find(k);
  return at == std::string::npos ? -1 : std::strtod(res.c_str() + at + k.size(), nullptr);
}

TEST(Beam, WidthOneFollowsTheBestSingleOpt) {
  Search s;
  Table t;
  std::string res = s.run(1, /*ignoreCache=*/true, tableTimer, &t);
  std::vector<std::string> opts = optKeys(resultOpts(res));
  ASSERT_EQ(opts.size(), 2u) << res;
  EXPECT_EQ(opts[0], "UPCAST:0:4");
  EXPECT_DOUBLE_EQ(jsonNumber(res, "best_s"), 0.4);
  // Three rounds: one opt, two opts, then no three-opt candidate improves.
  EXPECT_EQ(jsonNumber(res, "rounds"), 3);
  EXPECT_NE(res.find("\"searched\":true"), std::string::npos);
  // _time_program: 3 runs per candidate (no early stop at these times).
  for (auto &kv : t.seen)
    EXPECT_EQ(kv.second, 3) << kv.first;
}

TEST(Beam, WidthTwoKeepsTheRunnerUp) {
  Search s;
  Table t;
  std::string res = s.run(2, true, tableTimer, &t);
  std::vector<std::string> opts = optKeys(resultOpts(res));
  ASSERT_EQ(opts.size(), 2u) << res;
  EXPECT_EQ(opts[0], "UPCAST:1:4");
  EXPECT_DOUBLE_EQ(jsonNumber(res, "best_s"), 0.1);
}

TEST(Beam, DeterministicUnderAFixedTimer) {
  Search s;
  Table t1, t2;
  std::string a = s.run(2, true, tableTimer, &t1), b = s.run(2, true, tableTimer, &t2);
  EXPECT_EQ(resultOpts(a), resultOpts(b));
  EXPECT_EQ(t1.seen, t2.seen);
}

TEST(Beam, ACandidateWithAnEarlierCandidatesKernelIsNotCompiled) {
  // var_add's heuristic applies UPCAST axis 0 by 4, which is also one of
  // the first round's actions: the seed is compiled, the action's AST is
  // the seed's (interned), so it is counted and not compiled again.
  Search s("var_add.json");
  Table t;
  std::string res = s.run(2, true, tableTimer, &t);
  EXPECT_EQ(jsonNumber(res, "deduped"), 1) << res;
  EXPECT_NE(res.find("\"searched\":true"), std::string::npos) << res;
  // Each kernel the timer saw was timed once (3 runs), none twice.
  for (auto &kv : t.seen)
    EXPECT_LE(kv.second, 3) << kv.first;
}

/// An environment variable set for one scope, restored after.
struct Env {
  Env(const char *name, const char *v) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    setenv(name, v, 1);
  }
  ~Env() { saved ? (void)setenv(name, saved->c_str(), 1) : (void)unsetenv(name); }
  const char *name;
  std::optional<std::string> saved;
};

TEST(Beam, ConcurrentCompilesGiveTheSameSearch) {
  // A round's candidates compile on 4 threads (each its own context) and
  // are then timed in order: the same candidates, times and result as one
  // by one, including a candidate that fails.
  Search s;
  Table one, four;
  one.fail = four.fail = "UPCAST:0:4,";
  std::string a, b;
  {
    Env p("PARALLEL", "1"); // tinygrad's beam pool size; ours: compile threads
    a = s.run(2, true, tableTimer, &one);
  }
  {
    Env p("PARALLEL", "4");
    b = s.run(2, true, tableTimer, &four);
  }
  EXPECT_EQ(jsonNumber(a, "compile_threads"), 1) << a;
  EXPECT_EQ(jsonNumber(b, "compile_threads"), 4) << b;
  EXPECT_EQ(resultOpts(a), resultOpts(b));
  EXPECT_EQ(one.seen, four.seen);
  EXPECT_EQ(jsonNumber(a, "compiled"), jsonNumber(b, "compiled"));
  EXPECT_EQ(jsonNumber(a, "timed"), jsonNumber(b, "timed"));
  EXPECT_GT(jsonNumber(b, "compiled"), 4);
}

/// The table's times, except the first opts list timed, the kernel as it
/// compiles without BEAM (the heuristic's), takes `heuristicS`.
struct HeuristicTable : Table {
  double heuristicS = 0.05;
  double scale = 1; ///< the table's times are multiplied by it
  std::string heuristic;
};
double heuristicTimer(const char *optsJSON, void *user) {
  HeuristicTable &t = *static_cast<HeuristicTable *>(user);
  if (t.heuristic.empty())
    t.heuristic = optsJSON;
  if (t.heuristic == optsJSON) {
    ++t.calls;
    ++t.seen["heuristic"];
    return t.heuristicS;
  }
  return tableTimer(optsJSON, user) * t.scale;
}

TEST(Beam, TheHeuristicsKernelWinsWhenNothingBeatsIt) {
  // Timed first, 0.05 s: no candidate (0.1 s at best) beats it, so the
  // result is the kernel without BEAM, its opts the heuristic's.
  Search s;
  HeuristicTable t;
  std::string res = s.run(2, true, heuristicTimer, &t);
  EXPECT_NE(res.find("\"heuristic\":true"), std::string::npos) << res;
  EXPECT_DOUBLE_EQ(jsonNumber(res, "best_s"), 0.05);
  EXPECT_DOUBLE_EQ(jsonNumber(res, "heuristic_s"), 0.05);
  EXPECT_EQ(optKeys(resultOpts(res)), optKeys(t.heuristic)) << res;
  EXPECT_EQ(t.seen["heuristic"], 3);
  // Its time is every candidate's early stop from the start: the first
  // round's candidates (0.5 s and slower, over 3 x 0.05) run once.
  EXPECT_EQ(t.seen["UPCAST:0:4,"], 1);
  EXPECT_EQ(t.seen["UPCAST:1:4,"], 1);
}

TEST(Beam, ASubMillisecondFirstRunIsNoEarlyStop) {
  // The table in milliseconds, the heuristic at 10 us: a first run under
  // a millisecond may be mostly its cold start, so the candidates over the
  // early stop still get a second run (not tinygrad's one), not a third.
  Search s;
  HeuristicTable t;
  t.heuristicS = 1e-5;
  t.scale = 1e-3;
  std::string res = s.run(2, true, heuristicTimer, &t);
  EXPECT_NE(res.find("\"heuristic\":true"), std::string::npos) << res;
  EXPECT_EQ(t.seen["UPCAST:0:4,"], 2);
  EXPECT_EQ(t.seen["UPCAST:1:4,"], 2);
}

TEST(Beam, ASearchThatBeatsTheHeuristicWins) {
  // The heuristic at 0.3 s: UPCAST 1 then another opt (0.1 s) wins, and
  // the first round's candidates still get tinygrad's three runs (0.5 and
  // 0.6 s are within 3 x 0.3).
  Search s;
  HeuristicTable t;
  t.heuristicS = 0.3;
  std::string res = s.run(2, true, heuristicTimer, &t);
  EXPECT_NE(res.find("\"heuristic\":false"), std::string::npos) << res;
  std::vector<std::string> opts = optKeys(resultOpts(res));
  ASSERT_EQ(opts.size(), 2u) << res;
  EXPECT_EQ(opts[0], "UPCAST:1:4");
  EXPECT_DOUBLE_EQ(jsonNumber(res, "best_s"), 0.1);
  EXPECT_EQ(t.seen["UPCAST:0:4,"], 3);
}

TEST(Beam, WithoutTheHeuristicItIsTinygradsSearch) {
  // BEAM_HEURISTIC=0: nothing is timed before the first round, so the
  // first list timed is a single action, and a 0.05 s one wins.
  Search s;
  HeuristicTable t;
  Env e("BEAM_HEURISTIC", "0");
  std::string res = s.run(2, true, heuristicTimer, &t);
  EXPECT_NE(res.find("\"heuristic\":false"), std::string::npos) << res;
  EXPECT_EQ(optKeys(t.heuristic).size(), 1u) << t.heuristic;
  EXPECT_EQ(res.find("\"heuristic_s\":0"), std::string::npos) << res;
}

TEST(Beam, AFailingCandidateCostsOnlyItself) {
  Search s;
  Table t;
  t.fail = "UPCAST:0:4,";
  std::string res = s.run(1, true, tableTimer, &t);
  std::vector<std::string> opts = optKeys(resultOpts(res));
  ASSERT_EQ(opts.size(), 2u) << res;
  EXPECT_EQ(opts[0], "UPCAST:1:4");
  EXPECT_NE(res.find("\"stage\":\"run\""), std::string::npos) << res;
  EXPECT_NE(res.find("the timer failed the candidate"), std::string::npos) << res;
}

TEST(Beam, TheSecondSearchIsACacheHit) {
  Search s;
  Table first, second, wider;
  std::string a = s.run(1, false, tableTimer, &first);
  EXPECT_NE(a.find("\"cached\":false"), std::string::npos) << a;
  EXPECT_GT(first.calls, 0);
  std::string b = s.run(1, false, tableTimer, &second);
  EXPECT_NE(b.find("\"cached\":true"), std::string::npos) << b;
  EXPECT_EQ(second.calls, 0);
  EXPECT_EQ(resultOpts(a), resultOpts(b));
  auto key = [](const std::string &r) { return r.substr(r.find("\"key\":"), 75); };
  EXPECT_EQ(key(a), key(b));
  // The width is part of the key.
  std::string c = s.run(2, false, tableTimer, &wider);
  EXPECT_NE(c.find("\"cached\":false"), std::string::npos) << c;
  EXPECT_GT(wider.calls, 0);
}

std::string objectOf(const tgc_kernel *k) {
  const void *data = nullptr;
  size_t size = 0;
  EXPECT_EQ(tgc_kernel_object(k, &data, &size), TGC_OK) << lastError();
  return data ? std::string(static_cast<const char *>(data), size) : "";
}

/// The object of the kernel AST of matmul_64.json compiled for the CPU
/// with `opts` ("UPCAST:1:4" keys; none: as the input has it) as its
/// opts_to_apply.
std::string compiledObject(const std::vector<std::string> &opts, bool withOpts) {
  std::string text = tgctest::readInput("matmul_64.json");
  if (withOpts) {
    std::string list = "[";
    for (const std::string &k : opts) {
      size_t a = k.find(':'), b = k.rfind(':');
      list += (list.size() > 1 ? ", " : "") + std::string("{\"kind\": \"Opt\", \"op\": \"") + k.substr(0, a) +
              "\", \"axis\": " + k.substr(a + 1, b - a - 1) + ", \"arg\": " + k.substr(b + 1) + "}";
    }
    size_t at = text.find("\"opts_to_apply\": null");
    EXPECT_NE(at, std::string::npos);
    text.replace(at, std::strlen("\"opts_to_apply\": null"), "\"opts_to_apply\": " + list + "]");
  }
  tgc_context *ctx = nullptr;
  tgc_module *m = nullptr;
  tgc_kernel *k = nullptr;
  EXPECT_EQ(tgc_context_create(&ctx), TGC_OK);
  EXPECT_EQ(tgc_module_import_json(ctx, text.data(), text.size(), "matmul_64.json", "ast", &m), TGC_OK) << lastError();
  EXPECT_EQ(tgc_compile_kernel_cpu(m, nullptr, &k), TGC_OK) << lastError();
  std::string obj = objectOf(k);
  tgc_kernel_destroy(k);
  tgc_module_destroy(m);
  tgc_context_destroy(ctx);
  return obj;
}

TEST(Beam, TheWinnersKernelIsTheFinalCompile) {
  // tgc_beam_search_kernel hands out the winning candidate's compile: the
  // very object the compile of the AST with the result's opts as its
  // opts_to_apply gives (or without, when the heuristic's kernel won), so
  // the caller need not compile it again. A cache hit has none.
  for (double heuristicS : {0.3, 0.05}) {
    Search s;
    HeuristicTable t;
    t.heuristicS = heuristicS;
    tgc_kernel *k = nullptr;
    std::string res = s.run(2, /*ignoreCache=*/false, heuristicTimer, &t, &k);
    ASSERT_NE(k, nullptr) << res;
    bool heuristic = res.find("\"heuristic\":true") != std::string::npos;
    EXPECT_EQ(heuristic, heuristicS < 0.1) << res;
    std::vector<std::string> opts = optKeys(resultOpts(res));
    ASSERT_FALSE(opts.empty()) << res;
    std::string obj = objectOf(k);
    EXPECT_FALSE(obj.empty());
    EXPECT_TRUE(obj == compiledObject(opts, /*withOpts=*/!heuristic)) << "heuristic " << heuristic << ": " << res;
    if (!heuristic) // the heuristic's object is another kernel
      EXPECT_FALSE(obj == compiledObject(opts, false));
    tgc_kernel_destroy(k);
    tgc_kernel *cached = reinterpret_cast<tgc_kernel *>(&t); // overwritten with NULL
    std::string again = s.run(2, false, heuristicTimer, &t, &cached);
    EXPECT_NE(again.find("\"cached\":true"), std::string::npos) << again;
    EXPECT_EQ(cached, nullptr);
  }
}

TEST(Beam, TimedOnTheRuntime) {
  Search s;
  std::string res = s.run(1, true, nullptr, nullptr);
  EXPECT_NE(res.find("\"searched\":true"), std::string::npos) << res;
  EXPECT_GT(jsonNumber(res, "timed"), 0) << res;
  EXPECT_GT(jsonNumber(res, "best_s"), 0) << res;
}

TEST(Beam, OneTimingChildServesEverySearch) {
  // Timed on the runtime twice: the second search sends its candidates to
  // the child the first one started (its device and buffers kept), so the
  // only children forked for it are those its own failed or cut-off runs
  // cost (none on a quiet machine; counted, so load cannot fail the test).
  Search s;
  std::string a = s.run(1, true, nullptr, nullptr), b = s.run(2, true, nullptr, nullptr);
  EXPECT_GT(jsonNumber(a, "timed"), 0) << a;
  EXPECT_GT(jsonNumber(b, "timed"), 0) << b;
  EXPECT_GE(jsonNumber(a, "timing_child_starts"), 1) << a;
  size_t runFailures = 0;
  for (size_t at = b.find("\"stage\":\"run\""); at != std::string::npos; at = b.find("\"stage\":\"run\"", at + 1))
    ++runFailures;
  EXPECT_EQ(jsonNumber(b, "timing_child_starts") - jsonNumber(a, "timing_child_starts"),
            jsonNumber(b, "cut_off") + (double)runFailures)
      << b;
}

TEST(Beam, BeamDebugPrintsEachTimedCandidateAndRound) {
  // search.py's BEAM_DEBUG: under the fixed timer, a line per round and the
  // best candidate's time (UPCAST 1 by 4 then one more opt: 0.1 s) on stderr;
  // nothing without it.
  auto search = [](const char *debug) {
    Env e("BEAM_DEBUG", debug);
    Search s;
    Table t;
    testing::internal::CaptureStderr();
    std::string res = s.run(2, true, tableTimer, &t);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(res, "");
    return err;
  };
  std::string on = search("1"), off = search("0");
  EXPECT_NE(on.find("round 1: "), std::string::npos) << on;
  EXPECT_NE(on.find("round 2: "), std::string::npos) << on;
  EXPECT_NE(on.find("100000.0"), std::string::npos) << on;
  EXPECT_EQ(off.find("round 1: "), std::string::npos) << off;
}

TEST(Beam, BadOptions) {
  Search s;
  tgc_beam_options o = TGC_BEAM_OPTIONS_DEFAULT;
  o.beam = 0;
  char *out = nullptr;
  EXPECT_EQ(tgc_beam_search(s.module, &o, &out), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("at least 1"), std::string::npos);
  o = TGC_BEAM_OPTIONS_DEFAULT;
  o.api_version = 1;
  EXPECT_EQ(tgc_beam_search(s.module, &o, &out), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_beam_search(nullptr, nullptr, &out), TGC_INVALID_ARGUMENT);
}

} // namespace
