//===- tinygrad-sym-check.cpp - symbolic engine vs tinygrad's corpus ------===//
//
// Runs the symbolic engine on every case of a symbolic.jsonl corpus and
// compares with what tinygrad produced: `simplify` cases compare the render
// string and vmin/vmax, `numeric_const` cases must fold to the constant,
// `numeric_range` cases check that our bounds of the unsimplified input
// contain tinygrad's. Prints one line per mismatch and a summary per kind;
// exits non-zero when a kind is below its required pass rate.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <map>

using namespace mlir;
using namespace mlir::tinygrad;
namespace cl = llvm::cl;

static cl::opt<std::string> corpusPath(cl::Positional, cl::Required,
                                       cl::desc("<symbolic.jsonl>"));
static cl::opt<bool> verbose("v", cl::desc("print every mismatch"));
static cl::opt<double> minRender("min-render-rate", cl::init(0.0),
                                 cl::desc("required share of identical renders in simplify cases"));
static cl::opt<double> minBounds("min-bounds-rate", cl::init(0.0),
                                 cl::desc("required share of identical vmin/vmax in simplify cases"));
static cl::opt<double> minConst("min-const-rate", cl::init(0.0),
                                cl::desc("required share of numeric_const cases folded"));
static cl::opt<double> minRange("min-range-rate", cl::init(0.0),
                                cl::desc("required share of numeric_range cases contained"));

namespace {
struct Tally {
  unsigned total = 0, pass = 0, boundsPass = 0;
};

/// A Python bound from JSON (ints, bools, floats) as a Scalar.
std::optional<Scalar> jsonScalar(const llvm::json::Value *v) {
  if (!v)
    return std::nullopt;
  if (auto b = v->getAsBoolean())
    return Scalar::fromBool(*b);
  if (auto i = v->getAsInteger())
    return Scalar::fromInt(*i);
  if (auto d = v->getAsNumber())
    return Scalar::fromFloat(*d);
  return std::nullopt;
}

bool sameBound(const Scalar &ours, const std::optional<Scalar> &theirs) {
  return theirs && sym::compareScalar(ours, *theirs) == 0;
}

/// tinygrad's simplify cases run `sym + pm_cast_weak`.
const sym::PatternMatcher &simplifyMatcher() { return sym::symCastWeak(); }
} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv, "tinygrad symbolic corpus checker\n");
  auto buf = llvm::MemoryBuffer::getFile(corpusPath);
  if (!buf) {
    llvm::errs() << "cannot read " << corpusPath << "\n";
    return 2;
  }
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext mlirCtx(registry);
  mlirCtx.loadAllAvailableDialects();
  mlirCtx.getDiagEngine().registerHandler([](Diagnostic &d) {
    if (verbose)
      llvm::errs() << "  diag: " << d.str() << "\n";
    return success();
  });

  std::map<std::string, Tally> tallies;
  llvm::SmallVector<llvm::StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto rec = llvm::json::parse(line);
    if (!rec) {
      llvm::consumeError(rec.takeError());
      continue;
    }
    auto *obj = rec->getAsObject();
    std::string kind = obj->getString("kind").value_or("").str();
    std::string id = obj->getString("id").value_or("").str();
    if (kind != "simplify" && kind != "numeric_const" && kind != "numeric_range")
      continue;
    const auto *tg = obj->getObject("tinygrad");
    if (!tg)
      continue; // tinygrad itself raised
    Tally &t = tallies[kind];
    ++t.total;
    auto module = importTinygradJSONValue(*rec, &mlirCtx, "input");
    if (!module) {
      llvm::outs() << "IMPORT-FAIL " << id << "\n";
      continue;
    }
    Value root = getTinygradRoot(*module);
    sym::Context ctx(&mlirCtx);
    sym::Importer importer(ctx);
    sym::UOpRef in = importer.import(root);
    if (!in) {
      llvm::outs() << "IMPORT-FAIL " << id << "\n";
      continue;
    }
    if (kind == "numeric_range") {
      auto lo = jsonScalar(tg->get("vmin")), hi = jsonScalar(tg->get("vmax"));
      bool ok = lo && hi && sym::compareScalar(in->vmin(), *lo) <= 0 &&
                sym::compareScalar(in->vmax(), *hi) >= 0;
      t.pass += ok;
      t.boundsPass += ok && sameBound(in->vmin(), lo) && sameBound(in->vmax(), hi);
      if (!ok)
        llvm::outs() << "RANGE " << id << ": ours [" << sym::formatBound(in->vmin())
                     << ", " << sym::formatBound(in->vmax()) << "]\n";
      continue;
    }
    sym::UOpRef out = sym::graphRewrite(ctx, in, simplifyMatcher());
    if (!out) {
      llvm::outs() << "REWRITE-FAIL " << id << ": "
                   << (ctx.errors.empty() ? "" : ctx.errors.front()) << "\n";
      continue;
    }
    if (kind == "numeric_const") {
      const auto *exp = obj->getObject("expected");
      auto want = exp ? jsonScalar(exp->get("value")) : std::nullopt;
      bool ok = out->isConst() && want && sym::compareScalar(out->val(), *want) == 0;
      t.pass += ok;
      if (!ok && verbose)
        llvm::outs() << "CONST " << id << "\n";
      continue;
    }
    OpBuilder builder(&mlirCtx);
    OwningOpRef<ModuleOp> outModule = ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(outModule->getBody());
    sym::Materializer mat(builder, builder.getUnknownLoc());
    std::string render = renderUOp(mat.materialize(out));
    std::string want = tg->getString("render").value_or("").str();
    bool renderOk = render == want;
    bool boundsOk = sameBound(out->vmin(), jsonScalar(tg->get("vmin"))) &&
                    sameBound(out->vmax(), jsonScalar(tg->get("vmax")));
    t.pass += renderOk;
    t.boundsPass += boundsOk;
    if ((!renderOk || !boundsOk) && verbose)
      llvm::outs() << "SIMPLIFY " << id << ": got " << render << " ["
                   << sym::formatBound(out->vmin()) << ", "
                   << sym::formatBound(out->vmax()) << "] want " << want << "\n";
  }

  bool ok = true;
  auto rate = [](unsigned a, unsigned b) { return b ? double(a) / b : 1.0; };
  for (auto &[kind, t] : tallies) {
    llvm::outs() << kind << ": " << t.pass << "/" << t.total;
    if (kind == "simplify")
      llvm::outs() << " renders identical, " << t.boundsPass << "/" << t.total
                   << " bounds identical";
    if (kind == "numeric_range")
      llvm::outs() << " contained, " << t.boundsPass << " identical";
    llvm::outs() << "\n";
  }
  ok &= rate(tallies["simplify"].pass, tallies["simplify"].total) >= minRender;
  ok &= rate(tallies["simplify"].boundsPass, tallies["simplify"].total) >= minBounds;
  ok &= rate(tallies["numeric_const"].pass, tallies["numeric_const"].total) >= minConst;
  ok &= rate(tallies["numeric_range"].pass, tallies["numeric_range"].total) >= minRange;
  return ok ? 0 : 1;
}
