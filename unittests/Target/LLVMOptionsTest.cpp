//===- LLVMOptionsTest.cpp - the CPU target's LLVM switches -------------===//
//
// The CPU target turns two of LLVM's code-generator options off for the
// process (enable-misched: an EVEX mask miscompile; combiner-store-merging:
// quadratic store merging), each unless the embedder set it first, and
// sets them again where something reset them (in-process lld resets every
// option of the process). The options are process-wide, so each case runs
// in a fresh process (a death test re-executing this binary).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/CPU/CPUTarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace mlir;

namespace {

llvm::cl::opt<bool> *boolOption(llvm::StringRef name) {
  auto &opts = llvm::cl::getRegisteredOptions();
  auto it = opts.find(name);
  // Both are cl::opt<bool> in LLVM's code generator.
  return it == opts.end() ? nullptr : static_cast<llvm::cl::opt<bool> *>(it->second);
}

/// Compiles an empty kernel for the host: what initializes the CPU target.
bool compileEmptyKernel() {
  MLIRContext ctx;
  ctx.loadDialect<LLVM::LLVMDialect>();
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>("llvm.func @test() { llvm.return }", &ctx);
  return m && succeeded(tinygrad::cpu::emitObject(*m));
}

constexpr const char *kNames[] = {"enable-misched", "combiner-store-merging"};

/// Whether every option reads `value`.
bool allRead(bool value) {
  for (const char *n : kNames)
    if (!boolOption(n) || boolOption(n)->getValue() != value)
      return false;
  return true;
}

/// Exits 0 when, after the first compile, each option reads `expected`.
void checkAfterFirstCompile(bool embedderSetsTrue) {
  for (const char *n : kNames) {
    llvm::cl::opt<bool> *o = boolOption(n);
    if (!o)
      std::exit(2);
    if (embedderSetsTrue && o->addOccurrence(0, n, "true"))
      std::exit(3);
  }
  if (!compileEmptyKernel())
    std::exit(4);
  std::exit(allRead(embedderSetsTrue) ? 0 : 5);
}

/// Exits 0 when the options a reset of every option (what lldMain does)
/// turned back on are off again after the next compile.
void checkAfterAReset() {
  if (!compileEmptyKernel())
    std::exit(4);
  llvm::cl::ResetAllOptionOccurrences();
  if (!allRead(true)) // the reset is what lld does: the defaults again
    std::exit(6);
  if (!compileEmptyKernel())
    std::exit(4);
  std::exit(allRead(false) ? 0 : 5);
}

} // namespace

TEST(LLVMOptions, SetAgainAfterAReset) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(checkAfterAReset(), testing::ExitedWithCode(0), "");
}

TEST(LLVMOptions, OffUnlessTheEmbedderSetThem) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(checkAfterFirstCompile(false), testing::ExitedWithCode(0), "");
}

TEST(LLVMOptions, TheEmbeddersSettingIsKept) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(checkAfterFirstCompile(true), testing::ExitedWithCode(0), "");
}
