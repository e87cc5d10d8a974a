//===- ImportJSONFuzzer.cpp - libFuzzer entry for the tinygrad JSON importer ===//
//
// Arbitrary bytes as a tinygrad graph file: the importer must either build a
// verified module or report a located diagnostic; exporting and rendering a
// module it accepted must not crash either.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "FuzzContext.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tinygrad_fuzz::FuzzContext fuzz;
  MLIRContext &ctx = fuzz.ctx;
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = tinygrad::importTinygradJSON(text, &ctx, "fuzz");
  if (!module)
    return 0;
  std::string out;
  llvm::raw_string_ostream os(out);
  (void)tinygrad::exportTinygradJSON(*module, os);
  if (Value root = tinygrad::getTinygradRoot(*module)) {
    (void)tinygrad::renderUOp(root);
    (void)tinygrad::reprUOp(root);
  }
  return 0;
}
