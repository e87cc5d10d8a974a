//===- ScalarizeVectors.cpp - tg-gpu-scalarize-vectors ---------------------===//
//
// Rewrites the kernel's vector values into their lanes (see GPUPasses.td).
// Ops are visited after the ops of their regions (post-order), so an
// scf.if's yields have their lanes when the scf.if is rebuilt.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/GPUPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::tinygrad {
#define GEN_PASS_DEF_GPUSCALARIZEVECTORS
#include "tinygrad/Conversion/GPUPasses.h.inc"
} // namespace mlir::tinygrad

using namespace mlir;

namespace {

bool isVector(Type t) { return isa<VectorType>(t); }
bool touchesVectors(Operation *op) {
  return llvm::any_of(op->getResultTypes(), isVector) || llvm::any_of(op->getOperandTypes(), isVector);
}

struct Scalarizer {
  llvm::DenseMap<Value, SmallVector<Value>> lanes;
  SmallVector<Operation *> dead;

  /// `v`'s lanes; a scalar is every one of `n` lanes.
  SmallVector<Value> of(Value v, int64_t n) {
    if (!isVector(v.getType()))
      return SmallVector<Value>(n, v);
    return lanes.lookup(v);
  }
  static int64_t width(Value v) { return cast<VectorType>(v.getType()).getNumElements(); }

  LogicalResult visit(Operation *op) {
    if (!touchesVectors(op))
      return success();
    // An scf.if's yields are rebuilt with it.
    if (isa<scf::YieldOp>(op) && isa<scf::IfOp>(op->getParentOp()))
      return success();
    for (Value v : op->getOperands())
      if (isVector(v.getType()) && !lanes.count(v))
        return op->emitError("tg-gpu-scalarize-vectors: an operand's lanes are unknown");
    if (llvm::any_of(op->getResultTypes(), [](Type t) {
          auto vt = dyn_cast<VectorType>(t);
          return vt && vt.getRank() != 1;
        }))
      return op->emitError("tg-gpu-scalarize-vectors: only 1-D vectors are scalarized");
    OpBuilder b(op);
    Location loc = op->getLoc();
    dead.push_back(op);
    if (auto c = dyn_cast<arith::ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (!dense)
        return op->emitError("tg-gpu-scalarize-vectors: a vector constant that is not dense");
      SmallVector<Value> ls;
      for (Attribute a : dense.getValues<Attribute>())
        ls.push_back(arith::ConstantOp::create(b, loc, cast<TypedAttr>(a)));
      lanes[c] = ls;
      return success();
    }
    if (auto bc = dyn_cast<vector::BroadcastOp>(op)) {
      int64_t n = width(bc);
      SmallVector<Value> src = of(bc.getSource(), n);
      if ((int64_t)src.size() != n)
        return op->emitError("tg-gpu-scalarize-vectors: a broadcast between widths");
      lanes[bc] = src;
      return success();
    }
    if (auto fe = dyn_cast<vector::FromElementsOp>(op)) {
      lanes[fe] = SmallVector<Value>(fe.getElements().begin(), fe.getElements().end());
      return success();
    }
    if (auto ex = dyn_cast<vector::ExtractOp>(op)) {
      auto pos = ex.getStaticPosition();
      if (pos.size() != 1 || ShapedType::isDynamic(pos[0]))
        return op->emitError("tg-gpu-scalarize-vectors: an extract at a position not constant");
      ex.getResult().replaceAllUsesWith(lanes[ex.getSource()][pos[0]]);
      return success();
    }
    if (auto in = dyn_cast<vector::InsertOp>(op)) {
      auto pos = in.getStaticPosition();
      if (pos.size() != 1 || ShapedType::isDynamic(pos[0]) || isVector(in.getValueToStore().getType()))
        return op->emitError("tg-gpu-scalarize-vectors: an insert of a scalar at a constant position only");
      SmallVector<Value> ls = lanes[in.getDest()];
      ls[pos[0]] = in.getValueToStore();
      lanes[in] = ls;
      return success();
    }
    if (auto sh = dyn_cast<vector::ShuffleOp>(op)) {
      SmallVector<Value> all = lanes[sh.getV1()];
      all.append(lanes[sh.getV2()]);
      SmallVector<Value> ls;
      for (int64_t m : sh.getMask())
        ls.push_back(all[m]);
      lanes[sh] = ls;
      return success();
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(op))
      return visitIf(ifOp, b);
    if (op->hasTrait<OpTrait::Elementwise>() && op->getNumRegions() == 0 && op->getNumResults() == 1) {
      auto vt = dyn_cast<VectorType>(op->getResult(0).getType());
      if (!vt)
        return op->emitError("tg-gpu-scalarize-vectors: an elementwise op of vectors to a scalar");
      int64_t n = vt.getNumElements();
      SmallVector<SmallVector<Value>> in;
      for (Value v : op->getOperands())
        in.push_back(of(v, n));
      SmallVector<Value> ls;
      for (int64_t l = 0; l < n; ++l) {
        OperationState st(loc, op->getName());
        for (auto &o : in)
          st.addOperands(o[l]);
        st.addTypes(vt.getElementType());
        st.addAttributes(op->getAttrs());
        ls.push_back(b.create(st)->getResult(0));
      }
      lanes[op->getResult(0)] = ls;
      return success();
    }
    dead.pop_back();
    return op->emitError("tg-gpu-scalarize-vectors: no scalar form for this op on vectors");
  }

  LogicalResult visitIf(scf::IfOp ifOp, OpBuilder &b) {
    SmallVector<Type> types;
    for (Type t : ifOp.getResultTypes())
      if (auto vt = dyn_cast<VectorType>(t))
        types.append(vt.getNumElements(), vt.getElementType());
      else
        types.push_back(t);
    auto nif = scf::IfOp::create(b, ifOp.getLoc(), types, ifOp.getCondition(), /*addThenBlock=*/false,
                                 /*addElseBlock=*/false);
    nif.getThenRegion().takeBody(ifOp.getThenRegion());
    nif.getElseRegion().takeBody(ifOp.getElseRegion());
    for (Region *r : {&nif.getThenRegion(), &nif.getElseRegion()}) {
      if (r->empty())
        continue;
      auto y = cast<scf::YieldOp>(r->front().getTerminator());
      SmallVector<Value> ops;
      for (Value v : y.getOperands())
        if (isVector(v.getType()))
          ops.append(lanes[v]);
        else
          ops.push_back(v);
      OpBuilder yb(y);
      scf::YieldOp::create(yb, y.getLoc(), ops);
      y->erase();
    }
    unsigned i = 0;
    for (Value r : ifOp.getResults()) {
      if (auto vt = dyn_cast<VectorType>(r.getType())) {
        auto rs = nif.getResults().slice(i, vt.getNumElements());
        lanes[r] = SmallVector<Value>(rs.begin(), rs.end());
        i += vt.getNumElements();
      } else {
        r.replaceAllUsesWith(nif.getResult(i++));
      }
    }
    return success();
  }
};

struct GPUScalarizeVectors : mlir::tinygrad::impl::GPUScalarizeVectorsBase<GPUScalarizeVectors> {
  void runOnOperation() override {
    Scalarizer s;
    WalkResult r = getOperation().walk<WalkOrder::PostOrder>(
        [&](Operation *op) { return failed(s.visit(op)) ? WalkResult::interrupt() : WalkResult::advance(); });
    if (r.wasInterrupted())
      return signalPassFailure();
    // Users before what they use.
    for (Operation *op : llvm::reverse(s.dead)) {
      op->dropAllUses();
      op->erase();
    }
  }
};

} // namespace
