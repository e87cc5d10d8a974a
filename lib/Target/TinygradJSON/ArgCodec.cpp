//===- ArgCodec.cpp - tinygrad arg encoding <-> MLIR attributes -----------===//
#include "ArgCodec.h"

#include "tinygrad/Target/TinygradJSON.h"

#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::json_codec;
namespace json = llvm::json;

//===----------------------------------------------------------------------===//
// Python float repr
//===----------------------------------------------------------------------===//

std::string mlir::tinygrad::pyFloatRepr(double d) {
  if (std::isnan(d))
    return "nan";
  if (std::isinf(d))
    return d < 0 ? "-inf" : "inf";
  if (d == 0)
    return std::signbit(d) ? "-0.0" : "0.0";
  // Shortest %e form that reads back as the same double.
  char buf[64];
  for (int prec = 0; prec <= 17; ++prec) {
    snprintf(buf, sizeof(buf), "%.*e", prec, d);
    if (strtod(buf, nullptr) == d)
      break;
  }
  std::string s = buf;
  bool neg = s[0] == '-';
  if (neg)
    s.erase(0, 1);
  size_t epos = s.find('e');
  int exp10 = atoi(s.c_str() + epos + 1);
  std::string digits;
  for (char c : s.substr(0, epos))
    if (c != '.')
      digits += c;
  while (digits.size() > 1 && digits.back() == '0')
    digits.pop_back();
  // Python: value = 0.<digits> * 10**decpt; fixed notation iff -4 < decpt <= 16.
  int decpt = exp10 + 1;
  int n = digits.size();
  std::string out;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0)
      out = "0." + std::string(-decpt, '0') + digits;
    else if (decpt < n)
      out = digits.substr(0, decpt) + "." + digits.substr(decpt);
    else
      out = digits + std::string(decpt - n, '0') + ".0";
  } else {
    out = digits.substr(0, 1);
    if (n > 1)
      out += "." + digits.substr(1);
    int e = decpt - 1;
    char ebuf[16];
    snprintf(ebuf, sizeof(ebuf), "e%c%02d", e < 0 ? '-' : '+', std::abs(e));
    out += ebuf;
  }
  return neg ? "-" + out : out;
}

std::string json_codec::upper(StringRef s) { return s.upper(); }
std::string json_codec::lower(StringRef s) { return s.lower(); }

//===----------------------------------------------------------------------===//
// Decoder
//===----------------------------------------------------------------------===//

static std::string describe(const json::Value &v) {
  switch (v.kind()) {
  case json::Value::Null: return "null";
  case json::Value::Boolean: return "a bool";
  case json::Value::Number:
    return v.getAsInteger() ? "an int" : "a number";
  case json::Value::String: return "a string";
  case json::Value::Array: return "an array";
  case json::Value::Object: {
    if (auto k = v.getAsObject()->getString("kind"))
      return ("a " + *k + " object").str();
    return "an object";
  }
  }
  return "a value";
}

Attribute Decoder::fail(const Twine &path, const Twine &msg) {
  if (err.empty())
    err = (path + "': " + msg).str();
  return {};
}

Type Decoder::dtype(const json::Value &v, const Twine &path) {
  auto s = v.getAsString();
  if (!s) {
    fail(path, "expected a dtype name string, got " + describe(v));
    return {};
  }
  auto dt = parseDType(*s);
  if (!dt || getName(*dt) != *s) {
    fail(path, "unknown dtype '" + *s + "'");
    return {};
  }
  return tg::getTypeForDType(ctx, *dt);
}

std::optional<int64_t> Decoder::integer(const json::Value &v,
                                        const Twine &path) {
  if (v.kind() == json::Value::Number)
    if (auto i = v.getAsInteger())
      return *i;
  fail(path, "expected an int, got " + describe(v));
  return std::nullopt;
}

std::optional<int64_t> Decoder::optInteger(const json::Object &o, StringRef key,
                                           const Twine &path) {
  const json::Value *v = o.get(key);
  if (!v || v->kind() == json::Value::Null)
    return std::nullopt;
  return integer(*v, path + "." + key);
}

std::optional<bool> Decoder::boolean(const json::Object &o, StringRef key,
                                     const Twine &path) {
  const json::Value *v = o.get(key);
  if (v)
    if (auto b = v->getAsBoolean())
      return *b;
  fail(path + "." + key,
       "expected a bool, got " + (v ? describe(*v) : std::string("nothing")));
  return std::nullopt;
}

bool Decoder::optString(const json::Object &o, StringRef key, const Twine &path,
                        StringAttr &out) {
  out = {};
  const json::Value *v = o.get(key);
  if (!v || v->kind() == json::Value::Null)
    return true;
  if (auto s = v->getAsString()) {
    out = StringAttr::get(ctx, *s);
    return true;
  }
  fail(path + "." + key, "expected a string or null, got " + describe(*v));
  return false;
}

bool Decoder::optGeneric(const json::Object &o, StringRef key,
                         const Twine &path, Attribute &out) {
  out = {};
  const json::Value *v = o.get(key);
  if (!v || v->kind() == json::Value::Null)
    return true;
  out = generic(*v, path + "." + key);
  return bool(out);
}

const json::Object *Decoder::tagged(const json::Value &v, StringRef kind,
                                    const Twine &path) {
  const json::Object *o = v.getAsObject();
  if (!o || o->getString("kind") != kind) {
    fail(path, "expected a " + kind + " object, got " + describe(v));
    return nullptr;
  }
  return o;
}

Attribute Decoder::floatValue(const json::Object &o, const Twine &path) {
  const json::Value *v = o.get("value");
  if (!v)
    return fail(path, "float object without a value");
  double d;
  if (auto s = v->getAsString()) {
    if (*s == "inf")
      d = INFINITY;
    else if (*s == "-inf")
      d = -INFINITY;
    else if (*s == "nan")
      d = std::nan("");
    else if (*s == "-nan")
      d = -std::nan("");
    else if (*s == "-0.0")
      d = -0.0;
    else
      return fail(path + ".value", "unknown float spelling '" + *s + "'");
  } else if (auto n = v->getAsNumber()) {
    d = *n;
  } else {
    return fail(path + ".value", "expected a number, got " + describe(*v));
  }
  return FloatAttr::get(Float64Type::get(ctx), d);
}

std::optional<tg::AxisType> Decoder::axisType(const json::Value &v,
                                              const Twine &path) {
  if (auto s = v.getAsString())
    if (auto e = tg::symbolizeAxisType(lower(*s)); e && upper(lower(*s)) == *s)
      return e;
  fail(path, "expected an AxisType name, got " + describe(v));
  return std::nullopt;
}

std::optional<tg::AddrSpace> Decoder::addrSpace(const json::Value &v,
                                                const Twine &path) {
  if (auto s = v.getAsString())
    if (auto e = tg::symbolizeAddrSpace(lower(*s)); e && upper(lower(*s)) == *s)
      return e;
  fail(path, "expected an AddrSpace name, got " + describe(v));
  return std::nullopt;
}

std::optional<tg::OptOps> Decoder::optOps(const json::Value &v,
                                          const Twine &path) {
  if (auto s = v.getAsString())
    if (auto e = tg::symbolizeOptOps(lower(*s)); e && upper(lower(*s)) == *s)
      return e;
  fail(path, "expected an OptOps name, got " + describe(v));
  return std::nullopt;
}

Attribute Decoder::paramArg(const json::Value &v, const Twine &path) {
  const json::Object *o = tagged(v, "ParamArg", path);
  if (!o)
    return {};
  const json::Value *slotV = o->get("slot");
  auto slot = slotV ? integer(*slotV, path + ".slot") : std::nullopt;
  if (!slot)
    return fail(path + ".slot", "missing");
  const json::Value *dtV = o->get("dtype");
  if (!dtV)
    return fail(path + ".dtype", "missing");
  Type dt = dtype(*dtV, path + ".dtype");
  if (!dt)
    return {};
  ArrayAttr vminVmax;
  if (const json::Value *vv = o->get("vmin_vmax");
      vv && vv->kind() != json::Value::Null) {
    Attribute a = generic(*vv, path + ".vmin_vmax");
    if (!a)
      return {};
    vminVmax = dyn_cast<ArrayAttr>(a);
    if (!vminVmax)
      return fail(path + ".vmin_vmax", "expected an array or null");
  }
  auto multipleOf = optInteger(*o, "multiple_of", path);
  auto axis = optInteger(*o, "axis", path);
  StringAttr name;
  if (!optString(*o, "name", path, name) || !err.empty())
    return {};
  tg::AddrSpace as = tg::AddrSpace::Global;
  const json::Value *asV = o->get("addrspace");
  if (!asV || asV->kind() == json::Value::Null)
    return fail(path + ".addrspace",
                "a null addrspace cannot be represented by #tg.param");
  if (auto a = addrSpace(*asV, path + ".addrspace"))
    as = *a;
  else
    return {};
  Attribute device;
  if (!optGeneric(*o, "device", path, device))
    return {};
  auto isVolatile = boolean(*o, "volatile", path);
  if (!isVolatile)
    return {};
  for (const auto &kv : *o) {
    StringRef k = kv.first;
    if (!llvm::is_contained({"kind", "slot", "dtype", "vmin_vmax", "multiple_of",
                             "name", "addrspace", "axis", "device", "volatile"},
                            k))
      return fail(path + "." + k, "unknown ParamArg field");
  }
  return tg::ParamAttr::get(ctx, *slot, dt, vminVmax, multipleOf, name, as,
                            axis, device, *isVolatile, std::nullopt);
}

Attribute Decoder::opt(const json::Value &v, const Twine &path) {
  const json::Object *o = tagged(v, "Opt", path);
  if (!o)
    return {};
  const json::Value *opV = o->get("op");
  if (!opV)
    return fail(path + ".op", "missing");
  auto op = optOps(*opV, path + ".op");
  if (!op)
    return {};
  auto axis = optInteger(*o, "axis", path);
  Attribute arg;
  if (!err.empty() || !optGeneric(*o, "arg", path, arg))
    return {};
  return tg::OptAttr::get(ctx, *op, axis, arg);
}

Attribute Decoder::estimates(const json::Object &o, const Twine &path) {
  Attribute f[3];
  const char *names[3] = {"ops", "lds", "mem"};
  for (int i = 0; i < 3; ++i) {
    const json::Value *v = o.get(names[i]);
    if (!v)
      return fail(path + "." + names[i], "missing");
    f[i] = generic(*v, path + "." + names[i]);
    if (!f[i])
      return {};
  }
  return tg::EstimatesAttr::get(ctx, f[0], f[1], f[2]);
}

Attribute Decoder::kernelInfo(const json::Object &o, const Twine &path) {
  auto name = o.getString("name");
  if (!name)
    return fail(path + ".name", "expected a string");
  SmallVector<Attribute> axisTypes;
  const json::Array *at = o.getArray("axis_types");
  if (!at)
    return fail(path + ".axis_types", "expected an array");
  for (auto [i, e] : llvm::enumerate(*at)) {
    auto t = axisType(e, path + ".axis_types[" + Twine(i) + "]");
    if (!t)
      return {};
    axisTypes.push_back(tg::AxisTypeAttr::get(ctx, *t));
  }
  auto dontUseLocals = boolean(o, "dont_use_locals", path);
  if (!dontUseLocals)
    return {};
  auto opts = [&](StringRef key, ArrayAttr &out, bool nullable) -> bool {
    const json::Value *v = o.get(key);
    if (nullable && (!v || v->kind() == json::Value::Null))
      return true;
    const json::Array *arr = v ? v->getAsArray() : nullptr;
    if (!arr) {
      fail(path + "." + key, "expected an array of Opt");
      return false;
    }
    SmallVector<Attribute> elems;
    for (auto [i, e] : llvm::enumerate(*arr)) {
      Attribute a = opt(e, path + "." + key + "[" + Twine(i) + "]");
      if (!a)
        return false;
      elems.push_back(a);
    }
    out = ArrayAttr::get(ctx, elems);
    return true;
  };
  ArrayAttr applied, toApply;
  if (!opts("applied_opts", applied, false) ||
      !opts("opts_to_apply", toApply, true))
    return {};
  Attribute est;
  if (const json::Value *ev = o.get("estimates");
      ev && ev->kind() != json::Value::Null) {
    const json::Object *eo = tagged(*ev, "Estimates", path + ".estimates");
    if (!eo || !(est = estimates(*eo, path + ".estimates")))
      return {};
  }
  const json::Value *bv = o.get("beam");
  auto beam = bv ? integer(*bv, path + ".beam") : std::optional<int64_t>(0);
  if (!beam)
    return {};
  return tg::KernelInfoAttr::get(ctx, *name, ArrayAttr::get(ctx, axisTypes),
                                 *dontUseLocals, applied, toApply, est, *beam);
}

Attribute Decoder::callInfo(const json::Object &o, const Twine &path) {
  StringAttr gradFxn, name;
  if (!optString(o, "grad_fxn", path, gradFxn) ||
      !optString(o, "name", path, name))
    return {};
  auto pre = boolean(o, "precompile", path);
  if (!pre)
    return {};
  auto preB = boolean(o, "precompile_backward", path);
  if (!preB)
    return {};
  Attribute aux;
  if (!optGeneric(o, "aux", path, aux))
    return {};
  return tg::CallInfoAttr::get(ctx, gradFxn, name, *pre, *preB, aux);
}

Attribute Decoder::bufferizeOpts(const json::Value &v, const Twine &path) {
  const json::Object *o = tagged(v, "BufferizeOpts", path);
  if (!o)
    return {};
  Attribute device;
  if (!optGeneric(*o, "device", path, device))
    return {};
  const json::Value *asV = o->get("addrspace");
  if (!asV)
    return fail(path + ".addrspace", "missing");
  auto as = addrSpace(*asV, path + ".addrspace");
  if (!as)
    return {};
  auto removable = boolean(*o, "removable", path);
  if (!removable)
    return {};
  return tg::BufferizeOptsAttr::get(ctx, device, *as, *removable);
}

Attribute Decoder::generic(const json::Value &v, const Twine &path) {
  switch (v.kind()) {
  case json::Value::Null:
    return UnitAttr::get(ctx);
  case json::Value::Boolean:
    return BoolAttr::get(ctx, *v.getAsBoolean());
  case json::Value::Number: {
    if (auto i = v.getAsInteger())
      return IntegerAttr::get(IntegerType::get(ctx, 64), *i);
    if (auto u = v.getAsUINT64())
      return IntegerAttr::get(IntegerType::get(ctx, 128),
                              APInt(128, *u, /*isSigned=*/false));
    return fail(path, "a bare non-integer number (floats must be "
                      "{\"kind\":\"float\",...})");
  }
  case json::Value::String:
    return StringAttr::get(ctx, *v.getAsString());
  case json::Value::Array: {
    SmallVector<Attribute> elems;
    for (auto [i, e] : llvm::enumerate(*v.getAsArray())) {
      Attribute a = generic(e, path + "[" + Twine(i) + "]");
      if (!a)
        return {};
      elems.push_back(a);
    }
    return ArrayAttr::get(ctx, elems);
  }
  case json::Value::Object:
    break;
  }
  const json::Object &o = *v.getAsObject();
  std::optional<StringRef> kind = o.getString("kind");
  auto nameOf = [&]() -> const json::Value & {
    static const json::Value null(nullptr);
    const json::Value *n = o.get("name");
    return n ? *n : null;
  };
  if (kind == "float")
    return floatValue(o, path);
  if (kind == "Invalid")
    return tg::InvalidAttr::get(ctx);
  if (kind == "DType") {
    Type t = dtype(nameOf(), path + ".name");
    return t ? TypeAttr::get(t) : Attribute();
  }
  if (kind == "AxisType") {
    auto e = axisType(nameOf(), path + ".name");
    return e ? tg::AxisTypeAttr::get(ctx, *e) : Attribute();
  }
  if (kind == "AddrSpace") {
    auto e = addrSpace(nameOf(), path + ".name");
    return e ? tg::AddrSpaceAttr::get(ctx, *e) : Attribute();
  }
  if (kind == "OptOps") {
    auto e = optOps(nameOf(), path + ".name");
    return e ? tg::OptOpsAttr::get(ctx, *e) : Attribute();
  }
  if (kind == "ParamArg")
    return paramArg(v, path);
  if (kind == "KernelInfo")
    return kernelInfo(o, path);
  if (kind == "Opt")
    return opt(v, path);
  if (kind == "Estimates")
    return estimates(o, path);
  if (kind == "CallInfo")
    return callInfo(o, path);
  if (kind == "BufferizeOpts")
    return bufferizeOpts(v, path);
  // Ops, bytes, UOp, unserializable, ...: keep the object as a dictionary.
  SmallVector<NamedAttribute> fields;
  for (const auto &kv : o) {
    Attribute a = generic(kv.second, path + "." + kv.first.str());
    if (!a)
      return {};
    fields.emplace_back(StringAttr::get(ctx, kv.first.str()), a);
  }
  return DictionaryAttr::get(ctx, fields);
}

//===----------------------------------------------------------------------===//
// Encoder
//===----------------------------------------------------------------------===//

void Encoder::floatValue(double d) {
  j.object([&] {
    j.attribute("kind", "float");
    j.attributeBegin("value");
    if (std::isnan(d))
      j.value(std::signbit(d) ? "-nan" : "nan");
    else if (std::isinf(d))
      j.value(d < 0 ? "-inf" : "inf");
    else if (d == 0 && std::signbit(d))
      j.value("-0.0");
    else
      j.rawValue(pyFloatRepr(d));
    j.attributeEnd();
  });
}

void Encoder::dtype(Type t) {
  auto dt = tg::getDType(t);
  j.value(dt ? getName(*dt) : StringRef("<unknown>"));
}

static void writeInt(json::OStream &j, const APInt &v) {
  if (v.getSignificantBits() <= 64) {
    j.value(v.getSExtValue());
  } else if (!v.isNegative() && v.getActiveBits() <= 64) {
    j.value(v.getZExtValue());
  } else {
    j.rawValue(llvm::toString(v, 10, /*Signed=*/true));
  }
}

bool Encoder::optGeneric(Attribute attr) {
  if (!attr) {
    j.value(nullptr);
    return true;
  }
  return generic(attr);
}

bool Encoder::paramArg(tg::ParamAttr p) {
  if (p.getSize()) {
    err = "#tg.param with a `size` has no tinygrad ParamArg encoding";
    return false;
  }
  bool ok = true;
  j.object([&] {
    j.attribute("kind", "ParamArg");
    j.attribute("slot", p.getSlot());
    j.attributeBegin("dtype");
    dtype(p.getDtype());
    j.attributeEnd();
    j.attributeBegin("vmin_vmax");
    ok &= optGeneric(p.getVminVmax());
    j.attributeEnd();
    if (auto m = p.getMultipleOf())
      j.attribute("multiple_of", *m);
    else
      j.attribute("multiple_of", nullptr);
    if (p.getName())
      j.attribute("name", p.getName().getValue());
    else
      j.attribute("name", nullptr);
    j.attribute("addrspace", upper(tg::stringifyAddrSpace(p.getAddrspace())));
    if (auto a = p.getAxis())
      j.attribute("axis", *a);
    else
      j.attribute("axis", nullptr);
    j.attributeBegin("device");
    ok &= optGeneric(p.getDevice());
    j.attributeEnd();
    j.attribute("volatile", p.getIsVolatile());
  });
  return ok;
}

bool Encoder::opt(tg::OptAttr o) {
  bool ok = true;
  j.object([&] {
    j.attribute("kind", "Opt");
    j.attribute("op", upper(tg::stringifyOptOps(o.getOp())));
    if (auto a = o.getAxis())
      j.attribute("axis", *a);
    else
      j.attribute("axis", nullptr);
    j.attributeBegin("arg");
    ok &= optGeneric(o.getArg());
    j.attributeEnd();
  });
  return ok;
}

bool Encoder::estimates(tg::EstimatesAttr e) {
  bool ok = true;
  j.object([&] {
    j.attribute("kind", "Estimates");
    j.attributeBegin("ops");
    ok &= generic(e.getOps());
    j.attributeEnd();
    j.attributeBegin("lds");
    ok &= generic(e.getLds());
    j.attributeEnd();
    j.attributeBegin("mem");
    ok &= generic(e.getMem());
    j.attributeEnd();
  });
  return ok;
}

bool Encoder::kernelInfo(tg::KernelInfoAttr k) {
  bool ok = true;
  auto optArray = [&](ArrayAttr arr) {
    j.array([&] {
      for (Attribute a : arr) {
        if (auto o = dyn_cast<tg::OptAttr>(a))
          ok &= opt(o);
        else
          ok &= generic(a);
      }
    });
  };
  j.object([&] {
    j.attribute("kind", "KernelInfo");
    j.attribute("name", k.getName());
    j.attributeArray("axis_types", [&] {
      for (Attribute a : k.getAxisTypes()) {
        if (auto at = dyn_cast<tg::AxisTypeAttr>(a)) {
          j.value(upper(tg::stringifyAxisType(at.getValue())));
        } else {
          ok = false;
          err = "KernelInfo axis_types must hold #tg.axis_type";
          j.value(nullptr);
        }
      }
    });
    j.attribute("dont_use_locals", k.getDontUseLocals());
    j.attributeBegin("applied_opts");
    optArray(k.getAppliedOpts());
    j.attributeEnd();
    j.attributeBegin("opts_to_apply");
    if (k.getOptsToApply())
      optArray(k.getOptsToApply());
    else
      j.value(nullptr);
    j.attributeEnd();
    j.attributeBegin("estimates");
    ok &= optGeneric(k.getEstimates());
    j.attributeEnd();
    j.attribute("beam", k.getBeam());
  });
  return ok;
}

bool Encoder::callInfo(tg::CallInfoAttr c) {
  bool ok = true;
  j.object([&] {
    j.attribute("kind", "CallInfo");
    if (c.getGradFxn())
      j.attribute("grad_fxn", c.getGradFxn().getValue());
    else
      j.attribute("grad_fxn", nullptr);
    if (c.getName())
      j.attribute("name", c.getName().getValue());
    else
      j.attribute("name", nullptr);
    j.attribute("precompile", c.getPrecompile());
    j.attribute("precompile_backward", c.getPrecompileBackward());
    j.attributeBegin("aux");
    ok &= optGeneric(c.getAux());
    j.attributeEnd();
  });
  return ok;
}

bool Encoder::bufferizeOpts(tg::BufferizeOptsAttr b) {
  bool ok = true;
  j.object([&] {
    j.attribute("kind", "BufferizeOpts");
    j.attributeBegin("device");
    ok &= optGeneric(b.getDevice());
    j.attributeEnd();
    j.attribute("addrspace", upper(tg::stringifyAddrSpace(b.getAddrspace())));
    j.attribute("removable", b.getRemovable());
  });
  return ok;
}

bool Encoder::generic(Attribute attr) {
  if (!attr || isa<UnitAttr>(attr)) {
    j.value(nullptr);
    return true;
  }
  if (auto b = dyn_cast<BoolAttr>(attr)) {
    j.value(b.getValue());
    return true;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    writeInt(j, i.getValue());
    return true;
  }
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    floatValue(f.getValueAsDouble());
    return true;
  }
  if (auto s = dyn_cast<StringAttr>(attr)) {
    j.value(s.getValue());
    return true;
  }
  if (auto a = dyn_cast<ArrayAttr>(attr)) {
    bool ok = true;
    j.array([&] {
      for (Attribute e : a)
        ok &= generic(e);
    });
    return ok;
  }
  if (auto d = dyn_cast<DenseI64ArrayAttr>(attr)) {
    j.array([&] {
      for (int64_t v : d.asArrayRef())
        j.value(v);
    });
    return true;
  }
  if (auto d = dyn_cast<DenseBoolArrayAttr>(attr)) {
    j.array([&] {
      for (bool v : d.asArrayRef())
        j.value(v);
    });
    return true;
  }
  if (isa<tg::InvalidAttr>(attr)) {
    j.object([&] { j.attribute("kind", "Invalid"); });
    return true;
  }
  if (auto t = dyn_cast<TypeAttr>(attr)) {
    j.object([&] {
      j.attribute("kind", "DType");
      j.attributeBegin("name");
      dtype(t.getValue());
      j.attributeEnd();
    });
    return bool(tg::getDType(t.getValue()));
  }
  if (auto e = dyn_cast<tg::AxisTypeAttr>(attr)) {
    j.object([&] {
      j.attribute("kind", "AxisType");
      j.attribute("name", upper(tg::stringifyAxisType(e.getValue())));
    });
    return true;
  }
  if (auto e = dyn_cast<tg::AddrSpaceAttr>(attr)) {
    j.object([&] {
      j.attribute("kind", "AddrSpace");
      j.attribute("name", upper(tg::stringifyAddrSpace(e.getValue())));
    });
    return true;
  }
  if (auto e = dyn_cast<tg::OptOpsAttr>(attr)) {
    j.object([&] {
      j.attribute("kind", "OptOps");
      j.attribute("name", upper(tg::stringifyOptOps(e.getValue())));
    });
    return true;
  }
  if (auto e = dyn_cast<tg::ReduceKindAttr>(attr)) {
    j.object([&] {
      j.attribute("kind", "Ops");
      j.attribute("name", upper(tg::stringifyReduceKind(e.getValue())));
    });
    return true;
  }
  if (auto p = dyn_cast<tg::ParamAttr>(attr))
    return paramArg(p);
  if (auto k = dyn_cast<tg::KernelInfoAttr>(attr))
    return kernelInfo(k);
  if (auto o = dyn_cast<tg::OptAttr>(attr))
    return opt(o);
  if (auto e = dyn_cast<tg::EstimatesAttr>(attr))
    return estimates(e);
  if (auto c = dyn_cast<tg::CallInfoAttr>(attr))
    return callInfo(c);
  if (auto b = dyn_cast<tg::BufferizeOptsAttr>(attr))
    return bufferizeOpts(b);
  if (auto d = dyn_cast<DictionaryAttr>(attr)) {
    bool ok = true;
    j.object([&] {
      for (NamedAttribute na : d) {
        j.attributeBegin(na.getName().getValue());
        ok &= generic(na.getValue());
        j.attributeEnd();
      }
    });
    return ok;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "attribute " << attr << " has no tinygrad arg encoding";
  err = s;
  j.value(nullptr);
  return false;
}
