//===- CompileKernelFuzzer.cpp - libFuzzer entry for the CPU compile path --===//
//
// Arbitrary bytes as a kernel case (mutations of the corpus kernels): import,
// spec check, and the whole CPU pipeline to an object must either succeed or
// stop with a diagnostic, never crash or hang.
//
//===----------------------------------------------------------------------===//
#include "FuzzContext.h"
#include "tinygrad/Codegen/CPUPipeline.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tinygrad_fuzz::FuzzContext fuzz;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // Corpus kernel files hold the graph under "ast"; bare graphs are tried too.
  OwningOpRef<ModuleOp> module = tinygrad::importTinygradJSON(text, &fuzz.ctx, "fuzz", "ast");
  if (!module)
    module = tinygrad::importTinygradJSON(text, &fuzz.ctx, "fuzz");
  if (!module || failed(tinygrad::verifyKernelAST(*module)))
    return 0;
  if (Value root = tinygrad::getTinygradRoot(*module)) {
    FailureOr<tinygrad::CPUKernel> kernel = tinygrad::compileKernelForCPU(root);
    // A compiled kernel always has an object and a signature.
    if (succeeded(kernel) && kernel->object.empty())
      __builtin_trap();
  }
  return 0;
}
