//===- bench-symbolic.cpp - time the symbolic engine on the corpus --------===//
//
// For every simplify / numeric_const case of a symbolic.jsonl corpus, times
// only the rewrite with `sym + pm_cast_weak`, two ways. Cold, the headline:
// a fresh interning context per repetition (the graph imported untimed), so
// every node the rewrite makes is made again each time, as in tinygrad,
// whose node cache holds its nodes weakly and rebuilds the rewritten ones
// every repetition. Warm: one context run once untimed first, whose intern
// table then already holds every node of the result (a reuse tinygrad's
// side does not get; reported, labelled, not compared as like for like).
// Prints per-case median statistics.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>

using namespace mlir;
using namespace mlir::tinygrad;

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: bench-symbolic <symbolic.jsonl> [repetitions]\n";
    return 2;
  }
  int reps = argc > 2 ? std::atoi(argv[2]) : 50;
  auto buf = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buf) {
    llvm::errs() << "cannot read " << argv[1] << "\n";
    return 2;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext mlirCtx(registry);
  mlirCtx.loadAllAvailableDialects();
  mlirCtx.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });

  std::vector<OwningOpRef<ModuleOp>> modules;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto rec = llvm::json::parse(line);
    if (!rec) {
      llvm::consumeError(rec.takeError());
      continue;
    }
    auto kind = rec->getAsObject()->getString("kind");
    if (!kind || (*kind != "simplify" && *kind != "numeric_const"))
      continue;
    if (auto m = importTinygradJSONValue(*rec, &mlirCtx, "input"))
      modules.push_back(std::move(m));
  }

  using Clock = std::chrono::steady_clock;
  unsigned failures = 0;
  // Cold: a fresh interning context per repetition, so nothing computed
  // earlier (nodes, bounds, memos) is reused.
  double coldSeconds = 0;
  uint64_t coldNodes = 0;
  std::vector<double> coldMedians, coldBests;
  // Warm: one context per case, run once untimed first: its intern table
  // keeps every node of that run, so a repetition finds its result nodes
  // made (tinygrad's weak-referenced cache has let them go by then).
  std::vector<double> warmMedians;
  for (auto &m : modules) {
    Value root = getTinygradRoot(*m);
    std::vector<double> times;
    for (int r = 0; r < reps; ++r) {
      sym::Context ctx(&mlirCtx);
      sym::UOpRef in = sym::Importer(ctx).import(root);
      unsigned before = ctx.numCreated;
      auto t0 = Clock::now();
      sym::UOpRef out = sym::graphRewrite(ctx, in, sym::symCastWeak());
      auto t1 = Clock::now();
      if (!out)
        ++failures;
      double s = std::chrono::duration<double>(t1 - t0).count();
      times.push_back(s);
      coldSeconds += s;
      coldNodes += ctx.numCreated - before;
    }
    coldBests.push_back(*std::min_element(times.begin(), times.end()));
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    coldMedians.push_back(times[times.size() / 2]);

    sym::Context ctx(&mlirCtx);
    sym::UOpRef in = sym::Importer(ctx).import(root);
    sym::graphRewrite(ctx, in, sym::symCastWeak());
    times.clear();
    for (int r = 0; r < reps; ++r) {
      auto t0 = Clock::now();
      sym::UOpRef out = sym::graphRewrite(ctx, in, sym::symCastWeak());
      auto t1 = Clock::now();
      if (!out)
        ++failures;
      times.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    warmMedians.push_back(times[times.size() / 2]);
  }
  auto medianOf = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  double sum = 0;
  for (double m : coldMedians)
    sum += m;
  llvm::outs() << llvm::format("cases: %zu, repetitions: %d, rewrite failures: %u\n",
                               coldMedians.size(), reps, failures);
  llvm::outs() << llvm::format("ours cold: median %.2f us per case, total %.3f ms per corpus pass\n",
                               medianOf(coldMedians) * 1e6, sum * 1e3);
  // The per-case best is what to compare builds by on a shared, noisy
  // machine; the medians are what the side-by-side ratios use.
  llvm::outs() << llvm::format("ours cold: median over cases of the best repetition %.2f us\n",
                               medianOf(coldBests) * 1e6);
  llvm::outs() << llvm::format("ours cold: %.2f M nodes created by rewriting per second\n",
                               coldSeconds > 0 ? coldNodes / coldSeconds / 1e6 : 0);
  llvm::outs() << llvm::format("ours warm (the intern table keeping the first run's nodes): median %.2f us per case\n",
                               medianOf(warmMedians) * 1e6);
  llvm::outs() << llvm::format("OURS_COLD_MEDIAN_US %.3f\n", medianOf(coldMedians) * 1e6);
  llvm::outs() << llvm::format("OURS_WARM_MEDIAN_US %.3f\n", medianOf(warmMedians) * 1e6);
  return 0;
}
