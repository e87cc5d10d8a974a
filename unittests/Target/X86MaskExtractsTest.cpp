//===- X86MaskExtractsTest.cpp - lanes of a shared mask as scalar compares ===//
//
// A lane read out of a vector compare (or i1 truncation) that has other
// uses becomes a compare (truncation) of that lane's operands, with the
// same predicate and flags; the vector mask stays for its other uses. A
// mask whose only use is the lane read, and a lane of a mask that is no
// compare, stay as they are. Host-independent: the IR is written here.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/X86MaskExtracts.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using mlir::tinygrad::cpu::scalarizeMaskExtracts;

namespace {

struct Parsed {
  explicit Parsed(const char *ir) {
    llvm::SMDiagnostic err;
    module = llvm::parseAssemblyString(ir, err, ctx);
    EXPECT_TRUE(module) << err.getMessage().str();
  }
  llvm::Function &fn() { return *module->getFunction("f"); }
  std::string text() {
    std::string s;
    llvm::raw_string_ostream os(s);
    fn().print(os);
    return s;
  }
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> module;
};

unsigned countInsts(llvm::Function &f, llvm::function_ref<bool(llvm::Instruction &)> pred) {
  unsigned n = 0;
  for (llvm::BasicBlock &b : f)
    for (llvm::Instruction &i : b)
      n += pred(i);
  return n;
}

bool isMaskLaneRead(llvm::Instruction &i) {
  auto *e = llvm::dyn_cast<llvm::ExtractElementInst>(&i);
  return e && e->getType()->isIntegerTy(1);
}

} // namespace

// The floor-modulo fix-up of random-kernels seed 3011 #23: lane 3 of the
// sign mask read for a scalar select, the mask also inserted into.
TEST(X86MaskExtracts, ALaneOfASharedSignMaskIsAScalarCompare) {
  Parsed p(R"(
define <4 x i32> @f(<4 x i32> %r, i32 %s) {
  %neg = icmp slt <4 x i32> %r, zeroinitializer
  %l3 = extractelement <4 x i1> %neg, i64 3
  %sneg = icmp slt i32 %s, 0
  %m = insertelement <4 x i1> %neg, i1 %sneg, i64 0
  %p = add <4 x i32> %r, splat (i32 126)
  %f = select <4 x i1> %m, <4 x i32> %p, <4 x i32> %r
  %x = extractelement <4 x i32> %r, i64 3
  %y = add i32 %x, 126
  %z = select i1 %l3, i32 %y, i32 %x
  %out = insertelement <4 x i32> %f, i32 %z, i64 3
  ret <4 x i32> %out
}
)");
  ASSERT_TRUE(p.module);
  EXPECT_TRUE(scalarizeMaskExtracts(p.fn()));
  EXPECT_FALSE(llvm::verifyFunction(p.fn(), &llvm::errs()));
  EXPECT_EQ(countInsts(p.fn(), isMaskLaneRead), 0u) << p.text();
  // the select's condition: slt of lane 3 of %r against lane 3 of zero
  auto *z = llvm::cast<llvm::SelectInst>(&*std::find_if(p.fn().front().begin(), p.fn().front().end(), [](auto &i) {
    return i.getName() == "z";
  }));
  auto *cmp = llvm::dyn_cast<llvm::ICmpInst>(z->getCondition());
  ASSERT_TRUE(cmp) << p.text();
  EXPECT_EQ(cmp->getPredicate(), llvm::ICmpInst::ICMP_SLT);
  auto *lane = llvm::dyn_cast<llvm::ExtractElementInst>(cmp->getOperand(0));
  ASSERT_TRUE(lane);
  EXPECT_EQ(lane->getVectorOperand(), p.fn().getArg(0));
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(lane->getIndexOperand())->getZExtValue(), 3u);
  // the vector compare stays for the insert
  EXPECT_EQ(countInsts(p.fn(), [](llvm::Instruction &i) { return llvm::isa<llvm::ICmpInst>(i) && i.getType()->isVectorTy(); }), 1u);
}

// An i1 truncation (a bool vector from bytes) read lane by lane and used
// whole: each lane is a scalar truncation; fcmp keeps its fast-math flags.
TEST(X86MaskExtracts, TruncationsAndFloatComparesToo) {
  Parsed p(R"(
define i1 @f(<8 x i8> %b, <4 x float> %a, <4 x float> %c, <8 x i32> %v, <4 x i32> %w) {
  %t = trunc <8 x i8> %b to <8 x i1>
  %sel = select <8 x i1> %t, <8 x i32> %v, <8 x i32> zeroinitializer
  %t5 = extractelement <8 x i1> %t, i64 5
  %lt = fcmp nnan olt <4 x float> %a, %c
  %s2 = select <4 x i1> %lt, <4 x i32> %w, <4 x i32> zeroinitializer
  %l1 = extractelement <4 x i1> %lt, i64 1
  %r = and i1 %t5, %l1
  %u = extractelement <8 x i32> %sel, i64 0
  %u2 = extractelement <4 x i32> %s2, i64 0
  %k = icmp eq i32 %u, %u2
  %out = and i1 %r, %k
  ret i1 %out
}
)");
  ASSERT_TRUE(p.module);
  EXPECT_TRUE(scalarizeMaskExtracts(p.fn()));
  EXPECT_FALSE(llvm::verifyFunction(p.fn(), &llvm::errs()));
  EXPECT_EQ(countInsts(p.fn(), isMaskLaneRead), 0u) << p.text();
  EXPECT_EQ(countInsts(p.fn(), [](llvm::Instruction &i) { return llvm::isa<llvm::TruncInst>(i) && i.getType()->isIntegerTy(1); }), 1u);
  unsigned scalarFcmps = countInsts(p.fn(), [](llvm::Instruction &i) {
    auto *c = llvm::dyn_cast<llvm::FCmpInst>(&i);
    return c && !c->getType()->isVectorTy() && c->getPredicate() == llvm::FCmpInst::FCMP_OLT && c->hasNoNaNs();
  });
  EXPECT_EQ(scalarFcmps, 1u) << p.text();
}

// A mask read only for its lane (InstCombine's own form) and a lane of a
// mask that is no compare are left alone.
TEST(X86MaskExtracts, UnsharedMasksAndOtherMasksStay) {
  Parsed p(R"(
define i1 @f(<4 x i32> %r, <4 x i1> %g) {
  %neg = icmp slt <4 x i32> %r, zeroinitializer
  %l = extractelement <4 x i1> %neg, i64 2
  %h = extractelement <4 x i1> %g, i64 1
  %o = or i1 %l, %h
  ret i1 %o
}
)");
  ASSERT_TRUE(p.module);
  EXPECT_FALSE(scalarizeMaskExtracts(p.fn()));
  EXPECT_EQ(countInsts(p.fn(), isMaskLaneRead), 2u) << p.text();
}
