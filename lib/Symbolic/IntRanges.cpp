//===- IntRanges.cpp - tinygrad vmin/vmax as InferIntRangeInterface -------===//
//
// One generic implementation for every op: the interval rules live only in
// Bounds.cpp. See IntRanges.h for the conventions.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Symbolic/IntRanges.h"

#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TGK/IR/TGK.h"
#include "tinygrad/Symbolic/UOp.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tinygrad;

using I = __int128;
using U = unsigned __int128;

namespace {
/// How a value's integer range is represented.
struct IntKind {
  DType dtype;
  unsigned width;
  bool isUnsigned; ///< ui*, and bool (0/1)
};
} // namespace

static std::optional<IntKind> getIntKind(Type type) {
  if (!type)
    return std::nullopt;
  tg::ValueInfo info = tg::getValueInfo(type);
  if (info.isVoid || !info.elementType)
    return std::nullopt;
  // Memory (a pointer in tinygrad) has no integer value.
  if (info.addrspace && *info.addrspace != tg::AddrSpace::ALU)
    return std::nullopt;
  std::optional<DType> dt = tg::getDType(info.elementType);
  if (!dt)
    return std::nullopt;
  if (*dt == DType::Bool)
    return IntKind{*dt, 1, true};
  if (*dt == DType::WeakInt)
    return IntKind{*dt, 128, false};
  if (!isInt(*dt))
    return std::nullopt;
  return IntKind{*dt, static_cast<unsigned>(getInfo(*dt).bitsize),
                 isUnsigned(*dt)};
}

std::optional<unsigned> tinygrad::getIntRangeBitwidth(Type type) {
  if (auto k = getIntKind(type))
    return k->width;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// APInt <-> __int128
//===----------------------------------------------------------------------===//

static APInt toAPInt(I v, unsigned width) {
  U raw = static_cast<U>(v);
  uint64_t words[2] = {static_cast<uint64_t>(raw),
                       static_cast<uint64_t>(raw >> 64)};
  return APInt(128, words).sextOrTrunc(width);
}

static std::optional<I> fromAPInt(const APInt &v, bool isSigned) {
  unsigned w = v.getBitWidth();
  if (w == 0 || w > 128 || (!isSigned && w == 128 && v.isNegative()))
    return std::nullopt;
  APInt x = isSigned ? v.sext(128) : v.zext(128);
  U raw = (static_cast<U>(x.extractBitsAsZExtValue(64, 64)) << 64) |
          x.extractBitsAsZExtValue(64, 0);
  return static_cast<I>(raw);
}

/// The Python-int interval [lo, hi] a range stands for at `kind`.
static std::optional<std::pair<I, I>> toInterval(const ConstantIntRanges &r,
                                                 const IntKind &kind) {
  std::optional<I> lo, hi;
  if (kind.isUnsigned) {
    lo = fromAPInt(r.umin(), false);
    hi = fromAPInt(r.umax(), false);
  } else {
    lo = fromAPInt(r.smin(), true);
    hi = fromAPInt(r.smax(), true);
  }
  if (!lo || !hi || *lo > *hi)
    return std::nullopt;
  return std::make_pair(*lo, *hi);
}

/// The ConstantIntRanges of the interval [lo, hi] at `kind`: the full range
/// when the interval is empty or does not fit the type.
static ConstantIntRanges fromInterval(I lo, I hi, const IntKind &kind) {
  unsigned w = kind.width;
  if (lo > hi)
    return ConstantIntRanges::maxRange(w);
  if (kind.isUnsigned) {
    I max = (static_cast<I>(1) << w) - 1;
    if (lo < 0 || hi > max)
      return ConstantIntRanges::maxRange(w);
    return ConstantIntRanges::fromUnsigned(toAPInt(lo, w), toAPInt(hi, w));
  }
  if (w < 128) {
    I max = (static_cast<I>(1) << (w - 1)) - 1, min = -max - 1;
    if (lo < min || hi > max)
      return ConstantIntRanges::maxRange(w);
  }
  return ConstantIntRanges::fromSigned(toAPInt(lo, w), toAPInt(hi, w));
}

/// A bound as a Python int (bools are 0/1; finite floats round outward).
static std::optional<I> boundToInt(const Scalar &s, bool upper) {
  if (s.isBool())
    return s.b ? 1 : 0;
  if (s.isInt())
    return s.i;
  if (s.isFloat() && std::isfinite(s.f) && std::fabs(s.f) < 1.0e38) {
    double r = upper ? std::ceil(s.f) : std::floor(s.f);
    return static_cast<I>(r);
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// The one-node graph
//===----------------------------------------------------------------------===//

/// A leaf standing for operand `index` of type `type` with interval
/// `interval` (nullopt: nothing known beyond the dtype).
static sym::UOpRef makeLeaf(sym::Context &ctx, unsigned index, Type type,
                            std::optional<std::pair<I, I>> interval) {
  MLIRContext *mlir = ctx.getMLIRContext();
  std::optional<IntKind> kind = getIntKind(type);
  auto scalar = [&](I v) {
    return kind && kind->dtype == DType::Bool ? Scalar::fromBool(v != 0)
                                              : Scalar::fromInt(v);
  };
  if (kind && interval && interval->first == interval->second)
    return ctx.get(sym::Op::CONST, type, {},
                   sym::Arg{scalar(interval->first), DictionaryAttr()});
  // A variable: a PARAM named after the operand (so two operands never
  // intern to one node), bounded by vmin_vmax when a range is known.
  ArrayAttr vmm;
  if (kind && interval)
    vmm = ArrayAttr::get(mlir, {tg::getScalarAttr(mlir, scalar(interval->first)),
                                tg::getScalarAttr(mlir, scalar(interval->second))});
  auto name = StringAttr::get(mlir, "operand" + std::to_string(index));
  auto param = tg::ParamAttr::get(
      mlir, -1 - static_cast<int64_t>(index), tg::getElementTypeOrSelf(type),
      vmm, int64_t(1), name, tg::AddrSpace::ALU, std::nullopt, Attribute(),
      false, std::nullopt);
  auto attrs = DictionaryAttr::get(
      mlir, {NamedAttribute(StringAttr::get(mlir, "arg"), param)});
  sym::UOpRef shape = ctx.stack({});
  return ctx.get(sym::Op::PARAM, type, {shape}, sym::Arg{Scalar(), attrs});
}

void tinygrad::inferIntRanges(
    Operation *op, ArrayRef<std::optional<ConstantIntRanges>> argRanges,
    function_ref<void(Value, const ConstantIntRanges &)> setResultRange) {
  if (op->getNumResults() != 1)
    return;
  Value result = op->getResult(0);
  std::optional<IntKind> resultKind = getIntKind(result.getType());
  if (!resultKind)
    return;
  auto giveUp = [&] {
    setResultRange(result, ConstantIntRanges::maxRange(resultKind->width));
  };
  std::optional<sym::Op> kind =
      sym::parseOpName(getTinygradOpName(op->getName().getStringRef()));
  if (!kind || argRanges.size() != op->getNumOperands())
    return giveUp();

  sym::Context ctx(op->getContext());
  sym::Arg arg;
  if (*kind == sym::Op::CONST) {
    auto value = tg::getScalar(op->getAttr("value"));
    if (!value || value->isInvalid())
      return giveUp();
    arg.value = *value;
  } else if (DictionaryAttr attrs = op->getAttrDictionary(); !attrs.empty()) {
    arg.attrs = attrs;
  }
  SmallVector<sym::UOpRef, 4> src;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    std::optional<std::pair<I, I>> interval;
    if (argRanges[i])
      if (std::optional<IntKind> k = getIntKind(operand.getType()))
        interval = toInterval(*argRanges[i], *k);
    src.push_back(makeLeaf(ctx, i, operand.getType(), interval));
  }
  sym::UOpRef node = ctx.get(*kind, result.getType(), src, arg);
  std::optional<I> lo = boundToInt(node->vmin(), /*upper=*/false);
  std::optional<I> hi = boundToInt(node->vmax(), /*upper=*/true);
  if (!lo || !hi)
    return giveUp();
  setResultRange(result, fromInterval(*lo, *hi, *resultKind));
}

//===----------------------------------------------------------------------===//
// External models
//===----------------------------------------------------------------------===//

namespace {
template <typename OpTy>
struct IntRangeModel
    : public InferIntRangeInterface::ExternalModel<IntRangeModel<OpTy>, OpTy> {
  void inferResultRanges(Operation *op, ArrayRef<ConstantIntRanges> argRanges,
                         SetIntRangeFn setResultRange) const {
    SmallVector<std::optional<ConstantIntRanges>, 4> args(argRanges.begin(),
                                                          argRanges.end());
    inferIntRanges(op, args, setResultRange);
  }

  /// Operands without a range are common here (buffers, void deps, floats,
  /// weakint block arguments: upstream gives values of types it does not
  /// know no range at all), so an uninitialized operand only defers the
  /// op when its producer will give it a range later; otherwise it is
  /// unknown (the operand dtype's range, as tinygrad has for a bare PARAM).
  void inferResultRangesFromOptional(Operation *op,
                                     ArrayRef<IntegerValueRange> argRanges,
                                     SetIntLatticeFn setResultRange) const {
    SmallVector<std::optional<ConstantIntRanges>, 4> args;
    for (auto [operand, range] : llvm::zip_equal(op->getOperands(), argRanges)) {
      if (!range.isUninitialized()) {
        args.push_back(range.getValue());
        continue;
      }
      Operation *def = operand.getDefiningOp();
      if (def && getIntKind(operand.getType()) &&
          isa<InferIntRangeInterface>(def))
        return; // not computed yet: the analysis revisits us
      args.push_back(std::nullopt);
    }
    inferIntRanges(op, args, [&](Value v, const ConstantIntRanges &r) {
      setResultRange(v, IntegerValueRange(r));
    });
  }
};

template <typename... OpTys>
void attach(MLIRContext *ctx) {
  (OpTys::template attachInterface<IntRangeModel<OpTys>>(*ctx), ...);
}
} // namespace

void tinygrad::registerIntRangeInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, tg::TGDialect *) {
    // GroupOp.ALU, in tinygrad's order.
    attach<tg::Exp2Op, tg::Log2Op, tg::SinOp, tg::SqrtOp, tg::ReciprocalOp,
           tg::NegOp, tg::TruncOp, tg::AddOp, tg::MulOp, tg::ShlOp, tg::ShrOp,
           tg::CDivOp, tg::MaxOp, tg::CModOp, tg::CmpLtOp, tg::CmpNeOp,
           tg::CmpEqOp, tg::XorOp, tg::OrOp, tg::AndOp, tg::ThreefryOp,
           tg::SubOp, tg::FDivOp, tg::PowOp, tg::FloorDivOp, tg::FloorModOp,
           tg::WhereOp, tg::MulAccOp>(ctx);
    attach<tg::ConstOp, tg::ParamOp, tg::BufferOp, tg::CastOp, tg::StackOp,
           tg::AfterOp>(ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tgk::TGKDialect *) {
    attach<tgk::RangeOp, tgk::SpecialOp, tgk::IndexOp>(ctx);
  });
}
