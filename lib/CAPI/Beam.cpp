//===- Beam.cpp - tgc_beam_search: BEAM search of a kernel's opts ---------===//
#include "Internal.h"

#include "tinygrad/Execution/BeamKernel.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <cmath>

using namespace mlir;
namespace json = llvm::json;

static json::Value optsValue(llvm::ArrayRef<tinygrad::opt::Opt> opts) {
  auto v = json::parse(tinygrad::beam::optsToJSON(opts));
  if (!v) {
    llvm::consumeError(v.takeError());
    return json::Array{};
  }
  return std::move(*v);
}

/// tgc_beam_search, and with `out_kernel` tgc_beam_search_kernel.
static tgc_status beamSearch(tgc_module *module, const tgc_beam_options *options, char **out_json,
                             tgc_kernel **out_kernel) {
  return tgc::apiCall("tgc_beam_search", [&] {
    if (!module || !out_json)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_beam_search: module and out_json must not be NULL");
    tgc_beam_options o = TGC_BEAM_OPTIONS_DEFAULT;
    if (options) {
      if (options->api_version != TGC_API_VERSION)
        return tgc::badVersion("tgc_beam_search", options->api_version);
      o = *options;
    }
    if (o.beam < 1)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_beam_search: the beam width is at least 1");
    std::lock_guard<std::recursive_mutex> lock(module->ctx->mutex);
    tgc::DiagnosticCapture diags(module->ctx->mlir);
    Value root;
    if (tgc_status st = tgc::kernelRoot(module, diags, "tgc_beam_search", root); st != TGC_OK)
      return st;

    tinygrad::exec::BeamOptions bo;
    bo.amt = o.beam;
    if (o.target) {
      std::string why;
      bo.target = tinygrad::TargetDescription::parse(o.target, &why);
      if (!bo.target)
        return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_beam_search: " + why);
      if (!bo.target->isGPU())
        bo.target.reset(); // the host with max_threads cores
    }
    if (o.device)
      bo.device = o.device;
    bo.maxThreads = o.max_threads;
    bo.ignoreCache = o.ignore_cache != 0;
    if (o.cache_dir)
      bo.cacheDir = o.cache_dir;
    if (o.timer) {
      tgc_beam_timer fn = o.timer;
      void *user = o.user_data;
      bo.timer = [fn, user](llvm::ArrayRef<tinygrad::opt::Opt> opts) -> llvm::Expected<double> {
        std::string text = tinygrad::beam::optsToJSON(opts);
        double t = fn(text.c_str(), user);
        if (!(t >= 0))
          return llvm::createStringError(llvm::inconvertibleErrorCode(), "the timer failed the candidate");
        return t;
      };
    }
    llvm::Expected<tinygrad::exec::BeamOutcome> found = [&] {
      // The GPU back ends compile one kernel at a time per process
      // (Kernel.cpp); the host's is per thread, so a CPU search leaves the
      // process's other compiles (the plugin's compile threads) running.
      std::unique_lock<std::mutex> backEnd(tgc::compileMutex(), std::defer_lock);
      if (bo.target && bo.target->isGPU())
        backEnd.lock();
      return tinygrad::exec::beamSearchKernel(root, bo);
    }();
    if (!found)
      return diags.fail(TGC_COMPILE_FAILED, "BEAM search: " + llvm::toString(found.takeError()));
    const tinygrad::beam::SearchResult &sr = found->search;
    json::Array failures;
    for (const tinygrad::beam::CandidateFailure &f : sr.failures)
      failures.push_back(json::Object{{"opts", optsValue(f.opts)}, {"stage", f.stage}, {"error", f.message}});
    json::Object res{{"opts", optsValue(found->opts)},
                     {"opts_repr", tinygrad::opt::toString(found->opts)},
                     {"heuristic", found->heuristic},
                     {"heuristic_s", found->searched && std::isfinite(sr.heuristicS) ? json::Value(sr.heuristicS)
                                                                                     : json::Value(nullptr)},
                     {"cached", found->cached},
                     {"searched", found->searched},
                     {"rounds", (int64_t)sr.rounds},
                     {"compiled", (int64_t)sr.compiled},
                     {"deduped", (int64_t)sr.deduped},
                     {"timed", (int64_t)sr.timed},
                     {"cut_off", (int64_t)sr.cutOff},
                     {"best_s", found->searched && std::isfinite(sr.bestS) ? json::Value(sr.bestS) : json::Value(nullptr)},
                     {"search_s", sr.searchS},
                     {"compile_s", sr.compileS},
                     {"compile_threads", (int64_t)sr.compileThreads},
                     {"time_s", sr.timeS},
                     {"key", found->cacheKey},
                     {"device", found->device},
                     {"timing_child_starts", (int64_t)found->timingChildStarts},
                     {"failures", std::move(failures)}};
    std::string text;
    llvm::raw_string_ostream(text) << json::Value(std::move(res));
    if (tgc_status st = tgc::copyOut(text, out_json); st != TGC_OK)
      return st;
    if (out_kernel)
      *out_kernel = found->kernel ? tgc::kernelHandle(std::move(*found->kernel), tinygrad::TargetDescription::host(
                                                                                     o.max_threads))
                                  : nullptr;
    return TGC_OK;
  });
}

extern "C" tgc_status tgc_beam_search(tgc_module *module, const tgc_beam_options *options, char **out_json) {
  return beamSearch(module, options, out_json, nullptr);
}

extern "C" tgc_status tgc_beam_search_kernel(tgc_module *module, const tgc_beam_options *options, char **out_json,
                                             tgc_kernel **out_kernel) {
  if (!out_kernel)
    return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_beam_search_kernel: out_kernel must not be NULL");
  *out_kernel = nullptr;
  return beamSearch(module, options, out_json, out_kernel);
}
