//===- Render.cpp - tinygrad's UOp.render() string ------------------------===//
//
// Reproduces the string tinygrad's `UOp.render(simplify=False)` produces:
// infix index arithmetic with tinygrad's parenthesization rules, and its
// pretty-printed repr for ops the renderer has no rule for.
//
//===----------------------------------------------------------------------===//
#include "ArgCodec.h"

#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TGK/IR/TGK.h"
#include "tinygrad/Dialect/TGT/IR/TGT.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

/// tinygrad's repr name of a dtype ("float", "int", "half", "uchar", ...).
StringRef reprName(DType dt) {
  switch (dt) {
  case DType::Int8: return "char";
  case DType::UInt8: return "uchar";
  case DType::Int16: return "short";
  case DType::UInt16: return "ushort";
  case DType::Int32: return "int";
  case DType::UInt32: return "uint";
  case DType::Int64: return "long";
  case DType::UInt64: return "ulong";
  case DType::Float16: return "half";
  case DType::Float32: return "float";
  case DType::Float64: return "double";
  default: return getName(dt);
  }
}

std::string dtypeRepr(Type t) {
  auto dt = tg::getDType(t);
  return "dtypes." + (dt ? reprName(*dt) : StringRef("?")).str();
}

std::string pyStrRepr(StringRef s) {
  bool useDouble = s.contains('\'') && !s.contains('"');
  char q = useDouble ? '"' : '\'';
  std::string out(1, q);
  for (unsigned char c : s) {
    if (c == '\\')
      out += "\\\\";
    else if (c == q)
      out += std::string("\\") + char(q);
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c == '\r')
      out += "\\r";
    else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else
      out += char(c);
  }
  return out + q;
}

std::string intStr(const APInt &v) { return llvm::toString(v, 10, true); }

/// Python str() of a CONST value.
std::string constStr(Attribute v) {
  if (isa_and_nonnull<tg::InvalidAttr>(v))
    return "Invalid";
  if (auto b = dyn_cast_or_null<BoolAttr>(v))
    return b.getValue() ? "True" : "False";
  if (auto i = dyn_cast_or_null<IntegerAttr>(v))
    return intStr(i.getValue());
  if (auto f = dyn_cast_or_null<FloatAttr>(v))
    return pyFloatRepr(f.getValueAsDouble());
  return "?";
}

std::string tupleStr(ArrayRef<std::string> items) {
  std::string s = "(";
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  if (items.size() == 1)
    s += ",";
  return s + ")";
}

/// Python repr() of an arg attribute (best effort for structured args).
std::string argRepr(Attribute a);
std::string argRepr(Attribute a) {
  if (!a || isa<UnitAttr>(a))
    return "None";
  if (auto b = dyn_cast<BoolAttr>(a))
    return b.getValue() ? "True" : "False";
  if (auto i = dyn_cast<IntegerAttr>(a))
    return intStr(i.getValue());
  if (auto f = dyn_cast<FloatAttr>(a))
    return pyFloatRepr(f.getValueAsDouble());
  if (auto s = dyn_cast<StringAttr>(a))
    return pyStrRepr(s.getValue());
  if (isa<tg::InvalidAttr>(a))
    return "Invalid";
  if (auto t = dyn_cast<TypeAttr>(a))
    return dtypeRepr(t.getValue());
  if (auto arr = dyn_cast<ArrayAttr>(a)) {
    SmallVector<std::string> items;
    for (Attribute e : arr)
      items.push_back(argRepr(e));
    return tupleStr(items);
  }
  if (auto d = dyn_cast<DenseI64ArrayAttr>(a)) {
    SmallVector<std::string> items;
    for (int64_t v : d.asArrayRef())
      items.push_back(std::to_string(v));
    return tupleStr(items);
  }
  if (auto d = dyn_cast<DenseBoolArrayAttr>(a)) {
    SmallVector<std::string> items;
    for (bool v : d.asArrayRef())
      items.push_back(v ? "True" : "False");
    return tupleStr(items);
  }
  if (auto e = dyn_cast<tg::AxisTypeAttr>(a))
    return "AxisType." + StringRef(tg::stringifyAxisType(e.getValue())).upper();
  if (auto e = dyn_cast<tg::AddrSpaceAttr>(a))
    return "AddrSpace." + StringRef(tg::stringifyAddrSpace(e.getValue())).upper();
  if (auto e = dyn_cast<tg::OptOpsAttr>(a))
    return "OptOps." + StringRef(tg::stringifyOptOps(e.getValue())).upper();
  if (auto e = dyn_cast<tg::ReduceKindAttr>(a))
    return "Ops." + StringRef(tg::stringifyReduceKind(e.getValue())).upper();
  if (auto p = dyn_cast<tg::ParamAttr>(a)) {
    std::string s = "ParamArg(" + std::to_string(p.getSlot()) + ", " +
                    dtypeRepr(p.getDtype());
    if (p.getVminVmax())
      s += ", vmin_vmax=" + argRepr(p.getVminVmax());
    if (p.getMultipleOf())
      s += ", multiple_of=" + std::to_string(*p.getMultipleOf());
    if (p.getName())
      s += ", name=" + pyStrRepr(p.getName().getValue());
    if (p.getAddrspace() != tg::AddrSpace::Global)
      s += ", addrspace=" + argRepr(tg::AddrSpaceAttr::get(a.getContext(),
                                                           p.getAddrspace()));
    if (p.getAxis())
      s += ", axis=" + std::to_string(*p.getAxis());
    if (p.getDevice())
      s += ", device=" + argRepr(p.getDevice());
    if (p.getIsVolatile())
      s += ", volatile=True";
    return s + ")";
  }
  auto optInt = [](std::optional<int64_t> v) {
    return v ? std::to_string(*v) : std::string("None");
  };
  auto arrRepr = [](ArrayAttr arr) {
    return arr ? argRepr(arr) : std::string("None");
  };
  if (auto o = dyn_cast<tg::OptAttr>(a))
    return "Opt(op=OptOps." + StringRef(tg::stringifyOptOps(o.getOp())).upper() +
           ", axis=" + optInt(o.getAxis()) + ", arg=" + argRepr(o.getArg()) +
           ")";
  if (auto e = dyn_cast<tg::EstimatesAttr>(a))
    return "Estimates(ops=" + argRepr(e.getOps()) + ", lds=" +
           argRepr(e.getLds()) + ", mem=" + argRepr(e.getMem()) + ")";
  if (auto k = dyn_cast<tg::KernelInfoAttr>(a)) {
    SmallVector<std::string> axes;
    for (Attribute t : k.getAxisTypes())
      axes.push_back(argRepr(t));
    return "KernelInfo(name=" + pyStrRepr(k.getName()) +
           ", axis_types=" + tupleStr(axes) +
           ", dont_use_locals=" + (k.getDontUseLocals() ? "True" : "False") +
           ", applied_opts=" + arrRepr(k.getAppliedOpts()) +
           ", opts_to_apply=" + arrRepr(k.getOptsToApply()) +
           ", estimates=" + argRepr(k.getEstimates()) +
           ", beam=" + std::to_string(k.getBeam()) + ")";
  }
  if (auto c = dyn_cast<tg::CallInfoAttr>(a)) {
    // tinygrad prints id(grad_fxn), which only the running process knows.
    return std::string("CallInfo(") + (c.getGradFxn() ? "<grad_fxn>" : "None") +
           ", " + argRepr(c.getName()) + ", " +
           (c.getPrecompile() ? "True" : "False") + ", " +
           (c.getPrecompileBackward() ? "True" : "False") + ")";
  }
  if (auto b = dyn_cast<tg::BufferizeOptsAttr>(a))
    return "BufferizeOpts(device=" + argRepr(b.getDevice()) + ", addrspace=" +
           argRepr(tg::AddrSpaceAttr::get(a.getContext(), b.getAddrspace())) +
           ", removable=" + (b.getRemovable() ? "True" : "False") + ")";
  if (auto d = dyn_cast<DictionaryAttr>(a)) {
    auto kind = d.getAs<StringAttr>("kind");
    auto name = d.getAs<StringAttr>("name");
    if (kind && name && kind.getValue() == "Ops")
      return ("Ops." + name.getValue()).str();
    if (kind && kind.getValue() == "UOp" && d.get("graph")) {
      // A UOp inside an arg (e.g. a variable bound): rebuild it to print it.
      std::string text;
      {
        llvm::raw_string_ostream os(text);
        llvm::json::OStream j(os);
        json_codec::Encoder enc{j, {}};
        if (!enc.generic(d.get("graph")))
          text.clear();
      }
      if (auto parsed = llvm::json::parse(text)) {
        MLIRContext *ctx = a.getContext();
        ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
        if (OwningOpRef<ModuleOp> m = importTinygradJSONValue(*parsed, ctx))
          if (Value root = getTinygradRoot(*m))
            return reprUOp(root);
      } else {
        llvm::consumeError(parsed.takeError());
      }
    }
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << a;
  return s;
}

class Renderer {
public:
  std::string render(Value root) {
    SmallVector<Operation *> topo;
    llvm::DenseSet<Operation *> seen;
    toposort(root.getDefiningOp(), topo, seen);
    for (Operation *op : topo)
      ctx[op] = renderOp(op);
    return ctx[root.getDefiningOp()];
  }

private:
  static void toposort(Operation *op, SmallVectorImpl<Operation *> &out,
                       llvm::DenseSet<Operation *> &seen) {
    if (!op || !seen.insert(op).second)
      return;
    for (Value v : op->getOperands())
      toposort(v.getDefiningOp(), out, seen);
    out.push_back(op);
  }

  static StringRef opName(Value v) {
    Operation *def = v.getDefiningOp();
    return def ? getTinygradOpName(def->getName().getStringRef()) : "";
  }

  std::string src(Operation *op, unsigned i) {
    Operation *def = op->getOperand(i).getDefiningOp();
    auto it = ctx.find(def);
    return it == ctx.end() ? std::string("?") : it->second;
  }

  static bool balanced(StringRef s) {
    int d = 0;
    for (char c : s) {
      d += (c == '(') - (c == ')');
      if (d < 0)
        return false;
    }
    return d == 0;
  }
  static std::string stripParens(const std::string &s) {
    if (s.size() >= 2 && s.front() == '(' && s.back() == ')' &&
        balanced(StringRef(s).drop_front().drop_back()))
      return s.substr(1, s.size() - 2);
    return s;
  }
  static int precedence(StringRef op) {
    return llvm::StringSwitch<int>(op)
        .Cases({"MUL", "FLOORDIV", "FLOORMOD"}, 1)
        .Cases({"ADD", "SUB"}, 2)
        .Cases({"SHL", "SHR"}, 3)
        .Case("AND", 4)
        .Case("XOR", 5)
        .Case("OR", 6)
        .Default(99);
  }
  static StringRef binarySym(StringRef op) {
    return llvm::StringSwitch<StringRef>(op)
        .Case("ADD", "+")
        .Case("SUB", "-")
        .Case("FLOORDIV", "//")
        .Case("FLOORMOD", "%")
        .Case("SHL", "<<")
        .Case("SHR", ">>")
        .Case("MUL", "*")
        .Case("CMPLT", "<")
        .Case("CMPNE", "!=")
        .Case("AND", "&")
        .Case("OR", "|")
        .Case("XOR", "^")
        .Default("");
  }

  /// as_shape of a movement-op operand, each element rendered.
  std::vector<std::string> shapeItems(Value v) {
    std::vector<std::string> out;
    Operation *def = v.getDefiningOp();
    if (auto c = dyn_cast_or_null<tg::ConstOp>(def)) {
      out.push_back(constStr(c.getValue()));
    } else if (auto s = dyn_cast_or_null<tg::StackOp>(def)) {
      for (Value e : s.getSrcs()) {
        if (auto c = e.getDefiningOp<tg::ConstOp>())
          out.push_back(constStr(c.getValue()));
        else
          out.push_back(ctx.lookup(e.getDefiningOp()));
      }
    } else {
      out.push_back(ctx.lookup(def));
    }
    return out;
  }

  std::string movementArg(Operation *op, StringRef name) {
    if (name == "PERMUTE")
      return argRepr(op->getAttr("perm"));
    if (name == "FLIP") {
      SmallVector<std::string> items;
      if (auto f = op->getAttrOfType<DenseBoolArrayAttr>("flags"))
        for (auto [i, b] : llvm::enumerate(f.asArrayRef()))
          if (b)
            items.push_back(std::to_string(i));
      return tupleStr(items);
    }
    std::vector<std::string> pieces;
    if (name == "RESHAPE" || name == "EXPAND") {
      pieces = shapeItems(op->getOperand(1));
    } else if (op->getNumOperands() >= 3) {
      auto a = shapeItems(op->getOperand(1)), b = shapeItems(op->getOperand(2));
      for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        pieces.push_back("(" + a[i] + ", " + b[i] + ")");
    }
    if (pieces.size() == 1)
      return "(" + pieces[0] + ",)";
    std::string s = "(";
    for (size_t i = 0; i < pieces.size(); ++i)
      s += (i ? "," : "") + pieces[i];
    return s + ")";
  }

  std::string renderOp(Operation *op) {
    StringRef name = getTinygradOpName(op->getName().getStringRef());
    Type type = op->getResult(0).getType();
    if (name == "PARAM" || name == "BUFFER") {
      auto p = op->getAttrOfType<tg::ParamAttr>("arg");
      if (p && p.getName())
        return p.getName().getValue().str();
      return (name == "PARAM" ? "p" : "b") +
             (p ? std::to_string(p.getSlot()) : std::string("?"));
    }
    if (name == "AFTER")
      return src(op, 0);
    if (name == "SPECIAL")
      if (auto s = op->getAttrOfType<StringAttr>("name"))
        return s.getValue().str();
    if (name == "RANGE") {
      auto ids = op->getAttrOfType<DenseI64ArrayAttr>("ids");
      if (tg::isVoidType(type))
        return "loop" + (ids && !ids.empty() ? std::to_string(ids[0]) : "");
      std::string s = "r";
      if (ids)
        for (auto [i, x] : llvm::enumerate(ids.asArrayRef()))
          s += (i ? "_" : "") +
               (x >= 0 ? std::to_string(x) : "m" + std::to_string(-x));
      return s;
    }
    if (name == "CONST")
      return constStr(op->getAttr("value"));
    if (name == "CAST") {
      if (auto c = op->getOperand(0).getDefiningOp<tg::ConstOp>()) {
        auto dt = tg::getDType(c.getType());
        if (dt && (isWeak(*dt) || *dt == DType::Bool))
          return constStr(c.getValue());
      }
      auto dt = tg::getDType(type);
      return "(" + (dt ? reprName(*dt) : StringRef("?")).str() + ")(" +
             src(op, 0) + ")";
    }
    if (name == "NEG")
      return "(-" + src(op, 0) + ")";
    if (name == "RECIPROCAL")
      return "(1/" + src(op, 0) + ")";
    if (name == "MAX")
      return "max(" + src(op, 0) + ", " + src(op, 1) + ")";
    if (name == "MULACC")
      return "(" + src(op, 0) + "*" + src(op, 1) + "+" + src(op, 2) + ")";
    if (name == "WHERE")
      return "(" + src(op, 1) + " if " + src(op, 0) + " else " + src(op, 2) +
             ")";
    if (name == "CDIV")
      return "cdiv(" + src(op, 0) + ", " + src(op, 1) + ")";
    if (name == "CMOD")
      return "cmod(" + src(op, 0) + ", " + src(op, 1) + ")";
    if (llvm::is_contained({"RESHAPE", "EXPAND", "PERMUTE", "PAD", "SHRINK",
                            "FLIP"},
                           name))
      return src(op, 0) + "." + name.lower() + movementArg(op, name);
    if (StringRef sym = binarySym(name); !sym.empty()) {
      std::string l = src(op, 0), r = src(op, 1);
      int p = precedence(name);
      if (p != 99) {
        if (precedence(opName(op->getOperand(0))) <= p)
          l = stripParens(l);
        if (precedence(opName(op->getOperand(1))) < p)
          r = stripParens(r);
      }
      return "(" + l + sym.str() + r + ")";
    }
    if (name == "INDEX" || name == "STAGE") {
      std::string s;
      for (unsigned i = 1; i < op->getNumOperands(); ++i)
        s += "[" + stripParens(src(op, i)) + "]";
      return s;
    }
    if (name == "STACK") {
      std::string s = "{";
      for (unsigned i = 0; i < op->getNumOperands(); ++i)
        s += (i ? "," : "") + src(op, i);
      return s + "}";
    }
    return prettyPrint(op);
  }

  //===--------------------------------------------------------------------===//
  // str(UOp): tinygrad's pretty_print
  //===--------------------------------------------------------------------===//

  std::string argStr(Operation *op, StringRef name) {
    if (name == "REDUCE") {
      std::string k = argRepr(op->getAttr("kind"));
      return "(" + k + ", " + argRepr(op->getAttr("n")) + ")";
    }
    if (name == "RANGE") {
      SmallVector<std::string> items;
      if (auto ids = op->getAttrOfType<DenseI64ArrayAttr>("ids"))
        for (int64_t i : ids.asArrayRef())
          items.push_back(std::to_string(i));
      items.push_back(argRepr(op->getAttr("axis_type")));
      return tupleStr(items);
    }
    static const llvm::StringMap<StringRef> argProp = {
        {"CONST", "value"},  {"PARAM", "arg"},      {"BUFFER", "arg"},
        {"SINK", "arg"},     {"CALL", "arg"},       {"CAST", "dtype"},
        {"BITCAST", "dtype"}, {"PERMUTE", "perm"},  {"FLIP", "flags"},
        {"SPECIAL", "name"}, {"COPY", "device"},    {"GETTUPLE", "index"},
        {"MSELECT", "index"}, {"CONTIGUOUS", "arg"}, {"DETACH", "arg"},
        {"WMMA", "arg"},     {"CUSTOM", "fmt"},     {"CUSTOMI", "fmt"},
        {"STAGE", "opts"},   {"UNSHARD", "axes"}};
    auto it = argProp.find(name);
    if (it == argProp.end())
      return "None";
    Attribute a = op->getAttr(it->second);
    if (name == "CONST" && isa_and_nonnull<FloatAttr>(a))
      return "ConstFloat(" + argRepr(a) + ")";
    return argRepr(a);
  }

public:
  std::string prettyPrint(Operation *root) {
    // Number nodes by first sight in a DFS over srcs; count uses.
    llvm::DenseMap<Operation *, std::pair<int, int>> cache; // id, uses
    std::function<void(Operation *)> dfs = [&](Operation *x) {
      for (Value v : x->getOperands()) {
        Operation *s = v.getDefiningOp();
        auto [it, inserted] = cache.try_emplace(s, (int)cache.size(), 0);
        if (++it->second.second == 1)
          dfs(s);
      }
    };
    dfs(root);
    cache.try_emplace(root, 0, 0);
    llvm::DenseSet<Operation *> printed;
    std::function<std::string(Operation *, int)> pp = [&](Operation *x,
                                                          int d) {
      auto &cx = cache[x];
      std::string ind(d, ' ');
      if (printed.count(x))
        return ind + "x" + std::to_string(cx.first);
      printed.insert(x);
      std::string srcs;
      for (Value v : x->getOperands())
        srcs += "\n" + pp(v.getDefiningOp(), d + 2) + ",";
      StringRef name = getTinygradOpName(x->getName().getStringRef());
      std::string s = ind;
      if (cx.second > 1)
        s += "x" + std::to_string(cx.first) + ":=";
      s += "UOp(Ops." + name.str() + ", " +
           dtypeRepr(x->getResult(0).getType()) + ", arg=" + argStr(x, name);
      if (Attribute tag = x->getAttr("tg.tag"))
        s += ", tag=" + argRepr(tag);
      return s + ", src=(" + srcs + "))";
    };
    return pp(root, 0);
  }

private:
  llvm::DenseMap<Operation *, std::string> ctx;
};

} // namespace

std::string mlir::tinygrad::renderUOp(Value value) {
  if (!value || !value.getDefiningOp())
    return "?";
  return Renderer().render(value);
}

std::string mlir::tinygrad::reprUOp(Value value) {
  if (!value || !value.getDefiningOp())
    return "?";
  return Renderer().prettyPrint(value.getDefiningOp());
}
