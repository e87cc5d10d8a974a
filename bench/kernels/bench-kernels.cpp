//===- bench-kernels.cpp - our kernels beside tinygrad's, OpenBLAS, STREAM -===//
//
//   bench-kernels [--manifest M.json] [CASE.json...] [--out kernels.json]
//                 [--check-only] [--filter SUBSTR] [--failing-dir DIR]
//                 [--budget S] [--corpus-budget S] [--clang clang-22]
//                 [--no-openblas] [--no-stream]
//
// For every kernel case (the corpus kernel format: `ast`, `params`,
// `program_info`, `c_source`; the manifest from export_kernels.py lists
// them): compiles OUR object from the AST in-process (import, the CPU
// pipeline, the runtime's loader: the compile time is that whole path; every
// case's back to back before any runs, as export_kernels.py times tinygrad's) and
// tinygrad's rendered C with clang and tinygrad's ClangCompiler flags (the
// reference, not our path), loads both on one runtime CPU device, runs both
// on the same deterministic inputs (the case's `inputs` where it has them,
// else seeded uniform values), compares the outputs, then times them side by
// side (samples interleaved): one warm-up, then the median of repeated
// runs, one statistic for every side. "1 thread" runs tinygrad's
// core_id ids one after another on the calling thread, as tinygrad's CPU
// runtime does; "2 threads" launches them in parallel on the runtime's
// pool, ours and tinygrad's alike (a kernel our opts did not split over
// core_id runs its 1-thread form there).
//
// Then the references for the absolute numbers: a STREAM-style add and sum
// (stream.c, clang -O3 -march=native), each timed side by side with the
// add_16m / sum_16m programs, and OpenBLAS sgemm 1024/2048 at 1 and 2
// threads (last, so OpenBLAS's spinning workers cannot slow the rest).
// Prints a table and writes the JSON summary (ratios > 1: we are faster).
// A kernel that fails (ours does not compile, or its outputs differ from
// tinygrad's) fails the bench: it is listed, the geomeans and minimums of
// its group are null (not taken over the kernels that passed), and the exit
// status is 1, timed or --check-only. Before the first timed compile, both
// sides compile one unrelated kernel (the manifest's `warmup`, the one
// export_kernels.py warms tinygrad's pipeline up on).
//
//===----------------------------------------------------------------------===//
#include "CaseValues.h"
#include "tinygrad/Codegen/CPUPipeline.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "tinygrad-rt/runtime.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#ifdef TG_BENCH_HAVE_OPENBLAS
#include <cblas.h>
#endif

extern "C" {
void tg_stream_add(float *c, const float *a, const float *b, size_t n);
float tg_stream_sum(const float *a, size_t n);
}

using namespace mlir;
using namespace mlir::tinygrad;
using namespace tgcase;
namespace cl = llvm::cl;

static cl::opt<std::string> manifestPath("manifest", cl::desc("manifest.json from export_kernels.py"),
                                         cl::init(""));
static cl::list<std::string> casePaths(cl::Positional, cl::desc("[kernel case JSON...]"));
static cl::opt<std::string> outPath("out", cl::desc("write the JSON summary here"), cl::init(""));
static cl::opt<bool> checkOnly("check-only", cl::desc("compile, run and compare; no timing, no references"));
static cl::opt<std::string> failingDir("failing-dir",
                                       cl::desc("copy the case of every kernel we fail on here"),
                                       cl::init(""));
static cl::opt<double> budget("budget", cl::desc("seconds of timed runs per realistic kernel and side"),
                              cl::init(0.6));
static cl::opt<double> corpusBudget("corpus-budget", cl::desc("the same for corpus kernels"), cl::init(0.06));
static cl::opt<std::string> clangName("clang", cl::desc("C compiler for tinygrad's source"),
                                      cl::init("clang-22"));
static cl::opt<bool> noOpenBLAS("no-openblas", cl::desc("skip the OpenBLAS sgemm reference"));
static cl::opt<std::string> filter("filter", cl::desc("only the kernels whose id contains this"), cl::init(""));
static cl::opt<bool> noStream("no-stream", cl::desc("skip the STREAM-style reference loops"));
static cl::opt<std::string> warmupPath(
    "warmup", cl::desc("the kernel case compiled before any timed compile (default: the manifest's `warmup`, "
                       "else bench/kernels/warmup-kernel.json)"),
    cl::init(""));
static cl::opt<unsigned> compileRepeat(
    "compile-repeat", cl::desc("compile each kernel this many more times, untimed, so a profiler sees the compile path"),
    cl::init(0));

namespace {

/// The wall clock, or with TG_BENCH_CLOCK=cpu the process's CPU time: on a
/// machine loaded past its cores a kernel's wall time mostly measures the
/// other jobs' share; its CPU time does not (1-thread figures only: at 2
/// threads it sums the workers).
struct Clock {
  using time_point = double;
  static double now() {
    static const bool cpu = [] {
      const char *e = std::getenv("TG_BENCH_CLOCK");
      return e && std::string(e) == "cpu";
    }();
    timespec ts;
    clock_gettime(cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
  }
};
double secondsSince(Clock::time_point t) { return Clock::now() - t; }

[[noreturn]] void fatal(const llvm::Twine &msg) {
  llvm::errs() << "bench-kernels: error: " << msg << "\n";
  std::exit(1);
}
void check(tgrt_status s, const char *what) {
  if (s != TGRT_OK)
    fatal(llvm::Twine(what) + ": " + tgrt_last_error());
}

double median(std::vector<double> v) {
  if (v.empty())
    return NAN;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
double geomean(const std::vector<double> &v) {
  if (v.empty())
    return NAN;
  double s = 0;
  for (double x : v)
    s += std::log(x);
  return std::exp(s / v.size());
}
json::Value num(double x) { return std::isfinite(x) ? json::Value(x) : json::Value(nullptr); }

/// Seconds of one call of each of `fs`, measured side by side: a warm-up
/// call each (unless the caller just ran them), then rounds in which every
/// side takes one sample of `reps` calls (reps chosen per side so a sample
/// takes >= 2 ms), as many rounds as fit in `budgetS` per side, 3 to 45.
/// Interleaving the samples lets the load of a shared machine fall on every
/// side alike. A call slower than 2 ms is its own first sample. Every side's
/// figure is its median sample: one statistic for both sides of a ratio (a
/// fast side's fastest sample against a slow side's median would favour
/// whichever side is fast enough to be averaged).
std::vector<double> timeSideBySide(const std::vector<std::function<void()>> &fs, double budgetS,
                                   bool warm = false) {
  size_t n = fs.size();
  std::vector<int> reps(n);
  std::vector<std::vector<double>> v(n);
  double slowest = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!warm)
      fs[i]();
    auto t0 = Clock::now();
    fs[i]();
    double one = std::max(secondsSince(t0), 1e-8);
    reps[i] = one < 2e-3 ? (int)std::min(100000.0, std::ceil(2e-3 / one)) : 1;
    if (reps[i] == 1)
      v[i].push_back(one);
    slowest = std::max(slowest, one * reps[i]);
  }
  size_t rounds = (size_t)std::clamp(budgetS / slowest, 3.0, 45.0);
  for (size_t r = 0; r < rounds; ++r)
    for (size_t i = 0; i < n; ++i) {
      if (v[i].size() >= rounds)
        continue;
      auto ts = Clock::now();
      for (int k = 0; k < reps[i]; ++k)
        fs[i]();
      v[i].push_back(secondsSince(ts) / reps[i]);
    }
  std::vector<double> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(median(v[i]));
  return out;
}
double timeIt(const std::function<void()> &f, double budgetS) { return timeSideBySide({f}, budgetS)[0]; }

/// The 1, 5 and 15 minute load averages (the machine is shared: a busy
/// machine is part of what the numbers mean).
json::Value loadAverage() {
  FILE *f = std::fopen("/proc/loadavg", "r");
  if (!f)
    return nullptr;
  double a, b, c;
  int n = std::fscanf(f, "%lf %lf %lf", &a, &b, &c);
  std::fclose(f);
  if (n != 3)
    return nullptr;
  return json::Array{a, b, c};
}

/// splitmix64: deterministic inputs.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};

struct BufSpec {
  int64_t slot, size;
  std::string dtype;
  DTypeDesc desc;
};

struct VarSpec {
  std::string name;
  int64_t slot;
};

struct Case {
  std::string id, group, program, file;
  json::Value rec = nullptr;
  std::string text;
  std::vector<BufSpec> bufs;
  // tinygrad's program
  std::string fnName, cSource;
  std::vector<int64_t> tgGlobals, tgOuts;
  std::vector<VarSpec> tgVars;
  int64_t tgThreads = 1;
  double estOps = NAN, estMem = NAN;
  double tgCompileMs = NAN, tgClangInPipelineMs = NAN;
};

/// The per-kernel result row.
struct Row {
  std::string id, group, program, name, status = "ok", error, metric;
  double oursCompileMs = NAN, oursCodegenMs = NAN, oursPassesMs = NAN, oursLlvmMs = NAN, oursLlvmOptMs = NAN,
         oursLlvmEmitMs = NAN, refClangMs = NAN;
  double tgCompileMs = NAN;
  bool oursCoreId = false;
  int64_t oursThreads = 1, tgThreads = 1;
  double ours1 = NAN, ours2 = NAN, tg1 = NAN, tg2 = NAN; // seconds per run
  double work = NAN;                        // flops or bytes, by metric
  size_t values = 0, mismatched = 0;
  double maxAbsErr = 0, maxRelErr = 0;
  json::Array mismatches;
  double ratio1() const { return tg1 / ours1; }
  // Both sides on the pool's threads: our core_id split (where our opts
  // made one; else our 1-thread run) against tinygrad's.
  double ratio2() const { return tg2 / ours2; }
};

std::string readFile(const std::string &path) {
  auto f = llvm::MemoryBuffer::getFile(path);
  if (!f)
    fatal(path + ": " + f.getError().message());
  return (*f)->getBuffer().str();
}

bool loadCase(const std::string &path, const std::string &group, const std::string &program, Case &c,
              std::string &err) {
  c.file = path;
  c.group = group;
  c.text = readFile(path);
  auto parsed = json::parse(blankJSONComments(c.text));
  if (!parsed) {
    err = "invalid JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  c.rec = std::move(*parsed);
  const json::Object *o = c.rec.getAsObject();
  if (!o || !o->get("ast") || !o->getArray("params") || !o->getObject("program_info") ||
      !o->getString("c_source")) {
    err = "a kernel case needs ast, params, program_info and c_source";
    return false;
  }
  c.id = o->getString("id").value_or(llvm::sys::path::stem(path)).str();
  c.program = program;
  if (c.program.empty())
    if (const json::Object *p = o->getObject("program"))
      c.program = p->getString("id").value_or("").str();
  for (const json::Value &p : *o->getArray("params")) {
    const json::Object *po = p.getAsObject();
    auto slot = po ? po->getInteger("slot") : std::nullopt;
    auto size = po ? po->getInteger("size") : std::nullopt;
    auto dt = po ? po->getString("dtype") : std::nullopt;
    auto desc = dt ? describe(*dt) : std::nullopt;
    if (!slot || !size || !desc || *size < 0) {
      err = "bad params entry";
      return false;
    }
    c.bufs.push_back({*slot, *size, dt->str(), *desc});
  }
  const json::Object *pi = o->getObject("program_info");
  c.fnName = pi->getString("function_name").value_or("").str();
  c.cSource = o->getString("c_source")->str();
  auto ints = [](const json::Array *a) {
    std::vector<int64_t> v;
    if (a)
      for (const json::Value &x : *a)
        if (auto i = x.getAsInteger())
          v.push_back(*i);
    return v;
  };
  c.tgGlobals = ints(pi->getArray("globals"));
  c.tgOuts = ints(pi->getArray("outs"));
  if (const json::Array *vars = pi->getArray("vars"))
    for (const json::Value &v : *vars)
      if (const json::Object *vo = v.getAsObject())
        c.tgVars.push_back({vo->getString("name").value_or("").str(), vo->getInteger("slot").value_or(-1)});
  if (const json::Array *gs = pi->getArray("global_size"); gs && !gs->empty())
    c.tgThreads = (*gs)[0].getAsInteger().value_or(1);
  if (const json::Object *est = o->getObject("estimates")) {
    c.estOps = (double)est->getInteger("ops").value_or(0);
    c.estMem = (double)est->getInteger("mem").value_or(0);
  }
  if (auto ms = o->getNumber("tinygrad_compile_ms"))
    c.tgCompileMs = *ms;
  if (auto ms = o->getNumber("tinygrad_clang_ms"))
    c.tgClangInPipelineMs = *ms;
  return true;
}

/// Compiles tinygrad's C the way tinygrad's ClangCompiler does.
bool compileC(const Case &c, std::string &object, std::string &err, double &ms) {
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("bench-kernels", dir)) {
    err = "cannot create a temporary directory";
    return false;
  }
  std::string src = (dir + "/k.c").str(), obj = (dir + "/k.o").str(), log = (dir + "/clang.log").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(src, ec);
    os << c.cSource;
  }
  auto clang = llvm::sys::findProgramByName(clangName);
  if (!clang) {
    err = clangName + " not found";
    return false;
  }
  llvm::SmallVector<llvm::StringRef> args = {
      *clang, "-c", "-x", "c", "-O2", "-fPIC", "-ffreestanding", "-fno-math-errno", "-nostdlib",
      "-fno-ident", "--target=x86_64-none-unknown-elf", "-march=native", src, "-o", obj};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  auto t0 = std::chrono::steady_clock::now(); // a child process: its wall time
  int rc = llvm::sys::ExecuteAndWait(*clang, args, std::nullopt, redirects);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (rc != 0) {
    err = "clang failed: " + readFile(log);
  } else {
    object = readFile(obj);
  }
  llvm::sys::fs::remove_directories(dir);
  return rc == 0;
}

struct Side {
  tgrt_program *prog = nullptr;
  std::vector<tgrt_buffer *> bufs; // by index into Case::bufs
  std::vector<tgrt_arg> args;
  int64_t coreIdArg = -1, threads = 1;
  ~Side() {
    for (tgrt_buffer *b : bufs)
      if (b)
        tgrt_buffer_free(b);
    if (prog)
      tgrt_program_free(prog);
  }
  void launch1() { // core_ids one after another on this thread
    if (coreIdArg < 0) {
      check(tgrt_program_launch(prog, args.data(), args.size(), -1, 0), "launch");
      return;
    }
    for (int64_t t = 0; t < threads; ++t) {
      args[coreIdArg] = tgrt_arg_int(t);
      check(tgrt_program_launch(prog, args.data(), args.size(), -1, 0), "launch");
    }
  }
  void launchN() {
    check(tgrt_program_launch(prog, args.data(), args.size(), coreIdArg, coreIdArg < 0 ? 0 : threads),
          "launch");
  }
};

/// Index of `slot` in c.bufs, or -1.
int bufIndex(const Case &c, int64_t slot) {
  for (size_t i = 0; i < c.bufs.size(); ++i)
    if (c.bufs[i].slot == slot)
      return (int)i;
  return -1;
}

/// Host bytes of every buffer before the run: the case's `inputs` where it
/// has them (corpus kernels: index buffers must hold valid indices), else
/// seeded values (floats uniform in [-1, 1), ints in [0, 8), bools).
std::vector<std::string> initialContents(const Case &c) {
  const json::Object *inputs = c.rec.getAsObject()->getObject("inputs");
  std::vector<std::string> out;
  uint64_t seed = std::hash<std::string>()(c.id);
  for (const BufSpec &b : c.bufs) {
    std::string bytes(std::max<int64_t>(1, b.size) * b.desc.bytes, '\0');
    const json::Array *vals = inputs ? inputs->getArray(std::to_string(b.slot)) : nullptr;
    if (vals && (int64_t)vals->size() == b.size) {
      for (int64_t i = 0; i < b.size; ++i)
        if (!encode((*vals)[i], b.dtype, b.desc, &bytes[i * b.desc.bytes]))
          fatal(c.id + ": bad input value");
    } else if (!inputs) {
      Rng rng{seed ^ (uint64_t)b.slot * 0x100000001b3ull};
      for (int64_t i = 0; i < b.size; ++i) {
        double u = rng.uniform();
        if (b.dtype == "float32") { // the common case, without the JSON detour
          float f = (float)(2 * u - 1);
          std::memcpy(&bytes[i * 4], &f, 4);
          continue;
        }
        json::Value v = b.desc.kind == DTypeDesc::Float  ? json::Value(2 * u - 1)
                        : b.desc.kind == DTypeDesc::Bool ? json::Value(u < 0.5)
                                                         : json::Value((int64_t)(u * 8));
        encode(v, b.dtype, b.desc, &bytes[i * b.desc.bytes]);
      }
    }
    out.push_back(std::move(bytes));
  }
  return out;
}

/// Builds the side's buffers (same initial bytes) and argument list.
bool prepareSide(tgrt_device *dev, const Case &c, const std::vector<std::string> &init, Side &s,
                 const std::vector<int64_t> &globals, const std::vector<std::string> &varNames,
                 std::string &err) {
  for (size_t i = 0; i < c.bufs.size(); ++i) {
    tgrt_buffer *b = nullptr;
    check(tgrt_buffer_alloc(dev, init[i].size(), &b), "buffer");
    check(tgrt_buffer_copy_in(b, 0, init[i].data(), init[i].size()), "copy in");
    s.bufs.push_back(b);
  }
  for (int64_t slot : globals) {
    int i = bufIndex(c, slot);
    if (i < 0) {
      err = "the kernel takes buffer slot " + std::to_string(slot) + ", which the case does not define";
      return false;
    }
    s.args.push_back(tgrt_arg_buffer(s.bufs[i]));
  }
  const json::Object *vv = c.rec.getAsObject()->getObject("var_vals");
  for (const std::string &name : varNames) {
    if ((int64_t)s.args.size() == s.coreIdArg || name == "core_id") {
      s.args.push_back(tgrt_arg_int(0));
      continue;
    }
    auto v = vv ? vv->getInteger(name) : std::nullopt;
    if (!v) {
      err = "no value for variable '" + name + "'";
      return false;
    }
    s.args.push_back(tgrt_arg_int(*v));
  }
  return true;
}

/// Compares our outputs with tinygrad's: ints exactly, floats within
/// 1e-3 relative + 1e-4 of the output's largest magnitude (two compilers,
/// two summation orders), or 2 ulp. NaN equals NaN, infinities by sign.
void compareOutputs(const Case &c, Side &ours, Side &theirs, const std::set<int64_t> &outs, Row &row) {
  for (int64_t slot : outs) {
    int i = bufIndex(c, slot);
    if (i < 0)
      continue;
    const BufSpec &b = c.bufs[i];
    std::string got(b.size * b.desc.bytes, '\0'), want(got.size(), '\0');
    check(tgrt_buffer_copy_out(ours.bufs[i], 0, got.data(), got.size()), "copy out");
    check(tgrt_buffer_copy_out(theirs.bufs[i], 0, want.data(), want.size()), "copy out");
    double scale = 0;
    for (int64_t k = 0; k < b.size; ++k) {
      Elem w = decode(&want[k * b.desc.bytes], b.dtype, b.desc);
      if (w.isFloat && std::isfinite(w.f))
        scale = std::max(scale, std::fabs(w.f));
    }
    for (int64_t k = 0; k < b.size; ++k) {
      Elem g = decode(&got[k * b.desc.bytes], b.dtype, b.desc);
      Elem w = decode(&want[k * b.desc.bytes], b.dtype, b.desc);
      bool ok;
      if (g.isFloat) {
        double d = std::fabs(g.f - w.f);
        if (std::isfinite(d)) {
          row.maxAbsErr = std::max(row.maxAbsErr, d);
          if (scale > 0)
            row.maxRelErr = std::max(row.maxRelErr, d / scale);
        }
        ok = floatsMatch(g.f, w.f, b.dtype) ||
             (std::isfinite(d) && d <= 1e-3 * std::max(std::fabs(g.f), std::fabs(w.f)) + 1e-4 * scale);
      } else {
        ok = g.i == w.i;
      }
      ++row.values;
      if (!ok) {
        if (row.mismatched < 8)
          row.mismatches.push_back(json::Object{{"slot", slot}, {"index", k}, {"ours", show(g, b.desc)},
                                                {"tinygrad", show(w, b.desc)}});
        ++row.mismatched;
      }
    }
  }
}

std::string fmt(double x, const char *f = "%.2f") {
  if (!std::isfinite(x))
    return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

void saveFailing(const Case &c) {
  if (failingDir.empty())
    return;
  llvm::sys::fs::create_directories(failingDir);
  std::error_code ec;
  llvm::raw_fd_ostream os(failingDir + "/" + c.id + ".json", ec);
  if (!ec)
    os << c.text;
}

/// Both compiled kernels of a case, with their buffers.
struct Loaded {
  Side ours, theirs;
};

/// Our compile of one case, timed: AST (parsed JSON) -> module -> object ->
/// loaded program, the whole path. The host with all its cores, as the
/// tinygrad plugin compiles.
struct OurCompile {
  CompiledKernel kernel;
  tgrt_program *prog = nullptr; // null: `error` says why
  std::string error;
  double ms = NAN;
  OurCompile() = default;
  OurCompile(const OurCompile &) = delete;
  ~OurCompile() {
    if (prog)
      tgrt_program_free(prog);
  }
};
void compileOurs(MLIRContext &ctx, CPUCompiler &compiler, tgrt_device *dev, const Case &c, OurCompile &out) {
  static const TargetDescription host = TargetDescription::host();
  std::string diags;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    llvm::raw_string_ostream os(diags);
    os << d.getLocation() << ": " << d << "\n";
    return success();
  });
  auto t0 = Clock::now();
  OwningOpRef<ModuleOp> module = importTinygradJSONValue(c.rec, &ctx, "ast");
  Value root = module ? getTinygradRoot(*module) : Value();
  FailureOr<CompiledKernel> k = root ? compiler.compile(root, host) : FailureOr<CompiledKernel>(failure());
  if (failed(k)) {
    out.error = diags.empty() ? "compile failed (no diagnostic)" : diags;
    return;
  }
  out.kernel = std::move(*k);
  if (tgrt_program_load(dev, out.kernel.binary.data(), out.kernel.binary.size(),
                        out.kernel.signature.name.c_str(), &out.prog) != TGRT_OK) {
    out.error = std::string("loading our object: ") + tgrt_last_error();
    out.prog = nullptr;
    return;
  }
  out.ms = secondsSince(t0) * 1e3;
  for (unsigned i = 0; i < compileRepeat; ++i) {
    OwningOpRef<ModuleOp> again = importTinygradJSONValue(c.rec, &ctx, "ast");
    (void)compiler.compile(getTinygradRoot(*again), host);
  }
}

/// Checks and times one case, our side compiled (`ours_`, whose program it
/// takes). With `keep`, a case that passed hands its loaded kernels over
/// (for the program-level STREAM comparison).
Row runCase(tgrt_device *dev, Case &c, OurCompile &ours_, std::unique_ptr<Loaded> *keep) {
  Row row;
  row.id = c.id;
  row.group = c.group;
  row.program = c.program;
  row.name = c.fnName;
  row.tgCompileMs = c.tgCompileMs;
  row.tgThreads = c.tgThreads;
  auto fail = [&](const std::string &status, const std::string &err) {
    row.status = status;
    row.error = err;
    if (status != "reference_error")
      saveFailing(c);
    return row;
  };

  auto loaded = std::make_unique<Loaded>();
  Side &ours = loaded->ours, &theirs = loaded->theirs;
  if (!ours_.prog)
    return fail("compile_error", ours_.error);
  std::swap(ours.prog, ours_.prog);
  const CompiledKernel &kernel = ours_.kernel;
  row.oursCompileMs = ours_.ms;
  row.oursCodegenMs = kernel.codegenMs;
  row.oursPassesMs = kernel.signature.passesMs;
  row.oursLlvmMs = kernel.backendMs;
  row.oursLlvmOptMs = kernel.phases.get("llvm_opt");
  row.oursLlvmEmitMs = kernel.phases.get("llvm_emit");
  row.oursCoreId = kernel.signature.coreIdArg >= 0;
  row.oursThreads = kernel.signature.threads;
  ours.coreIdArg = kernel.signature.coreIdArg;
  ours.threads = kernel.signature.threads;

  // tinygrad's C, compiled as tinygrad compiles it.
  std::string object, err;
  if (!compileC(c, object, err, row.refClangMs))
    return fail("reference_error", err);
  if (tgrt_program_load(dev, object.data(), object.size(), c.fnName.c_str(), &theirs.prog) != TGRT_OK)
    return fail("reference_error", std::string("loading tinygrad's object: ") + tgrt_last_error());
  theirs.threads = c.tgThreads;
  std::vector<std::string> tgVarNames;
  for (size_t j = 0; j < c.tgVars.size(); ++j) {
    tgVarNames.push_back(c.tgVars[j].name);
    if (c.tgVars[j].name == "core_id")
      theirs.coreIdArg = (int64_t)(c.tgGlobals.size() + j);
  }

  std::vector<std::string> init = initialContents(c);
  if (!prepareSide(dev, c, init, ours, kernel.signature.globals, kernel.signature.vars, err))
    return fail("compile_error", "our signature: " + err);
  if (!prepareSide(dev, c, init, theirs, c.tgGlobals, tgVarNames, err))
    return fail("reference_error", "tinygrad's signature: " + err);

  ours.launch1();
  theirs.launch1();
  std::set<int64_t> outs(kernel.signature.outs.begin(), kernel.signature.outs.end());
  outs.insert(c.tgOuts.begin(), c.tgOuts.end());
  compareOutputs(c, ours, theirs, outs, row);
  if (row.mismatched) {
    std::string e;
    llvm::raw_string_ostream os(e);
    os << row.mismatched << "/" << row.values << " output values differ from tinygrad's, e.g. "
       << row.mismatches.front();
    row.status = "mismatch";
    row.error = e;
    saveFailing(c);
  }
  if (checkOnly)
    return row;

  double b = c.group == "realistic" ? budget : corpusBudget;
  // The correctness runs above were the 1-thread warm-ups.
  std::vector<std::function<void()>> sides = {[&] { ours.launch1(); }, [&] { theirs.launch1(); }};
  if (theirs.coreIdArg >= 0) {
    theirs.launchN();
    sides.push_back([&] { theirs.launchN(); });
  }
  // Ours on the runtime's thread pool, when our opts split the kernel.
  size_t ours2At = 0;
  if (ours.coreIdArg >= 0) {
    ours.launchN();
    ours2At = sides.size();
    sides.push_back([&] { ours.launchN(); });
  }
  std::vector<double> t = timeSideBySide(sides, b, /*warm=*/true);
  row.ours1 = t[0];
  row.tg1 = t[1];
  row.tg2 = theirs.coreIdArg >= 0 ? t[2] : t[1];
  row.ours2 = ours2At ? t[ours2At] : t[0];
  // Work: tinygrad's estimates (ops, bytes) where the export has them, else
  // the bytes of every buffer.
  double bytes = 0;
  for (const BufSpec &bs : c.bufs)
    bytes += (double)bs.size * bs.desc.bytes;
  if (std::isfinite(c.estMem) && c.estMem > 0)
    bytes = c.estMem;
  if (std::isfinite(c.estOps) && c.estOps > 8 * bytes) {
    row.metric = "GFLOP/s";
    row.work = c.estOps;
  } else {
    row.metric = "GB/s";
    row.work = bytes;
  }
  if (keep && row.status == "ok")
    *keep = std::move(loaded);
  return row;
}

json::Object rowJSON(const Row &r) {
  json::Object o{{"id", r.id},
                 {"group", r.group},
                 {"program", r.program},
                 {"name", r.name},
                 {"status", r.status},
                 {"ours_compile_ms", num(r.oursCompileMs)},
                 {"ours_codegen_ms", num(r.oursCodegenMs)},
                 {"ours_passes_ms", num(r.oursPassesMs)},
                 {"ours_llvm_ms", num(r.oursLlvmMs)},
                 {"ours_llvm_opt_ms", num(r.oursLlvmOptMs)},
                 {"ours_llvm_emit_ms", num(r.oursLlvmEmitMs)},
                 {"tinygrad_compile_ms", num(r.tgCompileMs)},
                 {"reference_clang_ms", num(r.refClangMs)},
                 {"ours_core_id", r.oursCoreId},
                 {"ours_threads", r.oursThreads},
                 {"tinygrad_threads", r.tgThreads},
                 {"values_checked", (int64_t)r.values},
                 {"values_mismatched", (int64_t)r.mismatched},
                 {"max_abs_err", num(r.maxAbsErr)},
                 {"max_rel_err_vs_output_scale", num(r.maxRelErr)}};
  if (!r.error.empty())
    o["error"] = r.error;
  if (!r.mismatches.empty())
    o["mismatches"] = json::Array(r.mismatches);
  if (std::isfinite(r.ours1)) {
    double scale = 1e-9; // GFLOP/s or GB/s
    o["metric"] = r.metric;
    o["work"] = r.work;
    o["ours_1t_ms"] = r.ours1 * 1e3;
    o["ours_2t_ms"] = r.ours2 * 1e3;
    o["tinygrad_1t_ms"] = r.tg1 * 1e3;
    o["tinygrad_2t_ms"] = r.tg2 * 1e3;
    o["ours_1t"] = r.work / r.ours1 * scale;
    o["tinygrad_1t"] = r.work / r.tg1 * scale;
    o["tinygrad_2t"] = r.work / r.tg2 * scale;
    o["ratio_1t"] = num(r.ratio1());
    o["ratio_2t"] = num(r.ratio2());
  }
  return o;
}

struct Gemm {
  int n, threads;
  double seconds, gflops;
};

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(argc, argv, "our kernels vs tinygrad's C, OpenBLAS and STREAM\n");

  // The kernels to run.
  std::vector<Case> cases;
  json::Object manifestInfo;
  bool haveTinygrad = false;
  std::string manifestWarmup;
  auto addCase = [&](const std::string &path, const std::string &group, const std::string &program) {
    if (!filter.empty() && llvm::sys::path::stem(path).find(filter) == llvm::StringRef::npos)
      return;
    Case c;
    std::string err;
    if (!loadCase(path, group, program, c, err))
      fatal(path + ": " + err);
    cases.push_back(std::move(c));
  };
  if (!manifestPath.empty()) {
    auto m = json::parse(readFile(manifestPath));
    if (!m || !m->getAsObject() || !m->getAsObject()->getArray("kernels"))
      fatal(manifestPath + ": not a manifest");
    const json::Object &mo = *m->getAsObject();
    haveTinygrad = mo.getBoolean("tinygrad").value_or(false);
    manifestWarmup = mo.getString("warmup").value_or("").str();
    manifestInfo["tinygrad"] = haveTinygrad;
    if (auto why = mo.getString("no_tinygrad_reason"))
      manifestInfo["no_tinygrad_reason"] = why->str();
    if (const json::Value *env = mo.get("env"))
      manifestInfo["tinygrad_env"] = *env;
    for (const json::Value &k : *mo.getArray("kernels")) {
      const json::Object *ko = k.getAsObject();
      if (!ko || !ko->getString("file"))
        fatal(manifestPath + ": a kernel entry needs a file");
      addCase(ko->getString("file")->str(), ko->getString("group").value_or("corpus").str(),
              ko->getString("program").value_or("").str());
    }
  }
  for (const std::string &p : casePaths)
    addCase(p, "corpus", "");
  if (cases.empty())
    fatal("no kernels: give --manifest or case files");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  CPUCompiler compiler(&ctx);
  tgrt_device_options opts = TGRT_DEVICE_OPTIONS_DEFAULT;
  opts.num_threads = 2;
  tgrt_device *dev = nullptr;
  check(tgrt_device_open("CPU", &opts, &dev), "device");
  uint32_t devThreads = 0;
  check(tgrt_device_thread_count(dev, &devThreads), "device");

  // One compile before the timed ones, so one-time initialization (LLVM's
  // target, pass registries) is not charged to the first kernel: an
  // unrelated kernel, the one tinygrad's pipeline warmed up on in
  // export_kernels.py (not the first timed kernel, whose own compile it
  // would warm).
  {
    std::string path = !warmupPath.empty() ? warmupPath : !manifestWarmup.empty() ? manifestWarmup
                                                                                  : TG_BENCH_WARMUP_KERNEL;
    auto rec = json::parse(blankJSONComments(readFile(path)));
    if (!rec)
      fatal(path + ": " + llvm::toString(rec.takeError()));
    std::string diags;
    ScopedDiagnosticHandler collect(&ctx, [&](Diagnostic &d) {
      llvm::raw_string_ostream(diags) << d << "\n";
      return success();
    });
    OwningOpRef<ModuleOp> m = importTinygradJSONValue(*rec, &ctx, "ast");
    if (!m || !getTinygradRoot(*m) || failed(compiler.compile(getTinygradRoot(*m), TargetDescription::host())))
      fatal("the warm-up kernel " + path + " does not compile: " + diags);
  }

  json::Value loadBefore = loadAverage();
  std::map<std::string, std::vector<std::unique_ptr<Loaded>>> kept; // program -> its kernels
  std::map<std::string, int> programKernels;
  for (const Case &c : cases)
    ++programKernels[c.program];
  // Our compiles back to back before any kernel runs, as export_kernels.py
  // times tinygrad's (do_to_program per kernel, one after another, after its
  // warm-up): timed between runs, each compile began with the caches and the
  // allocator as the previous case's 64 MB buffers left them (the realistic
  // kernels' median 10.2 ms, 6.9 ms back to back).
  std::vector<OurCompile> compiled(cases.size());
  for (size_t i = 0; i < cases.size(); ++i)
    compileOurs(ctx, compiler, dev, cases[i], compiled[i]);
  std::vector<Row> rows;
  for (size_t i = 0; i < cases.size(); ++i) {
    Case &c = cases[i];
    llvm::errs() << "  " << c.id << "\n";
    bool streamProgram = c.group == "realistic" && (c.program == "add_16m" || c.program == "sum_16m");
    std::unique_ptr<Loaded> k;
    rows.push_back(runCase(dev, c, compiled[i], streamProgram && !checkOnly && !noStream ? &k : nullptr));
    if (k)
      kept[c.program].push_back(std::move(k));
  }

  // References. STREAM: each loop side by side with the whole program (its
  // kernels in order) through our kernels and through tinygrad's (1 thread).
  double streamAddS = NAN, streamSumS = NAN;
  double oursAddS = NAN, tgAddS = NAN, oursSumS = NAN, tgSumS = NAN;
  const size_t streamN = 16u << 20;
  if (!checkOnly && !noStream) {
    // The arrays come from the runtime's allocator, like the kernels' buffers.
    tgrt_buffer *ab = nullptr, *bb = nullptr, *cb = nullptr;
    void *pa, *pb, *pc;
    for (auto [buf, ptr] : {std::pair{&ab, &pa}, std::pair{&bb, &pb}, std::pair{&cb, &pc}}) {
      check(tgrt_buffer_alloc(dev, streamN * 4, buf), "buffer");
      check(tgrt_buffer_host_pointer(*buf, ptr), "buffer");
    }
    float *a = (float *)pa, *b = (float *)pb, *cc = (float *)pc;
    Rng rng{42};
    for (size_t i = 0; i < streamN; ++i) {
      a[i] = (float)(2 * rng.uniform() - 1);
      b[i] = (float)(2 * rng.uniform() - 1);
    }
    volatile float sink = 0;
    auto program = [&](const std::string &name, bool oursSide) -> std::function<void()> {
      auto it = kept.find(name);
      if (it == kept.end() || (int)it->second.size() != programKernels[name])
        return nullptr; // a kernel of it failed
      auto *ks = &it->second;
      return [ks, oursSide] {
        for (auto &k : *ks)
          (oursSide ? k->ours : k->theirs).launch1();
      };
    };
    auto measure = [&](std::function<void()> ref, const std::string &name, double &refS, double &oursS,
                       double &tgS) {
      std::vector<std::function<void()>> sides = {ref};
      auto o = program(name, true), t = program(name, false);
      if (o && t)
        sides.insert(sides.end(), {o, t});
      std::vector<double> r = timeSideBySide(sides, budget);
      refS = r[0];
      if (r.size() == 3) {
        oursS = r[1];
        tgS = r[2];
      }
    };
    measure([&] { tg_stream_add(cc, a, b, streamN); }, "add_16m", streamAddS, oursAddS, tgAddS);
    measure([&] { sink = sink + tg_stream_sum(a, streamN); }, "sum_16m", streamSumS, oursSumS, tgSumS);
    for (tgrt_buffer *x : {ab, bb, cb})
      tgrt_buffer_free(x);
  }
  kept.clear();
  std::vector<Gemm> gemms;
  std::string blasCore, blasConfig;
#ifdef TG_BENCH_HAVE_OPENBLAS
  if (!checkOnly && !noOpenBLAS) {
    blasCore = openblas_get_corename();
    blasConfig = openblas_get_config();
    for (int n : {1024, 2048}) {
      std::vector<float> a((size_t)n * n), b((size_t)n * n), cc((size_t)n * n);
      Rng rng{(uint64_t)n};
      for (size_t i = 0; i < a.size(); ++i) {
        a[i] = (float)(2 * rng.uniform() - 1);
        b[i] = (float)(2 * rng.uniform() - 1);
      }
      for (int t : {1, 2}) {
        openblas_set_num_threads(t);
        double s = timeIt(
                       [&] {
                         cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a.data(), n,
                                     b.data(), n, 0.0f, cc.data(), n);
                       },
                       budget);
        gemms.push_back({n, t, s, 2.0 * n * n * n / s * 1e-9});
      }
    }
    openblas_set_num_threads(1);
  }
#endif

  // ---- summary ----
  auto isOk = [](const Row &r) { return r.status == "ok" && std::isfinite(r.ours1); };
  std::vector<double> realR, corpusR, realCompile, tgCompile, corpusCompile, passes;
  std::vector<std::string> failures;
  bool realFailed = false, corpusFailed = false;
  for (const Row &r : rows) {
    if (r.status != "ok") {
      failures.push_back(r.id + " [" + r.status + "]: " + r.error);
      (r.group == "realistic" ? realFailed : corpusFailed) = true;
    }
    if (std::isfinite(r.oursCompileMs))
      (r.group == "realistic" ? realCompile : corpusCompile).push_back(r.oursCompileMs);
    if (r.group == "realistic" && std::isfinite(r.tgCompileMs))
      tgCompile.push_back(r.tgCompileMs);
    if (std::isfinite(r.oursPassesMs))
      passes.push_back(r.oursPassesMs);
    if (isOk(r))
      (r.group == "realistic" ? realR : corpusR).push_back(r.ratio1());
  }
  // Per realistic program: sums of the kernel times.
  struct Prog {
    double ours = 0, ours2 = 0, tg1 = 0, tg2 = 0;
    bool ok = true;
    int kernels = 0;
  };
  std::map<std::string, Prog> progs;
  for (const Row &r : rows)
    if (r.group == "realistic") {
      Prog &p = progs[r.program];
      ++p.kernels;
      if (!isOk(r)) {
        p.ok = false;
        continue;
      }
      p.ours += r.ours1;
      p.ours2 += r.ours2;
      p.tg1 += r.tg1;
      p.tg2 += r.tg2;
    }
  auto progRatio = [&](const std::string &name, bool twoThreads = false) -> double {
    auto it = progs.find(name);
    if (it == progs.end() || !it->second.ok)
      return NAN;
    return twoThreads ? it->second.tg2 / it->second.ours2 : it->second.tg1 / it->second.ours;
  };
  auto progOurs = [&](const std::string &name, bool twoThreads = false) -> double {
    auto it = progs.find(name);
    return it == progs.end() || !it->second.ok ? NAN : twoThreads ? it->second.ours2 : it->second.ours;
  };
  auto gemm = [&](int n, int t) -> const Gemm * {
    for (const Gemm &g : gemms)
      if (g.n == n && g.threads == t)
        return &g;
    return nullptr;
  };
  // Our kernels split over core_id (ours2: the pool's threads) as
  // OpenBLAS splits over its threads: 2t against 2t.
  auto vsBlas = [&](int t) -> double {
    const Gemm *g = gemm(1024, t);
    return g ? g->seconds / progOurs("matmul_1024", t > 1) : NAN;
  };
  // A group with a failing kernel has no geomean or minimum: taken over the
  // kernels that passed, they would leave the failure out of the figure.
  if (realFailed)
    realR.clear();
  if (corpusFailed)
    corpusR.clear();
  double minOf = NAN;
  auto minv = [&](const std::vector<double> &v) {
    return v.empty() ? minOf : *std::min_element(v.begin(), v.end());
  };
  const Row *matmulRow = nullptr;
  for (const Row &r : rows)
    if (r.id == "matmul_1024__k0")
      matmulRow = &r;

  json::Object summary{
      {"tinygrad_exports", haveTinygrad},
      {"realistic_kernels", (int64_t)std::count_if(rows.begin(), rows.end(),
                                                   [](const Row &r) { return r.group == "realistic"; })},
      {"corpus_kernels", (int64_t)std::count_if(rows.begin(), rows.end(),
                                                [](const Row &r) { return r.group == "corpus"; })},
      {"device_threads", (int64_t)devThreads},
      {"geomean_vs_tinygrad", num(geomean(realR))},
      {"min_vs_tinygrad_realistic", num(minv(realR))},
      {"geomean_vs_tinygrad_corpus", num(geomean(corpusR))},
      {"min_vs_tinygrad_corpus", num(minv(corpusR))},
      {"sgemm1024_1t_vs_openblas", num(vsBlas(1))},
      {"sgemm1024_2t_vs_openblas", num(vsBlas(2))},
      {"add_vs_stream", num(streamAddS / oursAddS)},
      {"sum_vs_stream", num(streamSumS / oursSumS)},
      {"tinygrad_add_vs_stream", num(streamAddS / tgAddS)},
      {"tinygrad_sum_vs_stream", num(streamSumS / tgSumS)},
      {"softmax_vs_tinygrad", num(progRatio("softmax_4096x1024"))},
      {"softmax_vs_tinygrad_2t", num(progRatio("softmax_4096x1024", true))},
      // 1-thread time over 2-thread time (core_id split over the pool).
      {"threads2_speedup_matmul", num(matmulRow && isOk(*matmulRow) ? matmulRow->ours1 / matmulRow->ours2 : NAN)},
      {"tinygrad_threads2_speedup_matmul", num(matmulRow && isOk(*matmulRow) ? matmulRow->tg1 / matmulRow->tg2 : NAN)},
      {"compile_ms_median", num(median(realCompile))},
      {"compile_ms_median_corpus", num(median(corpusCompile))},
      {"tinygrad_compile_ms_median", num(median(tgCompile))},
      {"compile_speedup_median", num(median(tgCompile) / median(realCompile))},
      // our engine passes alone (load collapse .. decompositions), every kernel
      {"passes_ms_median", num(median(passes))},
      {"failures", (int64_t)failures.size()},
  };
  summary["note"] = haveTinygrad ? "ratios: reference time / our time (> 1: we are faster); 1t = tinygrad's "
                                   "core_id ids run one after another, as its CPU runtime runs them; 2t = "
                                   "both sides' core_id ids on the pool's 2 threads"
                                 : "no tinygrad exports: corpus kernels only";

  json::Array programsJ;
  for (auto &[name, p] : progs)
    programsJ.push_back(json::Object{{"program", name},
                                     {"kernels", p.kernels},
                                     {"ok", p.ok},
                                     {"ours_1t_ms", num(p.ok ? p.ours * 1e3 : NAN)},
                                     {"tinygrad_1t_ms", num(p.ok ? p.tg1 * 1e3 : NAN)},
                                     {"ours_2t_ms", num(p.ok ? p.ours2 * 1e3 : NAN)},
                                     {"tinygrad_2t_ms", num(p.ok ? p.tg2 * 1e3 : NAN)},
                                     {"ratio_1t", num(p.ok ? p.tg1 / p.ours : NAN)},
                                     {"ratio_2t", num(p.ok ? p.tg2 / p.ours2 : NAN)}});
  json::Array kernelsJ, failuresJ;
  for (const Row &r : rows)
    kernelsJ.push_back(rowJSON(r));
  for (const std::string &f : failures)
    failuresJ.push_back(f);
  json::Object refs;
  if (std::isfinite(streamAddS))
    refs["stream"] = json::Object{{"n", (int64_t)streamN},
                                  {"add_ms", streamAddS * 1e3},
                                  {"add_GBps", 12.0 * streamN / streamAddS * 1e-9},
                                  {"sum_ms", streamSumS * 1e3},
                                  {"sum_GBps", 4.0 * streamN / streamSumS * 1e-9},
                                  {"ours_add_16m_ms", num(oursAddS * 1e3)},
                                  {"tinygrad_add_16m_ms", num(tgAddS * 1e3)},
                                  {"ours_sum_16m_ms", num(oursSumS * 1e3)},
                                  {"tinygrad_sum_16m_ms", num(tgSumS * 1e3)}};
  if (!gemms.empty()) {
    json::Array g;
    for (const Gemm &x : gemms)
      g.push_back(json::Object{{"n", x.n}, {"threads", x.threads}, {"ms", x.seconds * 1e3}, {"GFLOPs", x.gflops}});
    // run.sh names the kernel OpenBLAS chose itself where a faster one it
    // probed is measured instead (an older OpenBLAS on a newer CPU).
    const char *autoCore = std::getenv("TG_BENCH_OPENBLAS_AUTO_CORE");
    refs["openblas"] = json::Object{{"corename", blasCore},
                                    {"autodetected_corename", autoCore ? autoCore : blasCore},
                                    {"config", blasConfig},
                                    {"sgemm", std::move(g)}};
  }
  json::Object all = std::move(summary);
  all["loadavg_before"] = std::move(loadBefore);
  all["loadavg_after"] = loadAverage();
  all["manifest"] = std::move(manifestInfo);
  all["references"] = std::move(refs);
  all["programs"] = std::move(programsJ);
  all["failure_list"] = std::move(failuresJ);
  all["kernels"] = std::move(kernelsJ);

  // ---- table ----
  auto &os = llvm::outs();
  auto pad = [](std::string s, size_t w) {
    if (s.size() > w)
      s = s.substr(0, w);
    return s + std::string(w - s.size(), ' ');
  };
  auto rpad = [](std::string s, size_t w) { return s.size() >= w ? s : std::string(w - s.size(), ' ') + s; };
  os << pad("kernel", 30) << pad("tinygrad name", 28) << rpad("unit", 8) << rpad("ours 1t", 10)
     << rpad("tg 1t", 10) << rpad("ours 2t", 10) << rpad("tg 2t", 10) << rpad("ratio1t", 9) << rpad("ratio2t", 9)
     << rpad("ours ms", 10) << rpad("tg ms", 9) << "  status\n";
  for (const Row &r : rows) {
    bool t = std::isfinite(r.ours1);
    os << pad(r.id, 30) << pad(r.name, 28) << rpad(t ? r.metric : "", 8)
       << rpad(t ? fmt(r.work / r.ours1 * 1e-9) : "-", 10) << rpad(t ? fmt(r.work / r.tg1 * 1e-9) : "-", 10)
       << rpad(t && r.tgThreads > 1 ? fmt(r.work / r.ours2 * 1e-9) : "-", 10)
       << rpad(t && r.tgThreads > 1 ? fmt(r.work / r.tg2 * 1e-9) : "-", 10)
       << rpad(t ? fmt(r.ratio1(), "%.3f") : "-", 9)
       << rpad(t && r.tgThreads > 1 ? fmt(r.ratio2(), "%.3f") : "-", 9) << rpad(fmt(r.oursCompileMs, "%.1f"), 10)
       << rpad(fmt(r.tgCompileMs, "%.1f"), 9) << "  " << r.status
       << (r.status == "ok" ? "" : " (see failures)") << "\n";
  }
  if (!progs.empty() && !checkOnly) {
    os << "\nrealistic programs (sum of kernel times, ms):\n";
    for (auto &[name, p] : progs)
      os << "  " << pad(name, 22) << " 1t: ours " << rpad(fmt(p.ours * 1e3, "%.3f"), 9) << " tinygrad "
         << rpad(fmt(p.tg1 * 1e3, "%.3f"), 9) << " ratio " << fmt(p.ok ? p.tg1 / p.ours : NAN, "%.3f")
         << "   2t: ours " << rpad(fmt(p.ours2 * 1e3, "%.3f"), 9) << " tinygrad " << rpad(fmt(p.tg2 * 1e3, "%.3f"), 9)
         << " ratio " << fmt(p.ok ? p.tg2 / p.ours2 : NAN, "%.3f") << "\n";
  }
  if (std::isfinite(streamAddS))
    os << "\nSTREAM-style (clang -O3 -march=native, 1 thread, 16M fp32), side by side with the programs: add "
       << fmt(12.0 * streamN / streamAddS * 1e-9) << " GB/s (" << fmt(streamAddS * 1e3, "%.3f") << " ms; ours "
       << fmt(oursAddS * 1e3, "%.3f") << ", tinygrad " << fmt(tgAddS * 1e3, "%.3f") << "), sum "
       << fmt(4.0 * streamN / streamSumS * 1e-9) << " GB/s (" << fmt(streamSumS * 1e3, "%.3f") << " ms; ours "
       << fmt(oursSumS * 1e3, "%.3f") << ", tinygrad " << fmt(tgSumS * 1e3, "%.3f") << ")\n";
  if (!gemms.empty()) {
    const char *autoCore = std::getenv("TG_BENCH_OPENBLAS_AUTO_CORE");
    os << "OpenBLAS sgemm (core " << blasCore;
    if (autoCore && blasCore != autoCore)
      os << ", its fastest here; it chose " << autoCore << " itself";
    os << "; " << blasConfig << "):";
    for (const Gemm &g : gemms)
      os << "  " << g.n << "/" << g.threads << "t " << fmt(g.gflops, "%.1f") << " GFLOP/s";
    os << "\n";
  }
  os << "\n";
  for (const char *k :
       {"geomean_vs_tinygrad", "min_vs_tinygrad_realistic", "geomean_vs_tinygrad_corpus", "min_vs_tinygrad_corpus",
        "sgemm1024_1t_vs_openblas", "sgemm1024_2t_vs_openblas", "add_vs_stream", "sum_vs_stream",
        "tinygrad_add_vs_stream", "tinygrad_sum_vs_stream", "softmax_vs_tinygrad", "softmax_vs_tinygrad_2t",
        "threads2_speedup_matmul", "tinygrad_threads2_speedup_matmul", "compile_ms_median",
        "compile_ms_median_corpus", "tinygrad_compile_ms_median", "compile_speedup_median", "passes_ms_median", "failures"})
    if (auto d = all.get(k)->getAsNumber())
      os << "  " << pad(k, 34) << fmt(*d, "%.4g") << "\n";
    else
      os << "  " << pad(k, 34) << *all.get(k) << "\n";
  if (!haveTinygrad && !manifestPath.empty())
    os << "  (no realistic kernels, corpus kernels only: "
       << all.getObject("manifest")->getString("no_tinygrad_reason").value_or("no tinygrad exports") << ")\n";
  auto loads = [&](const char *k) {
    std::string r;
    if (const json::Array *a = all.getArray(k))
      for (const json::Value &x : *a)
        r += (r.empty() ? "" : " ") + fmt(x.getAsNumber().value_or(NAN));
    return r.empty() ? std::string("-") : r;
  };
  os << "  load average before " << loads("loadavg_before") << ", after " << loads("loadavg_after") << " ("
     << devThreads << " device threads, on a machine shared with other jobs)\n";
  for (const std::string &f : failures)
    os << "FAIL " << f << "\n";

  if (!outPath.empty()) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(outPath));
    std::error_code ec;
    llvm::raw_fd_ostream f(outPath, ec);
    if (ec)
      fatal(outPath + ": " + ec.message());
    f << llvm::formatv("{0:2}", json::Value(std::move(all))) << "\n";
    os << "wrote " << outPath << "\n";
  }
  tgrt_device_close(dev);
  // A kernel that failed fails the bench, timed or not.
  if (!failures.empty())
    llvm::errs() << "bench-kernels: " << failures.size() << " kernel(s) failed (the FAIL lines)\n";
  return failures.empty() ? 0 : 1;
}
