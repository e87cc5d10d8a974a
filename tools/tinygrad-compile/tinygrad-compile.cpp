//===- tinygrad-compile.cpp - kernel AST JSON to an object + ProgramInfo --===//
//
//   tinygrad-compile [--graph-path=ast] [--target=cpu|vulkan|cuda:sm_N|amd:gfxN] FILE|-  [-o kernel.o]
//
// The compiler as a process for embedders that cannot link it yet (the
// tinygrad backend's first transport): reads one kernel AST in the corpus
// JSON graph format, compiles it through the CPU pipeline and prints one
// JSON object: the function name, the ELF object (hex), and tinygrad's
// ProgramInfo fields (globals, outs, ins, vars, global_size, core_id's
// argument index). For a GPU target the binary is the target's (SPIR-V,
// cubin, HSACO; "format"), "global_size" holds ints or the expressions'
// graphs and "local_size" the threads per workgroup. Errors are diagnostics
// on stderr and exit 1.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/KernelCompiler.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>

using namespace mlir;
using namespace mlir::tinygrad;
namespace json = llvm::json;
namespace cl = llvm::cl;

// Only these show in --help; LLVM's own flags (--time-passes,
// --enable-misched, ...) stay accepted, unlisted.
static cl::OptionCategory compileCategory("tinygrad-compile options");
static cl::opt<std::string> input(cl::Positional, cl::desc("<kernel AST JSON>"), cl::init("-"), cl::cat(compileCategory));
static cl::opt<std::string> graphPath("graph-path", cl::desc("path of the graph inside the JSON (e.g. ast)"),
                                      cl::init(""), cl::cat(compileCategory));
static cl::opt<unsigned> maxThreads("max-threads",
                                    cl::desc("cores the thread split may use (tinygrad's global_max; 0: the host's)"),
                                    cl::init(0), cl::cat(compileCategory));
static cl::opt<std::string> targetName("target", cl::desc("cpu, vulkan, cuda:sm_<N> or amd:gfx<N>"), cl::init("cpu"),
                                       cl::cat(compileCategory));
static cl::opt<std::string> objPath("o", cl::desc("also write the object to this file"), cl::init(""), cl::cat(compileCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(compileCategory);
  cl::ParseCommandLineOptions(argc, argv, "tinygrad kernel compiler (AST JSON -> ELF object)\n");
  auto t0 = std::chrono::steady_clock::now();
  auto file = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!file) {
    llvm::errs() << input << ": error: " << file.getError().message() << "\n";
    return 1;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      importTinygradJSON((*file)->getBuffer(), &ctx, input == "-" ? std::string("<stdin>") : input.getValue(), graphPath);
  if (!module)
    return 1;
  if (failed(verifyKernelAST(*module)))
    return 1;
  Value root = getTinygradRoot(*module);
  if (!root) {
    llvm::errs() << input << ": error: the graph has no root\n";
    return 1;
  }
  std::string why;
  std::optional<TargetDescription> target = TargetDescription::parse(targetName, &why);
  if (!target) {
    llvm::errs() << input << ": error: " << why << "\n";
    return 1;
  }
  if (!target->isGPU())
    target = TargetDescription::host(maxThreads);
  // In-process lld (an AMD kernel's HSACO link) resets every option of the
  // process to its default (lld::lldMain): what is read after the compile
  // is read before it.
  const std::string obj = objPath, inputName = input;
  FailureOr<CompiledKernel> k = compileKernel(root, *target);
  if (failed(k))
    return 1;
  if (!obj.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(obj, ec, llvm::sys::fs::OF_None);
    if (ec) {
      llvm::errs() << obj << ": error: " << ec.message() << "\n";
      return 1;
    }
    os << k->binary;
  }
  std::string hex;
  hex.reserve(k->binary.size() * 2);
  static const char *digits = "0123456789abcdef";
  for (unsigned char c : k->binary) {
    hex.push_back(digits[c >> 4]);
    hex.push_back(digits[c & 15]);
  }
  const KernelSignature &s = k->signature;
  auto ints = [](const std::vector<int64_t> &v) {
    json::Array a;
    for (int64_t x : v)
      a.push_back(x);
    return a;
  };
  json::Array vars, varDTypes;
  for (const std::string &v : s.vars)
    vars.push_back(v);
  for (DType dt : s.varDTypes)
    varDTypes.push_back(getName(dt));
  // The linearized UOps and Estimates tinygrad reads back (ProgramUOps.h).
  llvm::Expected<json::Value> uops = json::parse(k->uops.json);
  if (!uops) {
    llvm::errs() << inputName << ": error: " << llvm::toString(uops.takeError()) << "\n";
    return 1;
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  json::Value globalSize = json::Array{s.threads, 1, 1};
  if (s.gpu)
    if (json::Object *u = uops->getAsObject())
      if (json::Value *g = u->get("global_size"))
        globalSize = *g;
  llvm::outs() << json::Value(json::Object{
                      {"name", s.name},
                      {"target", target->name},
                      {"format", formatName(k->format)},
                      {"local_size", json::Array{s.localSize[0], s.localSize[1], s.localSize[2]}},
                      {"object_hex", hex},
                      {"globals", ints(s.globals)},
                      {"outs", ints(s.outs)},
                      {"ins", ints(s.ins)},
                      {"vars", std::move(vars)},
                      {"var_dtypes", std::move(varDTypes)},
                      {"core_id_arg", s.coreIdArg},
                      {"global_size", std::move(globalSize)},
                      {"uops", std::move(*uops)},
                      {"codegen_ms", k->codegenMs},
                      {"passes_ms", k->signature.passesMs},
                      {"llvm_ms", k->backendMs},
                      {"llvm_opt_ms", k->phases.get("llvm_opt")},
                      {"llvm_emit_ms", k->phases.get("llvm_emit")},
                      {"compile_ms", ms}})
               << "\n";
  return 0;
}
