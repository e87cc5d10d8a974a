//===- bench-symbolic.cpp - time the symbolic engine on the corpus --------===//
//
// For every simplify / numeric_const case of a symbolic.jsonl corpus: the
// input graph is built once (imported), then each repetition starts from a
// fresh interning context (so no result is cached from an earlier run),
// imports the graph (untimed) and times only the rewrite with
// `sym + pm_cast_weak`. Prints per-case median statistics and the rate of
// nodes created by rewriting.
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
  std::vector<double> medians;
  double totalSeconds = 0;
  uint64_t totalNodes = 0;
  unsigned failures = 0;
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
      totalSeconds += s;
      totalNodes += ctx.numCreated - before;
    }
    std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
    medians.push_back(times[times.size() / 2]);
  }
  std::sort(medians.begin(), medians.end());
  double median = medians.empty() ? 0 : medians[medians.size() / 2];
  double sum = 0;
  for (double m : medians)
    sum += m;
  llvm::outs() << llvm::format("cases: %zu, repetitions: %d, rewrite failures: %u\n",
                               medians.size(), reps, failures);
  llvm::outs() << llvm::format("ours: median %.2f us per case, p90 %.2f us, "
                               "total %.3f ms per corpus pass\n",
                               median * 1e6,
                               medians.empty() ? 0 : medians[medians.size() * 9 / 10] * 1e6,
                               sum * 1e3);
  llvm::outs() << llvm::format("ours: %.2f M nodes created by rewriting per second\n",
                               totalSeconds > 0 ? totalNodes / totalSeconds / 1e6 : 0);
  llvm::outs() << llvm::format("OURS_MEDIAN_US %.3f\n", median * 1e6);
  return 0;
}
