//===- TypeRules.cpp - tinygrad's derived dtype/shape rules ---------------===//
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TG/IR/TGTraits.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::tg;

std::optional<DType> tg::getDType(Type type) {
  if (!type)
    return std::nullopt;
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  if (isa<VoidType>(type))
    return DType::Void;
  if (isa<WeakIntType>(type))
    return DType::WeakInt;
  if (isa<WeakFloatType>(type))
    return DType::WeakFloat;
  if (auto it = dyn_cast<IntegerType>(type)) {
    unsigned w = it.getWidth();
    if (w == 1)
      return it.isSignless() ? std::optional<DType>(DType::Bool) : std::nullopt;
    if (it.isSigned()) {
      switch (w) {
      case 8: return DType::Int8;
      case 16: return DType::Int16;
      case 32: return DType::Int32;
      case 64: return DType::Int64;
      }
    } else if (it.isUnsigned()) {
      switch (w) {
      case 8: return DType::UInt8;
      case 16: return DType::UInt16;
      case 32: return DType::UInt32;
      case 64: return DType::UInt64;
      case 128: return DType::UInt128;
      case 256: return DType::UInt256;
      }
    }
    // Signless wider ints are upstream's; tinygrad always knows the sign.
    return std::nullopt;
  }
  return llvm::TypeSwitch<Type, std::optional<DType>>(type)
      .Case([](Float8E4M3FNType) { return DType::FP8E4M3; })
      .Case([](Float8E5M2Type) { return DType::FP8E5M2; })
      .Case([](Float8E4M3FNUZType) { return DType::FP8E4M3FNUZ; })
      .Case([](Float8E5M2FNUZType) { return DType::FP8E5M2FNUZ; })
      .Case([](Float16Type) { return DType::Float16; })
      .Case([](BFloat16Type) { return DType::BFloat16; })
      .Case([](Float32Type) { return DType::Float32; })
      .Case([](Float64Type) { return DType::Float64; })
      .Default([](Type) { return std::nullopt; });
}

Type tg::getTypeForDType(MLIRContext *ctx, DType dtype) {
  auto sint = [&](unsigned w) {
    return IntegerType::get(ctx, w, IntegerType::Signed);
  };
  auto uint = [&](unsigned w) {
    return IntegerType::get(ctx, w, IntegerType::Unsigned);
  };
  switch (dtype) {
  case DType::Void: return VoidType::get(ctx);
  case DType::WeakInt: return WeakIntType::get(ctx);
  case DType::WeakFloat: return WeakFloatType::get(ctx);
  case DType::Bool: return IntegerType::get(ctx, 1);
  case DType::Int8: return sint(8);
  case DType::UInt8: return uint(8);
  case DType::Int16: return sint(16);
  case DType::UInt16: return uint(16);
  case DType::Int32: return sint(32);
  case DType::UInt32: return uint(32);
  case DType::Int64: return sint(64);
  case DType::UInt64: return uint(64);
  case DType::UInt128: return uint(128);
  case DType::UInt256: return uint(256);
  case DType::FP8E4M3: return Float8E4M3FNType::get(ctx);
  case DType::FP8E5M2: return Float8E5M2Type::get(ctx);
  case DType::FP8E4M3FNUZ: return Float8E4M3FNUZType::get(ctx);
  case DType::FP8E5M2FNUZ: return Float8E5M2FNUZType::get(ctx);
  case DType::Float16: return Float16Type::get(ctx);
  case DType::BFloat16: return BFloat16Type::get(ctx);
  case DType::Float32: return Float32Type::get(ctx);
  case DType::Float64: return Float64Type::get(ctx);
  }
  llvm_unreachable("unknown dtype");
}

ValueInfo tg::getValueInfo(Type type) {
  ValueInfo info;
  if (isa<VoidType>(type)) {
    info.isVoid = true;
    return info;
  }
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    info.elementType = tensor.getElementType();
    info.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
    if (auto as = dyn_cast_or_null<AddrSpaceAttr>(tensor.getEncoding()))
      info.addrspace = as.getValue();
    return info;
  }
  info.elementType = type;
  return info;
}

Type tg::makeValueType(Type elementType, ArrayRef<int64_t> shape,
                       std::optional<AddrSpace> addrspace) {
  if (isa<VoidType>(elementType))
    return elementType;
  bool memory = addrspace && *addrspace != AddrSpace::ALU;
  if (shape.empty() && !memory)
    return elementType;
  Attribute encoding;
  if (memory)
    encoding = AddrSpaceAttr::get(elementType.getContext(), *addrspace);
  return RankedTensorType::get(shape, elementType, encoding);
}

Type tg::getElementTypeOrSelf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

bool tg::isVoidType(Type type) { return isa<VoidType>(type); }

bool tg::isWeakType(Type type) {
  auto dt = getDType(type);
  return dt && isWeak(*dt);
}

bool tg::isBoolType(Type type) {
  auto dt = getDType(type);
  return dt && *dt == DType::Bool;
}

bool tg::isIntDType(Type type) {
  auto dt = getDType(type);
  return dt && isInt(*dt);
}

bool tg::isFloatDType(Type type) {
  auto dt = getDType(type);
  return dt && isFloat(*dt);
}

bool tg::isInvalidValue(Value value) {
  // `base` looks through movement ops: a padded Invalid is still Invalid.
  Operation *def = value.getDefiningOp();
  while (def && def->hasTrait<OpTrait::tinygrad::Movement>() &&
         def->getNumOperands() > 0)
    def = def->getOperand(0).getDefiningOp();
  auto c = dyn_cast_or_null<ConstOp>(def);
  return c && isa<InvalidAttr>(c.getValue());
}

bool tg::matchesDType(Value value, Type elementType) {
  return getElementTypeOrSelf(value.getType()) == elementType ||
         isInvalidValue(value);
}

std::optional<SmallVector<int64_t>> tg::broadcastShapes(ArrayRef<int64_t> a,
                                                        ArrayRef<int64_t> b) {
  size_t n = std::max(a.size(), b.size());
  SmallVector<int64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (x == y || y == 1)
      out[i] = x;
    else if (x == 1)
      out[i] = y;
    else if (x == kDynamic || y == kDynamic)
      out[i] = kDynamic; // symbolic dims cannot be disproven equal here
    else
      return std::nullopt;
  }
  return out;
}

std::optional<int64_t> tg::getConstInt(Value value) {
  auto c = value.getDefiningOp<ConstOp>();
  if (!c)
    return std::nullopt;
  auto i = dyn_cast<IntegerAttr>(c.getValue());
  if (!i || isa<BoolAttr>(c.getValue()))
    return std::nullopt;
  if (i.getValue().getSignificantBits() > 64)
    return std::nullopt;
  return i.getValue().getSExtValue();
}

std::optional<SmallVector<int64_t>> tg::getShapeOperand(Value value) {
  Type type = value.getType();
  if (isa<VoidType>(type)) // the empty STACK: shape ()
    return SmallVector<int64_t>{};
  ValueInfo info = getValueInfo(type);
  if (!isIntDType(info.elementType))
    return std::nullopt;
  if (info.shape.empty()) {
    if (auto v = getConstInt(value))
      return SmallVector<int64_t>{*v};
    return SmallVector<int64_t>{kDynamic};
  }
  if (info.shape.size() != 1 || info.shape[0] == kDynamic)
    return std::nullopt;
  SmallVector<int64_t> dims(info.shape[0], kDynamic);
  if (auto stack = value.getDefiningOp<StackOp>())
    for (auto [i, src] : llvm::enumerate(stack.getSrcs()))
      if (auto v = getConstInt(src))
        dims[i] = *v;
  return dims;
}

std::string tg::formatShape(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (i)
      s += ", ";
    s += d == kDynamic ? std::string("?") : std::to_string(d);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

InFlightDiagnostic tg::emitSpecError(Operation *op, StringRef rule) {
  return op->emitOpError() << "violates spec rule '" << rule << "': ";
}

//===----------------------------------------------------------------------===//
// ALU type inference (dtype_from_uop + _shape for GroupOp.ALU)
//===----------------------------------------------------------------------===//

static std::string typeStr(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

static bool isUnaryTranscendental(ALUOp op) {
  return op == ALUOp::Exp2 || op == ALUOp::Log2 || op == ALUOp::Sin ||
         op == ALUOp::Sqrt || op == ALUOp::Reciprocal;
}

static bool isComparison(ALUOp op) {
  return op == ALUOp::CmpLt || op == ALUOp::CmpNe || op == ALUOp::CmpEq;
}

LogicalResult tg::inferALUType(MLIRContext *ctx, std::optional<Location> loc,
                               ALUOp op, ValueRange operands,
                               SmallVectorImpl<Type> &results) {
  auto fail = [&](const Twine &msg) {
    if (loc)
      mlir::emitError(*loc) << msg;
    return failure();
  };
  SmallVector<int64_t> shape;
  SmallVector<DType> dtypes;
  for (auto [i, v] : llvm::enumerate(operands)) {
    ValueInfo info = getValueInfo(v.getType());
    auto dt = info.dtype();
    if (!dt || *dt == DType::Void)
      return fail("operand #" + Twine(i) + " has type " +
                  typeStr(v.getType()) + " which is not a tinygrad value");
    dtypes.push_back(*dt);
    auto b = broadcastShapes(shape, info.shape);
    if (!b)
      return fail("operand #" + Twine(i) + " shape " + formatShape(info.shape) +
                  " does not broadcast with " + formatShape(shape));
    shape = *b;
  }
  DType result;
  if (isComparison(op)) {
    result = DType::Bool;
  } else if (isUnaryTranscendental(op)) {
    if (isInvalidValue(operands[0])) {
      result = DType::Bool;
    } else {
      auto f = leastUpperFloat(dtypes[0]);
      if (!f)
        return fail(Twine("no float dtype for ") + getName(dtypes[0]));
      result = *f;
    }
  } else if (op == ALUOp::Neg || op == ALUOp::Trunc) {
    result = dtypes[0];
  } else if (op == ALUOp::Shl || op == ALUOp::Shr) {
    for (auto [i, v] : llvm::enumerate(operands))
      if (!isInt(dtypes[i]) && !isInvalidValue(v))
        return fail("shift operand #" + Twine(i) + " must be int, got " +
                    getName(dtypes[i]));
    result = dtypes[0];
  } else {
    ArrayRef<DType> promo = dtypes;
    if (op == ALUOp::Where) {
      if (dtypes[0] != DType::Bool)
        return fail(Twine("where cond must be bool, got ") + getName(dtypes[0]));
      promo = promo.drop_front();
    }
    if (llvm::all_equal(promo)) {
      result = promo[0];
    } else {
      auto lub = leastUpperDType(promo);
      if (!lub)
        return fail("operand dtypes have no common supertype");
      result = *lub;
    }
  }
  results.push_back(makeValueType(getTypeForDType(ctx, result), shape));
  return success();
}

//===----------------------------------------------------------------------===//
// spec_shared rules for ALU ops
//===----------------------------------------------------------------------===//

LogicalResult tg::verifyALUSpec(Operation *op, ALUOp kind) {
  Type resultElem = getElementTypeOrSelf(op->getResult(0).getType());
  auto resultDType = getDType(resultElem);
  auto weakOrMatch = [&](Value v, Type elem) {
    return matchesDType(v, elem) || isWeakType(v.getType());
  };
  if (kind == ALUOp::Where) {
    if (!isBoolType(op->getOperand(0).getType()))
      return emitSpecError(op, "spec_shared.where_cond")
             << "operand #0 (the condition) must be bool";
    for (unsigned i = 1; i < 3; ++i)
      if (!weakOrMatch(op->getOperand(i), resultElem))
        return emitSpecError(op, "spec_shared.where")
               << "operand #" << i << " has dtype "
               << getElementTypeOrSelf(op->getOperand(i).getType())
               << ", expected " << resultElem << " or a weak dtype";
    return success();
  }
  if (isComparison(kind)) {
    Value x = op->getOperand(0), y = op->getOperand(1);
    Type xt = getElementTypeOrSelf(x.getType()),
         yt = getElementTypeOrSelf(y.getType());
    if (!(matchesDType(x, yt) || matchesDType(y, xt) || isWeakType(xt) ||
          isWeakType(yt)))
      return emitSpecError(op, "spec_shared.comparison")
             << "operand dtypes " << xt << " and " << yt
             << " differ and neither is weak";
    return success();
  }
  if (kind == ALUOp::And || kind == ALUOp::Or || kind == ALUOp::Xor ||
      kind == ALUOp::Shl || kind == ALUOp::Shr) {
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (isFloatDType(v.getType()))
        return emitSpecError(op, "spec_shared.bitwise_not_float")
               << "operand #" << i << " is a float";
  }
  if (kind == ALUOp::Shl || kind == ALUOp::Shr) {
    Value x = op->getOperand(0), c = op->getOperand(1);
    auto cdt = getDType(c.getType());
    if (!(matchesDType(x, resultElem) ||
          (getDType(x.getType()) == DType::WeakInt)))
      return emitSpecError(op, "spec_shared.shift_value")
             << "operand #0 must have the result dtype or be weakint";
    if (!(matchesDType(c, resultElem) || cdt == DType::UInt32 ||
          cdt == DType::WeakInt || isInvalidValue(x)))
      return emitSpecError(op, "spec_shared.shift_count")
             << "operand #1 must have the result dtype, uint32 or weakint";
    return success();
  }
  if (kind == ALUOp::CDiv || kind == ALUOp::CMod || kind == ALUOp::FloorDiv ||
      kind == ALUOp::FloorMod) {
    bool anyInvalid = llvm::any_of(op->getOperands(), isInvalidValue);
    if (!(resultDType && isInt(*resultDType)) && !anyInvalid)
      return emitSpecError(op, "spec_shared.int_division")
             << "integer division needs an int dtype, got " << resultElem;
  }
  // spec_tensor accepts a float transcendental of any operand (its rule
  // comes before spec_shared's): only tg-verify-spec's other phases check it.
  bool transcendental = kind == ALUOp::Exp2 || kind == ALUOp::Log2 || kind == ALUOp::Sin ||
                        kind == ALUOp::Sqrt || kind == ALUOp::Reciprocal;
  if (transcendental && resultDType && isFloat(*resultDType))
    return success();
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (!weakOrMatch(v, resultElem))
      return emitSpecError(op, "spec_shared.alu_operand_dtype")
             << "operand #" << i << " has dtype "
             << getElementTypeOrSelf(v.getType()) << ", expected "
             << resultElem << " or a weak dtype";
  return success();
}
