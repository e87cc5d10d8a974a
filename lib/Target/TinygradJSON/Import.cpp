//===- Import.cpp - tinygrad UOp graph JSON -> MLIR -----------------------===//
//
// One node = one op, created in node order with the generic OperationState
// path: the arg becomes the op's properties, the result type is inferred
// (InferTypeOpInterface) or, for ops with a stated type, built from the
// node's dtype; an inferred dtype must agree with the node's dtype.
//
//===----------------------------------------------------------------------===//
#include "ArgCodec.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"
#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TGK/IR/TGK.h"
#include "tinygrad/Dialect/TGT/IR/TGT.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tinygrad;
namespace json = llvm::json;

namespace {

/// How a node's arg maps onto the op.
enum class ArgForm {
  None,        ///< arg must be null
  OptArg,      ///< optional generic `arg` (null -> absent)
  Arg,         ///< required generic `arg` (null -> unit)
  ArrayArg,    ///< required generic array `arg` (WMMA)
  ConstValue,  ///< CONST `value`
  Param,       ///< ParamArg -> `arg`
  DTypeAttr,   ///< DType -> `dtype`
  Range,       ///< [int..., AxisType] -> `ids`, `axis_type`
  Reduce,      ///< [Ops, int] -> `kind`, `n`
  AllReduce,   ///< [Ops, device] -> `kind`, `device`
  Perm,        ///< [int*] -> `perm`
  Flags,       ///< [bool*] -> `flags`
  Axes,        ///< [int*] -> `axes`
  Index,       ///< int -> `index`
  Device,      ///< generic non-null -> `device`
  Str,         ///< str -> the named property
  Bytes,       ///< bytes -> `data`
  Bufferize,   ///< BufferizeOpts -> `opts`
};

struct ArgSpec {
  ArgForm form;
  StringRef prop; ///< property name for Str
};

ArgSpec getArgSpec(StringRef op) {
  return llvm::StringSwitch<ArgSpec>(op)
      .Case("CONST", {ArgForm::ConstValue, "value"})
      .Cases({"PARAM", "BUFFER"}, {ArgForm::Param, "arg"})
      .Cases({"SINK", "CALL", "PROGRAM", "LINEAR", "CONTIGUOUS",
              "CONTIGUOUS_BACKWARD", "DETACH"},
             {ArgForm::OptArg, "arg"})
      .Case("INS", {ArgForm::Arg, "arg"})
      .Case("WMMA", {ArgForm::ArrayArg, "arg"})
      .Cases({"CAST", "BITCAST"}, {ArgForm::DTypeAttr, "dtype"})
      .Case("RANGE", {ArgForm::Range, ""})
      .Case("REDUCE", {ArgForm::Reduce, ""})
      .Case("ALLREDUCE", {ArgForm::AllReduce, ""})
      .Case("PERMUTE", {ArgForm::Perm, "perm"})
      .Case("FLIP", {ArgForm::Flags, "flags"})
      .Case("UNSHARD", {ArgForm::Axes, "axes"})
      .Cases({"GETTUPLE", "MSELECT"}, {ArgForm::Index, "index"})
      .Cases({"COPY", "GETADDR"}, {ArgForm::Device, "device"})
      .Case("SPECIAL", {ArgForm::Str, "name"})
      .Case("CUSTOM_FUNCTION", {ArgForm::Str, "name"})
      .Cases({"CUSTOM", "CUSTOMI"}, {ArgForm::Str, "fmt"})
      .Case("SOURCE", {ArgForm::Str, "code"})
      .Case("BINARY", {ArgForm::Bytes, "data"})
      .Case("STAGE", {ArgForm::Bufferize, "opts"})
      .Default({ArgForm::None, ""});
}

class Importer {
public:
  Importer(MLIRContext *ctx, Location fileLoc, StringRef text)
      : ctx(ctx), fileLoc(fileLoc), text(text), dec{ctx, {}} {}

  OwningOpRef<ModuleOp> run(const json::Value &graph);

private:
  Location nodeLoc(int64_t id) {
    return NameLoc::get(StringAttr::get(ctx, "node " + Twine(id)),
                        locateNode(id));
  }
  Location locateNode(int64_t id);
  LogicalResult error(Location loc, const Twine &msg) {
    emitError(loc) << msg;
    return failure();
  }
  LogicalResult importNode(const json::Value &node, size_t index);
  LogicalResult convertArg(StringRef op, const json::Value &arg,
                           NamedAttrList &props, Location loc, size_t index);

  MLIRContext *ctx;
  Location fileLoc;
  /// The JSON text (when known): node locations point at `"id": N`.
  StringRef text;
  size_t searchFrom = 0;
  json_codec::Decoder dec;
  OwningOpRef<ModuleOp> module;
  SmallVector<Value> values;
};

} // namespace

/// Best-effort source position of node `id`: the next `"id": <id>` after the
/// previous node's (nodes are in order; a nested graph inside an arg can
/// only make this point a little early).
Location Importer::locateNode(int64_t id) {
  auto flc = dyn_cast<FileLineColLoc>(fileLoc);
  if (!flc || text.empty())
    return fileLoc;
  std::string idStr = std::to_string(id);
  size_t pos = searchFrom;
  while ((pos = text.find("\"id\"", pos)) != StringRef::npos) {
    size_t p = pos + 4;
    while (p < text.size() && isspace((unsigned char)text[p]))
      ++p;
    if (p < text.size() && text[p] == ':') {
      ++p;
      while (p < text.size() && isspace((unsigned char)text[p]))
        ++p;
      if (text.substr(p).starts_with(idStr) &&
          (p + idStr.size() >= text.size() ||
           !isdigit((unsigned char)text[p + idStr.size()]))) {
        searchFrom = p;
        break;
      }
    }
    pos += 4;
  }
  if (pos == StringRef::npos)
    return fileLoc;
  // Find the opening brace of the node object.
  size_t start = text.rfind('{', pos);
  if (start == StringRef::npos)
    start = pos;
  StringRef before = text.substr(0, start);
  unsigned line = flc.getLine() + before.count('\n');
  size_t nl = before.rfind('\n');
  unsigned col = nl == StringRef::npos ? start + flc.getColumn()
                                       : start - nl;
  return FileLineColLoc::get(flc.getFilename(), line, col);
}

static std::string describe(const json::Value &v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << v;
  if (s.size() > 60)
    s = s.substr(0, 57) + "...";
  return s;
}

LogicalResult Importer::convertArg(StringRef op, const json::Value &arg,
                                   NamedAttrList &props, Location loc,
                                   size_t index) {
  ArgSpec spec = getArgSpec(op);
  bool isNull = arg.kind() == json::Value::Null;
  auto bad = [&](const Twine &expected) {
    return error(loc, "node " + Twine(index) + ": field 'arg': " + op +
                          " expects " + expected + ", got " + describe(arg));
  };
  auto decodeFailed = [&]() {
    std::string msg = dec.err;
    dec.err.clear();
    return error(loc, "node " + Twine(index) + ": field '" + msg);
  };
  auto fieldPath = [](StringRef sub) { return ("arg" + sub).str(); };
  (void)fieldPath;
  auto set = [&](StringRef name, Attribute a) { props.set(name, a); };
  const json::Array *arr = arg.getAsArray();

  switch (spec.form) {
  case ArgForm::None:
    if (!isNull)
      return bad("a null arg");
    return success();
  case ArgForm::OptArg:
  case ArgForm::Arg:
  case ArgForm::ArrayArg:
  case ArgForm::Device: {
    if (isNull && spec.form == ArgForm::OptArg)
      return success();
    if (isNull && spec.form == ArgForm::Device)
      return bad("a device");
    if (spec.form == ArgForm::ArrayArg && !arr)
      return bad("an array");
    Attribute a = dec.generic(arg, "arg");
    if (!a)
      return decodeFailed();
    set(spec.prop, a);
    return success();
  }
  case ArgForm::ConstValue: {
    if (auto b = arg.getAsBoolean()) {
      set("value", BoolAttr::get(ctx, *b));
      return success();
    }
    if (arg.kind() == json::Value::Number) {
      if (auto i = arg.getAsInteger()) {
        set("value", IntegerAttr::get(IntegerType::get(ctx, 128),
                                      APInt(128, *i, /*isSigned=*/true)));
        return success();
      }
      if (auto u = arg.getAsUINT64()) {
        set("value", IntegerAttr::get(IntegerType::get(ctx, 128),
                                      APInt(128, *u, /*isSigned=*/false)));
        return success();
      }
      return bad("an int, bool, float object or Invalid");
    }
    const json::Object *o = arg.getAsObject();
    std::optional<StringRef> kind = o ? o->getString("kind") : std::nullopt;
    if (kind == "float") {
      Attribute a = dec.floatValue(*o, "arg");
      if (!a)
        return decodeFailed();
      set("value", a);
      return success();
    }
    if (kind == "Invalid") {
      set("value", tg::InvalidAttr::get(ctx));
      return success();
    }
    return bad("an int, bool, float object or Invalid");
  }
  case ArgForm::Param: {
    Attribute a = dec.paramArg(arg, "arg");
    if (!a)
      return decodeFailed();
    set("arg", a);
    return success();
  }
  case ArgForm::DTypeAttr: {
    const json::Object *o = arg.getAsObject();
    if (!o || o->getString("kind") != "DType")
      return bad("a DType object");
    Attribute a = dec.generic(arg, "arg");
    if (!a)
      return decodeFailed();
    set("dtype", a);
    return success();
  }
  case ArgForm::Range: {
    if (!arr || arr->size() < 2)
      return bad("[axis ids..., AxisType]");
    SmallVector<int64_t> ids;
    for (size_t i = 0; i + 1 < arr->size(); ++i) {
      const json::Value &e = (*arr)[i];
      auto v = e.kind() == json::Value::Number ? e.getAsInteger() : std::nullopt;
      if (!v)
        return bad("[axis ids..., AxisType] (element " + Twine(i) +
                   " is not an int)");
      ids.push_back(*v);
    }
    const json::Object *o = arr->back().getAsObject();
    if (!o || o->getString("kind") != "AxisType")
      return bad("[axis ids..., AxisType] (last element is not an AxisType)");
    Attribute at = dec.generic(arr->back(), "arg[" + Twine(arr->size() - 1) + "]");
    if (!at)
      return decodeFailed();
    set("ids", DenseI64ArrayAttr::get(ctx, ids));
    set("axis_type", at);
    return success();
  }
  case ArgForm::Reduce:
  case ArgForm::AllReduce: {
    const char *form =
        spec.form == ArgForm::Reduce ? "[Ops, int]" : "[Ops, device]";
    if (!arr || arr->size() != 2)
      return bad(form);
    const json::Object *o = (*arr)[0].getAsObject();
    std::optional<StringRef> name = o ? o->getString("name") : std::nullopt;
    if (!o || o->getString("kind") != "Ops" || !name)
      return bad(Twine(form) + " (element 0 is not an Ops member)");
    auto kind = tg::symbolizeReduceKind(name->lower());
    if (!kind || name->upper() != *name)
      return bad(Twine(form) + " with Ops ADD, MUL or MAX");
    set("kind", tg::ReduceKindAttr::get(ctx, *kind));
    if (spec.form == ArgForm::Reduce) {
      const json::Value &n = (*arr)[1];
      auto v = n.kind() == json::Value::Number ? n.getAsInteger() : std::nullopt;
      if (!v)
        return bad(Twine(form) + " (element 1 is not an int)");
      set("n", IntegerAttr::get(IntegerType::get(ctx, 64), *v));
    } else {
      Attribute d = dec.generic((*arr)[1], "arg[1]");
      if (!d)
        return decodeFailed();
      set("device", d);
    }
    return success();
  }
  case ArgForm::Perm:
  case ArgForm::Axes: {
    if (!arr)
      return bad("an array of ints");
    SmallVector<int64_t> v;
    for (const json::Value &e : *arr) {
      auto i = e.kind() == json::Value::Number ? e.getAsInteger() : std::nullopt;
      if (!i)
        return bad("an array of ints");
      v.push_back(*i);
    }
    set(spec.prop, DenseI64ArrayAttr::get(ctx, v));
    return success();
  }
  case ArgForm::Flags: {
    if (!arr)
      return bad("an array of bools");
    SmallVector<bool> v;
    for (const json::Value &e : *arr) {
      auto b = e.getAsBoolean();
      if (!b)
        return bad("an array of bools");
      v.push_back(*b);
    }
    set("flags", DenseBoolArrayAttr::get(ctx, v));
    return success();
  }
  case ArgForm::Index: {
    auto i = arg.kind() == json::Value::Number ? arg.getAsInteger() : std::nullopt;
    if (!i)
      return bad("an int");
    set("index", IntegerAttr::get(IntegerType::get(ctx, 64), *i));
    return success();
  }
  case ArgForm::Str: {
    auto s = arg.getAsString();
    if (!s)
      return bad("a string");
    set(spec.prop, StringAttr::get(ctx, *s));
    return success();
  }
  case ArgForm::Bytes: {
    const json::Object *o = arg.getAsObject();
    std::optional<StringRef> hex = o ? o->getString("hex") : std::nullopt;
    std::string bytes;
    if (!o || o->getString("kind") != "bytes" || !hex ||
        !llvm::tryGetFromHex(*hex, bytes))
      return bad("a bytes object");
    set("data", StringAttr::get(ctx, bytes));
    return success();
  }
  case ArgForm::Bufferize: {
    Attribute a = dec.bufferizeOpts(arg, "arg");
    if (!a)
      return decodeFailed();
    set("opts", a);
    return success();
  }
  }
  return success();
}

LogicalResult Importer::importNode(const json::Value &nodeV, size_t index) {
  Location loc = nodeLoc(index);
  auto err = [&](const Twine &field, const Twine &msg) {
    return error(loc, "node " + Twine(index) + ": field '" + field + "': " + msg);
  };
  const json::Object *node = nodeV.getAsObject();
  if (!node)
    return error(loc, "node " + Twine(index) + ": expected an object, got " +
                          describe(nodeV));
  // id
  const json::Value *idV = node->get("id");
  std::optional<int64_t> id =
      idV && idV->kind() == json::Value::Number ? idV->getAsInteger()
                                                : std::nullopt;
  if (!id)
    return err("id", "expected an int");
  if (*id != (int64_t)index)
    return err("id", "node ids must equal their position in `nodes` (" +
                         Twine(index) + "), got " + Twine(*id));
  // op
  std::optional<StringRef> opName = node->getString("op");
  if (!opName)
    return err("op", "expected an Ops member name string");
  StringRef mlirName = getMLIROpName(*opName);
  if (mlirName.empty())
    return err("op", "unknown op '" + *opName + "'");
  // dtype
  const json::Value *dtV = node->get("dtype");
  if (!dtV)
    return err("dtype", "missing");
  Type dtype = dec.dtype(*dtV, "dtype");
  if (!dtype) {
    std::string msg = dec.err;
    dec.err.clear();
    return error(loc, "node " + Twine(index) + ": field '" + msg);
  }
  // src
  const json::Array *srcs = node->getArray("src");
  if (!srcs)
    return err("src", "expected an array of node ids");
  SmallVector<Value> operands;
  for (auto [i, s] : llvm::enumerate(*srcs)) {
    auto sid = s.kind() == json::Value::Number ? s.getAsInteger() : std::nullopt;
    if (!sid)
      return err("src", "element " + Twine(i) + " is not a node id");
    if (*sid == (int64_t)index)
      return err("src", "element " + Twine(i) +
                            " refers to the node itself (cycle)");
    if (*sid < 0 || *sid > (int64_t)index)
      return err("src", "element " + Twine(i) + " refers to node " +
                            Twine(*sid) +
                            ", which is not an earlier node (nodes must be in "
                            "topological order; dangling, forward or cyclic "
                            "reference)");
    operands.push_back(values[*sid]);
  }
  // arg / tag
  static const json::Value null(nullptr);
  const json::Value *argV = node->get("arg");
  NamedAttrList props;
  if (failed(convertArg(*opName, argV ? *argV : null, props, loc, index)))
    return failure();
  NamedAttrList discardable;
  if (const json::Value *tagV = node->get("tag");
      tagV && tagV->kind() != json::Value::Null) {
    Attribute tag = dec.generic(*tagV, "tag");
    if (!tag) {
      std::string msg = dec.err;
      dec.err.clear();
      return error(loc, "node " + Twine(index) + ": field '" + msg);
    }
    discardable.set("tg.tag", tag);
  }
  for (const auto &kv : *node)
    if (!llvm::is_contained({"id", "op", "dtype", "src", "arg", "tag"},
                            kv.first.str()))
      return err(kv.first.str(), "unknown node field");

  OperationName name(mlirName, ctx);
  std::optional<RegisteredOperationName> info = name.getRegisteredInfo();
  if (!info)
    return err("op", "'" + mlirName + "' is not a registered op");
  if (mlirName == "tgk.load") {
    if (operands.empty() || operands.size() > 3)
      return err("src", "LOAD takes 1 to 3 srcs (idx, alt, gate)");
    int32_t n = operands.size();
    props.set("operandSegmentSizes",
              DenseI32ArrayAttr::get(ctx, {1, n >= 2 ? 1 : 0, n >= 3 ? 1 : 0}));
  }

  // Properties from the arg attributes.
  size_t propSize = name.getOpPropertyByteSize();
  std::unique_ptr<char[]> storage;
  OpaqueProperties properties(nullptr);
  if (propSize) {
    storage.reset(new char[propSize]);
    properties = OpaqueProperties(storage.get());
    name.initOpProperties(properties, OpaqueProperties(nullptr));
  }
  llvm::scope_exit destroy([&] {
    if (propSize)
      name.destroyOpProperties(properties);
  });
  DictionaryAttr propDict = props.getDictionary(ctx);
  if (propSize) {
    if (failed(info->setOpPropertiesFromAttribute(
            name, properties, propDict, [&]() {
              return emitError(loc) << "node " << index << ": field 'arg': ";
            })))
      return failure();
  } else if (!props.empty()) {
    return err("arg", "op " + mlirName + " has no properties to hold the arg");
  }

  // Result type.
  SmallVector<Type> types;
  DictionaryAttr attrDict = discardable.getDictionary(ctx);
  if (auto *iface = info->getInterface<InferTypeOpInterface>()) {
    if (failed(iface->inferReturnTypes(ctx, loc, operands, attrDict,
                                       properties, RegionRange(), types)))
      return error(loc, "node " + Twine(index) + ": cannot infer the type of " +
                            *opName + " from its srcs and arg");
    if (types.size() != 1)
      return err("op", "'" + mlirName + "' does not have exactly one result");
    auto inferred = tg::getDType(types[0]);
    auto stated = tg::getDType(dtype);
    if (inferred != stated)
      return err("dtype", "'" + getName(*stated) + "' does not match the dtype '" +
                              (inferred ? getName(*inferred) : StringRef("?")) +
                              "' inferred for " + *opName);
  } else {
    types.push_back(dtype);
  }

  OpBuilder b(ctx);
  b.setInsertionPointToEnd(module->getBody());
  Operation *op =
      Operation::create(loc, name, types, operands, std::move(discardable),
                        properties, BlockRange(), 0);
  b.insert(op);
  if (op->getNumResults() != 1) {
    op->erase();
    return err("op", "'" + mlirName + "' is not a single-result UOp op");
  }
  values.push_back(op->getResult(0));
  return success();
}

OwningOpRef<ModuleOp> Importer::run(const json::Value &graphV) {
  ctx->loadDialect<tg::TGDialect, tgt::TGTDialect, tgk::TGKDialect,
                   hcq::HCQDialect>();
  Location gloc = NameLoc::get(StringAttr::get(ctx, "graph"), fileLoc);
  const json::Object *graph = graphV.getAsObject();
  if (!graph) {
    (void)error(gloc, "expected a graph object {\"nodes\": [...], \"root\": id}");
    return {};
  }
  const json::Array *nodes = graph->getArray("nodes");
  if (!nodes) {
    (void)error(gloc, "field 'nodes': expected an array of nodes");
    return {};
  }
  if (nodes->empty()) {
    (void)error(gloc, "field 'nodes': a graph needs at least one node");
    return {};
  }
  module = ModuleOp::create(fileLoc);
  for (auto [i, n] : llvm::enumerate(*nodes))
    if (failed(importNode(n, i)))
      return {};
  const json::Value *rootV = graph->get("root");
  std::optional<int64_t> root =
      rootV && rootV->kind() == json::Value::Number ? rootV->getAsInteger()
                                                    : std::nullopt;
  if (!root || *root < 0 || *root >= (int64_t)nodes->size()) {
    (void)error(gloc, "field 'root': expected the id of a node");
    return {};
  }
  if (*root != (int64_t)nodes->size() - 1)
    (*module)->setAttr("tg.root",
                       IntegerAttr::get(IntegerType::get(ctx, 64), *root));
  if (failed(verify(*module)))
    return {};
  return std::move(module);
}

/// Follow a dotted path ("expected.graph", "tinygrad.idx0.graph").
static const json::Value *selectGraph(const json::Value &top, StringRef path,
                                      std::string &err) {
  if (path.empty()) {
    const json::Object *o = top.getAsObject();
    if (!o || o->get("nodes"))
      return &top;
    for (StringRef key : {"input", "ast", "tensor_graph", "graph"})
      if (const json::Value *v = o->get(key))
        if (v->getAsObject() && v->getAsObject()->get("nodes"))
          return v;
    return &top;
  }
  const json::Value *cur = &top;
  SmallVector<StringRef> parts;
  path.split(parts, '.');
  for (StringRef p : parts) {
    const json::Object *o = cur->getAsObject();
    const json::Value *next = o ? o->get(p) : nullptr;
    if (!next) {
      err = ("graph path '" + path + "': no field '" + p + "'").str();
      return nullptr;
    }
    cur = next;
  }
  if (cur->kind() == json::Value::Null) {
    err = ("graph path '" + path + "' is null").str();
    return nullptr;
  }
  return cur;
}

OwningOpRef<ModuleOp>
mlir::tinygrad::importTinygradJSONValue(const json::Value &value,
                                        MLIRContext *context, StringRef graphPath,
                                        std::optional<Location> optFileLoc,
                                        StringRef text) {
  Location fileLoc = optFileLoc ? *optFileLoc : UnknownLoc::get(context);
  std::string err;
  const json::Value *graph = selectGraph(value, graphPath, err);
  if (!graph) {
    emitError(fileLoc) << err;
    return {};
  }
  Importer importer(context, fileLoc, text);
  return importer.run(*graph);
}

std::string mlir::tinygrad::blankJSONComments(StringRef text) {
  std::string s = text.str();
  size_t i = 0;
  while (i < s.size()) {
    size_t e = s.find('\n', i);
    if (e == std::string::npos)
      e = s.size();
    if (StringRef(s.data() + i, e - i).ltrim().starts_with("//"))
      for (size_t k = i; k < e; ++k)
        s[k] = ' ';
    i = e + 1;
  }
  return s;
}

OwningOpRef<ModuleOp> mlir::tinygrad::importTinygradJSON(StringRef jsonText,
                                                         MLIRContext *context,
                                                         StringRef bufferName,
                                                         StringRef graphPath) {
  Location fileLoc = FileLineColLoc::get(context, bufferName, 1, 1);
  std::string text = blankJSONComments(jsonText);
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    std::string msg = llvm::toString(parsed.takeError());
    // llvm::json reports "[line:col, byte=n]: message".
    unsigned line = 1, col = 1;
    if (sscanf(msg.c_str(), "[%u:%u", &line, &col) != 2)
      line = col = 1;
    emitError(FileLineColLoc::get(context, bufferName, line, col))
        << "malformed JSON: " << msg;
    return {};
  }
  return importTinygradJSONValue(*parsed, context, graphPath, fileLoc, text);
}
