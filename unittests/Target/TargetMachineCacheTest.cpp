//===- TargetMachineCacheTest.cpp - one TargetMachine per target ----------===//
#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <thread>

using namespace mlir;
using namespace mlir::tinygrad;

// Kernels for one target share its TargetMachine (made once per thread:
// the subtarget's tables are built once); another chip, level or thread
// gets its own, and an unknown chip is still an error naming it.
TEST(TargetMachineCache, OnePerTargetAndThread) {
  MLIRContext ctx;
  Location loc = UnknownLoc::get(&ctx);
  auto sm90 = gpu_codegen::getTargetMachine(loc, "nvptx64-nvidia-cuda", "sm_90", "", 3);
  ASSERT_TRUE(succeeded(sm90));
  auto again = gpu_codegen::getTargetMachine(loc, "nvptx64-nvidia-cuda", "sm_90", "", 3);
  ASSERT_TRUE(succeeded(again));
  EXPECT_EQ(*sm90, *again);
  auto sm80 = gpu_codegen::getTargetMachine(loc, "nvptx64-nvidia-cuda", "sm_80", "", 3);
  ASSERT_TRUE(succeeded(sm80));
  EXPECT_NE(*sm90, *sm80);
  EXPECT_EQ((*sm80)->getTargetCPU(), "sm_80");
  auto o0 = gpu_codegen::getTargetMachine(loc, "nvptx64-nvidia-cuda", "sm_90", "", 0);
  ASSERT_TRUE(succeeded(o0));
  EXPECT_NE(*sm90, *o0);
  auto gfx = gpu_codegen::getTargetMachine(loc, "amdgcn-amd-amdhsa", "gfx942", "", 3);
  ASSERT_TRUE(succeeded(gfx));
  EXPECT_EQ((*gfx)->getTargetCPU(), "gfx942");

  llvm::TargetMachine *other = nullptr;
  std::thread([&] {
    MLIRContext c;
    auto tm = gpu_codegen::getTargetMachine(UnknownLoc::get(&c), "nvptx64-nvidia-cuda", "sm_90", "", 3);
    other = succeeded(tm) ? *tm : nullptr;
  }).join();
  EXPECT_NE(other, nullptr);
  EXPECT_NE(other, *sm90);

  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    message = d.str();
    return success();
  });
  EXPECT_TRUE(failed(gpu_codegen::getTargetMachine(loc, "nvptx64-nvidia-cuda", "sm_9000", "", 3)));
  EXPECT_NE(message.find("does not know the chip 'sm_9000'"), std::string::npos) << message;
}
