//===- tinygrad-run.cpp - compile a kernel case, run it, compare ----------===//
//
//   tinygrad-run --case K.json|RECORD.json [--json] [--kernel-graphs=F.jsonl] [--emit=mlir|llvm|asm|obj|host|host-llvm|aot] [-o FILE]
//                [--mlir-print-ir-after-all] [--lowered=K.mlir] [--beam=N [--beam-no-cache]]
//                [--target=cpu|vulkan|cuda:sm_N|amd:gfxN] [--emit=spirv|ptx|cubin|hsaco|gpu-ir] [--compile-only]
//
// Compiles the case's `ast` for the target (the CPU pipeline, or the GPU
// one: GPUPipeline.h), runs it through the runtime's device for it (CPU,
// VULKAN, CUDA, AMD: a device that does not open, e.g. no libcuda, is the
// runtime's error; --compile-only compiles without running, COMPILED) on
// the case's `inputs` (and `var_vals`) and compares
// with its `outputs`: integers and bools exactly, floats within 1e-5
// relative or 2 ulp (NaN equals NaN, infinities by sign; bit for bit with
// --exact-floats). Exit 0 only on a match; bad input is a diagnostic and
// exit 1. With --lowered, the kernel is the given module instead, the AST
// already lowered to the llvm dialect outside this process (tinygrad-opt's
// passes run one by one, printed and parsed between them): the textual
// pipeline's result, run and compared like the library's. With --beam=N the
// kernel's opts come from BEAM search for the target, its candidates timed on
// the target's device (Execution/BeamKernel.h), and the result is compiled,
// run and compared like any other. A schedules.jsonl record
// (recognised by its `tensor_graph`) is a whole program: RunProgram.cpp.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/KernelCompiler.h"
#include "tinygrad/Execution/BeamKernel.h"
#include "tinygrad/Execution/LoadKernel.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "tinygrad-rt/runtime.h"
#include "CaseValues.h"
#include "RunProgram.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace tgcase;
namespace json = llvm::json;
namespace cl = llvm::cl;

// Only these show in --help; LLVM's own flags (--time-passes,
// --enable-misched, ...) stay accepted, unlisted.
static cl::OptionCategory runCategory("tinygrad-run options");
static cl::opt<std::string> casePath("case", cl::desc("kernel case (corpus kernels/*.json)"),
                                     cl::value_desc("file"), cl::Required, cl::cat(runCategory));
static cl::opt<bool> jsonOut("json", cl::desc("print a JSON summary as the last line"), cl::cat(runCategory));
static cl::opt<bool> exactFloats("exact-floats",
                                 cl::desc("floats match bit for bit (zeros by sign; NaN matches NaN)"), cl::cat(runCategory));
static cl::opt<bool> scaledTolerance(
    "scaled-tolerance",
    cl::desc("floats also match within 1e-5 (1e-2 at 16 bits) of their output's largest magnitude: long sums "
             "our opts sum in another order (random-kernels --layers)"),
    cl::cat(runCategory));
static cl::opt<std::string> emitKind("emit", cl::desc("print the code: mlir, llvm, asm or obj (CPU kernels); mlir, "
                                                     "gpu-ir, spirv, ptx, cubin or hsaco (GPU targets); host or "
                                                     "host-llvm (tensor programs: the schedule as hcq queue commands, "
                                                     "or compiled to runtime calls); aot (tensor programs: "
                                                     "-o PREFIX writes PREFIX.o and PREFIX.h, linked with the "
                                                     "runtime alone)"),
                                     cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> outPath("o", cl::desc("output file for --emit"), cl::init("-"), cl::cat(runCategory));
static cl::opt<std::string> writeOutputs(
    "write-outputs", cl::desc("tensor programs: write the computed outputs to this JSON file"),
    cl::value_desc("file"), cl::cat(runCategory));
static cl::opt<uint32_t> manualSeed(
    "manual-seed",
    cl::desc("tensor programs: the Tensor.manual_seed behind tinygrad's RNG state buffers (corpus: 1337)"),
    cl::init(1337), cl::cat(runCategory));
static cl::opt<unsigned> showValues("show", cl::desc("print the first N output values beside tinygrad's"),
                                    cl::init(0), cl::cat(runCategory));
static cl::opt<std::string> kernelGraphs(
    "kernel-graphs",
    cl::desc("tensor programs: tinygrad's kernel graphs by program id (JSONL from "
             "python/tools/export_schedules.py) instead of ours, to compare"),
    cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> optsMode(
    "opts", cl::desc("whose heuristic picks the kernel opts: ours, tinygrad or none (default: TG_OPTS, else ours)"),
    cl::init(""), cl::cat(runCategory));
static cl::opt<bool> printAfterAll("mlir-print-ir-after-all",
                                   cl::desc("print the IR after every MLIR pass (stderr)"), cl::cat(runCategory));
static cl::opt<std::string> loweredPath(
    "lowered", cl::desc("run this module (the case's kernel lowered to the llvm dialect by tinygrad-opt) "
                        "instead of compiling the case's ast"),
    cl::value_desc("file"), cl::init(""), cl::cat(runCategory));
static cl::opt<unsigned> beamWidth(
    "beam", cl::desc("BEAM search the kernel's opts first (tinygrad's beam_search, width N; cached on disk)"),
    cl::init(0), cl::value_desc("N"), cl::cat(runCategory));
static cl::opt<bool> beamNoCache("beam-no-cache", cl::desc("search even when the cache has the kernel, write nothing"),
                                 cl::cat(runCategory));
static cl::opt<std::string> beamCacheDir("beam-cache-dir",
                                         cl::desc("the BEAM cache folder (default: TINYGRAD_MLIR_CACHE_DIR, "
                                                  "else ~/.cache/tinygrad-mlir)"),
                                         cl::value_desc("dir"), cl::init(""), cl::cat(runCategory));
static cl::opt<std::string> targetName(
    "target", cl::desc("the target: cpu, vulkan, cuda:sm_<N> or amd:gfx<N>, whose kernels run on the "
                       "runtime's device for it (an error where it does not open; see --compile-only)"),
    cl::init("cpu"), cl::cat(runCategory));
static cl::opt<bool> compileOnly("compile-only",
                                 cl::desc("compile the kernel (or every kernel of a tensor program) and do not run it "
                                          "(COMPILED): for a target whose device is not here"),
                                 cl::cat(runCategory));
static cl::opt<bool> verifyEach("verify-each",
                                cl::desc("run the MLIR verifier after every pass of the lowering to the llvm dialect "
                                         "(default: once, before translation)"), cl::cat(runCategory));

namespace {

/// The command line, read once after parsing: in-process lld (an AMD
/// kernel's HSACO link) resets every option of the process to its default
/// (lld::lldMain calls cl::ResetAllOptionOccurrences), so nothing reads a
/// cl::opt once a kernel may have been compiled (a BEAM search compiles
/// too), and what outlives that owns its strings.
struct Flags {
  std::string casePath, emitKind, outPath, writeOutputs, kernelGraphs, targetName;
  bool json = false, exactFloats = false, scaledTolerance = false, compileOnly = false;
  unsigned showValues = 0, beamWidth = 0;
  uint32_t manualSeed = 0;
} flags;

[[noreturn]] void die(const llvm::Twine &msg) {
  llvm::errs() << flags.casePath << ": error: " << msg << "\n";
  std::exit(1);
}

void check(tgrt_status s, const char *what) {
  if (s != TGRT_OK)
    die(llvm::Twine(what) + ": " + tgrt_last_error());
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv, "tinygrad kernel case runner\n");
  flags = {casePath,    emitKind,         outPath,         writeOutputs, kernelGraphs, targetName, jsonOut,
           exactFloats, scaledTolerance, compileOnly,     showValues,   beamWidth,    manualSeed};

  auto file = llvm::MemoryBuffer::getFile(casePath);
  if (!file)
    die("cannot read file: " + file.getError().message());
  auto parsed = json::parse(blankJSONComments((*file)->getBuffer()));
  if (!parsed)
    die("invalid JSON: " + llvm::toString(parsed.takeError()));
  const json::Object *rec = parsed->getAsObject();
  if (!rec)
    die("a case file is a JSON object");
  if (rec->get("tensor_graph"))
    return tgrun::runProgram(*parsed, (*file)->getBuffer(),
                             {flags.casePath, flags.kernelGraphs, flags.json, flags.showValues, flags.writeOutputs,
                              flags.manualSeed, flags.emitKind, flags.outPath, flags.targetName,
                              flags.scaledTolerance, flags.compileOnly});
  if (!rec->get("ast"))
    die("no `ast` in the case");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  auto t0 = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = importTinygradJSONValue(
      *parsed, &ctx, "ast", FileLineColLoc::get(&ctx, casePath, 1, 1), (*file)->getBuffer());
  if (!module)
    return 1;
  if (failed(verifyKernelAST(*module)))
    return 1;
  Value root = getTinygradRoot(*module);
  if (!root)
    die("the ast has no root");
  CompileOptions opts;
  opts.keepMLIR = emitKind == "mlir";
  opts.keepDeviceIR = emitKind == "llvm" || emitKind == "gpu-ir";
  opts.keepAsm = emitKind == "asm";
  opts.ptx = emitKind == "ptx";
  opts.printIRAfterAll = printAfterAll;
  opts.verifyEach = verifyEach;
  if (optsMode == "tinygrad")
    opts.optMode = opt::OptMode::Tinygrad;
  else if (optsMode == "ours")
    opts.optMode = opt::OptMode::Ours;
  else if (optsMode == "none")
    opts.optMode = opt::OptMode::None;
  else if (!optsMode.empty())
    die("--opts must be ours, tinygrad or none, not '" + optsMode + "'");
  std::string whyTarget;
  std::optional<TargetDescription> target = TargetDescription::parse(targetName, &whyTarget);
  if (!target)
    die(whyTarget);
  json::Value beamJSON = nullptr;
  if (flags.beamWidth > 0) {
    if (!loweredPath.empty())
      die("--beam searches the case's ast; it does not take --lowered");
    exec::BeamOptions bo;
    bo.amt = flags.beamWidth;
    if (target->isGPU())
      bo.target = *target;
    bo.ignoreCache = beamNoCache;
    bo.cacheDir = beamCacheDir;
    llvm::Expected<exec::BeamOutcome> found = exec::beamSearchKernel(root, bo);
    if (!found)
      die("BEAM search: " + llvm::toString(found.takeError()));
    const beam::SearchResult &sr = found->search;
    json::Array failures;
    for (const beam::CandidateFailure &f : sr.failures)
      failures.push_back(json::Object{{"opts", opt::toString(f.opts)}, {"stage", f.stage}, {"error", f.message}});
    llvm::outs() << "BEAM " << flags.beamWidth << " on " << found->device << ": " << (found->cached ? "cached" : found->searched ? "searched" : "not searched")
                 << ", opts " << opt::toString(found->opts) << (found->heuristic ? " (the heuristic's)" : "");
    if (found->searched)
      llvm::outs() << ", " << sr.rounds << " rounds, " << sr.compiled << " compiled, " << sr.deduped << " deduplicated, " << sr.timed << " timed, "
                   << sr.failures.size() << " failed, best " << llvm::format("%.3f", sr.bestS * 1e3) << " ms, "
                   << llvm::format("%.2f", sr.searchS) << " s";
    llvm::outs() << "\n";
    for (const beam::CandidateFailure &f : sr.failures)
      llvm::outs() << "  candidate " << opt::toString(f.opts) << " failed to " << f.stage << ": " << f.message << "\n";
    beamJSON = json::Object{{"cached", found->cached}, {"searched", found->searched},
                            {"opts", opt::toString(found->opts)}, {"heuristic", found->heuristic},
                            {"rounds", (int64_t)sr.rounds},
                            {"compiled", (int64_t)sr.compiled}, {"deduped", (int64_t)sr.deduped},
                            {"timed", (int64_t)sr.timed},
                            {"best_ms", found->searched && std::isfinite(sr.bestS) ? json::Value(sr.bestS * 1e3)
                                                                                : json::Value(nullptr)},
                            {"search_s", sr.searchS}, {"compile_s", sr.compileS}, {"time_s", sr.timeS},
                            {"compile_threads", (int64_t)sr.compileThreads},
                            {"key", found->cacheKey}, {"device", found->device},
                            {"failures", std::move(failures)}};
    if (!found->heuristic) // else the kernel compiles as without BEAM
      opts.optsToApply = found->opts;
  }
  const json::Object *varVals = rec->getObject("var_vals");
  if (varVals)
    for (auto &kv : *varVals)
      if (auto v = kv.second.getAsInteger())
        opts.varValues[kv.first.str()] = *v;
  bool gpu = target->isGPU();
  OwningOpRef<ModuleOp> lowered;
  if (!loweredPath.empty()) {
    if (gpu)
      die("--lowered runs CPU modules only");
    lowered = parseSourceFile<ModuleOp>(loweredPath, &ctx);
    if (!lowered)
      return 1;
  }
  FailureOr<CompiledKernel> compiled = lowered ? compileLoweredForCPU(*lowered) : compileKernel(root, *target, opts);
  if (failed(compiled))
    return 1;
  CompiledKernel &kernel = *compiled;
  const KernelSignature &sig = kernel.signature;
  double codegenMs = kernel.codegenMs;
  // The CPU's LLVM time; a GPU target's lowering and serialization.
  double backendMs = kernel.backendMs;

  if (!flags.emitKind.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(flags.outPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      die("cannot open " + flags.outPath + ": " + ec.message());
    if (gpu) {
      if (flags.emitKind == "mlir")
        os << kernel.mlir;
      else if (flags.emitKind == "gpu-ir")
        os << kernel.deviceIR;
      else if (flags.emitKind == formatName(kernel.format))
        os << kernel.binary;
      else
        die("--emit for " + target->name + " takes mlir, gpu-ir or " + formatName(kernel.format));
    } else if (flags.emitKind == "mlir")
      os << kernel.mlir;
    else if (flags.emitKind == "llvm")
      os << kernel.deviceIR;
    else if (flags.emitKind == "asm")
      os << kernel.assembly;
    else if (flags.emitKind == "obj")
      os << kernel.binary;
    else
      die("--emit takes mlir, llvm, asm or obj");
    // An AST without values (an exported kernel) is only shown.
    if (!rec->getObject("outputs"))
      return 0;
  }

  double lowerMs = kernel.phases.get("lower");
  if (flags.compileOnly) {
    // The binary is the result.
    llvm::outs() << "COMPILED: " << formatName(kernel.format) << ", " << kernel.binary.size()
                 << " bytes for " << target->name << ", compile "
                 << llvm::format("%.2f", codegenMs + backendMs) << " ms\n";
    if (flags.json)
      llvm::outs() << json::Value(json::Object{{"compiled", true},
                                               {"target", target->name},
                                               {"format", formatName(kernel.format)},
                                               {"bytes", (int64_t)kernel.binary.size()},
                                               {"codegen_ms", codegenMs},
                                               {"lower_ms", lowerMs},
                                               {"serialize_ms", backendMs - lowerMs},
                                               {"applied_opts", opt::toString(sig.appliedOpts)},
                                               {"beam", std::move(beamJSON)}})
                   << "\n";
    return 0;
  }

  // Runtime: the target's device (a GPU whose driver is not here is the
  // runtime's error: --compile-only compiles without running), program,
  // buffers.
  tgrt_device *dev = nullptr;
  if (tgrt_device_open(target->runtimeDevice(), nullptr, &dev) != TGRT_OK)
    die(llvm::Twine("device: ") + tgrt_last_error() + " (--compile-only compiles without running)");
  tgrt_program *prog = nullptr;
  check(exec::loadKernel(dev, (uint32_t)kernel.format, kernel.binary, sig, sig.localSize, &prog),
        gpu ? "creating the program" : "loading the kernel object");
  double compileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  const json::Array *params = rec->getArray("params");
  if (!params)
    die("no `params` in the case");
  struct Buf {
    std::string dtype;
    DTypeDesc desc;
    int64_t size;
    tgrt_buffer *buf;
  };
  std::map<int64_t, Buf> bufs;
  for (const json::Value &p : *params) {
    const json::Object *po = p.getAsObject();
    auto slot = po ? po->getInteger("slot") : std::nullopt;
    auto size = po ? po->getInteger("size") : std::nullopt;
    auto dt = po ? po->getString("dtype") : std::nullopt;
    if (!slot || !size || !dt || *size < 0)
      die("a `params` entry needs slot, size and dtype");
    auto desc = describe(*dt);
    if (!desc)
      die("unsupported buffer dtype " + *dt);
    Buf b{dt->str(), *desc, *size, nullptr};
    check(tgrt_buffer_alloc(dev, std::max<int64_t>(1, *size) * desc->bytes, &b.buf), "buffer");
    bufs[*slot] = b;
  }
  auto fill = [&](const json::Object *vals, bool required) {
    if (!vals) {
      if (required)
        die("missing buffer values");
      return;
    }
    for (auto &kv : *vals) {
      int64_t slot = std::stoll(kv.first.str());
      auto it = bufs.find(slot);
      if (it == bufs.end())
        die("values for unknown slot " + kv.first.str());
      const json::Array *arr = kv.second.getAsArray();
      if (!arr || (int64_t)arr->size() != it->second.size)
        die("slot " + kv.first.str() + ": expected " + std::to_string(it->second.size) + " values");
      std::vector<char> bytes(arr->size() * it->second.desc.bytes);
      for (size_t i = 0; i < arr->size(); ++i)
        if (!encode((*arr)[i], it->second.dtype, it->second.desc, &bytes[i * it->second.desc.bytes]))
          die("slot " + kv.first.str() + ": bad value at " + std::to_string(i));
      check(tgrt_buffer_copy_in(it->second.buf, 0, bytes.data(), bytes.size()), "copy in");
    }
  };
  fill(rec->getObject("inputs"), false);

  // Arguments in the kernel's order: buffers, then variables.
  std::vector<tgrt_arg> args;
  for (size_t gi = 0; gi < sig.globals.size(); ++gi) {
    int64_t slot = sig.globals[gi];
    auto it = bufs.find(slot);
    if (it == bufs.end())
      die("the kernel takes buffer slot " + std::to_string(slot) + ", which the case does not define");
    if (gi < sig.bufferElems.size() && it->second.size < sig.bufferElems[gi])
      die("slot " + std::to_string(slot) + ": the case gives " + std::to_string(it->second.size) +
          " elements, the kernel's PARAM has " + std::to_string(sig.bufferElems[gi]));
    args.push_back(tgrt_arg_buffer(it->second.buf));
  }
  for (size_t i = 0; i < sig.vars.size(); ++i) {
    const std::string &name = sig.vars[i];
    if ((int64_t)(args.size()) == sig.coreIdArg) {
      args.push_back(tgrt_arg_int(0));
      continue;
    }
    auto v = varVals ? varVals->getInteger(name) : std::nullopt;
    if (!v)
      die("no value for variable '" + name + "' in var_vals");
    args.push_back(tgrt_arg_int(*v));
  }
  auto t1 = std::chrono::steady_clock::now();
  if (gpu) {
    tgrt_dispatch d{};
    d.api_version = TGRT_API_VERSION;
    d.core_id_arg_index = -1;
    for (int i = 0; i < 3; ++i) {
      if (kernel.globalSizeFor[i] < 1 || kernel.globalSizeFor[i] > UINT32_MAX)
        die("workgroups in dimension " + std::to_string(i) + " are not known for the case's var_vals");
      d.global_size[i] = (uint32_t)kernel.globalSizeFor[i];
      d.local_size[i] = (uint32_t)sig.localSize[i];
    }
    check(tgrt_program_dispatch(prog, args.data(), args.size(), &d), "dispatch");
  } else {
    check(tgrt_program_launch(prog, args.data(), args.size(), sig.coreIdArg, sig.threads), "launch");
  }
  double runMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1).count();

  // Compare.
  const json::Object *outputs = rec->getObject("outputs");
  if (!outputs)
    die("no `outputs` in the case");
  size_t checked = 0, bad = 0;
  json::Array mismatches;
  for (auto &kv : *outputs) {
    int64_t slot = std::stoll(kv.first.str());
    auto it = bufs.find(slot);
    if (it == bufs.end())
      die("outputs for unknown slot " + kv.first.str());
    Buf &b = it->second;
    const json::Array *arr = kv.second.getAsArray();
    if (!arr || (int64_t)arr->size() != b.size)
      die("slot " + kv.first.str() + ": expected " + std::to_string(b.size) + " output values");
    std::vector<char> bytes(b.size * b.desc.bytes);
    check(tgrt_buffer_copy_out(b.buf, 0, bytes.data(), bytes.size()), "copy out");
    std::vector<char> want(b.desc.bytes);
    double absFloor = 0;
    if (flags.scaledTolerance && !flags.exactFloats)
      absFloor = scaledFloor((int64_t)arr->size(), b.desc.bytes, [&](int64_t i) -> std::optional<double> {
        if (!encode((*arr)[i], b.dtype, b.desc, want.data()))
          return std::nullopt;
        Elem w = decode(want.data(), b.dtype, b.desc);
        return w.isFloat ? std::optional<double>(w.f) : std::nullopt;
      });
    for (size_t i = 0; i < arr->size(); ++i) {
      if (!encode((*arr)[i], b.dtype, b.desc, want.data()))
        die("slot " + kv.first.str() + ": bad expected value at " + std::to_string(i));
      Elem g = decode(&bytes[i * b.desc.bytes], b.dtype, b.desc);
      Elem w = decode(want.data(), b.dtype, b.desc);
      bool ok = g.isFloat ? floatsMatch(g.f, w.f, b.dtype, flags.exactFloats, absFloor) : g.i == w.i;
      if (i < flags.showValues)
        llvm::outs() << "  slot " << slot << "[" << i << "]  ours " << show(g, b.desc)
                     << "  tinygrad " << show(w, b.desc) << (ok ? "" : "  <- differs") << "\n";
      ++checked;
      if (!ok) {
        if (bad < 8)
          mismatches.push_back(json::Object{{"slot", slot}, {"index", (int64_t)i},
                                            {"got", show(g, b.desc)}, {"want", show(w, b.desc)}});
        ++bad;
      }
    }
  }
  for (auto &kv : bufs)
    tgrt_buffer_free(kv.second.buf);
  tgrt_program_free(prog);
  tgrt_device_close(dev);

  bool match = bad == 0;
  // MATCH counts the values that match, MISMATCH the ones that differ.
  llvm::outs() << (match ? "MATCH" : "MISMATCH") << ": " << (match ? checked : bad) << "/" << checked
               << (match ? " values, " : " values differ, ")
               << "compile " << llvm::format("%.2f", compileMs) << " ms (codegen "
               << llvm::format("%.2f", codegenMs) << (gpu ? ", lower " : ", llvm ")
               << llvm::format("%.2f", backendMs) << "), run " << llvm::format("%.3f", runMs)
               << " ms\n";
  if (!match)
    for (const json::Value &m : mismatches)
      llvm::outs() << "  mismatch " << m << "\n";
  if (flags.json)
    llvm::outs() << json::Value(json::Object{{"match", match},
                                             {"values", (int64_t)checked},
                                             {"mismatched", (int64_t)bad},
                                             {"compile_ms", compileMs},
                                             {"target", target->name},
                                             {"codegen_ms", codegenMs},
                                             {"passes_ms", sig.passesMs},
                                             {"llvm_ms", gpu ? 0.0 : backendMs},
                                             {"llvm_opt_ms", kernel.phases.get("llvm_opt")},
                                             {"llvm_emit_ms", kernel.phases.get("llvm_emit")},
                                             {"lower_ms", lowerMs},
                                             {"serialize_ms", gpu ? backendMs - lowerMs : 0.0},
                                             {"run_ms", runMs},
                                             {"applied_opts", opt::toString(sig.appliedOpts)},
                                             {"beam", std::move(beamJSON)},
                                             {"mismatches", std::move(mismatches)}})
                 << "\n";
  return match ? 0 : 2;
}
