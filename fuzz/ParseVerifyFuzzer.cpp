//===- ParseVerifyFuzzer.cpp - libFuzzer entry for parser + verifiers -----===//
//
// Feeds arbitrary text to the MLIR parser with our dialects loaded, then to
// the verifiers, canonicalization (folders) and every spec phase. Any crash,
// sanitizer report or hang is a bug: malformed input must only ever produce
// diagnostics.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "FuzzContext.h"
#include "tinygrad/Transforms/Passes.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tinygrad_fuzz::FuzzContext fuzz;
  MLIRContext &ctx = fuzz.ctx;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  ParserConfig config(&ctx);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, config);
  if (!module || failed(verify(*module)))
    return 0;
  for (const char *phase : {"tensor", "program", "hcq", "kernel_graph", "full"}) {
    PassManager pm(&ctx);
    tinygrad::VerifySpecOptions opts;
    opts.phase = phase;
    pm.addPass(tinygrad::createVerifySpec(opts));
    (void)pm.run(*module);
  }
  PassManager pm(&ctx);
  pm.addPass(createCanonicalizerPass());
  if (succeeded(pm.run(*module)))
    (void)verify(*module);
  return 0;
}
