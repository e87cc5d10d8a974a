//===- HCQHostFunction.cpp - a schedule compiled to host code -------------===//
#include "tinygrad/Execution/HCQHostFunction.h"
#include "ExecError.h"

#include "tinygrad/Conversion/HCQToRuntime.h"
#include "tinygrad-rt/hcq.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::exec;

namespace {


/// The runtime functions a compiled schedule calls, bound by address (the
/// process need not export them).
llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap map;
  auto add = [&](const char *name, auto *fn) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn), llvm::JITSymbolFlags::Exported};
  };
  add("tgrt_hcq_queue", &tgrt_hcq_queue);
  add("tgrt_hcq_new_signal", &tgrt_hcq_new_signal);
  add("tgrt_hcq_exec", &tgrt_hcq_exec);
  add("tgrt_hcq_copy", &tgrt_hcq_copy);
  add("tgrt_hcq_wait", &tgrt_hcq_wait);
  add("tgrt_hcq_signal", &tgrt_hcq_signal);
  add("tgrt_hcq_timestamp", &tgrt_hcq_timestamp);
  add("tgrt_hcq_memory_barrier", &tgrt_hcq_memory_barrier);
  add("tgrt_hcq_submit", &tgrt_hcq_submit);
  add("tgrt_hcq_host_wait", &tgrt_hcq_host_wait);
  return map;
}

/// Frees a state on every path.
struct StateRef {
  tgrt_hcq_state *state = nullptr;
  ~StateRef() { tgrt_hcq_state_destroy(state); }
};

} // namespace

llvm::Expected<std::unique_ptr<HCQHostFunction>> HCQHostFunction::compile(func::FuncOp fn) {
  static std::once_flag nativeTarget;
  std::call_once(nativeTarget, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  MLIRContext *ctx = fn.getContext();
  ctx->loadDialect<LLVM::LLVMDialect>();
  registerBuiltinDialectTranslation(*ctx);
  registerLLVMDialectTranslation(*ctx);

  std::unique_ptr<HCQHostFunction> h(new HCQHostFunction);
  h->name = fn.getName().str();
  h->numArgs = fn.getNumArguments();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fn.getLoc());
  module->getBody()->push_back(fn.clone());
  if (failed(convertHCQToRuntime(*module)) || failed(verify(*module)))
    return error("the schedule does not convert to runtime calls (convert-hcq-to-runtime)");
  llvm::raw_string_ostream os(h->text);
  module->print(os);

  ExecutionEngineOptions opts;
  opts.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Less;
  opts.enableGDBNotificationListener = false;
  opts.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(*module, opts);
  if (!engine)
    return error("JIT-compiling the schedule: " + llvm::toString(engine.takeError()));
  h->engine = std::move(*engine);
  h->engine->registerSymbols(runtimeSymbols);
  auto entry = h->engine->lookup(h->name);
  if (!entry)
    return error("the compiled schedule has no '" + h->name + "': " + llvm::toString(entry.takeError()));
  h->entry = reinterpret_cast<decltype(h->entry)>(*entry);
  return h;
}

HCQHostFunction::~HCQHostFunction() = default;

llvm::Error HCQHostFunction::call(tgrt_hcq_state *state, const HCQBindings &b) {
  std::vector<void *> objects;
  for (tgrt_device *d : b.devices)
    objects.push_back(d);
  for (tgrt_buffer *x : b.buffers)
    objects.push_back(x);
  for (tgrt_program *p : b.programs)
    objects.push_back(p);
  if (objects.size() + b.vars.size() != numArgs)
    return error("@" + name + " takes " + llvm::Twine(numArgs) + " arguments, " +
                 llvm::Twine(objects.size() + b.vars.size()) + " bound");
  entry(state, objects.data(), b.vars.data());
  const char *message = nullptr;
  if (tgrt_hcq_state_status(state, &message) != TGRT_OK)
    return error("@" + name + ": " + message);
  return llvm::Error::success();
}

llvm::Error HCQHostFunction::run(const HCQBindings &bindings) {
  StateRef s;
  if (tgrt_hcq_state_create(/*capture=*/0, kHCQHostWaitTimeoutMs, &s.state) != TGRT_OK)
    return error("creating an hcq state");
  return call(s.state, bindings);
}

llvm::Expected<tgrt_graph *> HCQHostFunction::capture(const HCQBindings &bindings) {
  StateRef s;
  if (tgrt_hcq_state_create(/*capture=*/1, kHCQHostWaitTimeoutMs, &s.state) != TGRT_OK)
    return error("creating an hcq state");
  if (auto err = call(s.state, bindings))
    return std::move(err);
  tgrt_graph *graph = nullptr;
  if (tgrt_hcq_state_capture(s.state, &graph) != TGRT_OK)
    return error("@" + name + ": capturing its queues: " + tgrt_last_error());
  return graph;
}
