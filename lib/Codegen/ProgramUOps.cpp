//===- ProgramUOps.cpp - a compiled kernel's UOps as corpus JSON ------------===//
#include "tinygrad/Codegen/ProgramUOps.h"

#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {
/// The graph of `root` as corpus JSON text ({"nodes", "root"}), through a
/// scratch module of UOp ops. `render` also gets tinygrad's render string.
FailureOr<std::string> exportGraphText(MLIRContext *ctx, Location loc, sym::UOpRef root,
                                       std::string *render = nullptr) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module->getBody());
  Value v = sym::Materializer(b, loc).materialize(root);
  if (render)
    *render = renderUOp(v);
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(exportTinygradJSON(*module, os)))
    return failure();
  return text;
}

/// The same graph as a JSON value.
FailureOr<llvm::json::Value> exportGraph(MLIRContext *ctx, Location loc, sym::UOpRef root,
                                         std::string *render = nullptr) {
  FailureOr<std::string> text = exportGraphText(ctx, loc, root, render);
  if (failed(text))
    return failure();
  auto parsed = llvm::json::parse(*text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return mlir::emitError(loc, "the program's UOps exported as invalid JSON");
  }
  return std::move(*parsed);
}

FailureOr<codegen::ExportedSint> exportSint(MLIRContext *ctx, Location loc, sym::UOpRef x) {
  codegen::ExportedSint out;
  if (!x)
    return mlir::emitError(loc, "no estimate was counted");
  if (x->op == sym::Op::CONST && x->val().isInt() && x->val().i >= INT64_MIN && x->val().i <= INT64_MAX) {
    out.value = (int64_t)x->val().i;
    out.expr = std::to_string(*out.value);
    out.json = *out.value;
    return out;
  }
  FailureOr<llvm::json::Value> g = exportGraph(ctx, loc, x, &out.expr);
  if (failed(g))
    return failure();
  out.json = std::move(*g);
  return out;
}
} // namespace

FailureOr<codegen::ProgramUOps> codegen::exportProgramUOps(MLIRContext *ctx, Location loc,
                                                           const KernelSignature &sig) {
  if (!sig.linear)
    return mlir::emitError(loc, "the kernel has no linear form");
  ProgramUOps out;
  // The LINEAR (most of the text) goes out as the exporter wrote it: parsed
  // and printed again it was a third of this function's time.
  FailureOr<std::string> linear = exportGraphText(ctx, loc, sig.linear);
  FailureOr<ExportedSint> ops = exportSint(ctx, loc, sig.estOps), lds = exportSint(ctx, loc, sig.estLds),
                          mem = exportSint(ctx, loc, sig.estMem);
  if (failed(linear) || failed(ops) || failed(lds) || failed(mem))
    return failure();
  out.ops = std::move(*ops);
  out.lds = std::move(*lds);
  out.mem = std::move(*mem);
  llvm::json::Array lanes;
  for (unsigned n : sig.linearLanes)
    lanes.push_back(n);
  // KernelInfo.applied_opts: what apply_opts applied (a heuristic's or opts_to_apply)
  llvm::json::Array opts;
  for (const opt::Opt &o : sig.appliedOpts)
    opts.push_back(llvm::json::Object{{"kind", "Opt"},
                                      {"op", opt::optName(o.op)},
                                      {"axis", o.axis ? llvm::json::Value(*o.axis) : llvm::json::Value(nullptr)},
                                      {"arg", o.arg}});
  llvm::json::Array global, local;
  if (sig.gpu) {
    for (int d = 0; d < 3; ++d) {
      sym::UOpRef g = sig.globalSize[d];
      FailureOr<ExportedSint> e = g ? exportSint(ctx, loc, g) : FailureOr<ExportedSint>(ExportedSint{1, "1", 1});
      if (failed(e))
        return failure();
      global.push_back(e->json);
      out.globalSize[d] = std::move(*e);
      local.push_back(sig.localSize[d]);
    }
  }
  // The keys in the order a json::Object prints them (sorted).
  llvm::raw_string_ostream os(out.json);
  llvm::json::OStream j(os);
  j.object([&] {
    j.attribute("applied_opts", std::move(opts));
    j.attribute("estimates",
                llvm::json::Object{{"ops", out.ops.json}, {"lds", out.lds.json}, {"mem", out.mem.json}});
    if (sig.gpu)
      j.attribute("global_size", std::move(global));
    j.attribute("lanes", std::move(lanes));
    j.attributeBegin("linear");
    j.rawValue(*linear);
    j.attributeEnd();
    if (sig.gpu)
      j.attribute("local_size", std::move(local));
  });
  return out;
}
