//===- DTypeTest.cpp - DType model against tinygrad's own tables ----------===//

#include "tinygrad/Support/DType.h"
#include "TableValue.h"

#include "gtest/gtest.h"

#include <iterator>

using namespace mlir::tinygrad;
using namespace tablevalue;

namespace {
struct DTypeInfoRow {
  DType dt;
  int priority, bitsize, itemsize;
  const char *name, *cname;
  char fmt;
  bool isFloat, isInt, isUnsigned, isBool;
  TV min, max, minF, maxF;
  int finfoExp, finfoMant;
  DType strong, weak;
};
struct LubRow {
  DType in[3];
  unsigned n;
  int expected; // -1: tinygrad raises
};
struct UnaryDTypeRow {
  DType dt;
  int lubFloat, sumAcc;
};
struct LosslessRow {
  DType from, to;
  bool expected;
};
struct ParseRow {
  const char *text;
  int expected;
};

#include "DTypeTable.inc"

std::optional<DType> expectedDType(int e) {
  if (e < 0)
    return std::nullopt;
  return static_cast<DType>(e);
}

double tvDouble(const TV &t) { return toScalar(t)->f; }

TEST(DTypeTest, InfoMatchesTinygrad) {
  ASSERT_EQ(std::size(kDTypeInfoRows), kNumDTypes);
  for (const DTypeInfoRow &r : kDTypeInfoRows) {
    SCOPED_TRACE(r.name);
    const DTypeInfo &info = getInfo(r.dt);
    EXPECT_EQ(info.priority, r.priority);
    EXPECT_EQ(info.bitsize, r.bitsize);
    EXPECT_EQ(info.itemsize, r.itemsize);
    EXPECT_EQ(info.name, llvm::StringRef(r.name));
    EXPECT_EQ(getName(r.dt), llvm::StringRef(r.name));
    EXPECT_EQ(info.cname, llvm::StringRef(r.cname));
    EXPECT_EQ(info.fmt, r.fmt);
    EXPECT_EQ(isFloat(r.dt), r.isFloat);
    EXPECT_EQ(isInt(r.dt), r.isInt);
    EXPECT_EQ(isUnsigned(r.dt), r.isUnsigned);
    EXPECT_EQ(isBool(r.dt), r.isBool);
    EXPECT_EQ(isSigned(r.dt), r.isInt && !r.isUnsigned);
    EXPECT_EQ(isWeak(r.dt), r.dt == DType::WeakInt || r.dt == DType::WeakFloat);
    EXPECT_EQ(strongDType(r.dt), r.strong);
    EXPECT_EQ(weakDType(r.dt), r.weak);
    // float(dtype.min/max) exists for every dtype.
    EXPECT_EQ(floatMinValue(r.dt), tvDouble(r.minF));
    EXPECT_EQ(floatMaxValue(r.dt), tvDouble(r.maxF));
    // Exact integer bounds only where tinygrad's are ints (or bool) that fit.
    std::optional<__int128> lo = intMinValue(r.dt), hi = intMaxValue(r.dt);
    bool exact = (r.isInt && r.dt != DType::WeakInt) || r.isBool;
    ASSERT_EQ(lo.has_value(), exact);
    ASSERT_EQ(hi.has_value(), exact);
    if (exact) {
      std::optional<Scalar> emin = toScalar(r.min), emax = toScalar(r.max);
      EXPECT_EQ(*lo, emin->isBool() ? emin->b : emin->i);
      EXPECT_EQ(*hi, emax->isBool() ? emax->b : emax->i);
    }
    std::optional<FInfo> fi = finfo(r.dt);
    ASSERT_EQ(fi.has_value(), r.finfoExp >= 0);
    if (fi) {
      EXPECT_EQ(fi->exponent, r.finfoExp);
      EXPECT_EQ(fi->mantissa, r.finfoMant);
    }
  }
}

TEST(DTypeTest, FP8Predicate) {
  for (unsigned i = 0; i < kNumDTypes; ++i) {
    DType d = static_cast<DType>(i);
    llvm::StringRef name = getName(d);
    EXPECT_EQ(isFP8(d), name.starts_with("fp8")) << name.str();
    EXPECT_EQ(isFNUZ(d), name.ends_with("fnuz")) << name.str();
  }
}

TEST(DTypeTest, LeastUpperDType) {
  for (const LubRow &r : kLubPairs) {
    llvm::ArrayRef<DType> in(r.in, r.n);
    SCOPED_TRACE(getName(r.in[0]).str() + (r.n > 1 ? "," + getName(r.in[1]).str() : "") +
                 (r.n > 2 ? "," + getName(r.in[2]).str() : ""));
    EXPECT_EQ(leastUpperDType(in), expectedDType(r.expected));
  }
  EXPECT_EQ(leastUpperDType({}), std::nullopt); // set.intersection() raises
}

TEST(DTypeTest, LeastUpperFloatAndSumAcc) {
  for (const UnaryDTypeRow &r : kUnaryDTypeRows) {
    SCOPED_TRACE(getName(r.dt).str());
    EXPECT_EQ(leastUpperFloat(r.dt), expectedDType(r.lubFloat));
    EXPECT_EQ(sumAccDType(r.dt), expectedDType(r.sumAcc));
  }
}

TEST(DTypeTest, CanLosslessCast) {
  for (const LosslessRow &r : kLosslessRows)
    EXPECT_EQ(canLosslessCast(r.from, r.to), r.expected)
        << getName(r.from).str() << " -> " << getName(r.to).str();
}

TEST(DTypeTest, Parse) {
  for (const ParseRow &r : kParseRows)
    EXPECT_EQ(parseDType(r.text), expectedDType(r.expected)) << r.text;
}

TEST(DTypeTest, OrderIsStrictWeak) {
  // dtypeLess must be a strict total order on distinct dtypes for min() in lub.
  for (unsigned i = 0; i < kNumDTypes; ++i)
    for (unsigned j = 0; j < kNumDTypes; ++j) {
      DType a = static_cast<DType>(i), b = static_cast<DType>(j);
      EXPECT_FALSE(dtypeLess(a, b) && dtypeLess(b, a));
      if (i != j)
        EXPECT_TRUE(dtypeLess(a, b) || dtypeLess(b, a));
    }
}
} // namespace
