//===- tinygrad-lsp-server.cpp - MLIR's LSP server with our dialects -----===//
//
// Editors (VS Code's MLIR extension, any LSP client) point their
// mlir-lsp-server setting here to get diagnostics, hovers and go-to-definition
// on .mlir files that use the tg, tgt, tgk and hcq dialects.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "tinygrad/InitAllDialects.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tinygrad::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
