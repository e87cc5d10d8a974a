//===- ScalarALUTest.cpp - exec_alu model against tinygrad ----------------===//

#include "tinygrad/Support/ScalarALU.h"
#include "TableValue.h"

#include "gtest/gtest.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace mlir::tinygrad;
using namespace tablevalue;

namespace {
struct ALURow {
  ALUOp op;
  DType dtype;
  bool truncateOutput;
  TV in[3];
  TV expected;
};
struct TruncRow {
  DType dtype;
  TV in;
  TV expected;
};
struct BitcastRow {
  DType from, to;
  TV in;
  TV expected;
};

#include "ScalarALUTable.inc"

const char *opName(ALUOp op) {
  static const char *names[] = {
      "EXP2", "LOG2", "SIN", "SQRT", "RECIPROCAL", "NEG", "TRUNC",
      "ADD", "MUL", "SHL", "SHR", "CDIV", "MAX", "CMOD", "CMPLT", "CMPNE",
      "CMPEQ", "XOR", "OR", "AND", "THREEFRY", "SUB", "FDIV", "POW",
      "FLOORDIV", "FLOORMOD", "WHERE", "MULACC"};
  return names[static_cast<unsigned>(op)];
}

std::string describe(llvm::ArrayRef<Scalar> ops) {
  std::string s;
  for (const Scalar &o : ops)
    s += (s.empty() ? "" : ", ") + o.str();
  return s;
}

TEST(ScalarALUTest, ExecALUMatchesTinygrad) {
  unsigned checked = 0;
  for (const ALURow &r : kALURows) {
    std::vector<Scalar> ops;
    for (const TV &t : r.in)
      if (t.kind != 'n')
        ops.push_back(*toScalar(t));
    ASSERT_EQ(ops.size(), getNumOperands(r.op));
    std::optional<Scalar> got = execALU(r.op, r.dtype, ops, r.truncateOutput);
    std::optional<Scalar> want = toScalar(r.expected);
    EXPECT_EQ(got, want) << opName(r.op) << " " << getName(r.dtype).str()
                         << " trunc=" << r.truncateOutput << " ("
                         << describe(ops) << "): got " << show(got)
                         << ", tinygrad " << show(want)
                         << (r.expected.kind == 'x' ? " (raises)" : "");
    ++checked;
  }
  EXPECT_GT(checked, 1000u);
}

TEST(ScalarALUTest, TruncateMatchesTinygrad) {
  for (const TruncRow &r : kTruncRows) {
    Scalar x = *toScalar(r.in);
    std::optional<Scalar> got = truncate(r.dtype, x), want = toScalar(r.expected);
    EXPECT_EQ(got, want) << getName(r.dtype).str() << " " << x.str()
                         << ": got " << show(got) << ", tinygrad " << show(want);
  }
}

TEST(ScalarALUTest, CastMatchesTinygrad) {
  for (const TruncRow &r : kCastRows) {
    Scalar x = *toScalar(r.in);
    std::optional<Scalar> got = castScalar(x, r.dtype), want = toScalar(r.expected);
    EXPECT_EQ(got, want) << getName(r.dtype).str() << " " << x.str()
                         << ": got " << show(got) << ", tinygrad " << show(want);
  }
}

TEST(ScalarALUTest, BitcastMatchesTinygrad) {
  for (const BitcastRow &r : kBitcastRows) {
    Scalar x = *toScalar(r.in);
    std::optional<Scalar> got = bitcastScalar(x, r.from, r.to),
                          want = toScalar(r.expected);
    EXPECT_EQ(got, want) << getName(r.from).str() << "->" << getName(r.to).str()
                         << " " << x.str() << ": got " << show(got)
                         << ", tinygrad " << show(want);
  }
}

TEST(ScalarALUTest, ScalarIdentity) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(Scalar::fromFloat(0.0), Scalar::fromFloat(-0.0));
  EXPECT_EQ(Scalar::fromFloat(nan), Scalar::fromFloat(-nan));
  EXPECT_NE(Scalar::fromInt(1), Scalar::fromFloat(1.0));
  EXPECT_NE(Scalar::fromInt(1), Scalar::fromBool(true));
  EXPECT_EQ(Scalar::invalid(), Scalar::invalid());
  EXPECT_EQ(Scalar::fromInt(-(static_cast<__int128>(1) << 100)).str(),
            "-1267650600228229401496703205376");
}

TEST(ScalarALUTest, WrongArityIsRejected) {
  EXPECT_EQ(execALU(ALUOp::Add, DType::Int32, {Scalar::fromInt(1)}),
            std::nullopt);
  EXPECT_EQ(execALU(ALUOp::Neg, DType::Int32,
                    {Scalar::fromInt(1), Scalar::fromInt(2)}),
            std::nullopt);
}
} // namespace
