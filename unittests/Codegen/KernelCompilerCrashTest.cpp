//===- KernelCompilerCrashTest.cpp - a crash in a compile is its error ----===//
//
// A crash inside KernelCompiler::compile (here: the embedder's afterPass
// callback, called inside the pipeline, aborting or dereferencing null) is
// an error at the kernel and the process goes on; the same compiler then
// compiles the kernel again, and a diagnostic handler the crashed compile
// left registered on its abandoned stack is never called.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Codegen/KernelCompiler.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Target/TinygradJSON.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

struct Kernel {
  Kernel() : ctx(registry(), MLIRContext::Threading::DISABLED) {
    ctx.loadAllAvailableDialects();
    auto text = llvm::MemoryBuffer::getFile(TG_TEST_INPUT_DIR "/sum_all.json");
    EXPECT_TRUE(bool(text));
    if (text)
      module = importTinygradJSON((*text)->getBuffer(), &ctx, "sum_all.json");
    EXPECT_TRUE(bool(module));
    if (module)
      root = getTinygradRoot(*module);
  }
  static DialectRegistry registry() {
    DialectRegistry r;
    registerAllDialects(r);
    return r;
  }
  MLIRContext ctx;
  OwningOpRef<ModuleOp> module;
  Value root;
};

/// The compile's error messages, captured.
struct Errors {
  explicit Errors(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          text += d.str() + "\n";
          return success();
        }) {}
  std::string text;
  ScopedDiagnosticHandler handler;
};

CompileOptions crashingAfter(llvm::StringRef when, void (*crash)()) {
  CompileOptions o;
  std::string at = when.str();
  o.afterPass = [at, crash](llvm::StringRef pass, ModuleOp) {
    if (pass == at)
      crash();
  };
  return o;
}

} // namespace

TEST(KernelCompilerCrash, AnAbortOrASegfaultInsideIsTheKernelsErrorAndTheCompilerGoesOn) {
  Kernel k;
  ASSERT_TRUE(k.root);
  KernelCompiler compiler(&k.ctx);
  TargetDescription host = TargetDescription::host();
  for (void (*crash)() : {+[] { std::abort(); }, +[] { std::raise(SIGSEGV); }}) {
    Errors errors(k.ctx);
    EXPECT_TRUE(failed(compiler.compile(k.root, host, crashingAfter("tg-lower-kernel", crash))));
    EXPECT_NE(errors.text.find("internal compiler error: compiling this kernel for"), std::string::npos)
        << errors.text;
    EXPECT_NE(errors.text.find("crashed"), std::string::npos) << errors.text;
  }
  // Crashed inside the lowering to the llvm dialect (a pass manager the compiler keeps): dropped too.
  {
    Errors errors(k.ctx);
    CompileOptions o;
    o.afterPass = [](llvm::StringRef pass, ModuleOp) {
      if (pass != "tg-lower-kernel")
        std::abort();
    };
    EXPECT_TRUE(failed(compiler.compile(k.root, host, o)));
  }
  Errors errors(k.ctx);
  FailureOr<CompiledKernel> again = compiler.compile(k.root, host);
  ASSERT_TRUE(succeeded(again)) << errors.text;
  EXPECT_FALSE(again->binary.empty());
}

TEST(KernelCompilerCrash, HandlersTheCrashedCompileRegisteredAreErased) {
  Kernel k;
  ASSERT_TRUE(k.root);
  KernelCompiler compiler(&k.ctx);
  static int calls = 0;
  CompileOptions o;
  o.afterPass = [](llvm::StringRef pass, ModuleOp m) {
    if (pass != "tg-lower-kernel")
      return;
    // Registered on the stack the crash abandons: never unregistered by its destructor.
    ScopedDiagnosticHandler inside(m.getContext(), [](Diagnostic &) {
      ++calls;
      return success();
    });
    std::abort();
  };
  Errors errors(k.ctx);
  EXPECT_TRUE(failed(compiler.compile(k.root, TargetDescription::host(), o)));
  // The compile's own error reached the handler registered before it, not the abandoned one.
  EXPECT_EQ(calls, 0);
  EXPECT_NE(errors.text.find("crashed"), std::string::npos) << errors.text;
  emitError(UnknownLoc::get(&k.ctx), "after the crash");
  EXPECT_EQ(calls, 0);
  EXPECT_NE(errors.text.find("after the crash"), std::string::npos);
}

TEST(KernelCompilerCrashDeathTest, RecoveryOffLetsTheCrashThrough) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        ::setenv("TINYGRAD_MLIR_CRASH_RECOVERY", "0", 1);
        Kernel k;
        KernelCompiler compiler(&k.ctx);
        (void)compiler.compile(k.root, TargetDescription::host(), crashingAfter("tg-lower-kernel", [] { std::abort(); }));
      },
      "");
}
