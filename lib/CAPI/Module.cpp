//===- Module.cpp - contexts, importing, printing, pass pipelines --------===//
#include "Internal.h"

#include "tinygrad/InitAllDialects.h"
#include "tinygrad/InitAllPasses.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;

// Threading off: a context is locked for each call anyway, and an embedder
// making many contexts should not get a thread pool per context.
TgcContextImpl::TgcContextImpl() : mlir(MLIRContext::Threading::DISABLED) {
  DialectRegistry registry;
  tinygrad::registerAllDialects(registry);
  mlir.appendDialectRegistry(registry);
  mlir.loadAllAvailableDialects();
  // A failing pass would attach the whole op to its diagnostics; the
  // caller gets the located messages only.
  mlir.printOpOnDiagnostic(false);
}

void tgc::registerPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerCanonicalizerPass();
    registerCSEPass();
    registerSymbolDCEPass();
    registerInlinerPass();
    registerSCCPPass();
    tinygrad::registerAllPasses();
  });
}

namespace {

llvm::StringRef nameOr(const char *name, llvm::StringRef dflt) {
  return name && *name ? llvm::StringRef(name) : dflt;
}

/// Hands `module` to the caller as a handle that keeps the context alive.
tgc_status giveModule(tgc_context *context, OwningOpRef<ModuleOp> module, tgc_module **out) {
  auto m = std::make_unique<tgc_module>();
  m->ctx = context->impl;
  m->module = std::move(module);
  *out = m.release();
  return TGC_OK;
}

/// Whole-module text after each pass, for tgc_ir_callback.
struct IRCallbackHook : PassInstrumentation {
  IRCallbackHook(tgc_ir_callback fn, void *user) : fn(fn), user(user) {}
  void runAfterPass(Pass *pass, Operation *op) override {
    Operation *top = op;
    while (Operation *parent = top->getParentOp())
      top = parent;
    std::string ir;
    llvm::raw_string_ostream os(ir);
    top->print(os); // as tgc_module_print prints
    llvm::StringRef name = pass->getArgument();
    std::string passName = (name.empty() ? pass->getName() : name).str();
    fn(passName.c_str(), ir.c_str(), ir.size(), user);
  }
  tgc_ir_callback fn;
  void *user;
};

} // namespace

extern "C" {

tgc_status tgc_context_create(tgc_context **out_context) {
  return tgc::apiCall("tgc_context_create", [&] {
    if (!out_context)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_context_create: out_context is NULL");
    tgc::registerPasses();
    auto ctx = std::make_unique<tgc_context>();
    ctx->impl = std::make_shared<TgcContextImpl>();
    *out_context = ctx.release();
    return TGC_OK;
  });
}

tgc_status tgc_context_destroy(tgc_context *context) {
  return tgc::apiCall("tgc_context_destroy", [&] {
    if (!context)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_context_destroy: context is NULL");
    delete context;
    return TGC_OK;
  });
}

tgc_status tgc_module_import_json(tgc_context *context, const char *text, size_t size,
                                  const char *buffer_name, const char *graph_path,
                                  tgc_module **out_module) {
  return tgc::apiCall("tgc_module_import_json", [&] {
    if (!context || !out_module || (!text && size))
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_module_import_json: context, text and out_module must not be NULL");
    std::lock_guard<std::recursive_mutex> lock(context->impl->mutex);
    MLIRContext &ctx = context->impl->mlir;
    tgc::DiagnosticCapture diags(ctx);
    llvm::StringRef name = nameOr(buffer_name, "<json>");
    OwningOpRef<ModuleOp> module = tinygrad::importTinygradJSON(
        llvm::StringRef(text ? text : "", size), &ctx, name, nameOr(graph_path, ""));
    if (!module)
      return diags.fail(TGC_PARSE_ERROR, "cannot import the tinygrad graph " + name.str());
    return giveModule(context, std::move(module), out_module);
  });
}

tgc_status tgc_module_parse_mlir(tgc_context *context, const char *text, size_t size,
                                 const char *buffer_name, tgc_module **out_module) {
  return tgc::apiCall("tgc_module_parse_mlir", [&] {
    if (!context || !out_module || (!text && size))
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_module_parse_mlir: context, text and out_module must not be NULL");
    std::lock_guard<std::recursive_mutex> lock(context->impl->mutex);
    MLIRContext &ctx = context->impl->mlir;
    tgc::DiagnosticCapture diags(ctx);
    llvm::StringRef name = nameOr(buffer_name, "<mlir>");
    ParserConfig config(&ctx, /*verifyAfterParse=*/false);
    // The parser reads up to the buffer's end: copy, so text need not be
    // NUL-terminated.
    std::string copy(text ? text : "", size);
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(copy, config, name);
    if (!module)
      return diags.fail(TGC_PARSE_ERROR, "cannot parse " + name.str());
    if (failed(verify(*module)))
      return diags.fail(TGC_VERIFY_ERROR, name.str() + " does not verify");
    return giveModule(context, std::move(module), out_module);
  });
}

tgc_status tgc_module_destroy(tgc_module *module) {
  return tgc::apiCall("tgc_module_destroy", [&] {
    if (!module)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_module_destroy: module is NULL");
    std::shared_ptr<TgcContextImpl> ctx = module->ctx;
    {
      std::lock_guard<std::recursive_mutex> lock(ctx->mutex);
      delete module; // erases its ops: under the lock, while the context lives
    }
    return TGC_OK;
  });
}

tgc_status tgc_module_print(tgc_module *module, int generic_form, char **out_text) {
  return tgc::apiCall("tgc_module_print", [&] {
    if (!module || !out_text)
      return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_module_print: module and out_text must not be NULL");
    std::lock_guard<std::recursive_mutex> lock(module->ctx->mutex);
    std::string s;
    llvm::raw_string_ostream os(s);
    OpPrintingFlags flags;
    if (generic_form)
      flags.printGenericOpForm();
    module->module->print(os, flags);
    return tgc::copyOut(s, out_text);
  });
}

tgc_status tgc_module_export_json(tgc_module *module, char **out_json) {
  return tgc::apiCall("tgc_module_export_json", [&] {
    if (!module || !out_json)
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_module_export_json: module and out_json must not be NULL");
    std::lock_guard<std::recursive_mutex> lock(module->ctx->mutex);
    tgc::DiagnosticCapture diags(module->ctx->mlir);
    std::string s;
    llvm::raw_string_ostream os(s);
    if (failed(tinygrad::exportTinygradJSON(*module->module, os)))
      return diags.fail(TGC_INVALID_ARGUMENT, "the module is not a tinygrad graph");
    return tgc::copyOut(s, out_json);
  });
}

tgc_status tgc_module_run_pipeline(tgc_module *module, const char *pipeline,
                                   const tgc_pass_options *options) {
  return tgc::apiCall("tgc_module_run_pipeline", [&] {
    if (!module || !pipeline)
      return tgc::fail(TGC_INVALID_ARGUMENT,
                       "tgc_module_run_pipeline: module and pipeline must not be NULL");
    tgc_pass_options opts = TGC_PASS_OPTIONS_DEFAULT;
    if (options) {
      if (options->api_version != TGC_API_VERSION)
        return tgc::fail(TGC_INVALID_ARGUMENT, "tgc_module_run_pipeline: options->api_version is " +
                                                   std::to_string(options->api_version) + ", expected " +
                                                   std::to_string(TGC_API_VERSION));
      opts = *options;
    }
    std::lock_guard<std::recursive_mutex> lock(module->ctx->mutex);
    MLIRContext &ctx = module->ctx->mlir;
    tgc::DiagnosticCapture diags(ctx);
    // The anchored form names the module pass manager itself; its list is
    // what gets added.
    llvm::StringRef text = llvm::StringRef(pipeline).trim();
    if (text.starts_with("builtin.module(") && text.ends_with(")"))
      text = text.drop_front(strlen("builtin.module(")).drop_back();
    std::string parseErrors;
    llvm::raw_string_ostream errs(parseErrors);
    PassManager pm(&ctx, "builtin.module");
    if (failed(parsePassPipeline(text, pm, errs))) {
      std::string msg = "invalid pass pipeline '" + std::string(pipeline) + "'";
      if (!parseErrors.empty())
        msg += ": " + llvm::StringRef(parseErrors).trim().str();
      return diags.fail(TGC_PARSE_ERROR, msg);
    }
    pm.enableVerifier(opts.verify_each != 0);
    if (opts.after_pass)
      pm.addInstrumentation(std::make_unique<IRCallbackHook>(opts.after_pass, opts.user_data));
    if (failed(pm.run(*module->module)))
      return diags.fail(TGC_PASS_FAILED, "pass pipeline '" + std::string(pipeline) + "' failed");
    return TGC_OK;
  });
}

} // extern "C"
