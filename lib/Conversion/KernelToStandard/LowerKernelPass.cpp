//===- LowerKernelPass.cpp - tg-lower-kernel and tg-lower-to-llvm-cpu ------===//
//
// The kernel SINKs of a module become func.funcs (KernelEmitter); the UOp
// ops they were built from are erased. Launch metadata is kept on the func
// as `tg.globals`, `tg.outs`, `tg.ins`, `tg.vars` so tools can read it.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/KernelToStandard.h"
#include "tinygrad/Conversion/Passes.h"
#include "tinygrad/Dialect/TG/IR/OpTable.h"
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Conversion/CPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/PassRegistry.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_LOWERKERNEL
#include "tinygrad/Conversion/Passes.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;
using namespace mlir::tinygrad;

static Attribute i64Array(Builder &b, ArrayRef<int64_t> v) { return b.getI64ArrayAttr(v); }

LogicalResult mlir::tinygrad::lowerKernelsInModule(ModuleOp module, unsigned threads, StringRef targetName) {
  std::string why;
  std::optional<TargetDescription> target = TargetDescription::parse(targetName, &why);
  if (!target)
    return module.emitError("tg-lower-kernel: ") << why;
  if (!target->isGPU())
    target = TargetDescription::host(threads ? threads : hostThreads());
  SmallVector<tg::SinkOp> sinks;
  for (Operation &op : module.getBody()->getOperations())
    if (auto s = dyn_cast<tg::SinkOp>(&op))
      if (s->use_empty() && s->getAttr("arg") && isa<tg::KernelInfoAttr>(s->getAttr("arg")))
        sinks.push_back(s);
  if (sinks.empty())
    return module.emitError("tg-lower-kernel: no kernel SINK (a tg.sink with #tg.kernel_info)");
  sym::Context ctx(module.getContext());
  sym::Importer importer(ctx);
  Builder b(module.getContext());
  unsigned n = 0;
  for (tg::SinkOp s : sinks) {
    sym::UOpRef root = importer.import(s.getResult());
    if (!root)
      return failure();
    auto info = cast<tg::KernelInfoAttr>(s->getAttr("arg"));
    std::string name = sinks.size() == 1 ? info.getName().str() : info.getName().str() + "_" + std::to_string(n);
    ++n;
    FailureOr<KernelSignature> sig = lowerKernelToStandard(module, root, name, s.getLoc(), *target);
    if (failed(sig))
      return failure();
    Operation *fn = &module.getBody()->back();
    if (auto gm = dyn_cast<gpu::GPUModuleOp>(fn))
      fn = &gm.getBody()->front();
    fn->setAttr("tg.globals", i64Array(b, sig->globals));
    fn->setAttr("tg.outs", i64Array(b, sig->outs));
    fn->setAttr("tg.ins", i64Array(b, sig->ins));
    SmallVector<Attribute> vars;
    for (auto &v : sig->vars)
      vars.push_back(b.getStringAttr(v));
    fn->setAttr("tg.vars", b.getArrayAttr(vars));
    fn->setAttr("tg.threads", b.getI64IntegerAttr(sig->threads));
  }
  // Erase the UOp graph, users first.
  SmallVector<Operation *> uops;
  for (Operation &op : module.getBody()->getOperations())
    if (!getTinygradOpName(op.getName().getStringRef()).empty())
      uops.push_back(&op);
  for (Operation *op : llvm::reverse(uops)) {
    op->dropAllUses();
    op->erase();
  }
  return success();
}

namespace {
struct LowerKernel : mlir::tinygrad::impl::LowerKernelBase<LowerKernel> {
  using LowerKernelBase::LowerKernelBase;
  void runOnOperation() override {
    if (failed(lowerKernelsInModule(getOperation(), threads, target)))
      signalPassFailure();
  }
};
} // namespace

void mlir::tinygrad::registerConversionPipelines() {
  PassPipelineRegistration<>(
      "tg-lower-to-llvm-cpu",
      "Kernel AST to the llvm dialect for the host CPU (what the library compiles)",
      [](OpPassManager &pm) {
        pm.addPass(createLowerKernel());
        buildStandardToLLVMCPUPipeline(pm);
      });
  registerTinygradCPUConversionPasses();
}
