//===- GuardedLLVMTest.cpp - LLVM's aborts as one kernel's error ----------===//
#include "tinygrad/Target/GPU/DeviceCodegen.h"
#include "tinygrad/Target/GuardedLLVM.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace mlir;
using namespace mlir::tinygrad;

// A run that finishes is true; report_fatal_error or abort() inside is
// false, and the process (this test) goes on, guarded runs after it too.
TEST(GuardedLLVM, AnAbortInsideIsAFailedRunNotTheEndOfTheProcess) {
  int ran = 0;
  EXPECT_TRUE(runGuardedLLVM([&] { ++ran; }));
  EXPECT_EQ(ran, 1);
  EXPECT_FALSE(runGuardedLLVM([] { llvm::report_fatal_error("a fatal error inside LLVM"); }));
  EXPECT_FALSE(runGuardedLLVM([] { std::abort(); }));
  EXPECT_TRUE(runGuardedLLVM([&] { ++ran; }));
  EXPECT_EQ(ran, 2);
}

// LLVM 22's AMDGPU instruction selection aborts on a vector fpext of five
// half lanes read one by one ("Cannot select: f32 = Constant<-1>"; the
// ROCDL serializer splits such fpexts first, odd-half-extend.mlir). Code
// generation of that IR as it is, through gpu_codegen::emit, is an error
// at the kernel's location instead of the end of the process.
TEST(GuardedLLVM, AnAMDGPUInstructionSelectionAbortIsAnError) {
  MLIRContext ctx;
  Location loc = FileLineColLoc::get(&ctx, "kernel.mlir", 3, 1);
  gpu_codegen::Context gctx;
  llvm::SMDiagnostic parseError;
  std::unique_ptr<llvm::Module> m = llvm::parseAssemblyString(R"(
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @test(<5 x half> %0, ptr addrspace(1) %o) {
  %t = fpext <5 x half> %0 to <5 x float>
  %e = extractelement <5 x float> %t, i64 2
  store float %e, ptr addrspace(1) %o
  ret void
}
)",
                                                              parseError, gctx.llvm());
  ASSERT_TRUE(m) << parseError.getMessage().str();
  auto tm = gpu_codegen::getTargetMachine(loc, "amdgcn-amd-amdhsa", "gfx942", "", 3);
  ASSERT_TRUE(succeeded(tm));
  m->setDataLayout((*tm)->createDataLayout());
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  EXPECT_TRUE(failed(gpu_codegen::emit(loc, gctx, *m, **tm, llvm::CodeGenFileType::ObjectFile)));
  EXPECT_NE(message.find("code generation aborted on this kernel (an LLVM bug"), std::string::npos) << message;
}
