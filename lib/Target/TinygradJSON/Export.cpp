//===- Export.cpp - MLIR -> tinygrad UOp graph JSON -----------------------===//
#include "ArgCodec.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"
#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TGK/IR/TGK.h"
#include "tinygrad/Dialect/TGT/IR/TGT.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tinygrad;
namespace json = llvm::json;

namespace {
/// Arg attributes by tinygrad op: which properties make up the arg.
LogicalResult writeArg(Operation *op, StringRef tgName,
                       json_codec::Encoder &enc) {
  json::OStream &j = enc.j;
  auto attr = [&](StringRef name) { return op->getAttr(name); };
  auto fail = [&](const Twine &msg) {
    return op->emitError() << "cannot export the arg of " << tgName << ": "
                           << msg;
  };
  auto generic = [&](Attribute a) -> LogicalResult {
    if (!enc.generic(a))
      return fail(enc.err);
    return success();
  };
  if (tgName == "CONST" || tgName == "PARAM" || tgName == "BUFFER") {
    Attribute v = attr(tgName == "CONST" ? "value" : "arg");
    if (auto i = dyn_cast_or_null<IntegerAttr>(v);
        i && !isa<BoolAttr>(v) && tgName == "CONST") {
      const APInt &x = i.getValue();
      if (x.getSignificantBits() <= 64)
        j.value(x.getSExtValue());
      else
        j.rawValue(llvm::toString(x, 10, /*Signed=*/true));
      return success();
    }
    return generic(v);
  }
  if (llvm::is_contained({"SINK", "CALL", "PROGRAM", "LINEAR", "CONTIGUOUS",
                          "CONTIGUOUS_BACKWARD", "DETACH", "INS", "WMMA"},
                         tgName))
    return generic(attr("arg"));
  if (tgName == "CAST" || tgName == "BITCAST")
    return generic(attr("dtype"));
  if (tgName == "RANGE") {
    auto ids = dyn_cast_or_null<DenseI64ArrayAttr>(attr("ids"));
    if (!ids)
      return fail("missing ids");
    bool ok = true;
    j.array([&] {
      for (int64_t i : ids.asArrayRef())
        j.value(i);
      ok = enc.generic(attr("axis_type"));
    });
    return ok ? success() : fail(enc.err);
  }
  if (tgName == "REDUCE" || tgName == "ALLREDUCE") {
    bool ok = true;
    j.array([&] {
      ok &= enc.generic(attr("kind"));
      ok &= enc.generic(attr(tgName == "REDUCE" ? "n" : "device"));
    });
    return ok ? success() : fail(enc.err);
  }
  if (tgName == "PERMUTE")
    return generic(attr("perm"));
  if (tgName == "FLIP")
    return generic(attr("flags"));
  if (tgName == "UNSHARD")
    return generic(attr("axes"));
  if (tgName == "GETTUPLE" || tgName == "MSELECT")
    return generic(attr("index"));
  if (tgName == "COPY" || tgName == "GETADDR")
    return generic(attr("device"));
  if (tgName == "SPECIAL" || tgName == "CUSTOM_FUNCTION")
    return generic(attr("name"));
  if (tgName == "CUSTOM" || tgName == "CUSTOMI")
    return generic(attr("fmt"));
  if (tgName == "SOURCE")
    return generic(attr("code"));
  if (tgName == "BINARY") {
    auto s = dyn_cast_or_null<StringAttr>(attr("data"));
    if (!s)
      return fail("missing data");
    j.object([&] {
      j.attribute("kind", "bytes");
      j.attribute("hex", llvm::toHex(s.getValue(), /*LowerCase=*/true));
    });
    return success();
  }
  if (tgName == "STAGE")
    return generic(attr("opts"));
  j.value(nullptr);
  return success();
}
} // namespace

Value mlir::tinygrad::getTinygradRoot(ModuleOp module) {
  Block *body = module.getBody();
  if (body->empty())
    return {};
  if (auto r = module->getAttrOfType<IntegerAttr>("tg.root")) {
    int64_t idx = r.getInt();
    for (Operation &op : *body)
      if (idx-- == 0)
        return op.getNumResults() == 1 ? op.getResult(0) : Value();
    return {};
  }
  Operation &last = body->back();
  return last.getNumResults() == 1 ? last.getResult(0) : Value();
}

LogicalResult mlir::tinygrad::exportTinygradJSON(Operation *root,
                                                 raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(root);
  if (!module)
    return root->emitError("expected a builtin.module holding UOps");
  Block *body = module.getBody();
  if (body->empty())
    return module.emitError("the module holds no UOps");
  llvm::DenseMap<Operation *, int64_t> ids;
  int64_t rootId = body->getOperations().size() - 1;
  if (auto r = module->getAttrOfType<IntegerAttr>("tg.root"))
    rootId = r.getInt();
  // Validate first so that nothing is written on failure.
  for (Operation &op : *body) {
    StringRef tgName = getTinygradOpName(op.getName().getStringRef());
    if (tgName.empty())
      return op.emitError("op is not a tinygrad UOp");
    if (op.getNumResults() != 1 || op.getNumRegions() != 0)
      return op.emitError("a UOp op has exactly one result and no regions");
    if (!tg::getDType(op.getResult(0).getType()))
      return op.emitError("result type ")
             << op.getResult(0).getType() << " has no tinygrad dtype";
    for (auto [i, v] : llvm::enumerate(op.getOperands())) {
      Operation *def = v.getDefiningOp();
      if (!def || !ids.count(def))
        return op.emitError("operand #")
               << i << " is not the result of an earlier UOp in the module";
    }
    ids[&op] = ids.size();
  }
  if (rootId < 0 || rootId >= (int64_t)ids.size())
    return module.emitError("tg.root is out of range");

  std::string buf;
  llvm::raw_string_ostream bos(buf);
  json::OStream j(bos);
  json_codec::Encoder enc{j, {}};
  LogicalResult result = success();
  j.object([&] {
    j.attributeArray("nodes", [&] {
      for (Operation &op : *body) {
        StringRef tgName = getTinygradOpName(op.getName().getStringRef());
        j.object([&] {
          j.attribute("id", ids[&op]);
          j.attribute("op", tgName);
          j.attribute("dtype",
                      getName(*tg::getDType(op.getResult(0).getType())));
          j.attributeArray("src", [&] {
            for (Value v : op.getOperands())
              j.value(ids[v.getDefiningOp()]);
          });
          j.attributeBegin("arg");
          if (failed(writeArg(&op, tgName, enc)))
            result = failure();
          j.attributeEnd();
          j.attributeBegin("tag");
          if (!enc.optGeneric(op.getAttr("tg.tag"))) {
            op.emitError("cannot export tag: ") << enc.err;
            result = failure();
          }
          j.attributeEnd();
        });
      }
    });
    j.attribute("root", rootId);
  });
  if (failed(result))
    return failure();
  os << buf;
  return success();
}
