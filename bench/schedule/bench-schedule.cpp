//===- bench-schedule.cpp - tensor graph -> LINEAR, timed -----------------===//
//
//   bench-schedule schedules.jsonl [reps]
//
// For every corpus program our whole scheduler runs (callify, our
// get_kernel_graph, create_schedule, resolve, copies, memory planning) with
// the schedule cache off, `reps` times in one warm context (tinygrad's side
// is also warm, with its cache cleared), and the median per program is
// reported. Programs our kernel graph does not cover yet are listed and left
// out of both sides. Prints one line per program
// (`PROGRAM id median_us planned_bytes unplanned_bytes`), then totals.
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
  std::vector<double> medians;
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
    sym::Context ctx(&m);
    sym::UOpRef tensor = sym::Importer(ctx).import(getTinygradRoot(*mod));
    auto kernelGraph = [&](sym::UOpRef body) -> llvm::Expected<sym::UOpRef> {
      ctx.errors.clear();
      if (sym::UOpRef kg = sched::getKernelGraph(ctx, body))
        return kg;
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     ctx.errors.empty() ? "failed" : ctx.errors.front());
    };
    std::vector<double> us;
    bool ok = true;
    sched::MemoryPlan plan;
    for (int r = 0; r <= reps && ok; ++r) { // rep 0 warms up
      auto t0 = std::chrono::steady_clock::now();
      auto p = sched::scheduleProgram(ctx, tensor, kernelGraph, /*cache=*/nullptr);
      double t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      if (!p) {
        llvm::outs() << "SKIP " << id << ": " << llvm::toString(p.takeError()) << "\n";
        ok = false;
        break;
      }
      plan = p->plan;
      if (r)
        us.push_back(t);
    }
    if (!ok)
      continue;
    std::sort(us.begin(), us.end());
    double med = us[us.size() / 2];
    medians.push_back(med);
    planned += plan.plannedBytes;
    unplanned += plan.unplannedBytes;
    llvm::outs() << "PROGRAM " << id << " " << llvm::format("%.1f", med) << " " << plan.plannedBytes
                 << " " << plan.unplannedBytes << "\n";
  }
  std::vector<double> s = medians;
  std::sort(s.begin(), s.end());
  llvm::outs() << "OURS_PROGRAMS " << s.size() << "\n";
  llvm::outs() << "OURS_MEDIAN_US " << (s.empty() ? 0.0 : s[s.size() / 2]) << "\n";
  llvm::outs() << "PEAK_BYTES " << planned << " " << unplanned << "\n";
  return s.empty() ? 1 : 0;
}
