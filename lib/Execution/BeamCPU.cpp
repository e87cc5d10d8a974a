//===- BeamCPU.cpp - BEAM search for a kernel on the CPU ------------------===//
#include "tinygrad/Execution/BeamCPU.h"

#include "tinygrad/Codegen/CPUPipeline.h"
#include "tinygrad/Codegen/Steps.h"
#include "tinygrad/Execution/Isolated.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad-rt/runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cstring>
#include <map>
#include <sstream>
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

std::string exec::beamCacheDir(const CPUBeamOptions &opts) {
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
static std::string cacheKeyText(Operation *sink, const exec::CPUBeamOptions &opts, const TargetDescription &target,
                                unsigned threads) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "tinygrad-mlir beam_search v1\namt=" << opts.amt << "\ndevice=CPU\ntarget=" << target.arch
     << " vector_bytes=" << target.vectorBytes << " threads=" << threads << "\n";
  Operation *scope = sink->getParentOfType<ModuleOp>();
  (scope ? scope : sink)->print(os, OpPrintingFlags().assumeVerified());
  return text;
}

static std::optional<std::vector<Opt>> cacheGet(const std::string &path, const std::string &keyText) {
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
  return *parsed;
}

static void cachePut(const std::string &dir, const std::string &path, const std::string &keyText,
                     llvm::ArrayRef<Opt> opts) {
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
    os << llvm::json::Value(llvm::json::Object{{"key", keyText}, {"opts", std::move(*parsedOpts)}});
  }
  if (llvm::sys::fs::rename(tmp, path))
    llvm::sys::fs::remove(tmp);
}

//===----------------------------------------------------------------------===//
// Compiling and timing candidates
//===----------------------------------------------------------------------===//

namespace {
/// One zero-filled buffer per global of the kernel, variables at the
/// middle of their ranges; runs the kernel `count` times with
/// _time_program's early stop. In the child process when isolated.
llvm::Expected<std::vector<double>> timeKernel(const CPUKernel &k, const std::map<int64_t, size_t> &itemBytes,
                                               const std::map<std::string, int64_t> &varValues, double earlyStop,
                                               unsigned count) {
  tgrt_device *dev = nullptr;
  if (tgrt_device_open("CPU", nullptr, &dev) != TGRT_OK)
    return err(llvm::Twine("opening the CPU device: ") + tgrt_last_error());
  std::vector<tgrt_buffer *> bufs;
  tgrt_program *prog = nullptr;
  auto cleanup = [&] {
    for (tgrt_buffer *b : bufs)
      tgrt_buffer_free(b);
    if (prog)
      tgrt_program_free(prog);
    tgrt_device_close(dev);
  };
  auto fail = [&](const llvm::Twine &what) {
    std::string m = (what + ": " + tgrt_last_error()).str();
    cleanup();
    return err(m);
  };
  if (tgrt_program_load(dev, k.object.data(), k.object.size(), k.signature.name.c_str(), &prog) != TGRT_OK)
    return fail("loading the kernel");
  const KernelSignature &sig = k.signature;
  std::vector<tgrt_arg> args;
  for (size_t gi = 0; gi < sig.globals.size(); ++gi) {
    // elements from the signature, bytes per element from the AST's PARAM
    auto it = itemBytes.find(sig.globals[gi]);
    int64_t elems = gi < sig.bufferElems.size() ? std::max<int64_t>(1, sig.bufferElems[gi]) : 1;
    size_t bytes = (size_t)elems * (it != itemBytes.end() ? it->second : 8);
    tgrt_buffer *b = nullptr;
    if (tgrt_buffer_alloc(dev, bytes, &b) != TGRT_OK)
      return fail("allocating a buffer");
    bufs.push_back(b);
    void *host = nullptr;
    if (tgrt_buffer_host_pointer(b, &host) == TGRT_OK && host)
      std::memset(host, 0, bytes);
    args.push_back(tgrt_arg_buffer(b));
  }
  for (const std::string &name : sig.vars) {
    if ((int64_t)args.size() == sig.coreIdArg) {
      args.push_back(tgrt_arg_int(0));
      continue;
    }
    auto it = varValues.find(name);
    args.push_back(tgrt_arg_int(it != varValues.end() ? it->second : 0));
  }
  std::vector<double> tms;
  for (unsigned i = 0; i < count; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    if (tgrt_program_launch(prog, args.data(), args.size(), sig.coreIdArg, sig.threads) != TGRT_OK)
      return fail("launch");
    tms.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (earlyStop < *std::min_element(tms.begin(), tms.end()))
      break;
  }
  cleanup();
  return tms;
}

class CPURunner : public beam::CandidateRunner {
public:
  CPURunner(Value root, const exec::CPUBeamOptions &o, std::map<int64_t, size_t> itemBytes,
            std::map<std::string, int64_t> varValues)
      : root(root), o(o), compiler(root.getContext()), itemBytes(std::move(itemBytes)),
        varValues(std::move(varValues)) {}

  llvm::Expected<beam::CompiledCandidate> compile(llvm::ArrayRef<Opt> opts) override {
    std::string diag;
    ScopedDiagnosticHandler handler(root.getContext(), [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error)
        diag += (diag.empty() ? "" : "; ") + d.str();
      return success();
    });
    CPUCompileOptions co;
    co.maxThreads = o.maxThreads;
    co.optsToApply = std::vector<Opt>(opts.begin(), opts.end());
    auto t0 = std::chrono::steady_clock::now();
    FailureOr<CPUKernel> k = compiler.compile(root, co);
    if (failed(k))
      return err(diag.empty() ? "the compile failed" : diag);
    beam::CompiledCandidate c;
    c.compileS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    c.lib = sha256Hex(k->object);
    c.ops = k->uops.ops.value;
    c.uops = k->signature.linearLanes.size();
    c.handle = kernels.size();
    kernels.push_back(std::move(*k));
    optsOf.emplace_back(opts.begin(), opts.end());
    return c;
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
        if (earlyStop < *std::min_element(tms.begin(), tms.end()))
          break;
      }
      return tms;
    }
    const CPUKernel &k = kernels[c.handle];
    if (!o.isolate)
      return timeKernel(k, itemBytes, varValues, earlyStop, count);
    llvm::Expected<std::string> out = exec::runIsolated(
        [&]() -> llvm::Expected<std::string> {
          auto tms = timeKernel(k, itemBytes, varValues, earlyStop, count);
          if (!tms)
            return tms.takeError();
          std::string s;
          for (double t : *tms)
            s += llvm::formatv("{0:e17} ", t).str();
          return s;
        },
        o.runTimeoutS);
    if (!out)
      return out.takeError();
    std::vector<double> tms;
    std::istringstream is(*out);
    for (double t; is >> t;)
      tms.push_back(t);
    return tms;
  }

private:
  Value root;
  const exec::CPUBeamOptions &o;
  CPUCompiler compiler;
  std::map<int64_t, size_t> itemBytes;
  std::map<std::string, int64_t> varValues;
  std::vector<CPUKernel> kernels;
  std::vector<std::vector<Opt>> optsOf;
};
} // namespace

//===----------------------------------------------------------------------===//
// The search
//===----------------------------------------------------------------------===//

llvm::Expected<exec::CPUBeamOutcome> exec::beamSearchForCPU(Value root, const CPUBeamOptions &opts) {
  Operation *sinkOp = root.getDefiningOp();
  if (!sinkOp || !isa<tg::SinkOp>(sinkOp))
    return err("a kernel AST is rooted at a SINK");
  auto info = dyn_cast_or_null<tg::KernelInfoAttr>(sinkOp->getAttr("arg"));
  if (!info)
    return err("a kernel SINK carries #tg.kernel_info");
  if (opts.amt < 1)
    return err("the beam width is at least 1");
  CPUBeamOutcome out;
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
  TargetDescription target = TargetDescription::host(threads);
  std::string keyText = cacheKeyText(sinkOp, opts, target, threads);
  out.cacheKey = sha256Hex(keyText);
  std::string dir = beamCacheDir(opts);
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, out.cacheKey + ".json");
  if (!opts.ignoreCache)
    if (auto hit = cacheGet(std::string(path), keyText)) {
      out.opts = std::move(*hit);
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
  CPURunner runner(root, opts, itemBytes, varValues);
  out.search = beam::beamSearch(start, runner, so);
  out.searched = true;
  out.opts = out.search.opts;
  if (!opts.ignoreCache && out.search.timed > 0)
    cachePut(dir, std::string(path), keyText, out.opts);
  return out;
}
