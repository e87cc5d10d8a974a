//===- tinygrad-sym-check.cpp - symbolic engine vs tinygrad's corpus ------===//
//
// Runs the symbolic engine on every case of a symbolic.jsonl corpus and
// compares with what tinygrad produced: `simplify` cases compare the render
// string and vmin/vmax, `numeric_const` cases must fold to the constant,
// `numeric_range` cases check that our bounds of the unsimplified input
// contain tinygrad's, `valid_idx`/`image_idx` cases rewrite a gated load with
// `sym + pm_move_where_on_load` (+ `indexing_simplify` for images), extract
// the index and gate as the record's `tinygrad.extract` says and compare
// their renders with tinygrad's (and, for passing cases, with the test's
// expected graphs). Prints one line per mismatch and a summary per kind;
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
#include <functional>
#include <cmath>
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
  /// valid_idx/image_idx: cases tinygrad passed, and those we match expected on.
  unsigned oracle = 0, oraclePass = 0;
  /// valid_idx/image_idx: per extracted field, renders identical to tinygrad.
  std::map<std::string, unsigned> fieldPass;
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
  // Non-finite floats use the corpus arg encoding {"kind":"float","value":"inf"}.
  if (const auto *o = v->getAsObject()) {
    if (o->getString("kind") != "float")
      return std::nullopt;
    if (auto d = o->getNumber("value"))
      return Scalar::fromFloat(*d);
    auto s = o->getString("value").value_or("");
    if (s == "inf" || s == "-inf")
      return Scalar::fromFloat(s == "inf" ? INFINITY : -INFINITY);
    if (s == "-0.0")
      return Scalar::fromFloat(-0.0);
  }
  return std::nullopt;
}

bool sameBound(const Scalar &ours, const std::optional<Scalar> &theirs) {
  return theirs && sym::compareScalar(ours, *theirs) == 0;
}

/// tinygrad's simplify cases run `sym + pm_cast_weak`.
const sym::PatternMatcher &simplifyMatcher() { return sym::symCastWeak(); }
const sym::PatternMatcher &validIdxMatcher();
const sym::PatternMatcher &imageIdxMatcher();
/// The matcher a record's `rewrite` field names (simplify: sym+pm_cast_weak,
/// numeric_const: sym); unknown names get `sym + pm_cast_weak`.
const sym::PatternMatcher &matcherFor(llvm::StringRef rewrite) {
  if (rewrite == "sym")
    return sym::symMatcher();
  if (rewrite == "sym+pm_move_where_on_load")
    return validIdxMatcher();
  if (rewrite == "sym+pm_move_where_on_load+indexing_simplify")
    return imageIdxMatcher();
  return simplifyMatcher();
}

/// `sym + pm_move_where_on_load` (valid_idx) and `+ indexing_simplify`
/// (image_idx), as test_simplify_valid_idx.py composes them.
const sym::PatternMatcher &validIdxMatcher() { return sym::symMoveWhereOnLoad(); }
const sym::PatternMatcher &imageIdxMatcher() {
  return sym::symMoveWhereOnLoadIndexing();
}

/// `x.get_idx()` / `x.get_valid()`.
sym::UOpRef getIdx(sym::Context &ctx, sym::UOpRef x) {
  if (x->op == sym::Op::STACK) {
    llvm::SmallVector<sym::UOpRef> s;
    for (sym::UOpRef e : x->src)
      s.push_back(getIdx(ctx, e));
    return ctx.stack(s);
  }
  return x->op == sym::Op::WHERE && x->src[2]->isInvalid() ? x->src[1] : x;
}
sym::UOpRef getValid(sym::Context &ctx, sym::UOpRef x) {
  if (x->op == sym::Op::STACK) {
    llvm::SmallVector<sym::UOpRef> s;
    for (sym::UOpRef e : x->src)
      s.push_back(getValid(ctx, e));
    return ctx.stack(s);
  }
  if (x->op == sym::Op::WHERE && x->src[2]->isInvalid())
    return x->src[0];
  return ctx.constBool(!x->isInvalid());
}

/// `u.src[i]`, or null when u has fewer sources.
sym::UOpRef srcAt(sym::UOpRef u, unsigned i) {
  return u && u->src.size() > i ? u->src[i] : nullptr;
}

constexpr llvm::StringLiteral kValidIdxExtract =
    "load=out.src[0]; off=load.src[0].src[1]; idx=off.get_idx(); valid=off.get_valid()";
constexpr llvm::StringLiteral kImageIdxExtract =
    "off=out.src[0].src[0]; idx0=off.src[2].get_idx(); idx1=off.src[1].get_idx(); "
    "valid=off.src[1].get_valid()";

/// The extracted (field, node) pairs of a valid_idx/image_idx result, in
/// the order of the record's `extract`; empty when the shape is unexpected.
std::vector<std::pair<std::string, sym::UOpRef>>
extractIdx(sym::Context &ctx, llvm::StringRef kind, sym::UOpRef out) {
  if (kind == "valid_idx") {
    sym::UOpRef load = srcAt(out, 0);
    sym::UOpRef off = srcAt(srcAt(load, 0), 1);
    if (!off)
      return {};
    return {{"idx", getIdx(ctx, off)}, {"valid", getValid(ctx, off)}};
  }
  sym::UOpRef off = srcAt(srcAt(out, 0), 0);
  sym::UOpRef o1 = srcAt(off, 1), o2 = srcAt(off, 2);
  if (!o1 || !o2)
    return {};
  return {{"idx0", getIdx(ctx, o2)}, {"idx1", getIdx(ctx, o1)}, {"valid", getValid(ctx, o1)}};
}
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
    bool idxKind = kind == "valid_idx" || kind == "image_idx";
    if (kind != "simplify" && kind != "numeric_const" && kind != "numeric_range" && !idxKind)
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
    if (idxKind) {
      llvm::StringRef extract = tg->getString("extract").value_or("");
      if (extract != (kind == "valid_idx" ? kValidIdxExtract : kImageIdxExtract)) {
        llvm::outs() << "UNKNOWN-EXTRACT " << id << ": " << extract << "\n";
        continue;
      }
      sym::UOpRef out = sym::graphRewrite(
          ctx, in, kind == "valid_idx" ? validIdxMatcher() : imageIdxMatcher());
      if (!out) {
        llvm::outs() << "REWRITE-FAIL " << id << ": "
                     << (ctx.errors.empty() ? "" : ctx.errors.front()) << "\n";
        continue;
      }
      auto fields = extractIdx(ctx, kind, out);
      if (fields.empty()) {
        llvm::outs() << "EXTRACT-FAIL " << id << "\n";
        continue;
      }
      OpBuilder builder(&mlirCtx);
      OwningOpRef<ModuleOp> outModule = ModuleOp::create(builder.getUnknownLoc());
      builder.setInsertionPointToEnd(outModule->getBody());
      sym::Materializer mat(builder, builder.getUnknownLoc());
      const auto *exp = obj->getObject("expected");
      bool oracle = obj->getBoolean("passed").value_or(false);
      bool allTg = true, allExp = true;
      for (auto &[name, node] : fields) {
        std::string render = renderUOp(mat.materialize(node));
        const auto *tf = tg->getObject(name);
        std::string want = tf ? tf->getString("render").value_or("").str() : "";
        // expected.<f>_graph_render; a null valid_render means the constant True
        std::string expWant;
        if (exp) {
          if (auto r = exp->getString(name + "_graph_render"))
            expWant = r->str();
          else if (name == "valid" && exp->get("valid_render") &&
                   exp->get("valid_render")->kind() == llvm::json::Value::Null)
            expWant = "True";
          else if (auto r = exp->getString(name + "_render"))
            expWant = r->str();
        }
        bool ok = render == want;
        t.fieldPass[name] += ok;
        allTg &= ok;
        allExp &= render == expWant;
        if (!ok && verbose)
          llvm::outs() << "IDX " << id << " " << name << ": got " << render << " want " << want
                       << "\n";
      }
      t.pass += allTg;
      t.oracle += oracle;
      t.oraclePass += oracle && allExp;
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
    sym::UOpRef out =
        sym::graphRewrite(ctx, in, matcherFor(obj->getString("rewrite").value_or("")));
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
    if (kind == "valid_idx" || kind == "image_idx") {
      llvm::outs() << " identical to tinygrad (";
      bool first = true;
      for (auto &[f, n] : t.fieldPass) {
        llvm::outs() << (first ? "" : ", ") << f << " " << n << "/" << t.total;
        first = false;
      }
      llvm::outs() << "), " << t.oraclePass << "/" << t.oracle
                   << " passing cases match expected";
    }
    llvm::outs() << "\n";
  }
  ok &= rate(tallies["simplify"].pass, tallies["simplify"].total) >= minRender;
  ok &= rate(tallies["simplify"].boundsPass, tallies["simplify"].total) >= minBounds;
  ok &= rate(tallies["numeric_const"].pass, tallies["numeric_const"].total) >= minConst;
  ok &= rate(tallies["numeric_range"].pass, tallies["numeric_range"].total) >= minRange;
  return ok ? 0 : 1;
}
