//===- KernelEmitter.cpp - structure a kernel graph into scf/arith/memref -===//
//
// Every node is emitted in the outermost loop where all the RANGEs it
// depends on are open, so loop-invariant work is hoisted by construction
// (tinygrad's linearizer places nodes the same way). A REDUCE is emitted at
// the depth of its remaining ranges: its accumulator lives in a stack slot
// of the function entry (promoted to a register by LLVM's SROA) and its own
// ranges open as a loop nest right there. Values memoized in a loop are
// forgotten when the loop closes.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/KernelToStandard.h"

#include "tinygrad/Codegen/Decompositions.h"
#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Codegen/Simplify.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include <thread>

using namespace mlir;
using namespace mlir::tinygrad;
using K = sym::Op; // mlir::Op is taken
using sym::UOpRef;

namespace {

/// The type a dtype computes in: weak ints in i64 (index math), weak floats
/// at default_float (float32), bools as i1. half and bfloat16 compute in
/// float32 and round only where C rounds (stores and casts), as tinygrad's
/// C does with clang's __fp16/__bf16.
Type scalarType(MLIRContext *ctx, DType dt) {
  Builder b(ctx);
  switch (dt) {
  case DType::Bool: return b.getI1Type();
  case DType::Int8: case DType::UInt8: return b.getI8Type();
  case DType::Int16: case DType::UInt16: return b.getI16Type();
  case DType::Int32: case DType::UInt32: return b.getI32Type();
  case DType::WeakInt: case DType::Int64: case DType::UInt64: return b.getI64Type();
  case DType::Float16: case DType::BFloat16:
  case DType::WeakFloat: case DType::Float32: return b.getF32Type();
  case DType::Float64: return b.getF64Type();
  default: return {};
  }
}
/// Bools are bytes in memory; half-like floats keep their storage type.
Type memoryType(MLIRContext *ctx, DType dt) {
  if (dt == DType::Float16)
    return Float16Type::get(ctx);
  if (dt == DType::BFloat16)
    return BFloat16Type::get(ctx);
  return dt == DType::Bool ? IntegerType::get(ctx, 8) : scalarType(ctx, dt);
}
bool isHalfLike(DType dt) { return dt == DType::Float16 || dt == DType::BFloat16; }
bool isUnsignedDT(DType dt) { return isUnsigned(dt) || dt == DType::Bool; }

/// tinygrad orders ranges by their arg tuple: axis ids compared as a whole
/// (a split range's parts share their first id).
bool rangeIdsLess(UOpRef a, UOpRef b) {
  auto ids = [](UOpRef r) -> llvm::ArrayRef<int64_t> {
    if (r->arg.attrs)
      if (auto a = dyn_cast_or_null<DenseI64ArrayAttr>(r->arg.attrs.get("ids")))
        return a.asArrayRef();
    return {};
  };
  llvm::ArrayRef<int64_t> x = ids(a), y = ids(b);
  return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
}

class Emitter {
public:
  Emitter(ModuleOp module, Location loc) : module(module), loc(loc), b(module.getContext()) {}

  FailureOr<KernelSignature> run(UOpRef sink, StringRef name);

private:
  struct Scope {
    UOpRef range;        ///< null for the function body
    Operation *loop;     ///< the scf.for (null for the function body)
    Block *body;
    unsigned id;
    /// Where code goes while this is the innermost scope: before this op
    /// (the body's terminator, or a later loop a REDUCE must precede).
    Operation *tail;
  };
  /// A value per lane of the node's lane shape (one lane: a scalar node).
  using Lanes = SmallVector<Value, 4>;
  struct Memo {
    Lanes v;
    unsigned depth, scopeId;
  };

  ModuleOp module;
  Location loc;
  OpBuilder b;
  func::FuncOp fn;
  Block *entry = nullptr;
  SmallVector<Scope> scopes;
  unsigned nextScopeId = 0;
  llvm::DenseMap<UOpRef, Memo> memo;
  llvm::DenseMap<UOpRef, Value> args;          ///< PARAM -> function argument
  llvm::DenseMap<UOpRef, SmallVector<UOpRef, 4>> rangeSets;
  llvm::DenseMap<UOpRef, SmallVector<UOpRef, 2>> laneShapes;
  std::string error;

  Type ty(DType dt) { return scalarType(b.getContext(), dt); }
  /// tinygrad's C is compiled with clang's default -ffp-contract=on: a
  /// product feeding an add in one expression fuses into an FMA. LLVM fuses
  /// a single-use fmul into its fadd when both carry `contract`, which is
  /// the same set of pairs (tinygrad's renderer inlines single-use ALUs).
  arith::FastMathFlagsAttr contract() {
    return arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::contract);
  }
  Value fail(UOpRef u, const Twine &why) {
    if (error.empty())
      error = (sym::getOpName(u->op) + ": " + why).str();
    return {};
  }

  /// The RANGEs `u` depends on that are still open where `u` is used.
  const SmallVector<UOpRef, 4> &rangesOf(UOpRef u);
  /// The UPCAST/UNROLL ranges open in `u`, by axis id: its lanes, the
  /// last range fastest (the expander's shape).
  SmallVector<UOpRef, 2> laneShape(UOpRef u);
  static bool isLaneRange(UOpRef r) {
    auto t = opt::Scheduler::axisType(r);
    return r->op == K::RANGE && (t == tg::AxisType::Upcast || t == tg::AxisType::Unroll);
  }
  static int64_t rangeSize(UOpRef r) { return opt::Scheduler::size(r).value_or(1); }
  static unsigned numLanes(ArrayRef<UOpRef> shape) {
    unsigned n = 1;
    for (UOpRef r : shape)
      n *= rangeSize(r);
    return n;
  }
  /// The lane of `sv` (lanes of shape `from`) at lane `l` of shape `to`
  /// (`from` a subset of `to`, or `to` bound further by `extra`).
  static Value laneAt(const Lanes &sv, ArrayRef<UOpRef> from, ArrayRef<UOpRef> to, unsigned l,
                      const llvm::DenseMap<UOpRef, int64_t> *extra = nullptr) {
    if (sv.size() <= 1)
      return sv.empty() ? Value() : sv[0];
    llvm::DenseMap<UOpRef, int64_t> vals;
    for (UOpRef r : llvm::reverse(to)) {
      int64_t n = rangeSize(r);
      vals[r] = l % n;
      l /= n;
    }
    unsigned idx = 0;
    for (UOpRef r : from) {
      auto it = vals.find(r);
      int64_t v = it != vals.end() ? it->second : extra ? extra->lookup(r) : 0;
      idx = idx * rangeSize(r) + v;
    }
    return sv[idx];
  }
  /// The RANGEs an END or REDUCE closes.
  SmallVector<UOpRef, 4> closedRanges(UOpRef u);
  /// Index of the scope of `r`, or -1 if its loop is not open.
  int scopeOf(UOpRef r) const {
    for (unsigned i = 1; i < scopes.size(); ++i)
      if (scopes[i].range == r)
        return i;
    return -1;
  }
  /// Sets the insertion point for code living at scope `depth`.
  void setInsertionAt(unsigned depth) {
    if (depth + 1 < scopes.size())
      b.setInsertionPoint(scopes[depth + 1].loop);
    else
      b.setInsertionPoint(scopes[depth].tail);
  }
  /// Depth a node must be emitted at; -1 with `error` set if a range is
  /// not open.
  int depthOf(UOpRef u);

  void openLoop(UOpRef range, unsigned depth);
  void closeLoop() { scopes.pop_back(); }

  /// The lanes of `u` (empty on failure).
  Lanes emitL(UOpRef u);
  /// A node that must be scalar (no lanes).
  Value emit(UOpRef u);
  Lanes emitNode(UOpRef u);
  Value emitNodeLane(UOpRef u, ArrayRef<Value> in);
  Lanes emitReduce(UOpRef u, unsigned depth);
  Lanes emitLoad(UOpRef u, UOpRef index, UOpRef alt);
  LogicalResult emitEffect(UOpRef u);
  LogicalResult emitStore(UOpRef u);

  Value convert(Value v, DType from, DType to);
  Value convertCompute(Value v, DType from, DType to);
  Value constant(const Scalar &s, DType dt);
  Value alu(UOpRef u, ArrayRef<Value> srcs);
  /// Address of an INDEX per lane of `shape`: buffer and element index
  /// (null gates when ungated).
  LogicalResult address(UOpRef index, ArrayRef<UOpRef> shape, Value &buf, Lanes &idx,
                        Lanes &gate, DType &dt);
};

const SmallVector<UOpRef, 4> &Emitter::rangesOf(UOpRef u) {
  auto it = rangeSets.find(u);
  if (it != rangeSets.end())
    return it->second;
  llvm::SetVector<UOpRef, SmallVector<UOpRef, 4>> set;
  if (u->op == K::RANGE)
    set.insert(u);
  for (UOpRef s : u->src) {
    // Copy: the recursive call may grow (and move) the map.
    SmallVector<UOpRef, 4> rs = rangesOf(s);
    set.insert(rs.begin(), rs.end());
  }
  if (u->op == K::REDUCE || u->op == K::END)
    for (UOpRef r : closedRanges(u))
      set.remove(r);
  return rangeSets[u] = SmallVector<UOpRef, 4>(set.begin(), set.end());
}

SmallVector<UOpRef, 4> Emitter::closedRanges(UOpRef u) {
  // A closer that is an expression (after a range split) closes its RANGEs.
  llvm::SetVector<UOpRef, SmallVector<UOpRef, 4>> out;
  for (UOpRef s : u->src.drop_front()) {
    if (s->op == K::RANGE) {
      out.insert(s);
      continue;
    }
    SmallVector<UOpRef, 4> rs = rangesOf(s);
    out.insert(rs.begin(), rs.end());
  }
  return SmallVector<UOpRef, 4>(out.begin(), out.end());
}

SmallVector<UOpRef, 2> Emitter::laneShape(UOpRef u) {
  auto it = laneShapes.find(u);
  if (it != laneShapes.end())
    return it->second;
  SmallVector<UOpRef, 2> out;
  for (UOpRef r : rangesOf(u))
    if (isLaneRange(r))
      out.push_back(r);
  llvm::stable_sort(out, rangeIdsLess);
  return laneShapes[u] = out;
}

int Emitter::depthOf(UOpRef u) {
  int d = 0;
  for (UOpRef r : rangesOf(u)) {
    if (isLaneRange(r))
      continue; // lanes are values, not loops
    int s = scopeOf(r);
    if (s < 0) {
      fail(u, "depends on a RANGE whose loop is not open here");
      return -1;
    }
    d = std::max(d, s);
  }
  return d;
}

void Emitter::openLoop(UOpRef range, unsigned depth) {
  setInsertionAt(depth);
  Value end = emit(range->src[0]);
  setInsertionAt(depth);
  Value lb = arith::ConstantIndexOp::create(b, loc, 0);
  Value ub = arith::IndexCastOp::create(b, loc, b.getIndexType(), end);
  Value step = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, lb, ub, step);
  // Scopes deeper than `depth` are hidden while this loop is open.
  scopes.push_back({range, loop, loop.getBody(), nextScopeId++, loop.getBody()->getTerminator()});
  b.setInsertionPointToStart(loop.getBody());
  Value iv = arith::IndexCastOp::create(b, loc, b.getI64Type(), loop.getInductionVar());
  memo[range] = {Lanes{iv}, unsigned(scopes.size() - 1), scopes.back().id};
}

Value Emitter::emit(UOpRef u) {
  Lanes l = emitL(u);
  if (l.empty())
    return {};
  if (l.size() != 1)
    return fail(u, "a scalar is needed here, not a value of " + Twine(l.size()) + " lanes");
  return l[0];
}

Emitter::Lanes Emitter::emitL(UOpRef u) {
  auto it = memo.find(u);
  if (it != memo.end()) {
    const Memo &m = it->second;
    if (m.depth < scopes.size() && scopes[m.depth].id == m.scopeId)
      return m.v;
  }
  if (u->op == K::RANGE && !isLaneRange(u)) {
    fail(u, "RANGE used outside of its loop");
    return {};
  }
  int depth = depthOf(u);
  if (depth < 0)
    return {};
  Lanes v;
  if (u->op == K::RANGE) {
    // An UPCAST/UNROLL range: its lanes are 0..n-1.
    setInsertionAt(depth);
    for (int64_t i = 0, n = rangeSize(u); i < n; ++i)
      v.push_back(constant(Scalar::fromInt(i), u->dtype));
  } else if (u->op == K::REDUCE) {
    v = emitReduce(u, depth);
  } else {
    // PARAM sizes are not computed; INDEX/LOAD place their own operands.
    bool ownOperands = u->op == K::PARAM || u->op == K::INDEX || u->op == K::LOAD;
    for (UOpRef s : u->src)
      if (!ownOperands && emitL(s).empty())
        return {};
    setInsertionAt(depth);
    v = emitNode(u);
  }
  if (v.empty() || llvm::any_of(v, [](Value x) { return !x; })) {
    // Every failure names the node: helpers that only return null (an
    // unmapped dtype) are reported here.
    fail(u, Twine("no CPU lowering at dtype ") + getName(u->dtype));
    return {};
  }
  memo[u] = {v, unsigned(depth), scopes[depth].id};
  return v;
}

Value Emitter::constant(const Scalar &s, DType dt) {
  Type t = ty(dt);
  if (!t)
    return {};
  if (s.isInvalid())
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
  if (isa<FloatType>(t)) {
    double v = s.isFloat() ? s.f : s.isBool() ? (s.b ? 1.0 : 0.0) : (double)s.i;
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  }
  __int128 v = s.isInt() ? s.i : s.isBool() ? (s.b ? 1 : 0) : (__int128)s.f;
  unsigned w = t.getIntOrFloatBitWidth();
  APInt ap(128, {(uint64_t)v, (uint64_t)(v >> 64)});
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, ap.trunc(w)));
}

/// tinygrad's CAST with C semantics.
Value Emitter::convert(Value v, DType from, DType to) {
  Value r = convertCompute(v, from, to);
  if (!r || !isHalfLike(to) || from == to)
    return r;
  // A cast to half rounds: through the storage type and back.
  Type mt = memoryType(b.getContext(), to);
  Value h = arith::TruncFOp::create(b, loc, mt, r);
  return arith::ExtFOp::create(b, loc, b.getF32Type(), h);
}

Value Emitter::convertCompute(Value v, DType from, DType to) {
  Type st = ty(from), dt = ty(to);
  if (!st || !dt)
    return {};
  if (st == dt)
    return v;
  bool sf = isa<FloatType>(st), df = isa<FloatType>(dt);
  if (to == DType::Bool) {
    if (sf)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v,
                                     arith::ConstantOp::create(b, loc, b.getZeroAttr(st)));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v,
                                   arith::ConstantOp::create(b, loc, b.getZeroAttr(st)));
  }
  if (sf && df) {
    unsigned sw = st.getIntOrFloatBitWidth(), dw = dt.getIntOrFloatBitWidth();
    if (sw < dw || (sw == dw && st != dt && dw == 16)) {
      if (sw == dw) // f16 <-> bf16 through f32
        v = arith::ExtFOp::create(b, loc, b.getF32Type(), v), st = b.getF32Type(), sw = 32;
      else
        return arith::ExtFOp::create(b, loc, dt, v);
    }
    return arith::TruncFOp::create(b, loc, dt, v);
  }
  if (sf) {
    // C converts through the integer width of the target; x86 gives the
    // "integer indefinite" value out of range.
    Type wide = dt.getIntOrFloatBitWidth() < 32 ? b.getI32Type() : dt;
    Value r = isUnsignedDT(to) && dt.getIntOrFloatBitWidth() >= 32
                  ? arith::FPToUIOp::create(b, loc, wide, v).getResult()
                  : arith::FPToSIOp::create(b, loc, wide, v).getResult();
    return wide == dt ? r : arith::TruncIOp::create(b, loc, dt, r).getResult();
  }
  if (df)
    return isUnsignedDT(from) ? arith::UIToFPOp::create(b, loc, dt, v).getResult()
                              : arith::SIToFPOp::create(b, loc, dt, v).getResult();
  unsigned sw = st.getIntOrFloatBitWidth(), dw = dt.getIntOrFloatBitWidth();
  if (sw > dw)
    return arith::TruncIOp::create(b, loc, dt, v);
  return isUnsignedDT(from) ? arith::ExtUIOp::create(b, loc, dt, v).getResult()
                            : arith::ExtSIOp::create(b, loc, dt, v).getResult();
}

LogicalResult Emitter::address(UOpRef index, ArrayRef<UOpRef> shape, Value &buf, Lanes &idx,
                               Lanes &gate, DType &dt) {
  if (index->op == K::CAST && !index->src.empty())
    index = index->src[0];
  if (index->op != K::INDEX || index->src.size() < 2) {
    fail(index, "expected INDEX(buffer, index) as an address");
    return failure();
  }
  UOpRef bufU = index->src[0];
  auto it = args.find(bufU);
  if (it == args.end()) {
    fail(bufU, "only PARAM buffers can be indexed");
    return failure();
  }
  buf = it->second;
  dt = bufU->dtype;
  UOpRef i = index->src[1];
  UOpRef gateU = nullptr;
  if (index->src.size() > 2) {
    fail(index, "multi-dimensional INDEX is not supported on CPU");
    return failure();
  }
  if (i->op == K::WHERE && i->src[2]->isInvalid()) {
    gateU = i->src[0];
    i = i->src[1];
  }
  // An ungated index whose whole value range lies outside the buffer can
  // only fault: reject the kernel (bounds are tinygrad's vmin/vmax).
  if (!gateU && !bufU->src.empty() && i->vmin().isInt() && i->vmax().isInt() &&
      bufU->src[0]->vmax().isInt()) {
    __int128 size = bufU->src[0]->vmax().i;
    if (i->vmin().i >= size || i->vmax().i < 0) {
      fail(index, "index range [" + std::to_string((long long)i->vmin().i) + ", " +
                      std::to_string((long long)i->vmax().i) + "] is outside buffer slot " +
                      std::to_string(bufU->param().slot) + " of " + std::to_string((long long)size) +
                      " elements");
      return failure();
    }
  }
  unsigned n = numLanes(shape);
  gate.assign(n, Value());
  if (gateU) {
    Lanes g = emitL(gateU);
    if (g.empty())
      return failure();
    for (unsigned l = 0; l < n; ++l)
      gate[l] = laneAt(g, laneShape(gateU), shape, l);
  }
  Lanes iv = emitL(i);
  if (iv.empty())
    return failure();
  // The address lives where its index does (emit() may have left the
  // insertion point in an outer scope).
  int d = depthOf(i);
  if (d < 0)
    return failure();
  setInsertionAt(d);
  Lanes conv;
  for (Value x : iv)
    conv.push_back(arith::IndexCastOp::create(b, loc, b.getIndexType(), convert(x, i->dtype, DType::Int64)));
  idx.clear();
  for (unsigned l = 0; l < n; ++l)
    idx.push_back(laneAt(conv, laneShape(i), shape, l));
  return success();
}

Emitter::Lanes Emitter::emitLoad(UOpRef u, UOpRef index, UOpRef alt) {
  Value buf;
  Lanes idx, gate;
  DType dt;
  // Operands may live in outer loops; the load itself sits at the index's depth.
  int depth = depthOf(index);
  if (depth < 0)
    return {};
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  if (failed(address(index, shape, buf, idx, gate, dt)))
    return {};
  Lanes other;
  if (alt && llvm::any_of(gate, [](Value g) { return bool(g); }))
    if ((other = emitL(alt)).empty())
      return {};
  setInsertionAt(depth);
  auto loadAt = [&](OpBuilder &ob, Value i) -> Value {
    Value v = memref::LoadOp::create(ob, loc, buf, ValueRange{i});
    if (dt == DType::Bool)
      v = arith::TruncIOp::create(ob, loc, ob.getI1Type(), v);
    if (isHalfLike(dt))
      v = arith::ExtFOp::create(ob, loc, ob.getF32Type(), v);
    return v;
  };
  Lanes out;
  for (unsigned l = 0; l < idx.size(); ++l) {
    if (!gate[l]) {
      out.push_back(loadAt(b, idx[l]));
      continue;
    }
    Value o = alt ? laneAt(other, laneShape(alt), shape, l) : constant(Scalar::fromInt(0), dt);
    if (!o)
      return {};
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{ty(dt)}, gate[l], /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(tb, loc, loadAt(tb, idx[l]));
    OpBuilder fb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(fb, loc, o);
    out.push_back(ifOp.getResult(0));
  }
  return out;
}

Emitter::Lanes Emitter::emitReduce(UOpRef u, unsigned depth) {
  auto kindAttr = u->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(u->arg.attrs.get("kind"))
                               : tg::ReduceKindAttr();
  if (!kindAttr) {
    fail(u, "REDUCE without a reduce kind");
    return {};
  }
  tg::ReduceKind kind = kindAttr.getValue();
  DType dt = u->dtype;
  Type t = ty(dt);
  if (!t) {
    fail(u, "unsupported dtype");
    return {};
  }
  bool f = isa<FloatType>(t);
  auto combine = [&](Value cur, Value x) -> Value {
    switch (kind) {
    case tg::ReduceKind::Add:
      return f ? arith::AddFOp::create(b, loc, cur, x, contract()).getResult()
               : arith::AddIOp::create(b, loc, cur, x).getResult();
    case tg::ReduceKind::Mul:
      return f ? arith::MulFOp::create(b, loc, cur, x, contract()).getResult()
               : arith::MulIOp::create(b, loc, cur, x).getResult();
    case tg::ReduceKind::Max: {
      // tinygrad renders MAX as (a<b ? b : a).
      Value lt = f ? arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, cur, x).getResult()
                   : arith::CmpIOp::create(b, loc, isUnsignedDT(dt) ? arith::CmpIPredicate::ult
                                                                    : arith::CmpIPredicate::slt,
                                           cur, x)
                         .getResult();
      return arith::SelectOp::create(b, loc, lt, x, cur);
    }
    }
    return {};
  };
  // The reduce ranges: loops, outermost first in axis order, and the
  // UNROLL/UPCAST ranges the expander folds, in the order the REDUCE lists
  // them (tinygrad's flatten_range order, which its CONTRACT keeps: the
  // last fastest). Sorting those by id would change the order of the sum.
  SmallVector<UOpRef, 4> loops, folded;
  for (UOpRef r : closedRanges(u)) {
    if (r->op != K::RANGE) {
      fail(u, "REDUCE over a non-RANGE source");
      return {};
    }
    (isLaneRange(r) ? folded : loops).push_back(r);
  }
  llvm::stable_sort(loops, rangeIdsLess);
  SmallVector<UOpRef, 2> outShape = laneShape(u);
  unsigned nOut = numLanes(outShape), nFold = numLanes(folded);
  // For each output lane and folded lane, the source lane.
  auto srcLane = [&](const Lanes &x, unsigned o, unsigned c) {
    llvm::DenseMap<UOpRef, int64_t> vals;
    for (UOpRef r : llvm::reverse(folded)) {
      int64_t n = rangeSize(r);
      vals[r] = c % n;
      c /= n;
    }
    return laneAt(x, laneShape(u->src[0]), outShape, o, &vals);
  };
  auto convertAll = [&](Lanes x) {
    for (Value &v : x)
      v = convert(v, u->src[0]->dtype, dt);
    return x;
  };
  if (loops.empty()) {
    // Only lanes: the horizontal reduce, no accumulator (tinygrad's
    // expand_horizontal_reduce).
    Lanes x = emitL(u->src[0]);
    if (x.empty())
      return {};
    setInsertionAt(depth);
    x = convertAll(x);
    Lanes out;
    for (unsigned o = 0; o < nOut; ++o) {
      Value cur = srcLane(x, o, 0);
      for (unsigned c = 1; c < nFold; ++c)
        cur = combine(cur, srcLane(x, o, c));
      out.push_back(cur);
    }
    return out;
  }
  // The accumulators: stack slots in the entry block, one per output lane.
  OpBuilder eb(b.getContext());
  eb.setInsertionPointToStart(entry);
  SmallVector<Value, 4> acc;
  for (unsigned o = 0; o < nOut; ++o)
    acc.push_back(memref::AllocaOp::create(eb, loc, MemRefType::get({}, t)));
  setInsertionAt(depth);
  Value initV;
  if (kind == tg::ReduceKind::Max) {
    if (f)
      initV = arith::ConstantOp::create(b, 
          loc, b.getFloatAttr(t, -std::numeric_limits<double>::infinity()));
    else if (dt == DType::Bool)
      initV = constant(Scalar::fromBool(false), dt);
    else
      initV = constant(Scalar::fromInt(*intMinValue(dt)), dt);
  } else {
    initV = constant(kind == tg::ReduceKind::Add ? Scalar::fromInt(0) : Scalar::fromInt(1), dt);
  }
  for (Value a : acc)
    memref::StoreOp::create(b, loc, initV, a);
  // The loops deeper than `depth` are hidden while the reduce's own loops
  // are open; everything emitted at `depth` must stay before them.
  auto saved = SmallVector<Scope>(scopes.begin() + depth + 1, scopes.end());
  Operation *savedTail = scopes[depth].tail;
  if (!saved.empty())
    scopes[depth].tail = saved.front().loop;
  scopes.truncate(depth + 1);
  unsigned d = depth;
  for (UOpRef r : loops) {
    openLoop(r, d);
    d = scopes.size() - 1;
  }
  if (error.empty()) {
    Lanes x = emitL(u->src[0]);
    if (!x.empty()) {
      b.setInsertionPoint(scopes.back().tail);
      x = convertAll(x);
      for (unsigned o = 0; o < nOut; ++o) {
        Value cur = memref::LoadOp::create(b, loc, acc[o]);
        for (unsigned c = 0; c < nFold; ++c)
          cur = combine(cur, srcLane(x, o, c));
        memref::StoreOp::create(b, loc, cur, acc[o]);
      }
    }
  }
  while (scopes.size() > depth + 1)
    closeLoop();
  if (!error.empty())
    return {};
  setInsertionAt(depth);
  Lanes result;
  for (Value a : acc)
    result.push_back(memref::LoadOp::create(b, loc, a));
  scopes[depth].tail = savedTail;
  scopes.append(saved.begin(), saved.end());
  return result;
}

Value Emitter::alu(UOpRef u, ArrayRef<Value> in) {
  DType dt = u->dtype;
  K op = u->op;
  // Operands compute at the node's dtype (comparisons: at the operands'
  // common dtype; WHERE: the condition stays bool; shifts: the lhs dtype).
  DType opdt = dt;
  if (sym::isComparison(op)) {
    auto lub = leastUpperDType({u->src[0]->dtype, u->src[1]->dtype});
    opdt = lub ? *lub : u->src[0]->dtype;
  }
  SmallVector<Value, 3> v;
  for (size_t i = 0; i < in.size(); ++i) {
    DType target = op == K::WHERE && i == 0 ? DType::Bool : opdt;
    Value c = convert(in[i], u->src[i]->dtype, target);
    if (!c)
      return fail(u, "unsupported operand dtype");
    v.push_back(c);
  }
  Type t = ty(opdt);
  if (!t)
    return fail(u, "unsupported dtype");
  bool f = isa<FloatType>(t);
  bool uns = isUnsignedDT(opdt);
  auto cmpi = [&](arith::CmpIPredicate p) { return arith::CmpIOp::create(b, loc, p, v[0], v[1]).getResult(); };
  auto cmpf = [&](arith::CmpFPredicate p) { return arith::CmpFOp::create(b, loc, p, v[0], v[1]).getResult(); };
  switch (op) {
  case K::ADD: return f ? arith::AddFOp::create(b, loc, v[0], v[1], contract()).getResult() : arith::AddIOp::create(b, loc, v[0], v[1]).getResult();
  case K::SUB: return f ? arith::SubFOp::create(b, loc, v[0], v[1], contract()).getResult() : arith::SubIOp::create(b, loc, v[0], v[1]).getResult();
  case K::MUL: return f ? arith::MulFOp::create(b, loc, v[0], v[1], contract()).getResult() : arith::MulIOp::create(b, loc, v[0], v[1]).getResult();
  case K::FDIV: return arith::DivFOp::create(b, loc, v[0], v[1]);
  case K::MULACC:
    return f ? math::FmaOp::create(b, loc, v[0], v[1], v[2]).getResult()
             : arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, v[0], v[1]), v[2]).getResult();
  case K::NEG: return f ? arith::NegFOp::create(b, loc, v[0]).getResult()
                         : arith::SubIOp::create(b, loc, arith::ConstantOp::create(b, loc, b.getZeroAttr(t)), v[0]).getResult();
  case K::MAX: {
    Value lt = f ? cmpf(arith::CmpFPredicate::OLT) : cmpi(uns ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
    return arith::SelectOp::create(b, loc, lt, v[1], v[0]);
  }
  case K::CMPLT: return f ? cmpf(arith::CmpFPredicate::OLT) : cmpi(uns ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
  case K::CMPNE: return f ? cmpf(arith::CmpFPredicate::UNE) : cmpi(arith::CmpIPredicate::ne);
  case K::CMPEQ: return f ? cmpf(arith::CmpFPredicate::OEQ) : cmpi(arith::CmpIPredicate::eq);
  case K::AND: return arith::AndIOp::create(b, loc, v[0], v[1]);
  case K::OR: return arith::OrIOp::create(b, loc, v[0], v[1]);
  case K::XOR: return arith::XOrIOp::create(b, loc, v[0], v[1]);
  case K::SHL: return arith::ShLIOp::create(b, loc, v[0], v[1]);
  case K::SHR: return uns ? arith::ShRUIOp::create(b, loc, v[0], v[1]).getResult() : arith::ShRSIOp::create(b, loc, v[0], v[1]).getResult();
  case K::CDIV:
    if (f)
      return arith::DivFOp::create(b, loc, v[0], v[1]);
    return uns ? arith::DivUIOp::create(b, loc, v[0], v[1]).getResult() : arith::DivSIOp::create(b, loc, v[0], v[1]).getResult();
  case K::CMOD:
    if (f)
      return arith::RemFOp::create(b, loc, v[0], v[1]);
    return uns ? arith::RemUIOp::create(b, loc, v[0], v[1]).getResult() : arith::RemSIOp::create(b, loc, v[0], v[1]).getResult();
  case K::FLOORDIV:
    if (f)
      return math::FloorOp::create(b, loc, arith::DivFOp::create(b, loc, v[0], v[1]));
    return uns ? arith::DivUIOp::create(b, loc, v[0], v[1]).getResult() : arith::FloorDivSIOp::create(b, loc, v[0], v[1]).getResult();
  case K::FLOORMOD: {
    if (uns)
      return arith::RemUIOp::create(b, loc, v[0], v[1]);
    if (f)
      return fail(u, "float FLOORMOD");
    // Python's %: the remainder takes the divisor's sign.
    Value r = arith::RemSIOp::create(b, loc, v[0], v[1]);
    Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
    Value rne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
    Value rneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, zero);
    Value bneg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, v[1], zero);
    Value fix = arith::AndIOp::create(b, loc, rne, arith::XOrIOp::create(b, loc, rneg, bneg));
    return arith::SelectOp::create(b, loc, fix, arith::AddIOp::create(b, loc, r, v[1]), r);
  }
  case K::WHERE: return arith::SelectOp::create(b, loc, v[0], v[1], v[2]);
  case K::SQRT: return math::SqrtOp::create(b, loc, v[0]);
  case K::EXP2: return math::Exp2Op::create(b, loc, v[0]);
  case K::LOG2: return math::Log2Op::create(b, loc, v[0]);
  case K::SIN: return math::SinOp::create(b, loc, v[0]);
  case K::TRUNC: return f ? math::TruncOp::create(b, loc, v[0]).getResult() : v[0];
  case K::RECIPROCAL:
    return arith::DivFOp::create(b, loc, arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 1.0)), v[0]);
  case K::THREEFRY: {
    // tinygrad's threefry2x32 decomposition (codegen/decomp/op.py).
    auto u32 = b.getI32Type(), u64 = b.getI64Type();
    auto c32 = [&](uint32_t c) { return arith::ConstantOp::create(b, loc, b.getIntegerAttr(u32, c)).getResult(); };
    Value s32 = arith::ConstantOp::create(b, loc, b.getIntegerAttr(u64, 32));
    auto lo = [&](Value x) { return arith::TruncIOp::create(b, loc, u32, x).getResult(); };
    auto hi = [&](Value x) { return lo(arith::ShRUIOp::create(b, loc, x, s32)); };
    auto add = [&](Value a, Value c) { return arith::AddIOp::create(b, loc, a, c).getResult(); };
    auto xr_ = [&](Value a, Value c) { return arith::XOrIOp::create(b, loc, a, c).getResult(); };
    Value x0 = lo(v[0]), x1 = hi(v[0]), k0 = lo(v[1]), k1 = hi(v[1]);
    Value ks[3] = {k1, xr_(xr_(k0, k1), c32(0x1BD11BDA)), k0};
    Value xr[2] = {add(x0, ks[2]), add(x1, ks[0])};
    const int rot[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
    for (int i = 0; i < 5; ++i) {
      for (int r : rot[i % 2]) {
        Value nx0 = add(xr[0], xr[1]);
        Value rotl = add(arith::ShLIOp::create(b, loc, xr[1], c32(r)),
                         arith::ShRUIOp::create(b, loc, xr[1], c32(32 - r)));
        xr[1] = xr_(nx0, rotl);
        xr[0] = nx0;
      }
      xr[0] = add(xr[0], ks[i % 3]);
      xr[1] = add(add(xr[1], ks[(i + 1) % 3]), c32(i + 1));
    }
    Value h = arith::ShLIOp::create(b, loc, arith::ExtUIOp::create(b, loc, u64, xr[1]), s32);
    return arith::OrIOp::create(b, loc, h, arith::ExtUIOp::create(b, loc, u64, xr[0]));
  }
  default:
    return fail(u, "not an ALU op the CPU target lowers");
  }
}

Emitter::Lanes Emitter::emitNode(UOpRef u) {
  switch (u->op) {
  case K::INDEX:
    return emitLoad(u, u, nullptr);
  case K::LOAD:
    return emitLoad(u, u->src[0], u->src.size() > 1 ? u->src[1] : nullptr);
  default:
    break;
  }
  // Everything else computes lane by lane, each source broadcast to the
  // node's lanes (the expander's shaped values, unrolled into scalars that
  // LLVM's SLP vectorizer packs again).
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  unsigned n = numLanes(shape);
  bool ownOperands = u->op == K::PARAM || u->op == K::CONST;
  SmallVector<Lanes, 3> srcs;
  if (!ownOperands)
    for (UOpRef s : u->op == K::AFTER ? u->src.take_front() : u->src)
      srcs.push_back(memo.lookup(s).v);
  Lanes out;
  for (unsigned l = 0; l < n; ++l) {
    SmallVector<Value, 3> in;
    for (unsigned i = 0; i < srcs.size(); ++i)
      in.push_back(laneAt(srcs[i], laneShape(u->src[i]), shape, l));
    Value v = emitNodeLane(u, in);
    if (!v)
      return {};
    out.push_back(v);
  }
  return out;
}

Value Emitter::emitNodeLane(UOpRef u, ArrayRef<Value> in) {
  switch (u->op) {
  case K::CONST:
    if (!ty(u->dtype))
      return fail(u, "unsupported dtype");
    return constant(u->val(), u->dtype);
  case K::PARAM: {
    auto it = args.find(u);
    if (it == args.end())
      return fail(u, "PARAM is not a kernel argument");
    return it->second;
  }
  case K::CAST: {
    Value x = convert(in[0], u->src[0]->dtype, u->dtype);
    if (!x)
      return fail(u, Twine("no CPU lowering from ") + getName(u->src[0]->dtype) + " to " + getName(u->dtype));
    return x;
  }
  case K::BITCAST: {
    // Reinterpret the storage bits (half-like values compute in f32).
    DType from = u->src[0]->dtype, to = u->dtype;
    Value x = in[0];
    Type ft = memoryType(b.getContext(), from), tt = memoryType(b.getContext(), to);
    if (!ft || !tt || from == DType::Bool || to == DType::Bool ||
        ft.getIntOrFloatBitWidth() != tt.getIntOrFloatBitWidth())
      return fail(u, "BITCAST between different widths");
    if (isHalfLike(from))
      x = arith::TruncFOp::create(b, loc, ft, x);
    Value r = arith::BitcastOp::create(b, loc, tt, x);
    return isHalfLike(to) ? arith::ExtFOp::create(b, loc, b.getF32Type(), r).getResult() : r;
  }
  case K::AFTER:
    return in[0];
  default:
    break;
  }
  if (!sym::isALU(u->op))
    return fail(u, "op has no CPU lowering");
  return alu(u, in);
}

LogicalResult Emitter::emitStore(UOpRef u) {
  if (u->src.size() < 2) {
    fail(u, "STORE needs an address and a value");
    return failure();
  }
  UOpRef index = u->src[0], val = u->src[1];
  Value buf;
  Lanes idx, gate;
  DType dt;
  unsigned depth = scopes.size() - 1;
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  Lanes v = emitL(val);
  if (v.empty())
    return failure();
  if (failed(address(index, shape, buf, idx, gate, dt)))
    return failure();
  Lanes g2;
  if (u->src.size() > 2 && (g2 = emitL(u->src[2])).empty())
    return failure();
  b.setInsertionPoint(scopes[depth].tail);
  for (unsigned l = 0; l < idx.size(); ++l) {
    Value x = convertCompute(laneAt(v, laneShape(val), shape, l), val->dtype, dt);
    if (!x) {
      fail(u, "unsupported store dtype");
      return failure();
    }
    if (dt == DType::Bool)
      x = arith::ExtUIOp::create(b, loc, b.getI8Type(), x);
    if (isHalfLike(dt))
      x = arith::TruncFOp::create(b, loc, memoryType(b.getContext(), dt), x);
    Value g = gate[l];
    if (!g2.empty()) {
      Value gl = laneAt(g2, laneShape(u->src[2]), shape, l);
      g = g ? arith::AndIOp::create(b, loc, g, gl).getResult() : gl;
    }
    if (!g) {
      memref::StoreOp::create(b, loc, x, buf, ValueRange{idx[l]});
      continue;
    }
    auto ifOp = scf::IfOp::create(b, loc, g, /*withElse=*/false);
    OpBuilder ib = ifOp.getThenBodyBuilder();
    memref::StoreOp::create(ib, loc, x, buf, ValueRange{idx[l]});
  }
  return success();
}

LogicalResult Emitter::emitEffect(UOpRef u) {
  switch (u->op) {
  case K::END: {
    SmallVector<UOpRef, 4> rs;
    // UPCAST/UNROLL ranges are the store's lanes, not loops.
    for (UOpRef r : closedRanges(u))
      if (scopeOf(r) < 0 && !isLaneRange(r))
        rs.push_back(r);
    llvm::stable_sort(rs, rangeIdsLess);
    size_t base = scopes.size();
    for (UOpRef r : rs) {
      openLoop(r, scopes.size() - 1);
      if (!error.empty())
        return failure();
    }
    LogicalResult res = emitEffect(u->src[0]);
    while (scopes.size() > base)
      closeLoop();
    return res;
  }
  case K::STORE:
    return emitStore(u);
  case K::SINK:
  case K::GROUP:
    for (UOpRef s : u->src)
      if (failed(emitEffect(s)))
        return failure();
    return success();
  case K::NOOP:
    return success();
  case K::AFTER:
    return emitEffect(u->src[0]);
  default:
    fail(u, "not a side effect the CPU target lowers");
    return failure();
  }
}

FailureOr<KernelSignature> Emitter::run(UOpRef sink, StringRef name) {
  MLIRContext *ctx = module.getContext();
  KernelSignature sig;
  sig.name = name.str();
  SmallVector<UOpRef> topo;
  opt::toposort(sink, topo);
  SmallVector<UOpRef> bufs, vars;
  // outs/ins as tinygrad's ProgramInfo has them (a STORE's buffer is an out,
  // a LOAD's an in). Loads are implicit here: an INDEX is read wherever it is
  // used other than as a store's address, and one interned INDEX can be both
  // (`x[0] = x[0] + y[0]`).
  llvm::DenseSet<UOpRef> storeAddrCasts;
  for (UOpRef u : topo)
    if (u->op == K::STORE && !u->src.empty() && u->src[0]->op == K::CAST)
      storeAddrCasts.insert(u->src[0]);
  auto paramIndex = [](UOpRef x) {
    return x->op == K::INDEX && !x->src.empty() && x->src[0]->op == K::PARAM ? x : nullptr;
  };
  for (UOpRef u : topo) {
    if (u->op == K::PARAM)
      (u->param().isALU ? vars : bufs).push_back(u);
    for (auto [i, s] : llvm::enumerate(u->src)) {
      UOpRef idx = paramIndex(s);
      if (!idx)
        continue;
      bool isAddress = (u->op == K::STORE && i == 0) || storeAddrCasts.count(u);
      (isAddress ? sig.outs : sig.ins).push_back(idx->src[0]->param().slot);
    }
  }
  llvm::sort(bufs, [](UOpRef a, UOpRef c) { return a->param().slot < c->param().slot; });
  for (auto *v : {&sig.outs, &sig.ins}) {
    llvm::sort(*v);
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  SmallVector<Type> argTypes;
  for (UOpRef p : bufs) {
    Type et = memoryType(ctx, p->dtype);
    if (!et) {
      mlir::emitError(loc, "PARAM slot ") << p->param().slot << ": unsupported dtype";
      return failure();
    }
    int64_t size = ShapedType::kDynamic;
    if (!p->src.empty()) {
      const Scalar &hi = p->src[0]->vmax();
      if (hi.isInt() && hi.i > 0 && hi.i < (__int128(1) << 62))
        size = (int64_t)hi.i;
    }
    if (size == ShapedType::kDynamic) {
      mlir::emitError(loc, "PARAM slot ") << p->param().slot << ": buffer size is not bounded";
      return failure();
    }
    argTypes.push_back(MemRefType::get({size}, et));
    sig.globals.push_back(p->param().slot);
    sig.bufferElems.push_back(size);
  }
  for (size_t vi = 0; vi < vars.size(); ++vi) {
    UOpRef v = vars[vi];
    Type t = scalarType(ctx, v->dtype);
    if (!t || !isa<IntegerType>(t)) {
      mlir::emitError(loc, "variable ") << v->param().name << ": unsupported dtype";
      return failure();
    }
    // tinygrad passes every variable as a C int.
    argTypes.push_back(b.getI32Type());
    sig.vars.push_back(v->param().name.str());
    if (v->param().name == "core_id") {
      sig.coreIdArg = bufs.size() + vi;
      if (auto mm = v->param().vminVmax; mm && mm->second.isInt())
        sig.threads = (int64_t)mm->second.i + 1;
    }
  }
  b.setInsertionPointToEnd(module.getBody());
  fn = func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  // Every buffer is its own argument and never aliases another, as the
  // `restrict` on each pointer of tinygrad's C says.
  for (size_t i = 0; i < bufs.size(); ++i)
    fn.setArgAttr(i, "llvm.noalias", b.getUnitAttr());
  entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  scopes.push_back({nullptr, nullptr, entry, nextScopeId++, entry->getTerminator()});
  for (size_t i = 0; i < bufs.size(); ++i)
    args[bufs[i]] = entry->getArgument(i);
  b.setInsertionPoint(entry->getTerminator());
  for (size_t i = 0; i < vars.size(); ++i) {
    Value a = entry->getArgument(bufs.size() + i);
    Type vt = scalarType(ctx, vars[i]->dtype);
    unsigned w = vt.getIntOrFloatBitWidth();
    args[vars[i]] = w > 32   ? arith::ExtSIOp::create(b, loc, vt, a).getResult()
                    : w < 32 ? arith::TruncIOp::create(b, loc, vt, a).getResult()
                             : a;
  }
  if (failed(emitEffect(sink))) {
    mlir::emitError(loc, "tg-lower-kernel: cannot lower kernel: ") << error;
    fn.erase();
    return failure();
  }
  return sig;
}

} // namespace

unsigned mlir::tinygrad::hostThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

FailureOr<KernelSignature> mlir::tinygrad::lowerKernelToStandard(ModuleOp module, UOpRef kernel,
                                                                StringRef name, Location loc,
                                                                const KernelLoweringOptions &opts) {
  if (kernel->op != K::SINK) {
    mlir::emitError(loc, "a kernel is a SINK, got ") << sym::getOpName(kernel->op);
    return failure();
  }
  sym::Context &ctx = kernel->ctx();
  // tinygrad's CPU opts (threads over the outer axis), then the ops the CPU
  // target lacks, decomposed as tinygrad does.
  // full_rewrite_to_sink's order: split ranges, initial symbolic, simplify
  // ranges, apply_opts, postopt symbolic.
  sym::UOpRef k = codegen::preOptRewrites(ctx, kernel);
  SmallVector<opt::Opt> applied;
  if (k) {
    opt::OptTarget target = opt::OptTarget::host(opts.maxThreads ? opts.maxThreads : hostThreads());
    std::string why;
    k = opt::applyOpts(ctx, k, opts.info, target, opts.optMode, &applied, &why);
    if (!k) {
      mlir::emitError(loc, "apply_opts: ") << why;
      return failure();
    }
    k = codegen::postOptSymbolic(ctx, k);
    if (k)
      k = opt::lowerThreadRanges(ctx, k);
  }
  // tinygrad's order: dtype decomps, then the late ones (transcendentals).
  if (k)
    k = decomp::dtypeDecompositions(ctx, k);
  if (k)
    k = sym::graphRewrite(ctx, k, decomp::transcendentalPatterns());
  if (!k) {
    mlir::emitError(loc, "decompositions failed: ") << (ctx.errors.empty() ? "" : ctx.errors.back());
    return failure();
  }
  FailureOr<KernelSignature> sig = Emitter(module, loc).run(k, name);
  if (succeeded(sig))
    sig->appliedOpts.assign(applied.begin(), applied.end());
  return sig;
}
