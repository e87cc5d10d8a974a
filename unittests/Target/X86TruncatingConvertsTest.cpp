//===- X86TruncatingConvertsTest.cpp - the guard to x86's cvtt* -----------===//
//
// The emitter's guarded float -> int conversion, as LLVM's pipeline leaves
// it, becomes the x86 truncating convert that gives the guard's INT_MIN
// itself: the intrinsic per the host's widest register, for any host
// (features given, not read), the inverted form, scalars; not a select
// with other bounds or another fallback, nor lane counts no register fits.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/X86TruncatingConverts.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace {

/// `body` as the function @f(%v) returning `ret`, converted for `features`;
/// the function's text afterwards.
std::string converted(const std::string &arg, const std::string &ret, const std::string &body,
                      llvm::StringRef features) {
  llvm::LLVMContext ctx;
  llvm::SMDiagnostic err;
  std::string ir = "define " + ret + " @f(" + arg + " %v) {\n" + body + "}\n";
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(ir, err, ctx);
  if (!m) {
    std::string msg;
    llvm::raw_string_ostream os(msg);
    err.print("test", os);
    return "parse error: " + msg;
  }
  mlir::tinygrad::cpu::useX86TruncatingConverts(*m->getFunction("f"), features);
  std::string out;
  llvm::raw_string_ostream os(out);
  m->getFunction("f")->print(os);
  return out;
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
    ++n;
  return n;
}

/// The emitter's guard, as LLVM leaves it: select(lo <= v < hi, fptosi v,
/// fallback), over `from` to `to` (scalars or vectors of the same lanes).
std::string guard(const std::string &from, const std::string &to, const std::string &lo, const std::string &hi,
                  const std::string &fallback) {
  std::string lanes = from.find('<') == 0 ? from.substr(0, from.find('x') + 1) : "";
  std::string i1 = lanes.empty() ? "i1" : lanes + " i1>";
  // A constant of a vector type is a splat of its element's.
  auto k = [&](const std::string &type, const std::string &v) {
    return lanes.empty() ? v : "splat (" + type.substr(type.find('x') + 2, type.size() - type.find('x') - 3) + " " + v + ")";
  };
  return "  %lo = fcmp oge " + from + " %v, " + k(from, lo) + "\n" +
         "  %hi = fcmp olt " + from + " %v, " + k(from, hi) + "\n" +
         "  %in = and " + i1 + " %lo, %hi\n" +
         "  %c = fptosi " + from + " %v to " + to + "\n" +
         "  %r = select " + i1 + " %in, " + to + " %c, " + to + " " + k(to, fallback) + "\n" +
         "  ret " + to + " %r\n";
}

const char *kMin32 = "-2147483648", *kLo32 = "0xC1E0000000000000", *kHi32 = "0x41E0000000000000";

TEST(X86TruncatingConverts, WidestRegisterOfTheHost) {
  std::string kGuard16 = guard("<16 x float>", "<16 x i32>", kLo32, kHi32, kMin32);
  std::string avx512 = converted("<16 x float>", "<16 x i32>", kGuard16, "+sse2,+avx,+avx2,+avx512f");
  EXPECT_EQ(count(avx512, "@llvm.x86.avx512.mask.cvttps2dq.512"), 1u) << avx512;
  EXPECT_EQ(count(avx512, "fptosi"), 0u) << avx512;
  EXPECT_EQ(count(avx512, "fcmp"), 0u) << avx512;
  EXPECT_EQ(count(avx512, "select"), 0u) << avx512;

  std::string avx = converted("<16 x float>", "<16 x i32>", kGuard16, "+sse2,+avx,+avx2");
  EXPECT_EQ(count(avx, "@llvm.x86.avx.cvtt.ps2dq.256"), 2u) << avx;
  EXPECT_EQ(count(avx, "avx512"), 0u) << avx;
  EXPECT_EQ(count(avx, "fptosi"), 0u) << avx;

  // "+avx512vl" names no "+avx" entry: SSE2's 4 lanes.
  std::string sse = converted("<16 x float>", "<16 x i32>", kGuard16, "+sse2,+avx512vl");
  EXPECT_EQ(count(sse, "@llvm.x86.sse2.cvttps2dq"), 4u) << sse;
  EXPECT_EQ(count(sse, "fptosi"), 0u) << sse;
}

TEST(X86TruncatingConverts, InvertedGuardAndScalars) {
  std::string f32 = converted("float", "i32", R"(
  %lo = fcmp ult float %v, 0xC1E0000000000000
  %hi = fcmp uge float %v, 0x41E0000000000000
  %out = or i1 %lo, %hi
  %c = fptosi float %v to i32
  %r = select i1 %out, i32 -2147483648, i32 %c
  ret i32 %r
)",
                              "+sse2");
  EXPECT_EQ(count(f32, "@llvm.x86.sse.cvttss2si("), 1u) << f32;
  EXPECT_EQ(count(f32, "fptosi"), 0u) << f32;

  // LLVM's logical-and form of scalar conditions; double to i64.
  std::string f64 = converted("double", "i64", R"(
  %lo = fcmp oge double %v, 0xC3E0000000000000
  %hi = fcmp olt double %v, 0x43E0000000000000
  %in = select i1 %lo, i1 %hi, i1 false
  %c = fptosi double %v to i64
  %r = select i1 %in, i64 %c, i64 -9223372036854775808
  ret i64 %r
)",
                              "+sse2");
  EXPECT_EQ(count(f64, "@llvm.x86.sse2.cvttsd2si64"), 1u) << f64;
  EXPECT_EQ(count(f64, "fptosi"), 0u) << f64;
}

TEST(X86TruncatingConverts, OnlyTheGuard) {
  // Bounds of another width: cvttps2dq would answer differently in between.
  std::string narrow = converted("<16 x float>", "<16 x i32>",
                                 guard("<16 x float>", "<16 x i32>", "-3.276800e+04", "3.276800e+04", kMin32),
                                 "+sse2,+avx,+avx512f");
  EXPECT_EQ(count(narrow, "llvm.x86"), 0u) << narrow;
  EXPECT_EQ(count(narrow, "fptosi"), 1u) << narrow;

  // Another fallback than INT_MIN (a saturating rule).
  std::string saturate = converted("float", "i32", guard("float", "i32", kLo32, kHi32, "0"), "+sse2,+avx,+avx512f");
  EXPECT_EQ(count(saturate, "llvm.x86"), 0u) << saturate;
  EXPECT_EQ(count(saturate, "fptosi"), 1u) << saturate;

  // Three lanes: no register holds them whole; the guard stays.
  std::string three = converted("<3 x float>", "<3 x i32>", guard("<3 x float>", "<3 x i32>", kLo32, kHi32, kMin32),
                                "+sse2,+avx,+avx512f");
  EXPECT_EQ(count(three, "llvm.x86"), 0u) << three;
  EXPECT_EQ(count(three, "select"), 1u) << three;
}

} // namespace
