//===- TransposeLaneGathersTest.cpp - transposed tile stores in registers -===//
//
// Every gather of a group (a 128-bit store reading one lane of each of 4
// float registers, or 2 double registers, of a wide accumulator) still
// reads the same lanes of the accumulator after the rewrite, now through
// register-wide shuffles only (checked by tracing each stored value's lanes
// back through its shufflevectors); a lone gather, a gather of lanes at
// different offsets in their registers, and a narrower-than-register source
// stay as they are.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/TransposeLaneGathers.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace {

/// The lanes of the function's first argument `v` holds, lane by lane (-1:
/// poison), following shufflevectors.
std::vector<int> traceLanes(llvm::Value *v, llvm::Argument *src) {
  auto n = llvm::cast<llvm::FixedVectorType>(v->getType())->getNumElements();
  if (v == src) {
    std::vector<int> id(n);
    for (unsigned i = 0; i < n; ++i)
      id[i] = (int)i;
    return id;
  }
  auto *sv = llvm::dyn_cast<llvm::ShuffleVectorInst>(v);
  if (!sv)
    return std::vector<int>(n, -2); // not data movement from the source
  unsigned n0 = llvm::cast<llvm::FixedVectorType>(sv->getOperand(0)->getType())->getNumElements();
  std::vector<int> out;
  for (int m : sv->getShuffleMask()) {
    if (m < 0) {
      out.push_back(-1);
      continue;
    }
    llvm::Value *op = sv->getOperand((unsigned)m < n0 ? 0 : 1);
    if (llvm::isa<llvm::PoisonValue, llvm::UndefValue>(op)) {
      out.push_back(-1);
      continue;
    }
    out.push_back(traceLanes(op, src)[(unsigned)m % n0]);
  }
  return out;
}

struct Rewritten {
  std::string text;         // the function after the rewrite, or why there is none
  bool changed = false;
  std::vector<std::vector<int>> before, after; // each store's source lanes
  unsigned gathersFromWide = 0; // shuffles of a source wider than a register to less than one
};

/// `f(<type> %src, ptr %out)` storing each `gathers` mask of %src at its own
/// slot, rewritten for `registerBits`.
Rewritten rewrite(const std::string &type, const std::string &elt, const std::vector<std::vector<int>> &gathers,
                  unsigned registerBits) {
  std::string ir = "define void @f(" + type + " %src, ptr %out) {\n";
  for (size_t g = 0; g < gathers.size(); ++g) {
    std::string mask, n = std::to_string(gathers[g].size());
    for (int m : gathers[g])
      mask += (mask.empty() ? "i32 " : ", i32 ") + std::to_string(m);
    std::string vt = "<" + n + " x " + elt + ">";
    ir += "  %g" + std::to_string(g) + " = shufflevector " + type + " %src, " + type + " poison, <" + n + " x i32> <" +
          mask + ">\n";
    ir += "  %p" + std::to_string(g) + " = getelementptr " + vt + ", ptr %out, i64 " + std::to_string(g) + "\n";
    ir += "  store " + vt + " %g" + std::to_string(g) + ", ptr %p" + std::to_string(g) + "\n";
  }
  ir += "  ret void\n}\n";
  Rewritten r;
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, err, ctx);
  if (!m) {
    llvm::raw_string_ostream os(r.text);
    err.print("test", os);
    return r;
  }
  llvm::Function &f = *m->getFunction("f");
  auto stores = [&] {
    std::vector<std::vector<int>> lanes;
    for (llvm::Instruction &i : f.getEntryBlock())
      if (auto *st = llvm::dyn_cast<llvm::StoreInst>(&i))
        lanes.push_back(traceLanes(st->getValueOperand(), f.getArg(0)));
    return lanes;
  };
  r.before = stores();
  r.changed = mlir::tinygrad::cpu::transposeLaneGathers(f, registerBits);
  llvm::raw_string_ostream os(r.text);
  if (llvm::verifyFunction(f, &os)) {
    r.text = "invalid: " + r.text;
    return r;
  }
  r.after = stores();
  for (llvm::Instruction &i : f.getEntryBlock())
    if (auto *sv = llvm::dyn_cast<llvm::ShuffleVectorInst>(&i)) {
      unsigned srcBits = sv->getOperand(0)->getType()->getPrimitiveSizeInBits().getFixedValue();
      unsigned outBits = sv->getType()->getPrimitiveSizeInBits().getFixedValue();
      r.gathersFromWide += srcBits > registerBits && outBits < registerBits;
    }
  f.print(os);
  return r;
}

/// The masks reading lane l of each of `regs` registers of `w` lanes, for
/// each l of `lanes`.
std::vector<std::vector<int>> acrossRegisters(unsigned w, std::vector<unsigned> regs, std::vector<unsigned> lanes) {
  std::vector<std::vector<int>> out;
  for (unsigned l : lanes) {
    std::vector<int> m;
    for (unsigned r : regs)
      m.push_back((int)(r * w + l));
    out.push_back(m);
  }
  return out;
}

std::vector<unsigned> upTo(unsigned n) {
  std::vector<unsigned> v;
  for (unsigned i = 0; i < n; ++i)
    v.push_back(i);
  return v;
}

TEST(TransposeLaneGathers, FloatTileOfFourRegisters) {
  // ResNet's 3x3 conv: lane c of registers 4..7 of a <256 x float> tile
  auto g = acrossRegisters(16, {4, 5, 6, 7}, upTo(16));
  Rewritten r = rewrite("<256 x float>", "float", g, 512);
  ASSERT_TRUE(r.changed) << r.text;
  EXPECT_EQ(r.after, r.before) << r.text;
  // 4 registers cut out and transposed: each store reads a 128-bit piece of
  // a register, none gathers from the 256 lanes
  EXPECT_EQ(r.gathersFromWide, 0u) << r.text;
  EXPECT_NE(r.text.find("<256 x float> poison, <16 x i32> <i32 112,"), std::string::npos) << r.text;
}

TEST(TransposeLaneGathers, SomeLanesOfAGroupOnly) {
  // three gathers of one group, registers in another order
  auto g = acrossRegisters(16, {3, 0, 9, 6}, {1, 6, 15});
  Rewritten r = rewrite("<160 x float>", "float", g, 512);
  ASSERT_TRUE(r.changed) << r.text;
  EXPECT_EQ(r.after, r.before) << r.text;
}

TEST(TransposeLaneGathers, DoubleTileOfTwoRegisters) {
  auto g = acrossRegisters(8, {1, 2}, upTo(8));
  Rewritten r = rewrite("<32 x double>", "double", g, 512);
  ASSERT_TRUE(r.changed) << r.text;
  EXPECT_EQ(r.after, r.before) << r.text;
  EXPECT_EQ(r.gathersFromWide, 0u) << r.text;
}

TEST(TransposeLaneGathers, IntegerTileOnAVX2Registers) {
  auto g = acrossRegisters(8, {0, 1, 2, 3}, upTo(8));
  Rewritten r = rewrite("<64 x i32>", "i32", g, 256);
  ASSERT_TRUE(r.changed) << r.text;
  EXPECT_EQ(r.after, r.before) << r.text;
}

TEST(TransposeLaneGathers, TwoGroupsOfOneSource) {
  auto g = acrossRegisters(16, {0, 1, 2, 3}, upTo(16));
  auto h = acrossRegisters(16, {4, 5, 6, 7}, {0, 5});
  g.insert(g.end(), h.begin(), h.end());
  Rewritten r = rewrite("<128 x float>", "float", g, 512);
  ASSERT_TRUE(r.changed) << r.text;
  EXPECT_EQ(r.after, r.before) << r.text;
  EXPECT_EQ(r.gathersFromWide, 0u) << r.text;
}

TEST(TransposeLaneGathers, LeavesOtherShuffles) {
  // one gather alone
  EXPECT_FALSE(rewrite("<256 x float>", "float", acrossRegisters(16, {0, 1, 2, 3}, {2}), 512).changed);
  // lanes at different offsets in their registers
  EXPECT_FALSE(rewrite("<256 x float>", "float", {{0, 17, 34, 51}, {1, 18, 35, 52}}, 512).changed);
  // a source of one register: already legal
  EXPECT_FALSE(rewrite("<16 x float>", "float", {{0, 4, 8, 12}, {1, 5, 9, 13}}, 512).changed);
  // a poison lane
  EXPECT_FALSE(rewrite("<256 x float>", "float", {{0, 16, -1, 48}, {1, 17, -1, 49}}, 512).changed);
  // no vector registers (a target whose width is 0)
  EXPECT_FALSE(rewrite("<256 x float>", "float", acrossRegisters(16, {0, 1, 2, 3}, {0, 1}), 0).changed);
  // 16-bit lanes
  EXPECT_FALSE(rewrite("<256 x half>", "half", acrossRegisters(32, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1}), 512).changed);
}

} // namespace
