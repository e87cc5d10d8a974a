//===- TestIntRanges.cpp - print upstream integer range analysis ----------===//
//
// Test pass: runs upstream's IntegerRangeAnalysis over tinygrad ops (which
// implement InferIntRangeInterface with tinygrad's vmin/vmax rules, see
// tinygrad/Symbolic/IntRanges.h) and reports each result's range as a
// remark.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Transforms/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Support/TypeID.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_TESTPRINTINTRANGES
#include "tinygrad/Transforms/Passes.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

/// Upstream's lattice, except for a value of a type that is not a builtin
/// integer or index: upstream's IntegerValueRangeLattice::onUpdate turns a
/// single-value range into a constant attribute of the value's type and
/// aborts ("Don't know how to create a constant for this type") on any
/// other type, such as `!tg.weakint` or a tensor of it. Such values only
/// notify their users here; their constants come from
/// SparseConstantPropagation (tg.const folds).
class TGIntRangeLattice : public dataflow::IntegerValueRangeLattice {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TGIntRangeLattice)
  using IntegerValueRangeLattice::IntegerValueRangeLattice;

  void onUpdate(DataFlowSolver *solver) const override {
    if (isa<IntegerType, IndexType>(getAnchor().getType()))
      return IntegerValueRangeLattice::onUpdate(solver);
    dataflow::AbstractSparseLattice::onUpdate(solver);
  }
};

/// Upstream's IntegerRangeAnalysis (transfer functions, entry states, loop
/// handling unchanged), storing its states in TGIntRangeLattice.
class TGIntegerRangeAnalysis : public dataflow::IntegerRangeAnalysis {
public:
  using IntegerRangeAnalysis::IntegerRangeAnalysis;

protected:
  dataflow::IntegerValueRangeLattice *getLatticeElement(Value value) override {
    return getOrCreate<TGIntRangeLattice>(value);
  }
};

/// Bounds of `range` as the type reads them: unsigned for ui* and bool,
/// signed otherwise (weakint, si*, signless builtin integers).
void printRange(llvm::raw_ostream &os, Type type, const ConstantIntRanges &r) {
  Type elem = tg::getElementTypeOrSelf(type);
  auto it = dyn_cast<IntegerType>(elem);
  bool isUnsigned = it && (it.isUnsigned() || it.getWidth() == 1);
  if (isUnsigned)
    os << "int range [" << r.umin().getZExtValue() << ", "
       << r.umax().getZExtValue() << "]";
  else
    os << "int range [" << r.smin() << ", " << r.smax() << "]";
}

struct TestPrintIntRangesPass
    : public tinygrad::impl::TestPrintIntRangesBase<TestPrintIntRangesPass> {
  void runOnOperation() override {
    Operation *root = getOperation();
    DataFlowSolver solver;
    solver.load<dataflow::DeadCodeAnalysis>();
    solver.load<dataflow::SparseConstantPropagation>();
    solver.load<TGIntegerRangeAnalysis>();
    if (failed(solver.initializeAndRun(root)))
      return signalPassFailure();

    root->walk([&](Operation *op) {
      if (op == root)
        return;
      for (OpResult result : op->getResults()) {
        auto *state = solver.lookupState<TGIntRangeLattice>(result);
        if (!state || state->getValue().isUninitialized())
          continue;
        // Upstream's entry state for a type it cannot size (e.g. the result
        // of an op without the interface) is a 0-bit range: no information.
        if (state->getValue().getValue().umin().getBitWidth() == 0)
          continue;
        InFlightDiagnostic diag = op->emitRemark();
        if (op->getNumResults() > 1)
          diag << "result #" << result.getResultNumber() << ": ";
        std::string text;
        llvm::raw_string_ostream os(text);
        printRange(os, result.getType(), state->getValue().getValue());
        diag << text;
      }
    });
  }
};

} // namespace
