//===- tinygrad-schedule.cpp - the scheduler's steps on corpus programs ---===//
//
// `--check-callify schedules.jsonl`: runs tg-callify on every record's
// `tensor_graph` and compares the result with the record's `call` (the graph
// tinygrad's transform_to_call returned). Fresh buffers are numbered by the
// process that made them, so the buffers a graph introduces (slots not in
// the tensor graph) are renumbered by first appearance in both graphs
// before the comparison; everything else, input slots included, must be
// identical, node for node (one interned pointer).
// `--callify RECORD.json`: prints the CALL graph of one record as corpus JSON.
// `--check-textual RECORD.json --callify-ir=F ...`: the textual pipeline
// against the library. Each given file is what one tinygrad-opt process
// printed for a step (tg-callify, tg-kernel-graph, tg-create-schedule on the
// previous step's file; tg-schedule on the imported tensor graph); it is
// parsed (and verified) here and compared node for node with what the
// library computes in one context from the record's tensor graph, with no
// printing in between. A printer or parser that loses anything (a type the
// parser re-infers differently, an attribute) shows as a mismatch.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "tinygrad/Schedule/KernelGraph.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Schedule/Callify.h"
#include "tinygrad/Schedule/CreateSchedule.h"
#include "tinygrad/Schedule/MemoryPlan.h"
#include "tinygrad/Schedule/SchedulePipeline.h"
#include "tinygrad/Schedule/TensorGraph.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <optional>
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tinygrad;
namespace cl = llvm::cl;
using sym::UOpRef;

static cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                                      cl::desc("<schedules.jsonl | record.json>"));
static cl::opt<bool> checkCallify("check-callify",
                                  cl::desc("compare tg-callify with every record's call"));
static cl::opt<bool> emitCallify("callify", cl::desc("print the CALL graph of one record"));
static cl::opt<double> minRate("min-rate", cl::init(1.0),
                               cl::desc("required share of identical call graphs"));
static cl::opt<bool> checkSchedule(
    "check-schedule",
    cl::desc("the input is tinygrad's kernel graphs and schedules (python/tools/export_schedules.py): "
             "compare tg-create-schedule and resolve_linear_call with them"));
static cl::opt<bool> emitSchedule("create-schedule",
                                  cl::desc("print tg-create-schedule's LINEAR for a record's kernel_graph"));
static cl::opt<bool> emitPlan("memory-plan",
                              cl::desc("memory-plan a record's `linear` (CALLs over BUFFERs); "
                                       "the BUFFER slots in its `held` array are the program's"));
static cl::opt<std::string> recordsPath("records", cl::desc("schedules.jsonl for --check-schedule"),
                                        cl::init(""));
static cl::opt<bool> verbose("v", cl::desc("print both graphs of a mismatch"));
static cl::opt<bool> checkTextual(
    "check-textual", cl::desc("compare the files tinygrad-opt printed for each scheduling step "
                              "(--callify-ir, --kernel-graph-ir, --create-schedule-ir, --schedule-ir) with the library's "
                              "steps on the record's tensor graph"));
static cl::opt<std::string> callifyIR("callify-ir", cl::desc("tg-callify's output for --check-textual"),
                                      cl::init(""));
static cl::opt<std::string> kernelGraphIR("kernel-graph-ir",
                                          cl::desc("tg-kernel-graph's output for --check-textual"),
                                          cl::init(""));
static cl::opt<std::string> linearIR("create-schedule-ir", cl::desc("tg-create-schedule's output for --check-textual"),
                                     cl::init(""));
static cl::opt<std::string> scheduleIR("schedule-ir", cl::desc("tg-schedule's output for --check-textual"),
                                       cl::init(""));
static cl::list<std::string> refusedSteps(
    "refused", cl::desc("STEP=MESSAGE: the textual pipeline's step failed with this error; the library must "
                        "fail at the same step with an error the message contains (--check-textual)"));

namespace {

/// Slots of the device buffers of a graph.
llvm::DenseSet<int64_t> bufferSlots(UOpRef root) {
  llvm::DenseSet<int64_t> slots;
  sched::tgraph::forEachNode(root, [&](UOpRef u) {
    if (auto p = sched::tgraph::paramAttr(u); p && u->op == sym::Op::BUFFER && p.getDevice())
      slots.insert(p.getSlot());
  });
  return slots;
}

/// Renumber the device buffers whose slot is not in `keep`, by first
/// appearance in a depth-first walk (sources in order), from 1<<40.
UOpRef renumberFresh(sym::Context &ctx, UOpRef root, const llvm::DenseSet<int64_t> &keep) {
  llvm::DenseMap<UOpRef, UOpRef> map;
  llvm::DenseSet<UOpRef> seen;
  int64_t next = int64_t(1) << 40;
  std::function<void(UOpRef)> walk = [&](UOpRef u) {
    if (!seen.insert(u).second)
      return;
    for (UOpRef s : u->src)
      walk(s);
    auto p = sched::tgraph::paramAttr(u);
    if (p && u->op == sym::Op::BUFFER && p.getDevice() && !keep.count(p.getSlot())) {
      auto np = tg::ParamAttr::get(ctx.getMLIRContext(), next++, p.getDtype(), p.getVminVmax(),
                                   p.getMultipleOf(), p.getName(), p.getAddrspace(), p.getAxis(),
                                   p.getDevice(), p.getIsVolatile(), p.getSize());
      MLIRContext *m = ctx.getMLIRContext();
      auto attrs = DictionaryAttr::get(m, {NamedAttribute(StringAttr::get(m, "arg"), np)});
      map[u] = ctx.get(u->op, u->type, u->src, sym::Arg{Scalar(), attrs});
    }
  };
  walk(root);
  return map.empty() ? root : sym::substitute(ctx, root, map);
}

/// One JSON record of the input; a located error (and nullopt) if malformed.
std::optional<llvm::json::Value> parseRecord(llvm::StringRef text) {
  auto rec = llvm::json::parse(text);
  if (!rec) {
    llvm::errs() << inputPath << ": " << llvm::toString(rec.takeError()) << "\n";
    return std::nullopt;
  }
  return std::move(*rec);
}

UOpRef importGraph(MLIRContext &m, sym::Context &ctx, const llvm::json::Value &rec,
                   llvm::StringRef path, OwningOpRef<ModuleOp> &keep) {
  keep = importTinygradJSONValue(rec, &m, path);
  if (!keep)
    return nullptr;
  sym::Importer importer(ctx);
  return importer.import(getTinygradRoot(*keep));
}

std::string printGraph(MLIRContext &m, UOpRef u, bool generic = false) {
  OpBuilder b(&m);
  OwningOpRef<ModuleOp> mod = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(mod->getBody());
  sym::Materializer mat(b, b.getUnknownLoc());
  mat.materialize(u);
  std::string s;
  llvm::raw_string_ostream os(s);
  OpPrintingFlags flags;
  if (generic) // every result type, the one the parser would infer or not
    flags.printGenericOpForm();
  mod->print(os, flags);
  return s;
}

int runCheck(MLIRContext &m, llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, false);
  unsigned total = 0, same = 0;
  for (llvm::StringRef line : lines) {
    auto rec = llvm::json::parse(line);
    if (!rec) {
      llvm::consumeError(rec.takeError());
      continue;
    }
    std::string id = rec->getAsObject()->getString("id").value_or("?").str();
    ++total;
    sym::Context ctx(&m);
    OwningOpRef<ModuleOp> a, b;
    UOpRef tensor = importGraph(m, ctx, *rec, "tensor_graph", a);
    UOpRef want = importGraph(m, ctx, *rec, "call", b);
    if (!tensor || !want) {
      llvm::outs() << "IMPORT-FAIL " << id << "\n";
      continue;
    }
    int64_t next = sched::nextFreeBufferSlot(tensor);
    auto got = sched::callify(ctx, tensor, next);
    if (!got) {
      llvm::outs() << "CALLIFY-FAIL " << id << ": " << llvm::toString(got.takeError()) << "\n";
      continue;
    }
    llvm::DenseSet<int64_t> inputs = bufferSlots(tensor);
    UOpRef g = renumberFresh(ctx, got->call, inputs);
    UOpRef w = renumberFresh(ctx, want, inputs);
    if (g == w) {
      ++same;
      continue;
    }
    llvm::outs() << "MISMATCH " << id << "\n";
    if (verbose)
      llvm::outs() << "--- ours\n" << printGraph(m, g) << "--- tinygrad\n" << printGraph(m, w);
  }
  double rate = total ? double(same) / total : 0.0;
  llvm::outs() << "callify: " << same << "/" << total << " call graphs identical to tinygrad's\n";
  return rate + 1e-12 >= minRate ? 0 : 1;
}

llvm::StringMap<std::string> readLines(llvm::StringRef path) {
  llvm::StringMap<std::string> byId;
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return byId;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto rec = llvm::json::parse(line);
    if (!rec) {
      llvm::consumeError(rec.takeError());
      continue;
    }
    if (auto id = rec->getAsObject()->getString("id"))
      byId[*id] = line.str();
  }
  return byId;
}

/// create_schedule, resolve_linear_call and pm_copy_from_store against
/// tinygrad's, on tinygrad's kernel graphs; then every program once more
/// through the whole pipeline in the same context, which must hit the
/// schedule cache each time.
int runScheduleCheck(MLIRContext &m, llvm::StringRef text) {
  llvm::StringMap<std::string> records = readLines(recordsPath);
  if (records.empty()) {
    llvm::errs() << "--check-schedule needs --records=schedules.jsonl\n";
    return 2;
  }
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n', -1, false);
  unsigned total = 0, sameLinear = 0, sameResolved = 0;
  sym::Context ctx(&m);
  sched::ScheduleCache cache;
  std::vector<std::pair<UOpRef, UOpRef>> programs; // tensor graph, kernel graph
  std::vector<OwningOpRef<ModuleOp>> keep;
  for (llvm::StringRef line : lines) {
    auto exp = llvm::json::parse(line);
    if (!exp) {
      llvm::consumeError(exp.takeError());
      continue;
    }
    std::string id = exp->getAsObject()->getString("id").value_or("?").str();
    auto it = records.find(id);
    if (it == records.end()) {
      llvm::outs() << "NO-RECORD " << id << "\n";
      continue;
    }
    ++total;
    auto rec = llvm::json::parse(it->second);
    if (!rec) {
      llvm::consumeError(rec.takeError());
      continue;
    }
    OwningOpRef<ModuleOp> a, b, c, d;
    UOpRef tensor = importGraph(m, ctx, *rec, "tensor_graph", a);
    UOpRef kg = importGraph(m, ctx, *exp, "kernel_graph", b);
    UOpRef wantLinear = importGraph(m, ctx, *exp, "linear", c);
    UOpRef wantResolved = importGraph(m, ctx, *exp, "resolved", d);
    if (!tensor || !kg || !wantLinear || !wantResolved) {
      llvm::outs() << "IMPORT-FAIL " << id << "\n";
      continue;
    }
    programs.push_back({tensor, kg});
    for (auto *mod : {&a, &b, &c, &d})
      keep.push_back(std::move(*mod));
    auto lin = sched::createSchedule(ctx, kg);
    if (!lin) {
      llvm::outs() << "SCHEDULE-FAIL " << id << ": " << llvm::toString(lin.takeError()) << "\n";
      continue;
    }
    if (*lin != wantLinear) {
      llvm::outs() << "LINEAR-MISMATCH " << id << "\n";
      if (verbose)
        llvm::outs() << "--- ours\n" << printGraph(m, *lin) << "--- tinygrad\n" << printGraph(m, wantLinear);
      continue;
    }
    ++sameLinear;
    int64_t next = sched::nextFreeBufferSlot(tensor);
    auto called = sched::callify(ctx, tensor, next);
    if (!called) {
      llvm::outs() << "CALLIFY-FAIL " << id << ": " << llvm::toString(called.takeError()) << "\n";
      continue;
    }
    llvm::SmallVector<UOpRef, 8> src{*lin};
    src.append(called->call->src.begin() + 1, called->call->src.end());
    auto resolved = sched::resolveLinearCall(ctx, ctx.replaceSrc(called->call, src), next);
    if (!resolved) {
      llvm::outs() << "RESOLVE-FAIL " << id << ": " << llvm::toString(resolved.takeError()) << "\n";
      continue;
    }
    auto copied = sched::copyFromStore(ctx, *resolved);
    if (!copied) {
      llvm::outs() << "COPY-FAIL " << id << ": " << llvm::toString(copied.takeError()) << "\n";
      continue;
    }
    llvm::DenseSet<int64_t> inputs = bufferSlots(tensor);
    UOpRef g = renumberFresh(ctx, *copied, inputs), w = renumberFresh(ctx, wantResolved, inputs);
    if (g != w) {
      llvm::outs() << "RESOLVED-MISMATCH " << id << "\n";
      if (verbose)
        llvm::outs() << "--- ours\n" << printGraph(m, g) << "--- tinygrad\n" << printGraph(m, w);
      continue;
    }
    ++sameResolved;
  }
  // the schedule cache: a first pass fills it, a second pass only hits
  for (int pass = 0; pass < 2; ++pass)
    for (auto &[tensor, kg] : programs) {
      UOpRef kernelGraph = kg;
      auto r = sched::scheduleProgram(
          ctx, tensor, [&](UOpRef) -> llvm::Expected<UOpRef> { return kernelGraph; }, &cache);
      if (!r)
        llvm::consumeError(r.takeError());
    }
  llvm::outs() << "create_schedule: " << sameLinear << "/" << total << " LINEARs identical to tinygrad's\n";
  llvm::outs() << "resolve_linear_call+copies: " << sameResolved << "/" << total
               << " identical to tinygrad's\n";
  llvm::outs() << "schedule cache: " << cache.misses << " misses, " << cache.hits << " hits over two passes\n";
  double rate = total ? double(std::min(sameLinear, sameResolved)) / total : 0.0;
  return rate + 1e-12 >= minRate ? 0 : 1;
}

int runCreateSchedule(MLIRContext &m, llvm::StringRef text) {
  std::optional<llvm::json::Value> rec = parseRecord(text);
  if (!rec)
    return 1;
  sym::Context ctx(&m);
  OwningOpRef<ModuleOp> a;
  UOpRef kg = importGraph(m, ctx, *rec, "kernel_graph", a);
  if (!kg)
    return 1;
  auto lin = sched::createSchedule(ctx, kg);
  if (!lin) {
    llvm::errs() << inputPath << ": error: " << llvm::toString(lin.takeError()) << "\n";
    return 1;
  }
  llvm::outs() << printGraph(m, *lin);
  return 0;
}

int runMemoryPlan(MLIRContext &m, llvm::StringRef text) {
  std::optional<llvm::json::Value> rec = parseRecord(text);
  if (!rec)
    return 1;
  sym::Context ctx(&m);
  OwningOpRef<ModuleOp> a;
  UOpRef linear = importGraph(m, ctx, *rec, "linear", a);
  if (!linear)
    return 1;
  if (linear->op != sym::Op::LINEAR) {
    llvm::errs() << inputPath << ": error: `linear` is not a LINEAR\n";
    return 1;
  }
  llvm::DenseSet<int64_t> heldSlots;
  if (const llvm::json::Array *h = rec->getAsObject()->getArray("held"))
    for (const llvm::json::Value &v : *h)
      if (auto i = v.getAsInteger())
        heldSlots.insert(*i);
  llvm::DenseSet<UOpRef> held;
  int64_t next = 0;
  sched::tgraph::forEachNode(linear, [&](UOpRef u) {
    if (auto p = sched::tgraph::paramAttr(u); p && u->op == sym::Op::BUFFER) {
      next = std::max(next, p.getSlot() + 1);
      if (heldSlots.count(p.getSlot()))
        held.insert(u);
    }
  });
  sched::MemoryPlan plan = sched::memoryPlan(ctx, linear, held, next);
  llvm::outs() << "memory plan: " << plan.plannedBuffers << " intermediate buffers in " << plan.arenas
               << " arena(s), peak " << plan.plannedBytes << " bytes planned vs " << plan.unplannedBytes
               << " unplanned\n";
  llvm::outs() << printGraph(m, plan.linear);
  return 0;
}

int runEmit(MLIRContext &m, llvm::StringRef text) {
  std::optional<llvm::json::Value> rec = parseRecord(text);
  if (!rec)
    return 1;
  sym::Context ctx(&m);
  OwningOpRef<ModuleOp> a;
  UOpRef tensor = importGraph(m, ctx, *rec, "tensor_graph", a);
  if (!tensor)
    return 1;
  int64_t next = sched::nextFreeBufferSlot(tensor);
  auto got = sched::callify(ctx, tensor, next);
  if (!got) {
    llvm::errs() << inputPath << ": " << llvm::toString(got.takeError()) << "\n";
    return 1;
  }
  OpBuilder b(&m);
  OwningOpRef<ModuleOp> mod = ModuleOp::create(b.getUnknownLoc());
  b.setInsertionPointToEnd(mod->getBody());
  sym::Materializer mat(b, b.getUnknownLoc());
  mat.materialize(got->call);
  if (failed(exportTinygradJSON(*mod, llvm::outs())))
    return 1;
  llvm::outs() << "\n";
  return 0;
}

/// The graph of a module tinygrad-opt printed, parsed (the parser verifies
/// it) and imported into `ctx`; null with the parser's diagnostics on error.
UOpRef importPrinted(MLIRContext &m, sym::Context &ctx, llvm::StringRef path,
                     OwningOpRef<ModuleOp> &keep) {
  keep = parseSourceFile<ModuleOp>(path, &m);
  if (!keep)
    return nullptr;
  Value root = getTinygradRoot(*keep);
  if (!root) {
    llvm::errs() << path << ": error: no UOp graph\n";
    return nullptr;
  }
  return sym::Importer(ctx).import(root);
}

int runTextualCheck(MLIRContext &m, llvm::StringRef text) {
  std::optional<llvm::json::Value> rec = parseRecord(text);
  if (!rec)
    return 1;
  std::string id = rec->getAsObject()->getString("id").value_or("?").str();
  sym::Context ctx(&m);
  OwningOpRef<ModuleOp> a;
  UOpRef tensor = importGraph(m, ctx, *rec, "tensor_graph", a);
  if (!tensor)
    return 1;
  // The library's steps, as tinygrad-opt's passes run them but in one
  // context and without printing: a result, or the error of the step that
  // failed (later steps fail with it).
  std::map<std::string, UOpRef> lib;
  std::map<std::string, std::string> libError;
  auto kernelGraph = [&](UOpRef body) -> llvm::Expected<UOpRef> {
    ctx.errors.clear();
    if (UOpRef kg = sched::getKernelGraph(ctx, body))
      return kg;
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "get_kernel_graph failed");
  };
  int64_t next = sched::nextFreeBufferSlot(tensor);
  if (auto called = sched::callify(ctx, tensor, next)) {
    lib["callify"] = called->call;
    if (auto kg = kernelGraph(called->call->src[0])) {
      lib["kernel-graph"] = *kg;
      if (auto lin = sched::createSchedule(ctx, *kg))
        lib["create-schedule"] = *lin;
      else
        libError["create-schedule"] = llvm::toString(lin.takeError());
    } else {
      libError["kernel-graph"] = libError["create-schedule"] = llvm::toString(kg.takeError());
    }
  } else {
    libError["callify"] = libError["kernel-graph"] = libError["create-schedule"] =
        llvm::toString(called.takeError());
  }
  if (auto p = sched::scheduleProgram(ctx, tensor, kernelGraph))
    lib["schedule"] = p->linear;
  else
    libError["schedule"] = llvm::toString(p.takeError());

  unsigned failures = 0;
  std::vector<std::string> same;
  // A step the textual pipeline could not run: the library must fail there
  // too, with the error the pass reported.
  for (llvm::StringRef r : refusedSteps) {
    auto [stage, message] = r.split('=');
    std::string err = libError.count(stage.str()) ? libError[stage.str()] : "";
    if (lib.count(stage.str())) {
      llvm::outs() << "TEXTUAL-MISMATCH " << id << " " << stage
                   << ": the textual pipeline fails where the library succeeds: " << message << "\n";
      ++failures;
    } else if (err.empty() || !message.contains(err)) {
      llvm::outs() << "TEXTUAL-MISMATCH " << id << " " << stage << ": the textual pipeline fails with '" << message
                   << "', the library with '" << err << "'\n";
      ++failures;
    } else {
      same.push_back((stage + " (both refuse: " + err + ")").str());
    }
  }
  for (auto [stage, path] : {std::pair<const char *, std::string>{"callify", callifyIR},
                             {"kernel-graph", kernelGraphIR},
                             {"create-schedule", linearIR},
                             {"schedule", scheduleIR}}) {
    if (path.empty())
      continue;
    OwningOpRef<ModuleOp> keep;
    UOpRef got = importPrinted(m, ctx, path, keep);
    auto it = lib.find(stage);
    if (it == lib.end()) {
      llvm::outs() << "TEXTUAL-MISMATCH " << id << " " << stage << ": the library fails (" << libError[stage]
                   << ") but the textual pipeline printed " << path << "\n";
      ++failures;
      continue;
    }
    if (!got) {
      llvm::outs() << "TEXTUAL-FAIL " << id << " " << stage << ": " << path << " does not parse or import\n";
      ++failures;
      continue;
    }
    if (got != it->second) {
      llvm::outs() << "TEXTUAL-MISMATCH " << id << " " << stage << "\n";
      if (verbose)
        llvm::outs() << "--- textual\n" << printGraph(m, got, true) << "--- library\n"
                     << printGraph(m, it->second, true);
      ++failures;
      continue;
    }
    same.push_back(stage);
  }
  if (!failures)
    llvm::outs() << "TEXTUAL-SAME " << id << ": " << llvm::join(same, ", ") << "\n";
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "tinygrad scheduler steps on corpus programs\n");
  auto buf = llvm::MemoryBuffer::getFile(inputPath);
  if (!buf) {
    llvm::errs() << "cannot read " << inputPath << "\n";
    return 2;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext m(registry);
  m.loadAllAvailableDialects();
  m.getDiagEngine().registerHandler([](Diagnostic &d) {
    llvm::errs() << "error: " << d.str() << "\n";
    return success();
  });
  if (checkTextual)
    return runTextualCheck(m, (*buf)->getBuffer());
  if (checkCallify)
    return runCheck(m, (*buf)->getBuffer());
  if (checkSchedule)
    return runScheduleCheck(m, (*buf)->getBuffer());
  if (emitPlan)
    return runMemoryPlan(m, (*buf)->getBuffer());
  if (emitSchedule)
    return runCreateSchedule(m, (*buf)->getBuffer());
  if (emitCallify)
    return runEmit(m, (*buf)->getBuffer());
  llvm::errs() << "nothing to do: pass --check-callify or --callify\n";
  return 2;
}
