//===- TGOps.cpp - tinygrad core UOps -------------------------------------===//
#include "tinygrad/Dialect/TG/IR/TG.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include <cmath>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;

//===----------------------------------------------------------------------===//
// ConstOp
//===----------------------------------------------------------------------===//

// `tg.const 3 : !tg.weakint`, `tg.const -0.0 : f32`, `tg.const nan : f32`,
// `tg.const true : i1`, `tg.const invalid : i1`. Non-finite floats are
// keywords so that the text reads like tinygrad's repr.
ParseResult ConstOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  Attribute value;
  bool negative = succeeded(parser.parseOptionalMinus());
  APInt intValue;
  // parseOptionalInteger also accepts `true`/`false` (as 1/0): try the bool
  // keywords first so that `tg.const true : i1` is a BoolAttr.
  std::optional<bool> boolValue;
  if (!negative && succeeded(parser.parseOptionalKeyword("true")))
    boolValue = true;
  else if (!negative && succeeded(parser.parseOptionalKeyword("false")))
    boolValue = false;
  OptionalParseResult intResult =
      boolValue ? OptionalParseResult(std::nullopt)
                : parser.parseOptionalInteger(intValue);
  if (boolValue) {
    value = BoolAttr::get(ctx, *boolValue);
  } else if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    intValue = intValue.sextOrTrunc(128);
    if (negative)
      intValue.negate();
    value = IntegerAttr::get(IntegerType::get(ctx, 128), intValue);
  } else if (succeeded(parser.parseOptionalKeyword("inf"))) {
    value = FloatAttr::get(Float64Type::get(ctx),
                           negative ? -INFINITY : INFINITY);
  } else if (succeeded(parser.parseOptionalKeyword("nan"))) {
    value = FloatAttr::get(Float64Type::get(ctx),
                           negative ? -std::nan("") : std::nan(""));
  } else if (!negative && succeeded(parser.parseOptionalKeyword("invalid"))) {
    value = InvalidAttr::get(ctx);
  } else {
    double d;
    if (parser.parseFloat(d))
      return failure();
    value = FloatAttr::get(Float64Type::get(ctx), negative ? -d : d);
  }
  Type type;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseType(type))
    return failure();
  result.getOrAddProperties<Properties>().value = value;
  result.addTypes(type);
  return success();
}

/// Shortest decimal that reads back as the same double (Python's repr).
static std::string formatDouble(double d) {
  if (std::isnan(d))
    return std::signbit(d) ? "-nan" : "nan";
  if (std::isinf(d))
    return d < 0 ? "-inf" : "inf";
  char buf[64];
  int prec = 1;
  for (; prec <= 17; ++prec) {
    snprintf(buf, sizeof(buf), "%.*e", prec - 1, d);
    if (strtod(buf, nullptr) == d)
      break;
  }
  // Python's repr: positional for decimal exponents in [-4, 16).
  int exp = atoi(strchr(buf, 'e') + 1);
  if (exp >= -4 && exp < 16)
    snprintf(buf, sizeof(buf), "%.*f", std::max(prec - 1 - exp, 0), d);
  std::string s = buf;
  // MLIR float literals need a '.' in the mantissa ("1.0e+16", not "1e+16").
  if (s.find('.') == std::string::npos) {
    size_t e = s.find('e');
    s.insert(e == std::string::npos ? s.size() : e, ".0");
  }
  return s;
}

void ConstOp::print(OpAsmPrinter &p) {
  Attribute value = getValue();
  p << ' ';
  if (isa<InvalidAttr>(value))
    p << "invalid";
  else if (auto b = dyn_cast<BoolAttr>(value))
    p << (b.getValue() ? "true" : "false");
  else if (auto i = dyn_cast<IntegerAttr>(value))
    p << llvm::toString(i.getValue(), 10, /*Signed=*/true);
  else if (auto f = dyn_cast<FloatAttr>(value))
    p << formatDouble(f.getValueAsDouble());
  else
    p.printAttribute(value);
  p.printOptionalAttrDict((*this)->getAttrs(), {"value"});
  p << " : " << getType();
}

LogicalResult ConstOp::verify() {
  Attribute value = getValue();
  Type type = getType();
  ValueInfo info = getValueInfo(type);
  if (!info.shape.empty() || info.isVoid)
    return emitOpError("violates spec rule 'spec_shared.const': a CONST is a "
                       "scalar; build vector constants with tg.stack");
  auto dt = getDType(type);
  if (!dt)
    return emitOpError() << "result type " << type << " is not a tinygrad dtype";
  if (isa<InvalidAttr>(value)) {
    if (*dt != DType::Bool)
      return emitSpecError(*this, "spec_shared.const")
             << "Invalid must have dtype bool, got " << type;
    return success();
  }
  // tinygrad: type(val) is type(dtype.const(val)).
  if (isa<BoolAttr>(value)) {
    if (*dt != DType::Bool)
      return emitSpecError(*this, "spec_shared.const")
             << "a bool value needs dtype bool, got " << type;
  } else if (isa<IntegerAttr>(value)) {
    // dtype.const(v) is int(v) for every dtype that is neither float nor
    // bool (this includes the internal uint128/uint256).
    if (isFloat(*dt) || *dt == DType::Bool)
      return emitSpecError(*this, "spec_shared.const")
             << "an int value needs an int dtype, got " << type;
  } else if (isa<FloatAttr>(value)) {
    if (!isFloat(*dt))
      return emitSpecError(*this, "spec_shared.const")
             << "a float value needs a float dtype, got " << type;
  } else {
    return emitOpError() << "value must be an int, float, bool or invalid";
  }
  return success();
}

OpFoldResult ConstOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// CastOp / BitcastOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyCastTarget(Operation *op, Type dtype) {
  auto dt = getDType(dtype);
  if (!dt || *dt == DType::Void)
    return emitSpecError(op, "spec_shared.cast_arg")
           << "target " << dtype << " is not a tinygrad dtype";
  return success();
}

LogicalResult CastOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                       ValueRange operands, DictionaryAttr attrs,
                                       OpaqueProperties props, RegionRange regions,
                                       SmallVectorImpl<Type> &results) {
  Adaptor adaptor(operands, attrs, props, regions);
  ValueInfo src = getValueInfo(adaptor.getSrc().getType());
  if (src.isVoid)
    return emitOptionalError(loc, "cannot cast a void value");
  results.push_back(makeValueType(adaptor.getDtype(), src.shape, src.addrspace));
  return success();
}

LogicalResult CastOp::verify() { return verifyCastTarget(*this, getDtype()); }

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType() && !isWeakType(getType()))
    return getSrc(); // CAST to its own dtype is the identity
  auto s = getScalar(adaptor.getSrc());
  auto to = getDType(getDtype());
  if (!s || !to || s->isInvalid())
    return {};
  if (auto r = castScalar(*s, *to))
    return getScalarAttr(getContext(), *r);
  return {};
}

LogicalResult BitcastOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &results) {
  Adaptor adaptor(operands, attrs, props, regions);
  ValueInfo src = getValueInfo(adaptor.getSrc().getType());
  auto from = src.dtype();
  auto to = getDType(adaptor.getDtype());
  if (src.isVoid || !from || !to)
    return emitOptionalError(loc, "bitcast needs tinygrad dtypes");
  SmallVector<int64_t> shape = src.shape;
  int64_t in = getInfo(*from).itemsize, out = getInfo(*to).itemsize;
  if (in != out && !shape.empty() && shape.back() != kDynamic) {
    if ((shape.back() * in) % out)
      return emitOptionalError(loc, "unsupported size in bitcast: last dim ",
                               shape.back(), " of ", in, "-byte elements is "
                               "not a whole number of ", out, "-byte elements");
    shape.back() = shape.back() * in / out;
  }
  results.push_back(makeValueType(adaptor.getDtype(), shape, src.addrspace));
  return success();
}

LogicalResult BitcastOp::verify() { return verifyCastTarget(*this, getDtype()); }

OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType() && !isWeakType(getType()))
    return getSrc(); // BITCAST to its own dtype is the identity
  auto s = getScalar(adaptor.getSrc());
  auto from = getDType(getSrc().getType());
  auto to = getDType(getDtype());
  if (!s || !from || !to || s->isInvalid())
    return {};
  if (auto r = bitcastScalar(*s, *from, *to))
    return getScalarAttr(getContext(), *r);
  return {};
}

//===----------------------------------------------------------------------===//
// StackOp
//===----------------------------------------------------------------------===//

LogicalResult StackOp::inferReturnTypes(MLIRContext *ctx,
                                        std::optional<Location> loc,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &results) {
  if (operands.empty()) {
    results.push_back(VoidType::get(ctx));
    return success();
  }
  SmallVector<DType> dts;
  for (Value v : operands) {
    auto dt = getDType(v.getType());
    if (!dt || *dt == DType::Void)
      return emitOptionalError(loc, "stack element of type ", v.getType(),
                               " is not a tinygrad value");
    dts.push_back(*dt);
  }
  std::optional<DType> promo = llvm::all_equal(dts) ? std::optional(dts[0])
                                                    : leastUpperDType(dts);
  if (!promo)
    return emitOptionalError(loc, "stack elements have no common dtype");
  ValueInfo first = getValueInfo(operands[0].getType());
  SmallVector<int64_t> shape{(int64_t)operands.size()};
  shape.append(first.shape);
  results.push_back(makeValueType(getTypeForDType(ctx, *promo), shape));
  return success();
}

LogicalResult StackOp::verify() {
  if (getSrcs().empty())
    return success();
  ValueInfo first = getValueInfo(getSrcs()[0].getType());
  Type elem = getElementTypeOrSelf(getType());
  for (auto [i, v] : llvm::enumerate(getSrcs())) {
    ValueInfo info = getValueInfo(v.getType());
    if (info.shape != first.shape)
      return emitSpecError(*this, "spec_shared.stack")
             << "operand #" << i << " has shape " << formatShape(info.shape)
             << " but operand #0 has " << formatShape(first.shape);
    if (!matchesDType(v, elem) && !isWeakType(v.getType()))
      return emitSpecError(*this, "spec_shared.stack")
             << "operand #" << i << " has dtype " << info.elementType
             << ", expected " << elem << " or a weak dtype";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Void-producing structure ops
//===----------------------------------------------------------------------===//

// SINK, GROUP and TUPLE have a buildable !tg.void result: ODS infers it.

LogicalResult GroupOp::verify() {
  // GROUP merges effects only: stores, ENDs, NOOPs, INS and nested GROUPs.
  static constexpr StringLiteral allowed[] = {"tg.group", "tgk.store",
                                              "tg.noop", "hcq.ins", "tgk.end"};
  for (auto [i, v] : llvm::enumerate(getSrcs())) {
    Operation *def = v.getDefiningOp();
    StringRef name = def ? def->getName().getStringRef() : "";
    if (!llvm::is_contained(allowed, name))
      return emitSpecError(*this, "spec_shared.group")
             << "operand #" << i << " must be a GROUP, STORE, NOOP, INS or "
             << "END, got " << (def ? name : StringRef("a block argument"));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// AfterOp
//===----------------------------------------------------------------------===//

LogicalResult AfterOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &results) {
  results.push_back(operands[0].getType());
  return success();
}

LogicalResult AfterOp::verify() {
  if (isVoidType(getSrc().getType()))
    return emitSpecError(*this, "spec_shared.after")
           << "operand #0 must be a value (the buffer passed through)";
  return success();
}

//===----------------------------------------------------------------------===//
// GetTupleOp
//===----------------------------------------------------------------------===//

LogicalResult GetTupleOp::verify() {
  Operation *def = getSrc().getDefiningOp();
  if (auto call = dyn_cast_or_null<CallOp>(def))
    def = call.getBody().getDefiningOp();
  auto tuple = dyn_cast_or_null<TupleOp>(def);
  if (!tuple)
    return emitSpecError(*this, "spec_tensor.gettuple")
           << "operand #0 must be a TUPLE or a CALL whose body is a TUPLE";
  if (getIndex() >= tuple.getSrcs().size())
    return emitSpecError(*this, "spec_tensor.gettuple")
           << "index " << getIndex() << " out of range for a tuple of "
           << tuple.getSrcs().size();
  Value elem = tuple.getSrcs()[getIndex()];
  if (!matchesDType(elem, getElementTypeOrSelf(getType())))
    return emitSpecError(*this, "spec_tensor.gettuple")
           << "result dtype " << getType() << " does not match element "
           << elem.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ParamOp / BufferOp
//===----------------------------------------------------------------------===//

/// PARAM/BUFFER: dtype from the ParamArg; shape from the shape operand
/// (snapshot form) or the flat `size` (seed-004 form); addrspace from the arg.
static LogicalResult inferStorageType(std::optional<Location> loc, Value shape,
                                      ParamAttr arg,
                                      SmallVectorImpl<Type> &results) {
  if (!arg)
    return emitOptionalError(loc, "PARAM/BUFFER needs a #tg.param arg");
  SmallVector<int64_t> dims;
  if (shape) {
    if (shape.getDefiningOp<NoopOp>()) {
      // NOOP shape: tinygrad's "no shape" placeholder for scalars.
    } else if (auto s = getShapeOperand(shape)) {
      dims = *s;
    } else {
      return emitOptionalError(loc, "shape operand of type ", shape.getType(),
                               " is not a shape (a CONST or STACK of ints)");
    }
  } else if (arg.getSize()) {
    dims.push_back(*arg.getSize());
  }
  if (!getDType(arg.getDtype()))
    return emitOptionalError(loc, "param dtype ", arg.getDtype(),
                             " is not a tinygrad dtype");
  results.push_back(makeValueType(arg.getDtype(), dims, arg.getAddrspace()));
  return success();
}

LogicalResult ParamOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                        ValueRange operands, DictionaryAttr attrs,
                                        OpaqueProperties props, RegionRange regions,
                                        SmallVectorImpl<Type> &results) {
  Adaptor adaptor(operands, attrs, props, regions);
  return inferStorageType(loc, adaptor.getShape(), adaptor.getArg(), results);
}

LogicalResult BufferOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                         ValueRange operands, DictionaryAttr attrs,
                                         OpaqueProperties props, RegionRange regions,
                                         SmallVectorImpl<Type> &results) {
  Adaptor adaptor(operands, attrs, props, regions);
  return inferStorageType(loc, adaptor.getShape(), adaptor.getArg(), results);
}

static LogicalResult verifyParamArg(Operation *op, ParamAttr arg) {
  if (auto vmm = arg.getVminVmax())
    if (vmm.size() != 2)
      return emitSpecError(op, "spec_shared.param")
             << "vmin_vmax must be a pair, got " << vmm.size() << " values";
  if (Attribute dev = arg.getDevice()) {
    auto isStr = [](Attribute a) { return isa<StringAttr>(a); };
    auto arr = dyn_cast<ArrayAttr>(dev);
    if (!isStr(dev) && !(arr && llvm::all_of(arr, isStr)))
      return emitSpecError(op, "spec_shared.param")
             << "device must be a string or an array of strings";
  }
  return success();
}

LogicalResult ParamOp::verify() { return verifyParamArg(*this, getArg()); }

LogicalResult BufferOp::verify() { return verifyParamArg(*this, getArg()); }

//===----------------------------------------------------------------------===//
// CallOp
//===----------------------------------------------------------------------===//

LogicalResult CallOp::verify() {
  Type bodyType = getBody().getType();
  if (isVoidType(bodyType)) {
    if (!isVoidType(getType()) && !getBody().getDefiningOp<TupleOp>())
      return emitSpecError(*this, "spec_shared.call")
             << "a CALL of an opaque body is void";
    return success();
  }
  // A COPY body is opaque like a SINK (tinygrad's _OPAQUE_CALL_BODIES; the
  // schedule's copy calls): the CALL is void.
  if (Operation *def = getBody().getDefiningOp();
      def && def->getName().getStringRef() == "tgt.copy" && isVoidType(getType()))
    return success();
  // CALL of a function address: the address must be uint64.
  if (!matchesDType(getBody(), getTypeForDType(getContext(), DType::UInt64)))
    return emitSpecError(*this, "spec_shared.call")
           << "operand #0 (function address) must be uint64, got " << bodyType;
  return success();
}

#define GET_OP_CLASSES
#include "tinygrad/Dialect/TG/IR/TGOps.cpp.inc"
