//===- RunProgram.cpp - run a tensor program record -----------------------===//
//
// A schedules.jsonl record: its tensor graph runs as an exec::TensorProgram
// (scheduled, every kernel compiled by the CPU pipeline, the LINEAR run
// through the runtime) on the record's inputs, and each realized tensor is
// compared with the record's outputs. The LINEAR runs as hcq queue
// commands replayed on the runtime (exec::TensorProgram); --emit=host
// prints them. With --compile-only the kernels are only compiled
// (exec::TensorProgram::compileOnly), as a kernel case's are: COMPILED (a
// target whose device is not here, e.g. CUDA without libcuda, is otherwise
// the runtime's error).
//
// Inputs: a program's inputs were realized before it was built, so they are
// the tensor graph's device buffers with the lowest slots, in creation
// order; buffers the program creates itself (clone/assign targets) follow.
// An input with a "slot" binds to that buffer instead (a buffer the program
// creates may come before an input realized later, as random-kernels' replays
// of assignments have it).
//
//===----------------------------------------------------------------------===//
#include "RunProgram.h"
#include "CaseValues.h"

#include "tinygrad/Execution/TensorProgram.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace tgcase;
namespace json = llvm::json;
using sym::UOpRef;

int tgrun::runProgram(const json::Value &parsed, llvm::StringRef text, const ProgramOptions &opts) {
  auto die = [&](const llvm::Twine &msg) {
    llvm::errs() << opts.casePath << ": error: " << msg << "\n";
    return 1;
  };
  const json::Object *rec = parsed.getAsObject();
  llvm::StringRef id = rec->getString("id").value_or("");
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext mctx(registry);
  mctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> tensorMod = importTinygradJSONValue(
      parsed, &mctx, "tensor_graph", FileLineColLoc::get(&mctx, opts.casePath, 1, 1), text);
  if (!tensorMod)
    return 1;
  sym::Context ctx(&mctx);
  UOpRef tensor = sym::Importer(ctx).import(getTinygradRoot(*tensorMod));
  if (!tensor)
    return 1;
  // A GPU target's heuristic sums in its own order (workgroup partials),
  // and a program computing in 16-bit floats rounds each partial's value at
  // 16 bits there: its outputs carry that rounding whatever their dtype (a
  // half matmul's max, cast to float: one half ulp on lavapipe where
  // tinygrad's CPU order rounded the other way, random-kernels seed 2245
  // #42). --scaled-tolerance then gives them 16-bit tolerance.
  std::optional<TargetDescription> described =
      opts.target.empty() ? std::nullopt : TargetDescription::parse(opts.target);
  bool gpu = described && described->isGPU();
  bool narrow = gpu && llvm::any_of(sym::toposort(tensor), [](UOpRef u) {
    return u->dtype == DType::Float16 || u->dtype == DType::BFloat16;
  });

  // The kernel graph: ours (sched::getKernelGraph), or tinygrad's from
  // --kernel-graphs for comparison. A file is read before the clock starts:
  // schedule_ms is scheduling only.
  OwningOpRef<ModuleOp> kgMod;
  UOpRef recordKernelGraph = nullptr;
  std::string kgError;
  if (opts.kernelGraphs.empty()) {
    // ours
  } else if (auto buf = llvm::MemoryBuffer::getFile(opts.kernelGraphs); !buf) {
    kgError = ("cannot read " + opts.kernelGraphs).str();
  } else {
    llvm::SmallVector<llvm::StringRef> lines;
    (*buf)->getBuffer().split(lines, '\n', -1, false);
    std::string needle = ("\"id\":\"" + id + "\"").str();
    kgError = ("no kernel graph for program '" + id + "' in " + opts.kernelGraphs).str();
    for (llvm::StringRef line : lines) {
      if (!line.contains(needle))
        continue;
      auto v = json::parse(line);
      if (!v) {
        kgError = llvm::toString(v.takeError());
        break;
      }
      kgMod = importTinygradJSONValue(*v, &mctx, "kernel_graph");
      if (kgMod)
        recordKernelGraph = sym::Importer(ctx).import(getTinygradRoot(*kgMod));
      kgError = recordKernelGraph ? "" : ("cannot import the kernel graph of " + id).str();
      break;
    }
  }
  exec::ProgramOptions popts;
  if (!opts.target.empty() && opts.target != "cpu") {
    std::string why;
    std::optional<TargetDescription> target = TargetDescription::parse(opts.target, &why);
    if (!target)
      return die(why);
    popts.target = *target;
  }
  if (!opts.kernelGraphs.empty())
    popts.kernelGraph = [&](UOpRef) -> llvm::Expected<UOpRef> {
      if (recordKernelGraph)
        return recordKernelGraph;
      return llvm::createStringError(llvm::inconvertibleErrorCode(), kgError);
    };

  if (opts.compileOnly) {
    if (!opts.emitKind.empty())
      return die("--emit on a tensor program runs it; --compile-only runs nothing");
    auto compiled = exec::TensorProgram::compileOnly(ctx, tensor, popts);
    if (!compiled)
      return die(llvm::toString(compiled.takeError()));
    llvm::outs() << "COMPILED: " << compiled->kernels << " kernels (" << compiled->launches << " launches, "
                 << compiled->copies << " copies) to " << (compiled->kernels ? formatName(compiled->format) : "nothing")
                 << " for "
                 << popts.target.name << ", " << compiled->binaryBytes << " bytes, schedule "
                 << llvm::format("%.2f", compiled->scheduleMs) << " ms, compile "
                 << llvm::format("%.2f", compiled->compileMs) << " ms\n";
    if (opts.json)
      llvm::outs() << json::Value(json::Object{{"compiled", true},
                                               {"target", popts.target.name},
                                               {"format", compiled->kernels ? formatName(compiled->format) : ""},
                                               {"kernels", (int64_t)compiled->kernels},
                                               {"launches", (int64_t)compiled->launches},
                                               {"copies", (int64_t)compiled->copies},
                                               {"bytes", (int64_t)compiled->binaryBytes},
                                               {"schedule_ms", compiled->scheduleMs},
                                               {"compile_ms", compiled->compileMs}})
                   << "\n";
    return 0;
  }
  auto program = exec::TensorProgram::create(ctx, tensor, popts);
  if (!program)
    return die(llvm::toString(program.takeError()));
  exec::TensorProgram &prog = **program;
  if (opts.emitKind == "aot") {
    // -o PREFIX: PREFIX.o (schedule + kernels) and PREFIX.h, symbols named after PREFIX's file name.
    if (opts.emitPath == "-")
      return die("--emit=aot writes two files: give their path prefix with -o");
    std::string name = llvm::sys::path::filename(opts.emitPath).str();
    for (char &c : name)
      if (!isalnum((unsigned char)c) && c != '_')
        c = '_';
    auto files = prog.emitAOT(name, ("the tensor program '" + id + "' of " +
                                     llvm::sys::path::filename(opts.casePath)).str());
    if (!files)
      return die(llvm::toString(files.takeError()));
    for (auto [ext, text] : {std::pair{".o", &files->object}, std::pair{".h", &files->header}}) {
      std::error_code ec;
      llvm::raw_fd_ostream os((opts.emitPath + ext).str(), ec, llvm::sys::fs::OF_None);
      if (ec)
        return die("cannot open " + opts.emitPath + ext + ": " + ec.message());
      os << *text;
    }
  } else if (!opts.emitKind.empty()) {
    if (opts.emitKind != "host" && opts.emitKind != "host-llvm")
      return die("--emit on a tensor program takes host (the schedule as hcq queue commands), host-llvm "
                 "(those as the compiled host function's runtime calls) or aot (an object and a C header, "
                 "-o PREFIX)");
    std::error_code ec;
    llvm::raw_fd_ostream os(opts.emitPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      return die("cannot open " + opts.emitPath + ": " + ec.message());
    if (opts.emitKind == "host")
      prog.printHCQ(os);
    else
      prog.printHostFunction(os);
  }
  llvm::ArrayRef<exec::BufferInfo> bufs = prog.buffers();

  const json::Array *inputs = rec->getArray("inputs");
  if (!inputs)
    return die("no `inputs` in the record");
  if (inputs->size() > bufs.size())
    return die("the record has " + llvm::Twine(inputs->size()) + " inputs but the tensor graph " +
               llvm::Twine(bufs.size()) + " buffers");
  std::vector<bool> bound(bufs.size(), false);
  for (auto [pos, in] : llvm::enumerate(*inputs)) {
    const json::Object *io = in.getAsObject();
    llvm::StringRef name = io ? io->getString("name").value_or("?") : "?";
    // An input naming its buffer's slot binds to it (a graph where a buffer
    // the program creates has a lower slot than an input); else by position.
    size_t i = pos;
    if (std::optional<int64_t> slot = io ? io->getInteger("slot") : std::nullopt) {
      auto it = llvm::find_if(bufs, [&](const exec::BufferInfo &b) { return b.slot == *slot; });
      if (it == bufs.end())
        return die("input '" + name + "' names buffer slot " + llvm::Twine(*slot) + ", which the tensor graph has not");
      i = it - bufs.begin();
    }
    if (bound[i])
      return die("input '" + name + "': buffer slot " + llvm::Twine(bufs[i].slot) + " is given twice");
    bound[i] = true;
    const exec::BufferInfo &b = bufs[i];
    const json::Array *vals = io ? io->getArray("values") : nullptr;
    llvm::StringRef dt = io ? io->getString("dtype").value_or("") : "";
    if (!vals)
      return die("input '" + name + "' has no values");
    if (dt != b.dtype)
      return die("input '" + name + "' is " + dt + " but buffer slot " + llvm::Twine(b.slot) + " holds " +
                 b.dtype);
    if ((int64_t)vals->size() != b.elements)
      return die("input '" + name + "' has " + llvm::Twine(vals->size()) + " values but buffer slot " +
                 llvm::Twine(b.slot) + " holds " + llvm::Twine(b.elements));
    auto desc = describe(dt);
    if (!desc)
      return die("input '" + name + "': unsupported dtype " + dt);
    std::vector<char> bytes(vals->size() * desc->bytes);
    for (size_t j = 0; j < vals->size(); ++j)
      if (!encode((*vals)[j], dt, *desc, &bytes[j * desc->bytes]))
        return die("input '" + name + "': bad value at " + llvm::Twine(j));
    if (auto err = prog.setBuffer(i, bytes.data(), bytes.size()))
      return die("input '" + name + "': " + llvm::toString(std::move(err)));
  }
  // Buffers on tinygrad's PYTHON device that the record has no values for
  // are tinygrad's RNG state, created from Python lists by the first random
  // op after `Tensor.manual_seed(S)` (the corpus README: random programs seed
  // with 1337 first): in creation (slot) order the key
  // [sha256(int32 0 big-endian) mod 2^32, S] and the counter [0, 0]
  // (tensor.py _next_counter). Any other such buffer is an error.
  unsigned rngState = 0;
  for (size_t i = 0; i < bufs.size(); ++i) {
    const exec::BufferInfo &b = bufs[i];
    if (bound[i] || b.device != "PYTHON")
      continue;
    if (b.dtype != "uint32" || b.elements != 2 || rngState >= 2)
      return die("the record has no values for PYTHON-device buffer slot " + llvm::Twine(b.slot) + " (" +
                 b.dtype + ")");
    constexpr uint32_t kFirstDeviceKey = 347607321u; // sha256(b"\0\0\0\0") mod 2^32
    uint32_t words[2] = {rngState == 0 ? kFirstDeviceKey : 0u, rngState == 0 ? opts.rngSeed : 0u};
    if (auto err = prog.setBuffer(i, words, sizeof(words)))
      return die("RNG state: " + llvm::toString(std::move(err)));
    ++rngState;
  }

  if (auto err = prog.run())
    return die(llvm::toString(std::move(err)));

  // Compare each realized tensor with the record's output.
  const json::Array *outputs = rec->getArray("outputs");
  if (!outputs || outputs->size() != prog.outputs().size())
    return die("the record's outputs do not match the tensor graph's " + llvm::Twine(prog.outputs().size()) +
               " sink sources");
  size_t checked = 0, bad = 0;
  json::Array mismatches, written;
  for (auto [oi, outV] : llvm::enumerate(*outputs)) {
    const json::Object *o = outV.getAsObject();
    const exec::OutputInfo &info = prog.outputs()[oi];
    llvm::ArrayRef<int64_t> shape = info.shape;
    const json::Array *wantShape = o ? o->getArray("shape") : nullptr;
    bool shapeOk = wantShape && wantShape->size() == shape.size();
    for (size_t i = 0; shapeOk && i < shape.size(); ++i)
      shapeOk = (*wantShape)[i].getAsInteger() == shape[i];
    if (!shapeOk)
      return die("output " + llvm::Twine(oi) + " has shape " + tg::formatShape(shape) +
                 ", the record's differs");
    const json::Array *want = o->getArray("values");
    if (!want && opts.writeOutputs.empty())
      continue; // symbolic shape: shape only
    llvm::StringRef dt = info.dtype;
    auto desc = describe(dt);
    if (!desc)
      return die("output " + llvm::Twine(oi) + ": unsupported dtype " + dt);
    int64_t count = info.bytes / info.itemsize;
    if (want && (int64_t)want->size() != count)
      return die("output " + llvm::Twine(oi) + ": the record has " + llvm::Twine(want->size()) +
                 " values for " + llvm::Twine(count) + " elements");
    auto got = prog.readOutput(oi);
    if (!got)
      return die(llvm::toString(got.takeError()));
    json::Array gotValues;
    std::vector<char> wbytes(desc->bytes);
    double absFloor = 0;
    if (want && opts.scaledTolerance)
      absFloor = scaledFloor(count, narrow ? 2u : desc->bytes, [&](int64_t e) -> std::optional<double> {
        if (!encode((*want)[e], dt, *desc, wbytes.data()))
          return std::nullopt;
        Elem w = decode(wbytes.data(), dt, *desc);
        return w.isFloat ? std::optional<double>(w.f) : std::nullopt;
      });
    for (int64_t e = 0; e < count; ++e) {
      Elem g = decode(&(*got)[e * desc->bytes], dt, *desc);
      if (!opts.writeOutputs.empty())
        gotValues.push_back(toJSON(g, *desc));
      if (!want)
        continue;
      if (!encode((*want)[e], dt, *desc, wbytes.data()))
        return die("output " + llvm::Twine(oi) + ": bad expected value at " + llvm::Twine(e));
      Elem w = decode(wbytes.data(), dt, *desc);
      bool ok = g.isFloat ? floatsMatch(g.f, w.f, dt, /*exact=*/false, absFloor) : g.i == w.i;
      if (e < (int64_t)opts.showValues)
        llvm::outs() << "  out" << oi << "[" << e << "]  ours " << show(g, *desc) << "  tinygrad "
                     << show(w, *desc) << (ok ? "" : "  <- differs") << "\n";
      ++checked;
      if (!ok) {
        if (bad < 8)
          mismatches.push_back(json::Object{{"output", (int64_t)oi}, {"index", e},
                                            {"got", show(g, *desc)}, {"want", show(w, *desc)}});
        ++bad;
      }
    }
    if (!opts.writeOutputs.empty()) {
      json::Array shapeJ;
      for (int64_t d : shape)
        shapeJ.push_back(d);
      written.push_back(json::Object{{"shape", std::move(shapeJ)}, {"dtype", dt.str()}, {"values", std::move(gotValues)}});
    }
  }
  if (!opts.writeOutputs.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(opts.writeOutputs, ec);
    if (ec)
      return die("cannot write " + opts.writeOutputs + ": " + ec.message());
    os << json::Value(std::move(written)) << "\n";
  }

  const sched::MemoryPlan &plan = prog.schedule().plan;
  bool match = bad == 0;
  // MATCH counts the values that match, MISMATCH the ones that differ.
  llvm::outs() << (match ? "MATCH" : "MISMATCH") << ": " << (match ? checked : bad) << "/" << checked
               << (match ? " values, " : " values differ, ")
               << prog.numKernels() << " kernels, " << prog.numCopies() << " copies, schedule "
               << llvm::format("%.2f", prog.scheduleMs()) << " ms, compile "
               << llvm::format("%.2f", prog.compileMs()) << " ms, run " << llvm::format("%.3f", prog.runMs())
               << " ms, peak " << plan.plannedBytes << " B planned vs " << plan.unplannedBytes << " B\n";
  for (const json::Value &m : mismatches)
    llvm::outs() << "  mismatch " << m << "\n";
  if (opts.json) {
    auto want = rec->getInteger("num_kernels");
    llvm::outs() << json::Value(json::Object{{"match", match},
                                             {"values", (int64_t)checked},
                                             {"mismatched", (int64_t)bad},
                                             {"kernels", (int64_t)prog.numKernels()},
                                             {"copies", (int64_t)prog.numCopies()},
                                             {"tinygrad_kernels", want ? json::Value(*want) : json::Value(nullptr)},
                                             {"schedule_ms", prog.scheduleMs()},
                                             {"compile_ms", prog.compileMs()},
                                             {"run_ms", prog.runMs()},
                                             {"peak_bytes_planned", plan.plannedBytes},
                                             {"peak_bytes_unplanned", plan.unplannedBytes},
                                             {"mismatches", std::move(mismatches)}})
                 << "\n";
  }
  return match ? 0 : 2;
}
