//===- Translations.cpp - mlir-translate registrations --------------------===//
#include "tinygrad/Target/TinygradJSON.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Bridge.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::tinygrad;
namespace json = llvm::json;

namespace {
struct Options {
  llvm::cl::opt<std::string> graphPath{
      "graph-path",
      llvm::cl::desc("Dotted path of the graph inside each JSON record "
                     "(e.g. input, expected.graph, tensor_graph, call, ast); "
                     "default: the top level if it has \"nodes\", else the "
                     "first of input/ast/tensor_graph/graph"),
      llvm::cl::init("")};
  llvm::cl::opt<bool> printBounds{
      "print-bounds",
      llvm::cl::desc("--export-tinygrad-render: print `vmin vmax` of the "
                     "root on a second line (tinygrad's values)"),
      llvm::cl::init(false)};
};
Options &getOptions() {
  static Options o;
  return o;
}

void registerDialects(DialectRegistry &registry) {
  mlir::tinygrad::registerAllDialects(registry);
}

StringRef bufferName(const llvm::SourceMgr &sm) {
  return sm.getMemoryBuffer(sm.getMainFileID())->getBufferIdentifier();
}

/// One output line per input line:
/// {"line":n,"graph":...,"render":"...","repr":"..."} or
/// {"line":n,"error":"..."}.
LogicalResult roundtripJSONL(const llvm::SourceMgr &sm, raw_ostream &os,
                             MLIRContext *ctx) {
  ctx->loadAllAvailableDialects();
  StringRef text = sm.getMemoryBuffer(sm.getMainFileID())->getBuffer();
  StringRef name = bufferName(sm);
  unsigned lineNo = 0;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    ++lineNo;
    if (line.trim().empty())
      continue;
    std::string diags;
    OwningOpRef<ModuleOp> module;
    {
      ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
        llvm::raw_string_ostream ds(diags);
        if (!diags.empty())
          ds << "\n";
        ds << d.getLocation() << ": " << d.str();
        return success();
      });
      Location fileLoc = FileLineColLoc::get(ctx, name, lineNo, 1);
      llvm::Expected<json::Value> parsed = json::parse(line);
      if (!parsed) {
        emitError(fileLoc) << "malformed JSON: "
                           << llvm::toString(parsed.takeError());
      } else {
        module = importTinygradJSONValue(*parsed, ctx, getOptions().graphPath,
                                         fileLoc, line);
      }
    }
    std::string graph, render, repr;
    bool ok = bool(module);
    if (ok) {
      ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &d) {
        llvm::raw_string_ostream ds(diags);
        ds << d.getLocation() << ": " << d.str();
        return success();
      });
      llvm::raw_string_ostream gs(graph);
      ok = succeeded(exportTinygradJSON(*module, gs));
      if (ok) {
        render = renderUOp(getTinygradRoot(*module));
        repr = reprUOp(getTinygradRoot(*module));
      }
    }
    json::OStream j(os);
    j.object([&] {
      j.attribute("line", (int64_t)lineNo);
      if (ok) {
        j.attributeBegin("graph");
        j.rawValue(graph);
        j.attributeEnd();
        j.attribute("render", render);
        j.attribute("repr", repr);
      } else {
        j.attribute("error", diags);
      }
    });
    os << "\n";
  }
  return success();
}
} // namespace

void mlir::tinygrad::registerTinygradJSONTranslations() {
  static bool once = [] {
    (void)getOptions();
    static TranslateToMLIRRegistration importReg(
        "import-tinygrad-json",
        "import a tinygrad UOp graph (corpus JSON) into tg/tgt/tgk/hcq ops",
        [](const std::shared_ptr<llvm::SourceMgr> &sm,
           MLIRContext *ctx) -> OwningOpRef<Operation *> {
          StringRef text = sm->getMemoryBuffer(sm->getMainFileID())->getBuffer();
          OwningOpRef<ModuleOp> m =
              importTinygradJSON(text, ctx, bufferName(*sm), getOptions().graphPath);
          return OwningOpRef<Operation *>(m.release());
        },
        registerDialects);
    static TranslateFromMLIRRegistration exportReg(
        "export-tinygrad-json",
        "export a module of UOp ops as a tinygrad UOp graph (corpus JSON)",
        [](Operation *op, raw_ostream &os) -> LogicalResult {
          if (failed(exportTinygradJSON(op, os)))
            return failure();
          os << "\n";
          return success();
        },
        registerDialects);
    static TranslateFromMLIRRegistration renderReg(
        "export-tinygrad-render",
        "print tinygrad's UOp.render() string of the module's root",
        [](Operation *op, raw_ostream &os) -> LogicalResult {
          auto module = dyn_cast<ModuleOp>(op);
          Value root = module ? getTinygradRoot(module) : Value();
          if (!root)
            return op->emitError("expected a module whose last op is a UOp");
          os << renderUOp(root) << "\n";
          if (getOptions().printBounds) {
            // tinygrad's vmin/vmax of the root (symbolic engine's _min_max).
            sym::Context ctx(op->getContext());
            sym::UOpRef u = sym::Importer(ctx).import(root);
            if (!u)
              return failure();
            auto fmt = [](const Scalar &s) {
              return s.isFloat() ? pyFloatRepr(s.f) : sym::formatBound(s);
            };
            os << fmt(u->vmin()) << " " << fmt(u->vmax()) << "\n";
          }
          return success();
        },
        registerDialects);
    static TranslateRegistration roundtripReg(
        "tinygrad-json-roundtrip",
        "batch mode: import, export and render every graph of a JSONL file "
        "(one JSON result object per input line)",
        [](const std::shared_ptr<llvm::SourceMgr> &sm, raw_ostream &os,
           MLIRContext *ctx) { return roundtripJSONL(*sm, os, ctx); });
    return true;
  }();
  (void)once;
}
