//===- tinygrad-translate.cpp - mlir-translate for tinygrad formats -------===//
//
// Translations between tinygrad's UOp graph JSON (the corpus format) and the
// tg/tgt/tgk/hcq dialects:
//   --import-tinygrad-json     JSON graph (or record + --graph-path) -> MLIR
//   --export-tinygrad-json     MLIR -> JSON graph
//   --export-tinygrad-render   MLIR -> tinygrad's UOp.render() of the root
//   --tinygrad-json-roundtrip  JSONL batch: import+export+render per line
// and the GPU targets' serializations of a converted gpu.module:
//   --emit-ptx, --emit-cubin   after tinygrad-opt --tg-gpu-to-nvvm
//   --emit-amdgcn, --emit-hsaco after tinygrad-opt --tg-gpu-to-rocdl
//
//===----------------------------------------------------------------------===//
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "tinygrad/Target/NVVM/NVVMTarget.h"
#include "tinygrad/Target/ROCDL/ROCDLTarget.h"
#include "tinygrad/Target/TinygradJSON.h"

int main(int argc, char **argv) {
  mlir::tinygrad::registerTinygradJSONTranslations();
  mlir::tinygrad::nvvm_target::registerTranslations();
  mlir::tinygrad::rocdl_target::registerTranslations();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tinygrad translation driver"));
}
