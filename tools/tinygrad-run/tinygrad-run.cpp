//===- tinygrad-run.cpp - compile a kernel case, run it, compare ----------===//
//
//   tinygrad-run --case K.json|RECORD.json [--json] [--kernel-graphs=F.jsonl] [--emit=mlir|llvm|asm|obj|host|host-llvm] [-o FILE]
//                [--mlir-print-ir-after-all] [--lowered=K.mlir]
//
// Compiles the case's `ast` through the CPU pipeline, runs it through the
// runtime's CPU device on the case's `inputs` (and `var_vals`) and compares
// with its `outputs`: integers and bools exactly, floats within 1e-5
// relative or 2 ulp (NaN equals NaN, infinities by sign; bit for bit with
// --exact-floats). Exit 0 only on a match; bad input is a diagnostic and
// exit 1. With --lowered, the kernel is the given module instead, the AST
// already lowered to the llvm dialect outside this process (tinygrad-opt's
// passes run one by one, printed and parsed between them): the textual
// pipeline's result, run and compared like the library's. A schedules.jsonl record
// (recognised by its `tensor_graph`) is a whole program: RunProgram.cpp.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/CPUPipeline.h"
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
static cl::opt<std::string> emitKind("emit", cl::desc("print the code: mlir, llvm, asm or obj (kernels); host or host-llvm (tensor programs: the schedule as hcq queue commands, or compiled to runtime calls)"),
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
static cl::opt<bool> verifyEach("verify-each",
                                cl::desc("run the MLIR verifier after every pass of the lowering to the llvm dialect "
                                         "(default: once, before translation)"), cl::cat(runCategory));

namespace {

[[noreturn]] void die(const llvm::Twine &msg) {
  llvm::errs() << casePath << ": error: " << msg << "\n";
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
                             {casePath, kernelGraphs, jsonOut, showValues, writeOutputs, manualSeed, emitKind,
                              outPath});
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
  CPUCompileOptions opts;
  opts.keepMLIR = emitKind == "mlir";
  opts.keepLLVMIR = emitKind == "llvm";
  opts.keepAsm = emitKind == "asm";
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
  OwningOpRef<ModuleOp> lowered;
  if (!loweredPath.empty()) {
    lowered = parseSourceFile<ModuleOp>(loweredPath, &ctx);
    if (!lowered)
      return 1;
  }
  FailureOr<CPUKernel> kernel = lowered ? compileLoweredForCPU(*lowered) : compileKernelForCPU(root, opts);
  if (failed(kernel))
    return 1;

  if (!emitKind.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(outPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      die("cannot open " + outPath + ": " + ec.message());
    if (emitKind == "mlir")
      os << kernel->mlir;
    else if (emitKind == "llvm")
      os << kernel->llvmIR;
    else if (emitKind == "asm")
      os << kernel->assembly;
    else if (emitKind == "obj")
      os << kernel->object;
    else
      die("--emit takes mlir, llvm, asm or obj");
    // An AST without values (an exported kernel) is only shown.
    if (!rec->getObject("outputs"))
      return 0;
  }

  // Runtime: device, program, buffers.
  tgrt_device *dev = nullptr;
  check(tgrt_device_open("CPU", nullptr, &dev), "device");
  tgrt_program *prog = nullptr;
  check(tgrt_program_load(dev, kernel->object.data(), kernel->object.size(),
                          kernel->signature.name.c_str(), &prog),
        "loading the kernel object");
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
  for (size_t gi = 0; gi < kernel->signature.globals.size(); ++gi) {
    int64_t slot = kernel->signature.globals[gi];
    auto it = bufs.find(slot);
    if (it == bufs.end())
      die("the kernel takes buffer slot " + std::to_string(slot) + ", which the case does not define");
    if (gi < kernel->signature.bufferElems.size() && it->second.size < kernel->signature.bufferElems[gi])
      die("slot " + std::to_string(slot) + ": the case gives " + std::to_string(it->second.size) +
          " elements, the kernel's PARAM has " + std::to_string(kernel->signature.bufferElems[gi]));
    args.push_back(tgrt_arg_buffer(it->second.buf));
  }
  const json::Object *varVals = rec->getObject("var_vals");
  for (size_t i = 0; i < kernel->signature.vars.size(); ++i) {
    const std::string &name = kernel->signature.vars[i];
    if ((int64_t)(args.size()) == kernel->signature.coreIdArg) {
      args.push_back(tgrt_arg_int(0));
      continue;
    }
    auto v = varVals ? varVals->getInteger(name) : std::nullopt;
    if (!v)
      die("no value for variable '" + name + "' in var_vals");
    args.push_back(tgrt_arg_int(*v));
  }
  auto t1 = std::chrono::steady_clock::now();
  check(tgrt_program_launch(prog, args.data(), args.size(), kernel->signature.coreIdArg,
                            kernel->signature.threads),
        "launch");
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
    for (size_t i = 0; i < arr->size(); ++i) {
      if (!encode((*arr)[i], b.dtype, b.desc, want.data()))
        die("slot " + kv.first.str() + ": bad expected value at " + std::to_string(i));
      Elem g = decode(&bytes[i * b.desc.bytes], b.dtype, b.desc);
      Elem w = decode(want.data(), b.dtype, b.desc);
      bool ok = g.isFloat ? floatsMatch(g.f, w.f, b.dtype, exactFloats) : g.i == w.i;
      if (i < showValues)
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
  llvm::outs() << (match ? "MATCH" : "MISMATCH") << ": " << checked - bad << "/" << checked
               << " values, compile " << llvm::format("%.2f", compileMs) << " ms (codegen "
               << llvm::format("%.2f", kernel->codegenMs) << ", llvm "
               << llvm::format("%.2f", kernel->llvmMs) << "), run " << llvm::format("%.3f", runMs)
               << " ms\n";
  if (!match)
    for (const json::Value &m : mismatches)
      llvm::outs() << "  mismatch " << m << "\n";
  if (jsonOut)
    llvm::outs() << json::Value(json::Object{{"match", match},
                                             {"values", (int64_t)checked},
                                             {"mismatched", (int64_t)bad},
                                             {"compile_ms", compileMs},
                                             {"codegen_ms", kernel->codegenMs},
                                             {"passes_ms", kernel->signature.passesMs},
                                             {"llvm_ms", kernel->llvmMs},
                                             {"llvm_opt_ms", kernel->llvmOptMs},
                                             {"llvm_emit_ms", kernel->llvmEmitMs},
                                             {"run_ms", runMs},
                                             {"applied_opts", opt::toString(kernel->signature.appliedOpts)},
                                             {"mismatches", std::move(mismatches)}})
                 << "\n";
  return match ? 0 : 2;
}
