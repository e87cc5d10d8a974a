//===- BeamKernel.cpp - BEAM search for a kernel on a target's device -----===//
#include "tinygrad/Execution/BeamKernel.h"

#include "tinygrad/Codegen/KernelCompiler.h"
#include "tinygrad/Codegen/Steps.h"
#include "tinygrad/Execution/Isolated.h"
#include "tinygrad/Execution/LoadKernel.h"
#include "tinygrad/Execution/TimingBuffer.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "tinygrad-rt/runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::tinygrad;
using opt::Opt;

static llvm::Error err(const llvm::Twine &m) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), m);
}

static std::string sha256Hex(llvm::StringRef text) {
  auto h = llvm::SHA256::hash(llvm::arrayRefFromStringRef(text));
  return llvm::toHex(h, /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// The disk cache
//===----------------------------------------------------------------------===//

std::string exec::beamCacheDir(const BeamOptions &opts) {
  llvm::SmallString<256> dir;
  if (!opts.cacheDir.empty()) {
    dir = opts.cacheDir;
  } else if (const char *e = std::getenv("TINYGRAD_MLIR_CACHE_DIR"); e && *e) {
    dir = e;
  } else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = x;
    llvm::sys::path::append(dir, "tinygrad-mlir");
  } else if (const char *h = std::getenv("HOME"); h && *h) {
    dir = h;
    llvm::sys::path::append(dir, ".cache", "tinygrad-mlir");
  } else {
    dir = "/tmp/tinygrad-mlir-cache";
  }
  llvm::sys::path::append(dir, "beam");
  return std::string(dir);
}

/// tinygrad's key {"ast": ast.key, "amt", "device", ...}: the AST as
/// printed (its KernelInfo included), the width, the device and the target
/// the opts were timed on.
static std::string cacheKeyText(Operation *sink, const exec::BeamOptions &opts, const TargetDescription &target,
                                const std::string &device, unsigned threads) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // v6: opts_to_apply repeat our heuristic's packing (v3), mask hoisting
  // (v4), reduce splits (v5) and the attention scores' reduce as lanes,
  // without the steps where an opt applies only so (ApplyOpts.cpp): an
  // older result may name another kernel. v7: the heuristic's weight-
  // gradient tiles (OurHeuristic.cpp) beat some results searched against
  // the old ones, which a cache would keep returning.
  os << "tinygrad-mlir beam_search v7\namt=" << opts.amt << "\ndevice=" << device << "\ntarget=" << target.name
     << " " << target.arch << " vector_bytes=" << target.vectorBytes << " threads=" << threads << "\n";
  Operation *scope = sink->getParentOfType<ModuleOp>();
  (scope ? scope : sink)->print(os, OpPrintingFlags().assumeVerified());
  return text;
}

/// A cached search: its opts, and whether the heuristic's kernel won.
struct CachedResult {
  std::vector<Opt> opts;
  bool heuristic = false;
};

static std::optional<CachedResult> cacheGet(const std::string &path, const std::string &keyText) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return std::nullopt;
  auto v = llvm::json::parse((*buf)->getBuffer());
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *o = v->getAsObject();
  auto key = o ? o->getString("key") : std::nullopt;
  const llvm::json::Value *opts = o ? o->get("opts") : nullptr;
  if (!key || *key != keyText || !opts) // another kernel with the same hash, or a damaged file
    return std::nullopt;
  std::string s;
  llvm::raw_string_ostream(s) << *opts;
  auto parsed = beam::optsFromJSON(s);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  return CachedResult{*parsed, o->getBoolean("heuristic").value_or(false)};
}

static void cachePut(const std::string &dir, const std::string &path, const std::string &keyText,
                     llvm::ArrayRef<Opt> opts, bool heuristic) {
  if (llvm::sys::fs::create_directories(dir))
    return; // a cache that cannot be written is no cache, not an error
  auto parsedOpts = llvm::json::parse(beam::optsToJSON(opts));
  if (!parsedOpts) {
    llvm::consumeError(parsedOpts.takeError());
    return;
  }
  std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp, ec);
    if (ec)
      return;
    os << llvm::json::Value(
        llvm::json::Object{{"key", keyText}, {"opts", std::move(*parsedOpts)}, {"heuristic", heuristic}});
  }
  if (llvm::sys::fs::rename(tmp, path))
    llvm::sys::fs::remove(tmp);
}

//===----------------------------------------------------------------------===//
// Compiling and timing candidates
//===----------------------------------------------------------------------===//

namespace {
/// What timing a candidate needs of its compiled kernel.
struct TimedKernel {
  std::string name, object;
  std::vector<int64_t> globals, bufferElems;
  std::vector<std::string> vars;
  int64_t coreIdArg = -1, threads = 1;
  // -- a GPU kernel (the child process times ELF objects only) --
  BinaryFormat format = BinaryFormat::ELF;
  KernelSignature signature;             ///< its interface, for loadKernel
  std::array<int64_t, 3> global{1, 1, 1}; ///< workgroups at the search's variable values
};

/// What a timing process keeps across candidates, as tinygrad's search
/// keeps its rawbufs: the device and one zero-filled buffer per slot
/// (regrown when a kernel needs more), each variable at the middle of its
/// range. The timing child's copy is kept across searches too (the
/// buffers stay mapped: a search whose sizes an earlier one had does not
/// fault its pages in again); each request names its search's device,
/// slot sizes, variable values and threads (those that zero its buffers).
struct TimingState {
  std::string deviceName = "CPU";
  std::map<int64_t, size_t> itemBytes;
  std::map<std::string, int64_t> varValues;
  tgrt_device *dev = nullptr;
  std::map<int64_t, exec::TimingBuffer> bufs;
  std::set<int64_t> stale; ///< slots an earlier search wrote: zeroed (what this one uses) before its first run
  unsigned fillThreads = 1; ///< the threads that zero a search's buffers
  uint64_t search = 0;      ///< the search the buffers were last zeroed for
  TimingState() = default;
  TimingState(const TimingState &) = delete;
  TimingState &operator=(const TimingState &) = delete;
  ~TimingState() { release(); }
  void release() {
    for (auto &kv : bufs)
      exec::freeTimingBuffer(kv.second);
    bufs.clear();
    stale.clear();
    if (dev)
      tgrt_device_close(dev);
    dev = nullptr;
  }
};

/// Zeroes `bytes` of `buf`: through its host pointer where the memory has
/// one (the CPU), else by a copy.
tgrt_status zeroFill(tgrt_buffer *buf, size_t bytes) {
  void *host = nullptr;
  if (tgrt_buffer_host_pointer(buf, &host) == TGRT_OK && host) {
    std::memset(host, 0, bytes);
    return TGRT_OK;
  }
  std::vector<char> zeros(bytes, 0);
  return tgrt_buffer_copy_in(buf, 0, zeros.data(), bytes);
}

/// The request to the timing child: 8 bytes of header length, the header
/// (JSON: the kernel's launch data, the early stop, the run count, the
/// search's id, device, slot sizes and variable values), the object's
/// bytes.
std::string encodeRequest(const TimedKernel &k, double earlyStop, unsigned count, const TimingState &st,
                          uint64_t search) {
  llvm::json::Array itemBytes;
  for (auto [slot, bytes] : st.itemBytes)
    itemBytes.push_back(llvm::json::Array{slot, (int64_t)bytes});
  llvm::json::Object varValues;
  for (auto &[name, value] : st.varValues)
    varValues[name] = value;
  llvm::json::Array globals, elems, vars;
  for (int64_t g : k.globals)
    globals.push_back(g);
  for (int64_t e : k.bufferElems)
    elems.push_back(e);
  for (const std::string &v : k.vars)
    vars.push_back(v);
  std::string header;
  llvm::raw_string_ostream(header) << llvm::json::Value(llvm::json::Object{
      {"name", k.name}, {"globals", std::move(globals)}, {"elems", std::move(elems)}, {"vars", std::move(vars)},
      {"core_id_arg", k.coreIdArg}, {"threads", k.threads},
      // JSON has no infinity: null is "no early stop"
      {"early_stop", std::isfinite(earlyStop) ? llvm::json::Value(earlyStop) : llvm::json::Value(nullptr)},
      {"count", (int64_t)count}, {"search", (int64_t)search}, {"device", st.deviceName},
      {"fill_threads", (int64_t)st.fillThreads},
      {"item_bytes", std::move(itemBytes)}, {"var_values", std::move(varValues)}});
  uint64_t n = header.size();
  std::string req(reinterpret_cast<const char *>(&n), sizeof n);
  return req + header + k.object;
}

/// The most buffer bytes the timing child keeps from one search to the
/// next (beyond it, a new search allocates afresh): 3 buffers of 16M
/// floats and then some.
constexpr size_t kKeptBufferBytes = size_t(512) << 20;

/// Decodes `req` into `k`, the run bounds and the search's part of `st`
/// (a request for another device starts from no device and no buffers; a
/// request of another search marks the kept buffers stale: timeKernel
/// zeroes what this search uses of them, the last one's outputs being no
/// inputs of this one).
bool decodeRequest(const std::string &req, TimedKernel &k, double &earlyStop, unsigned &count, TimingState &st) {
  uint64_t n = 0;
  if (req.size() < sizeof n)
    return false;
  std::memcpy(&n, req.data(), sizeof n);
  if (req.size() < sizeof n + n)
    return false;
  auto v = llvm::json::parse(llvm::StringRef(req).substr(sizeof n, n));
  if (!v) {
    llvm::consumeError(v.takeError());
    return false;
  }
  const llvm::json::Object *o = v->getAsObject();
  if (!o)
    return false;
  k.name = o->getString("name").value_or("").str();
  for (auto [key, out] : {std::pair{"globals", &k.globals}, std::pair{"elems", &k.bufferElems}})
    if (const llvm::json::Array *a = o->getArray(key))
      for (const llvm::json::Value &x : *a)
        out->push_back(x.getAsInteger().value_or(0));
  if (const llvm::json::Array *a = o->getArray("vars"))
    for (const llvm::json::Value &x : *a)
      k.vars.push_back(x.getAsString().value_or("").str());
  k.coreIdArg = o->getInteger("core_id_arg").value_or(-1);
  k.threads = o->getInteger("threads").value_or(1);
  earlyStop = o->getNumber("early_stop").value_or(std::numeric_limits<double>::infinity());
  count = (unsigned)o->getInteger("count").value_or(1);
  k.object = req.substr(sizeof n + n);
  std::string device = o->getString("device").value_or("CPU").str();
  if (device != st.deviceName) {
    st.release();
    st.deviceName = device;
  }
  st.itemBytes.clear();
  if (const llvm::json::Array *a = o->getArray("item_bytes"))
    for (const llvm::json::Value &e : *a)
      if (const llvm::json::Array *pair = e.getAsArray(); pair && pair->size() == 2)
        st.itemBytes[(*pair)[0].getAsInteger().value_or(0)] = (size_t)(*pair)[1].getAsInteger().value_or(8);
  st.varValues.clear();
  if (const llvm::json::Object *vv = o->getObject("var_values"))
    for (auto &kv : *vv)
      st.varValues[kv.first.str()] = kv.second.getAsInteger().value_or(0);
  st.fillThreads = (unsigned)std::max<int64_t>(1, o->getInteger("fill_threads").value_or(1));
  uint64_t search = (uint64_t)o->getInteger("search").value_or(0);
  if (search != st.search) {
    st.search = search;
    size_t kept = 0;
    for (auto &kv : st.bufs)
      kept += kv.second.bytes;
    if (kept > kKeptBufferBytes) { // a bound on what the child holds between searches
      for (auto &kv : st.bufs)
        exec::freeTimingBuffer(kv.second);
      st.bufs.clear();
    }
    st.stale.clear();
    for (auto &kv : st.bufs)
      st.stale.insert(kv.first);
  }
  return true;
}



/// _time_program's early stop: the fastest run so far is slower than
/// `earlyStop`. Ours: not on a first run under a millisecond, whose cold
/// start (code and buffers paged in, threads woken) can be most of it and
/// a second run costs next to nothing.
bool stopEarly(const std::vector<double> &tms, double earlyStop) {
  double best = *std::min_element(tms.begin(), tms.end());
  return earlyStop < best && !(tms.size() == 1 && best < 1e-3);
}

/// _time_program: up to `count` launches, stopping once the fastest is
/// slower than `earlyStop` seconds. Each launch waits for the kernel: a CPU
/// object runs on its threads (tgrt_program_launch), a GPU binary is
/// dispatched with the search's launch dims (tgrt_program_dispatch).
llvm::Expected<std::vector<double>> timeKernel(TimingState &st, const TimedKernel &k, double earlyStop,
                                               unsigned count) {
  auto fail = [&](const llvm::Twine &what) { return err(what + ": " + tgrt_last_error()); };
  if (!st.dev && tgrt_device_open(st.deviceName.c_str(), nullptr, &st.dev) != TGRT_OK)
    return fail("opening the " + st.deviceName + " device");
  std::vector<tgrt_arg> args;
  // What of the buffers is zeroed before the first run: fresh mappings (the
  // zeroing is their first touch) and what this kernel uses of stale ones,
  // all at once on the search's threads (TimingBuffer.h).
  std::vector<std::pair<void *, size_t>> toZero;
  for (size_t gi = 0; gi < k.globals.size(); ++gi) {
    // elements from the signature, bytes per element from the AST's PARAM
    int64_t slot = k.globals[gi];
    auto it = st.itemBytes.find(slot);
    int64_t elems = gi < k.bufferElems.size() ? std::max<int64_t>(1, k.bufferElems[gi]) : 1;
    size_t bytes = (size_t)elems * (it != st.itemBytes.end() ? it->second : 8);
    exec::TimingBuffer &sb = st.bufs[slot];
    bool stale = st.stale.erase(slot) != 0;
    if (!sb.buf || sb.bytes < bytes) {
      exec::freeTimingBuffer(sb);
      if (exec::zeroedBuffer(st.dev, bytes, sb, /*touch=*/false) != TGRT_OK)
        return fail("allocating a buffer");
      stale = sb.map != nullptr; // a mapping of ours, untouched (the runtime's come zero-filled)
    }
    if (stale) {
      if (void *host = exec::timingHostPointer(sb))
        toZero.emplace_back(host, bytes);
      else if (zeroFill(sb.buf, bytes) != TGRT_OK)
        return fail("zeroing a buffer");
    }
    args.push_back(tgrt_arg_buffer(sb.buf));
  }
  exec::zeroHostRegions(toZero, st.fillThreads);
  for (const std::string &name : k.vars) {
    if ((int64_t)args.size() == k.coreIdArg) {
      args.push_back(tgrt_arg_int(0));
      continue;
    }
    auto it = st.varValues.find(name);
    args.push_back(tgrt_arg_int(it != st.varValues.end() ? it->second : 0));
  }
  bool gpu = k.format != BinaryFormat::ELF;
  tgrt_program *prog = nullptr;
  tgrt_status loaded =
      gpu ? exec::loadKernel(st.dev, static_cast<uint32_t>(k.format), k.object, k.signature, k.signature.localSize, &prog)
          : tgrt_program_load(st.dev, k.object.data(), k.object.size(), k.name.c_str(), &prog);
  if (loaded != TGRT_OK)
    return fail("loading the kernel");
  exec::IsolatedWorker::notice(); // the runs' bound counts from here (timeInChild)
  tgrt_dispatch d{};
  d.api_version = TGRT_API_VERSION;
  d.core_id_arg_index = -1;
  for (int i = 0; i < 3; ++i) {
    d.global_size[i] = static_cast<uint32_t>(k.global[i]);
    d.local_size[i] = static_cast<uint32_t>(k.signature.localSize[i]);
  }
  std::vector<double> tms;
  for (unsigned i = 0; i < count; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    tgrt_status s = gpu ? tgrt_program_dispatch(prog, args.data(), args.size(), &d)
                        : tgrt_program_launch(prog, args.data(), args.size(), k.coreIdArg, k.threads);
    if (s != TGRT_OK) {
      llvm::Error e = fail("launch");
      tgrt_program_free(prog);
      return std::move(e);
    }
    tms.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (stopEarly(tms, earlyStop))
      break;
    if (i == 0 && count > 1)
      exec::IsolatedWorker::notice(); // the first run is in under the early stop (timeInChild)
  }
  tgrt_program_free(prog);
  return tms;
}

} // namespace

llvm::Expected<std::vector<double>> exec::timeInChild(IsolatedWorker &worker, const std::string &request,
                                                      double earlyStop, unsigned count, double runTimeoutS,
                                                      double firstRunSlackS) {
  double limit = runTimeoutS;
  std::vector<double> afterNotices;
  if (std::isfinite(earlyStop) && earlyStop * count + kTimingLoadS < limit) {
    limit = earlyStop * count + kTimingLoadS;
    // the first run, then the others (the child's notices after the load
    // and after a first run under the early stop)
    afterNotices = {earlyStop + firstRunSlackS, earlyStop * (count > 1 ? count - 1 : 0) + kTimingRunSlackS};
  }
  llvm::Expected<std::string> out = worker.call(request, limit, afterNotices);
  if (!out) {
    std::string why = llvm::toString(out.takeError());
    if (limit < runTimeoutS && llvm::StringRef(why).contains("timed out"))
      return std::vector<double>(count, std::numeric_limits<double>::infinity());
    return err(why);
  }
  std::vector<double> tms;
  std::istringstream is(*out);
  for (double t; is >> t;)
    tms.push_back(t);
  return tms;
}

namespace {
/// Compiles candidates for the search's target and times them on its
/// device (CPU objects in the timing child unless isolation is off).
class KernelRunner : public beam::CandidateRunner {
public:
  KernelRunner(Value root, const exec::BeamOptions &o, TargetDescription target, std::string device,
               std::map<int64_t, size_t> itemBytes, std::map<std::string, int64_t> varValues, unsigned threads)
      : root(root), o(o), target(std::move(target)), compiler(root.getContext()), search(++searches) {
    timing.fillThreads = std::max(1u, threads);
    timing.deviceName = std::move(device);
    timing.itemBytes = std::move(itemBytes);
    timing.varValues = std::move(varValues);
  }

  llvm::Expected<beam::CompiledCandidate> compile(llvm::ArrayRef<Opt> opts) override {
    llvm::Expected<Built> b = build(root, compiler, std::vector<Opt>(opts.begin(), opts.end()));
    if (!b)
      return b.takeError();
    return adopt(std::move(*b), opts);
  }

  /// No opts_to_apply: the kernel the compile gives without BEAM.
  llvm::Expected<beam::CompiledCandidate> compileHeuristic(std::vector<Opt> &applied) override {
    llvm::Expected<Built> b = build(root, compiler, std::nullopt);
    if (!b)
      return b.takeError();
    applied = b->k.signature.appliedOpts;
    heuristicHandle = kernels.size();
    return adopt(std::move(*b), applied);
  }

  /// Concurrent compiles: the calling thread and up to threads-1 others,
  /// each with its own MLIR context holding a copy of the kernel (a context
  /// and its pass pipelines are one thread's), taking candidates in turn.
  std::vector<llvm::Expected<beam::CompiledCandidate>> compileAll(llvm::ArrayRef<std::vector<Opt>> batch,
                                                                  unsigned threads) override {
    unsigned n = std::min<unsigned>(threads, batch.size());
    if (n < 2)
      return CandidateRunner::compileAll(batch, threads);
    while (helpers.size() < n - 1) {
      auto h = std::make_unique<HelperCompiler>(root);
      if (!h->root) // the kernel did not survive printing: one by one
        return CandidateRunner::compileAll(batch, threads);
      helpers.push_back(std::move(h));
    }
    std::vector<std::optional<llvm::Expected<Built>>> built(batch.size());
    std::atomic<size_t> next{0};
    auto work = [&](Value r, KernelCompiler &c) {
      for (size_t i; (i = next.fetch_add(1)) < batch.size();)
        built[i].emplace(build(r, c, batch[i]));
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t + 1 < n; ++t)
      pool.emplace_back(work, helpers[t]->root, std::ref(helpers[t]->compiler));
    work(root, compiler);
    for (std::thread &t : pool)
      t.join();
    // Handles in the batch's order, as one-by-one compiles would give.
    std::vector<llvm::Expected<beam::CompiledCandidate>> out;
    for (size_t i = 0; i < batch.size(); ++i) {
      if (!*built[i])
        out.push_back(built[i]->takeError());
      else
        out.push_back(adopt(std::move(**built[i]), batch[i]));
    }
    return out;
  }

  llvm::Expected<std::vector<double>> time(const beam::CompiledCandidate &c, double earlyStop,
                                           unsigned count) override {
    if (o.timer) {
      std::vector<double> tms;
      for (unsigned i = 0; i < count; ++i) {
        llvm::Expected<double> t = o.timer(optsOf[c.handle]);
        if (!t)
          return t.takeError();
        tms.push_back(*t);
        if (stopEarly(tms, earlyStop))
          break;
      }
      return tms;
    }
    const TimedKernel &k = kernels[c.handle];
    if (!o.isolate || k.format != BinaryFormat::ELF)
      return timeKernel(timing, k, earlyStop, count);
    TimingChild &child = timingChild();
    std::lock_guard<std::mutex> lock(child.mutex);
    if (!child.worker.alive() || child.search != search) {
      auto t0 = std::chrono::steady_clock::now();
      // A fresh child (the first, or the next after a cut-off) allocates
      // and touches its buffers, and a new search zeroes the kept ones:
      // seconds for 16M-element buffers on a loaded host, not within a
      // candidate's cut-off (else one cut-off cuts off every candidate
      // after it). A request of no runs does that (and loads the object).
      constexpr double inf = std::numeric_limits<double>::infinity();
      llvm::Expected<std::vector<double>> prepared =
          exec::timeInChild(child.worker, encodeRequest(k, inf, 0, timing, search), inf, 0, o.runTimeoutS);
      if (!prepared)
        return prepared.takeError();
      child.search = search;
      child.prepareS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    // A first run past the early stop is cut off once it has gone on as
    // long as a fresh child would cost (the last preparation: the fork, the
    // buffers zeroed): waiting at most that long past the early stop costs
    // at most twice what knowing the run's length would (ski rental).
    double firstRunSlack = std::max(exec::kTimingFirstRunSlackS, child.prepareS);
    return exec::timeInChild(child.worker, encodeRequest(k, earlyStop, count, timing, search), earlyStop, count,
                             o.runTimeoutS, firstRunSlack);
  }

  /// The compile `opts` won with (beamSearch's SearchResult::opts and
  /// ::heuristic): the heuristic's, else the candidate compiled with them
  /// as its opts_to_apply. Null when none is (nothing was compiled).
  CompiledKernel *winner(llvm::ArrayRef<Opt> opts, bool heuristic) {
    if (heuristic)
      return heuristicHandle < compiledOf.size() ? &compiledOf[heuristicHandle] : nullptr;
    for (size_t h = 0; h < optsOf.size(); ++h)
      if (h != heuristicHandle && llvm::ArrayRef<Opt>(optsOf[h]) == opts)
        return &compiledOf[h];
    return nullptr;
  }

private:
  /// A compiled candidate before it has a handle.
  struct Built {
    beam::CompiledCandidate c;
    TimedKernel k;
    CompiledKernel full; ///< the compile's result (its object copied into `k`)
  };

  /// Compiles the kernel `r` with `opts` as opts_to_apply (nullopt: as
  /// without BEAM, the heuristic's) by `c` (the compiler of r's context);
  /// touches nothing shared.
  llvm::Expected<Built> build(Value r, KernelCompiler &c, std::optional<std::vector<Opt>> opts) const {
    std::string diag;
    ScopedDiagnosticHandler handler(r.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        diag += (diag.empty() ? "" : "; ") + d.str();
      return success();
    });
    CompileOptions co;
    co.optsToApply = std::move(opts);
    co.varValues = timing.varValues; // a GPU kernel's launch dims at the values it is timed with
    auto t0 = std::chrono::steady_clock::now();
    FailureOr<CompiledKernel> k = c.compile(r, target, co);
    if (failed(k))
      return err(diag.empty() ? "the compile failed" : diag);
    Built b;
    b.c.compileS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    b.c.lib = sha256Hex(k->binary);
    b.c.ops = k->uops.ops.value;
    b.c.uops = k->signature.linearLanes.size();
    const KernelSignature &sig = k->signature;
    b.k = TimedKernel{sig.name, k->binary, sig.globals, sig.bufferElems, sig.vars, sig.coreIdArg,
                      sig.threads, k->format, sig, k->globalSizeFor};
    b.full = std::move(*k);
    if (llvm::is_contained(b.k.global, -1))
      return err("the launch dims depend on a variable the search did not bind");
    return b;
  }

  /// `b` kept for timing under the next handle.
  beam::CompiledCandidate adopt(Built b, llvm::ArrayRef<Opt> opts) {
    b.c.handle = kernels.size();
    kernels.push_back(std::move(b.k));
    compiledOf.push_back(std::move(b.full));
    optsOf.emplace_back(opts.begin(), opts.end());
    return b.c;
  }

  /// Another thread's compiler: its own context with the kernel reparsed
  /// from the printed module.
  struct HelperCompiler {
    explicit HelperCompiler(Value original) : ctx(MLIRContext::Threading::DISABLED), compiler(&ctx) {
      DialectRegistry registry;
      registerAllDialects(registry);
      ctx.appendDialectRegistry(registry);
      ctx.loadAllAvailableDialects();
      ctx.printOpOnDiagnostic(false);
      Operation *scope = original.getDefiningOp()->getParentOfType<ModuleOp>();
      if (!scope)
        return;
      std::string text;
      llvm::raw_string_ostream os(text);
      scope->print(os, OpPrintingFlags().printGenericOpForm().assumeVerified());
      module = parseSourceString<ModuleOp>(text, &ctx);
      if (module)
        root = getTinygradRoot(*module);
    }
    MLIRContext ctx;
    OwningOpRef<ModuleOp> module;
    Value root;
    KernelCompiler compiler;
  };

  Value root;
  const exec::BeamOptions &o;
  TargetDescription target;
  KernelCompiler compiler;
  std::vector<std::unique_ptr<HelperCompiler>> helpers;
  /// The in-process timer's state (isolate off), and what each request to
  /// the timing child names of the search (device, sizes, variables).
  TimingState timing;
  /// This search among the process's (the child zeroes its buffers anew
  /// for each).
  uint64_t search;
  static inline std::atomic<uint64_t> searches{0};

  /// The timing child of every search in this process, kept across them
  /// (with its device and buffers: TimingState), one request at a time. A
  /// fault or a cut-off costs it (the next request forks a fresh one).
  struct TimingChild {
    std::mutex mutex;
    uint64_t search = 0; ///< the search whose buffers the running child has prepared
    double prepareS = 0; ///< how long the last preparation took (a fresh child's, or a new search's buffers)
    exec::IsolatedWorker worker{[](const std::string &req) -> llvm::Expected<std::string> {
      static TimingState state; // in the child (the parent's copy never runs)
      TimedKernel k;
      double earlyStop = 0;
      unsigned count = 0;
      if (!decodeRequest(req, k, earlyStop, count, state))
        return err("a malformed timing request");
      auto tms = timeKernel(state, k, earlyStop, count);
      if (!tms)
        return tms.takeError();
      std::string s;
      for (double t : *tms)
        s += llvm::formatv("{0:e17} ", t).str();
      return s;
    }};
  };
public:
  static TimingChild &timingChild() {
    static TimingChild child;
    return child;
  }
  std::vector<TimedKernel> kernels;
  std::vector<std::vector<Opt>> optsOf;
  std::vector<CompiledKernel> compiledOf; ///< each handle's compile, whole
  size_t heuristicHandle = SIZE_MAX;      ///< compileHeuristic's kernel
};
} // namespace

//===----------------------------------------------------------------------===//
// The search
//===----------------------------------------------------------------------===//

llvm::Expected<exec::BeamOutcome> exec::beamSearchKernel(Value root, const BeamOptions &opts) {
  Operation *sinkOp = root.getDefiningOp();
  if (!sinkOp || !isa<tg::SinkOp>(sinkOp))
    return err("a kernel AST is rooted at a SINK");
  auto info = dyn_cast_or_null<tg::KernelInfoAttr>(sinkOp->getAttr("arg"));
  if (!info)
    return err("a kernel SINK carries #tg.kernel_info");
  if (opts.amt < 1)
    return err("the beam width is at least 1");
  BeamOutcome out;
  // apply_opts: a tagged AST and one that names its opts are not searched.
  if (sinkOp->hasAttr("tg.tag"))
    return out;
  if (info.getOptsToApply()) {
    for (Attribute a : info.getOptsToApply()) {
      auto oa = dyn_cast<tg::OptAttr>(a);
      if (!oa)
        return err("opts_to_apply holds a non-Opt");
      auto arg = dyn_cast_or_null<IntegerAttr>(oa.getArg());
      out.opts.push_back(Opt{oa.getOp(), oa.getAxis(), arg ? arg.getInt() : 0});
    }
    return out;
  }

  unsigned threads = opts.maxThreads ? opts.maxThreads : hostThreads();
  TargetDescription target = opts.target ? *opts.target : TargetDescription::host(threads);
  if (target.isGPU())
    threads = 1; // the CPU's THREAD count is no part of a GPU kernel
  out.device = opts.device.empty() ? target.runtimeDevice() : opts.device;
  std::string keyText = cacheKeyText(sinkOp, opts, target, out.device, threads);
  out.cacheKey = sha256Hex(keyText);
  std::string dir = beamCacheDir(opts);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, out.cacheKey + ".json");
  if (!opts.ignoreCache)
    if (auto hit = cacheGet(std::string(path), keyText)) {
      out.opts = std::move(hit->opts);
      out.heuristic = hit->heuristic;
      out.cached = true;
      return out;
    }

  // The Scheduler the search starts from: the kernel as apply_opts sees it.
  sym::Context ctx(root.getContext());
  sym::UOpRef kernel = sym::Importer(ctx).import(root);
  if (!kernel)
    return err("cannot import the kernel AST");
  std::string why;
  codegen::RewriteOptions ro{info, target, opt::OptMode::Ours};
  ro.stopBeforeOpts = true;
  std::string diag;
  sym::UOpRef prepared;
  {
    ScopedDiagnosticHandler handler(root.getContext(), [&](Diagnostic &d) {
      diag += (diag.empty() ? "" : "; ") + d.str();
      return success();
    });
    prepared = codegen::fullRewriteToSink(ctx, kernel, ro, nullptr, why);
  }
  if (!prepared)
    return err("preparing the kernel for the search: " + why + (diag.empty() ? "" : " (" + diag + ")"));
  opt::Scheduler start(ctx, prepared, target);
  start.convertLoopToGlobal();

  // Buffer sizes by slot (elements come with each compiled kernel) and
  // variable values, as args_from_ast.
  std::map<int64_t, size_t> itemBytes;
  std::map<std::string, int64_t> varValues;
  opt::forEachNode(prepared, [&](sym::UOpRef u) {
    if (u->op != sym::Op::PARAM)
      return true;
    const sym::ParamInfo &p = u->param();
    if (p.isALU) {
      if (p.vminVmax && p.vminVmax->first.kind == Scalar::Int && p.vminVmax->second.kind == Scalar::Int)
        varValues[p.name.str()] = (int64_t)((p.vminVmax->first.i + p.vminVmax->second.i) / 2);
    } else if (p.slot >= 0) {
      int sz = getInfo(u->dtype).itemsize;
      itemBytes[p.slot] = sz > 0 ? (size_t)sz : 8;
    }
    return true;
  });

  beam::SearchOptions so = opts.search ? *opts.search : beam::SearchOptions::fromEnv(opts.amt);
  so.amt = opts.amt;
  BeamOptions ro2 = opts;
  // TINYGRAD_MLIR_BEAM_ISOLATE=0: time in this process (faster; a faulting
  // candidate then takes the process down).
  if (const char *iso = std::getenv("TINYGRAD_MLIR_BEAM_ISOLATE"); iso && llvm::StringRef(iso) == "0")
    ro2.isolate = false;
  // Host memory is zeroed on as many threads as the search's kernels may use.
  KernelRunner runner(root, ro2, target, out.device, itemBytes, varValues,
                      opts.maxThreads ? opts.maxThreads : hostThreads());
  out.search = beam::beamSearch(start, runner, so);
  {
    auto &child = KernelRunner::timingChild();
    std::lock_guard<std::mutex> lock(child.mutex);
    out.timingChildStarts = child.worker.starts();
  }
  out.searched = true;
  out.opts = out.search.opts;
  out.heuristic = out.search.heuristic;
  // The winner's compile is the final one on the CPU (a GPU candidate's
  // launch dims are bound to the search's variable values).
  if (!target.isGPU() && out.search.timed > 0)
    if (CompiledKernel *k = runner.winner(out.opts, out.heuristic))
      out.kernel = std::move(*k);
  if (!opts.ignoreCache && out.search.timed > 0)
    cachePut(dir, std::string(path), keyText, out.opts, out.heuristic);
  return out;
}
