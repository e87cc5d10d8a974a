//===- SplitCrossBlockVectorsTest.cpp - register-sized values between blocks ===//
//
// A loop's accumulator of 7 registers (ResNet's pooled conv: 7 pixels by 16
// channels) is carried as 7 register phis; a value a later block reads is
// cut where it is defined and reassembled there; vectors of a power of two
// of registers, of no whole number of them, and masks stay as they are; the
// function stays valid and computes the same (LLVM's verifier, and the
// register-aligned shuffles that reassemble each value).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/SplitCrossBlockVectors.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace {

/// A loop accumulating fma(a[i], b[i], acc) in `type` (xor for masks),
/// its result stored after the loop; the function's text after the split
/// for `registerBits`, and whether it changed.
std::pair<std::string, bool> split(const std::string &type, unsigned registerBits) {
  std::string ir = "define void @f(ptr %a, ptr %b, ptr %out, i64 %n) {\n"
                   "entry:\n  br label %loop\n"
                   "loop:\n"
                   "  %i = phi i64 [0, %entry], [%i1, %loop]\n"
                   "  %acc = phi " + type + " [zeroinitializer, %entry], [%acc1, %loop]\n"
                   "  %va = load " + type + ", ptr %a\n"
                   "  %vb = load " + type + ", ptr %b\n" +
                   (type.find(" i1>") != std::string::npos
                        ? "  %acc1 = xor " + type + " %va, %acc\n"
                        : "  %acc1 = call " + type + " @llvm.fma(" + type + " %va, " + type + " %vb, " + type + " %acc)\n") +
                   "  %i1 = add i64 %i, 1\n"
                   "  %c = icmp slt i64 %i1, %n\n"
                   "  br i1 %c, label %loop, label %exit\n"
                   "exit:\n"
                   "  store " + type + " %acc1, ptr %out\n"
                   "  ret void\n}\n";
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, err, ctx);
  if (!m) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    err.print("test", os);
    return {"parse error: " + msg, false};
  }
  bool changed = mlir::tinygrad::cpu::splitCrossBlockVectors(*m->getFunction("f"), registerBits);
  std::string out;
  llvm::raw_string_ostream os(out);
  if (llvm::verifyFunction(*m->getFunction("f"), &os))
    return {"invalid: " + out, changed};
  m->getFunction("f")->print(os);
  return {out, changed};
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
    ++n;
  return n;
}

TEST(SplitCrossBlockVectors, AccumulatorOfSevenRegisters) {
  auto [f, changed] = split("<112 x float>", 512);
  EXPECT_TRUE(changed);
  // One phi per register, each fed by the loop's result cut at its register.
  EXPECT_EQ(count(f, "phi <16 x float>"), 7u) << f;
  EXPECT_EQ(count(f, "phi <112 x float>"), 0u) << f;
  EXPECT_NE(f.find("shufflevector <112 x float> %acc1, <112 x float> poison, <16 x i32> <i32 96,"), std::string::npos)
      << f;
  // The loop block reassembles the accumulator; the exit block reassembles
  // the result it stores from the registers cut in the loop.
  auto exit = f.find("exit:");
  ASSERT_NE(exit, std::string::npos) << f;
  EXPECT_NE(f.find("store <112 x float> %", exit), std::string::npos) << f;
  EXPECT_EQ(f.find("store <112 x float> %acc1,"), std::string::npos) << f;
  EXPECT_NE(f.find("shufflevector <16 x float>", exit), std::string::npos) << f;
}

TEST(SplitCrossBlockVectors, RegisterWidthOfTheTarget) {
  // 256-bit registers: 14 of them.
  auto [f, changed] = split("<112 x float>", 256);
  EXPECT_TRUE(changed);
  EXPECT_EQ(count(f, "phi <8 x float>"), 14u) << f;
  // Doubles: 3 registers of 8.
  auto [d, dchanged] = split("<24 x double>", 512);
  EXPECT_TRUE(dchanged);
  EXPECT_EQ(count(d, "phi <8 x double>"), 3u) << d;
}

TEST(SplitCrossBlockVectors, LegalOrUnsplittableValuesStay) {
  // A power of two of registers (instruction selection splits it itself),
  // one register, no whole number of registers, masks.
  for (const char *type : {"<128 x float>", "<32 x float>", "<16 x float>", "<21 x float>", "<112 x i1>"}) {
    auto [f, changed] = split(type, 512);
    EXPECT_FALSE(changed) << type;
    EXPECT_EQ(count(f, std::string("phi ") + type), 1u) << f;
  }
}

} // namespace
