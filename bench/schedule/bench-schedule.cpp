//===- bench-schedule.cpp - tensor graph -> LINEAR, timed -----------------===//
//
//   bench-schedule schedules.jsonl [reps]
//
// For every corpus program our whole scheduler runs (callify, our
// get_kernel_graph, create_schedule, resolve, copies, memory planning) with
// the schedule cache off, `reps` times two ways, and the median per program
// is reported. Cold, the headline: a fresh interning context per repetition
// (the tensor graph imported untimed), so every node is made again, as on
// tinygrad's side, whose weak-referenced node cache rebuilds its nodes each
// repetition (its schedule cache cleared). Warm: one context, a first run
// untimed, whose intern table then holds every node the next runs make (a
// reuse tinygrad's side does not get; reported, labelled). Programs our
// kernel graph does not cover yet are listed and left out of both sides.
// Prints one line per program (`PROGRAM id cold_median_us warm_median_us
// planned_bytes unplanned_bytes`), then totals.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/MLIRContext.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Schedule/KernelGraph.h"
#include "tinygrad/Schedule/SchedulePipeline.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <cmath>

using namespace mlir;
using namespace mlir::tinygrad;

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: bench-schedule schedules.jsonl [reps]\n";
    return 2;
  }
  int reps = argc > 2 ? std::max(1, atoi(argv[2])) : 20;
  auto buf = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buf) {
    llvm::errs() << "cannot read " << argv[1] << "\n";
    return 2;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext m(registry);
  m.loadAllAvailableDialects();
  m.getDiagEngine().registerHandler([](Diagnostic &) { return success(); });
  llvm::SmallVector<llvm::StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, false);
  std::vector<double> medians, warmMedians;
  int64_t planned = 0, unplanned = 0;
  for (llvm::StringRef line : lines) {
    auto rec = llvm::json::parse(line);
    if (!rec) {
      llvm::consumeError(rec.takeError());
      continue;
    }
    std::string id = rec->getAsObject()->getString("id").value_or("?").str();
    auto mod = importTinygradJSONValue(*rec, &m, "tensor_graph");
    if (!mod)
      continue;
    // One scheduler run in `ctx` on the tensor graph imported into it.
    auto schedule = [&](sym::Context &ctx, sym::UOpRef tensor) {
      auto kernelGraph = [&](sym::UOpRef body) -> llvm::Expected<sym::UOpRef> {
        ctx.errors.clear();
        if (sym::UOpRef kg = sched::getKernelGraph(ctx, body))
          return kg;
        return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                       ctx.errors.empty() ? "failed" : ctx.errors.front());
      };
      return sched::scheduleProgram(ctx, tensor, kernelGraph, /*cache=*/nullptr);
    };
    auto medianOf = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    sched::MemoryPlan plan;
    std::vector<double> cold;
    std::string error;
    for (int r = 0; r < reps && error.empty(); ++r) {
      sym::Context ctx(&m);
      sym::UOpRef tensor = sym::Importer(ctx).import(getTinygradRoot(*mod));
      auto t0 = std::chrono::steady_clock::now();
      auto p = schedule(ctx, tensor);
      double t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      if (!p) {
        error = llvm::toString(p.takeError());
        break;
      }
      plan = p->plan;
      cold.push_back(t);
    }
    if (!error.empty()) {
      llvm::outs() << "SKIP " << id << ": " << error << "\n";
      continue;
    }
    std::vector<double> warm;
    {
      sym::Context ctx(&m);
      sym::UOpRef tensor = sym::Importer(ctx).import(getTinygradRoot(*mod));
      for (int r = 0; r <= reps; ++r) { // rep 0 fills the intern table
        auto t0 = std::chrono::steady_clock::now();
        auto p = schedule(ctx, tensor);
        double t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        if (!p) {
          llvm::consumeError(p.takeError());
          break;
        }
        if (r)
          warm.push_back(t);
      }
    }
    double med = medianOf(cold);
    medians.push_back(med);
    warmMedians.push_back(warm.empty() ? NAN : medianOf(warm));
    planned += plan.plannedBytes;
    unplanned += plan.unplannedBytes;
    llvm::outs() << "PROGRAM " << id << " " << llvm::format("%.1f", med) << " "
                 << llvm::format("%.1f", warmMedians.back()) << " " << plan.plannedBytes << " "
                 << plan.unplannedBytes << "\n";
  }
  std::vector<double> s = medians;
  std::sort(s.begin(), s.end());
  llvm::outs() << "OURS_PROGRAMS " << s.size() << "\n";
  llvm::outs() << "OURS_COLD_MEDIAN_US " << (s.empty() ? 0.0 : s[s.size() / 2]) << "\n";
  std::vector<double> w = warmMedians;
  std::sort(w.begin(), w.end());
  llvm::outs() << "OURS_WARM_MEDIAN_US " << (w.empty() ? 0.0 : w[w.size() / 2]) << "\n";
  llvm::outs() << "PEAK_BYTES " << planned << " " << unplanned << "\n";
  return s.empty() ? 1 : 0;
}
