//===- InitAllDialects.cpp ------------------------------------------------===//
#include "tinygrad/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "tinygrad/Dialect/HCQ/IR/HCQ.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Dialect/TGK/IR/TGK.h"
#include "tinygrad/Dialect/TGT/IR/TGT.h"
#include "tinygrad/Symbolic/IntRanges.h"

void mlir::tinygrad::registerAllDialects(DialectRegistry &registry) {
  registry.insert<tg::TGDialect, tgt::TGTDialect, tgk::TGKDialect,
                  hcq::HCQDialect>();
  registry.insert<arith::ArithDialect, cf::ControlFlowDialect, LLVM::LLVMDialect, ub::UBDialect,
                  func::FuncDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, vector::VectorDialect>();
  // tinygrad's vmin/vmax as InferIntRangeInterface (lib/Symbolic).
  registerIntRangeInterfaceExternalModels(registry);
}
