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
// UPCAST/UNROLL ranges are lanes, not loops: a node with n > 1 lanes is one
// `vector<n x T>` (row-major over its lane ranges, the last fastest), so
// every elementwise op is one vector op and loads/stores become vector
// accesses wherever the index is linear in the lanes.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Conversion/KernelToStandard.h"

#include <chrono>

#include "tinygrad/Codegen/LinearIndex.h"

#include "tinygrad/Codegen/Decompositions.h"
#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Codegen/Simplify.h"
#include "tinygrad/Target/CPU/CPUTarget.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
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

/// Whether n lanes split into whole vector registers. Odd lengths (a
/// 3-wide window row) become partial accesses and inserts in LLVM; scalar
/// loads assembled into a vector measured faster (conv2d_basic 2x).
bool wholeVectors(int64_t n) { return n >= 2 && (llvm::isPowerOf2_64(n) || n % 4 == 0); }

/// Below this many points of the iteration space (every RANGE, lanes
/// included) a kernel is scalarized before LLVM's O3 (see Emitter::run).
constexpr int64_t kScalarizeBelowPoints = 1 << 16;
int64_t iterationPoints(ArrayRef<UOpRef> topo) {
  int64_t p = 1;
  for (UOpRef u : topo)
    if (u->op == K::RANGE)
      p = std::min<int64_t>(p * opt::Scheduler::size(u).value_or(1 << 20), int64_t(1) << 40);
  return p;
}

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
  /// A node's value: a scalar for one lane, else a vector of its lanes.
  struct Memo {
    Value v;
    unsigned depth, scopeId;
  };
  /// Lane values for one index: fixed by the axis values of the shape.
  using LaneVals = llvm::DenseMap<UOpRef, int64_t>;
  /// How a load or store reaches memory, per lane of its shape.
  struct Address {
    Value buf;
    DType dt;
    Value gate; ///< i1, or a vector of i1 over gateShape; null when ungated
    SmallVector<UOpRef, 2> gateShape;
    /// Linear: lane l is at base + offsets[l]; else at lane l of `idx`.
    bool linear = false;
    Value base;
    SmallVector<int64_t> offsets;
    Value idx; ///< vector<n x index> (non-linear) or an index (one lane)
    unsigned lanes = 1;
    /// Segments: runs of lanes along the one lane range of stride 1, each
    /// contiguous in memory (lanes of segment s, in address order); empty
    /// when no lane range has stride 1.
    SmallVector<SmallVector<int64_t, 8>> segments;
    /// Lane l's place in the segments laid end to end.
    SmallVector<int64_t> segPos;
    bool distinct = false; ///< no two lanes share an address
    bool contiguous() const;
    bool splat() const;
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
  llvm::DenseMap<UOpRef, unsigned> users; ///< how many nodes use each node
  /// Lane ranges by their smallest |stride| in a store's index, then in a
  /// load's (0: none); the order of lanes in every vector follows it.
  llvm::DenseMap<UOpRef, std::pair<int64_t, int64_t>> laneStrides;
  bool laneBefore(UOpRef a, UOpRef c) const;
  void chooseLaneOrder(ArrayRef<UOpRef> topo);
  std::string error;

  /// tinygrad's index dtype lowering (pm_lower_index_dtype): index math in
  /// int32 where the bounds allow it. Decided for the whole kernel: every
  /// index-typed node's vmin/vmax within int32, or all of them in int64.
  /// Vector lane indices and gates in i32 take half the registers and avoid
  /// AVX2's missing 64-bit vector compares and multiplies.
  bool index32 = false;
  Type ty(DType dt) {
    return dt == DType::WeakInt && index32 ? b.getI32Type() : scalarType(b.getContext(), dt);
  }
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
  /// The axis values of lane `l` of `shape` (last fastest).
  static LaneVals laneVals(ArrayRef<UOpRef> shape, unsigned l) {
    LaneVals vals;
    for (UOpRef r : llvm::reverse(shape)) {
      int64_t n = rangeSize(r);
      vals[r] = l % n;
      l /= n;
    }
    return vals;
  }
  /// The lane of shape `from` (a subset of `to`, or `to` bound further by
  /// `extra`) that lane `l` of shape `to` reads.
  static int64_t laneIndex(ArrayRef<UOpRef> from, ArrayRef<UOpRef> to, unsigned l,
                           const LaneVals *extra = nullptr) {
    LaneVals vals = laneVals(to, l);
    int64_t idx = 0;
    for (UOpRef r : from) {
      auto it = vals.find(r);
      int64_t v = it != vals.end() ? it->second : extra ? extra->lookup(r) : 0;
      idx = idx * rangeSize(r) + v;
    }
    return idx;
  }
  /// Type `elem` with the lanes of `like` (a scalar type for a scalar).
  static Type shapedLike(Value like, Type elem) {
    if (auto vt = dyn_cast<VectorType>(like.getType()))
      return VectorType::get(vt.getShape(), elem);
    return elem;
  }
  /// A constant of `like`'s shape holding the scalar `a` in every lane.
  Value splatLike(Value like, TypedAttr a) {
    Type t = shapedLike(like, a.getType());
    if (auto vt = dyn_cast<VectorType>(t))
      return arith::ConstantOp::create(b, loc, DenseElementsAttr::get(vt, Attribute(a)));
    return arith::ConstantOp::create(b, loc, a);
  }
  Value zeroLike(Value like) {
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(like.getType()));
  }
  /// The lanes `idx` of `x` (a scalar is every lane): a scalar for one
  /// index, else a vector.
  Value pickLanes(OpBuilder &ob, Value x, ArrayRef<int64_t> idx);
  /// `x` (lanes `from`) broadcast or permuted to lanes `to`.
  Value broadcastTo(Value x, ArrayRef<UOpRef> from, ArrayRef<UOpRef> to,
                    const LaneVals *extra = nullptr);
  /// Vectors `parts` of equal length, one after another.
  Value concat(OpBuilder &ob, ArrayRef<Value> parts);
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
  /// Runs `body` with scope `depth` innermost: the loops deeper than it are
  /// hidden (what `body` emits at `depth` goes before them, loops it opens
  /// close again), then shown again.
  template <typename F> auto atDepth(unsigned depth, F body);

  /// The value of `u` (null on failure).
  Value emitL(UOpRef u);
  /// A node that must be scalar (no lanes).
  Value emit(UOpRef u);
  Value emitNode(UOpRef u);
  Value emitNodeOp(UOpRef u, ArrayRef<Value> in);
  Value emitReduce(UOpRef u, unsigned depth);
  /// AFTER: its side-effecting deps (a LOCAL buffer's fill) emitted once at
  /// the AFTER's depth, then the value of its first source.
  Value emitAfter(UOpRef u, unsigned depth);
  /// A LOCAL BUFFER: a stack array in the entry block.
  Value emitLocalBuffer(UOpRef u);
  Value emitLoad(UOpRef u, UOpRef index, UOpRef alt);
  /// Every lane of `a` in the memory type; lanes `mask` clears are not
  /// read and take `pass` (0 if null).
  Value loadLanes(OpBuilder &ob, const Address &a, Value mask, Value pass = {});
  /// Lane `l`'s element index.
  Value laneAddress(OpBuilder &ob, const Address &a, unsigned l);
  LogicalResult emitEffect(UOpRef u);
  LogicalResult emitStore(UOpRef u);
  void storeLanes(OpBuilder &ob, const Address &a, Value v, Value mask);

  Value convert(Value v, DType from, DType to);
  Value convertCompute(Value v, DType from, DType to);
  Value constant(const Scalar &s, DType dt);
  Value alu(UOpRef u, ArrayRef<Value> srcs);
  /// How INDEX `index` addresses each lane of `shape`.
  LogicalResult address(UOpRef index, ArrayRef<UOpRef> shape, Address &a);
  /// Memory value (bools as bytes, halves in storage type) to compute
  /// value and back.
  Value fromMemory(OpBuilder &ob, Value v, DType dt);
  Value toMemory(OpBuilder &ob, Value v, DType dt);
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
  llvm::stable_sort(out, [&](UOpRef a, UOpRef c) { return laneBefore(a, c); });
  return laneShapes[u] = out;
}

bool Emitter::laneBefore(UOpRef a, UOpRef c) const {
  // Larger strides first, so the lane range a store (else a load) walks
  // contiguously is the fastest: its lanes fill whole vector registers.
  // Only the layout changes; every lane computes what it did.
  auto key = [&](UOpRef r) {
    auto s = laneStrides.lookup(r);
    auto big = [](int64_t x) { return x ? x : std::numeric_limits<int64_t>::max(); };
    return std::make_pair(-big(s.first), -big(s.second));
  };
  auto ka = key(a), kc = key(c);
  return ka != kc ? ka < kc : rangeIdsLess(a, c);
}

void Emitter::chooseLaneOrder(ArrayRef<UOpRef> topo) {
  auto hasLanes = [&](UOpRef x) { return llvm::any_of(rangesOf(x), isLaneRange); };
  auto note = [&](UOpRef index, bool isStore) {
    if (index->op == K::CAST && !index->src.empty())
      index = index->src[0];
    if (index->op != K::INDEX || index->src.size() != 2)
      return;
    UOpRef i = index->src[1];
    if (i->op == K::WHERE && i->src[2]->isInvalid())
      i = i->src[1];
    auto lin = linearizeIndex(i, isLaneRange, hasLanes);
    if (!lin)
      return;
    for (auto [r, k] : lin->strides) {
      int64_t &slot = isStore ? laneStrides[r].first : laneStrides[r].second;
      int64_t m = k < 0 ? -k : k;
      if (m && (!slot || m < slot))
        slot = m;
    }
  };
  for (UOpRef u : topo) {
    if (u->op == K::STORE && !u->src.empty())
      note(u->src[0], true);
    else if (u->op == K::INDEX)
      note(u, false);
  }
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
  Value iv = arith::IndexCastOp::create(b, loc, ty(range->dtype), loop.getInductionVar());
  memo[range] = {iv, unsigned(scopes.size() - 1), scopes.back().id};
}

template <typename F> auto Emitter::atDepth(unsigned depth, F body) {
  auto saved = SmallVector<Scope>(scopes.begin() + depth + 1, scopes.end());
  Operation *savedTail = scopes[depth].tail;
  if (!saved.empty())
    scopes[depth].tail = saved.front().loop;
  scopes.truncate(depth + 1);
  auto result = body();
  while (scopes.size() > depth + 1)
    closeLoop();
  scopes[depth].tail = savedTail;
  scopes.append(saved.begin(), saved.end());
  return result;
}

Value Emitter::pickLanes(OpBuilder &ob, Value x, ArrayRef<int64_t> idx) {
  auto vt = dyn_cast<VectorType>(x.getType());
  if (!vt)
    return idx.size() == 1 ? x
                           : vector::BroadcastOp::create(
                                 ob, loc, VectorType::get({(int64_t)idx.size()}, x.getType()), x)
                                 .getResult();
  if (idx.size() == 1)
    return vector::ExtractOp::create(ob, loc, x, idx[0]);
  bool identity = (int64_t)idx.size() == vt.getNumElements();
  for (size_t i = 0; identity && i < idx.size(); ++i)
    identity = idx[i] == (int64_t)i;
  if (identity)
    return x;
  return vector::ShuffleOp::create(ob, loc, x, x, idx);
}

Value Emitter::broadcastTo(Value x, ArrayRef<UOpRef> from, ArrayRef<UOpRef> to,
                           const LaneVals *extra) {
  unsigned n = numLanes(to);
  SmallVector<int64_t> idx;
  for (unsigned l = 0; l < n; ++l)
    idx.push_back(numLanes(from) <= 1 ? 0 : laneIndex(from, to, l, extra));
  return pickLanes(b, x, idx);
}

Value Emitter::concat(OpBuilder &ob, ArrayRef<Value> parts) {
  Value acc = parts[0];
  for (Value p : parts.drop_front()) {
    int64_t have = cast<VectorType>(acc.getType()).getNumElements();
    int64_t add = cast<VectorType>(p.getType()).getNumElements();
    SmallVector<int64_t> mask;
    for (int64_t i = 0; i < have + add; ++i)
      mask.push_back(i);
    acc = vector::ShuffleOp::create(ob, loc, acc, p, mask);
  }
  return acc;
}

Value Emitter::emit(UOpRef u) {
  Value v = emitL(u);
  if (v && isa<VectorType>(v.getType()))
    return fail(u, "a scalar is needed here, not a value of " +
                       Twine(cast<VectorType>(v.getType()).getNumElements()) + " lanes");
  return v;
}

Value Emitter::emitL(UOpRef u) {
  auto it = memo.find(u);
  if (it != memo.end()) {
    const Memo &m = it->second;
    if (m.depth < scopes.size() && scopes[m.depth].id == m.scopeId)
      return m.v;
  }
  if (u->op == K::RANGE && !isLaneRange(u))
    return fail(u, "RANGE used outside of its loop");
  int depth = depthOf(u);
  if (depth < 0)
    return {};
  Value v;
  if (u->op == K::RANGE) {
    // An UPCAST/UNROLL range: its lanes are 0..n-1.
    setInsertionAt(depth);
    Type t = ty(u->dtype);
    int64_t n = rangeSize(u);
    if (!t || !isa<IntegerType>(t))
      return fail(u, "unsupported dtype");
    if (n == 1) {
      v = constant(Scalar::fromInt(0), u->dtype);
    } else {
      SmallVector<Attribute> lanes;
      for (int64_t i = 0; i < n; ++i)
        lanes.push_back(b.getIntegerAttr(t, i));
      v = arith::ConstantOp::create(b, loc,
                                    DenseElementsAttr::get(VectorType::get({n}, t), lanes));
    }
  } else if (u->op == K::REDUCE) {
    v = emitReduce(u, depth);
  } else if (u->op == K::AFTER) {
    v = emitAfter(u, depth);
  } else {
    // PARAM sizes are not computed; INDEX/LOAD place their own operands.
    bool ownOperands = u->op == K::PARAM || u->op == K::BUFFER || u->op == K::INDEX || u->op == K::LOAD;
    for (UOpRef s : u->src)
      if (!ownOperands && !emitL(s))
        return {};
    setInsertionAt(depth);
    v = emitNode(u);
  }
  if (!v) {
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
  Value h = arith::TruncFOp::create(b, loc, shapedLike(r, mt), r);
  return arith::ExtFOp::create(b, loc, shapedLike(r, b.getF32Type()), h);
}

Value Emitter::convertCompute(Value v, DType from, DType to) {
  Type st = ty(from), dt = ty(to);
  if (!st || !dt)
    return {};
  if (st == dt)
    return v;
  bool sf = isa<FloatType>(st), df = isa<FloatType>(dt);
  // Result types carry v's lanes.
  auto S = [&](Type t) { return shapedLike(v, t); };
  if (to == DType::Bool) {
    if (sf)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, v, zeroLike(v));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, v, zeroLike(v));
  }
  if (sf && df) {
    unsigned sw = st.getIntOrFloatBitWidth(), dw = dt.getIntOrFloatBitWidth();
    if (sw < dw || (sw == dw && st != dt && dw == 16)) {
      if (sw == dw) // f16 <-> bf16 through f32
        v = arith::ExtFOp::create(b, loc, S(b.getF32Type()), v), st = b.getF32Type(), sw = 32;
      else
        return arith::ExtFOp::create(b, loc, S(dt), v);
    }
    return arith::TruncFOp::create(b, loc, S(dt), v);
  }
  if (sf) {
    // C converts through the integer width of the target; x86 gives the
    // "integer indefinite" value out of range.
    Type wide = dt.getIntOrFloatBitWidth() < 32 ? b.getI32Type() : dt;
    Value r = isUnsignedDT(to) && dt.getIntOrFloatBitWidth() >= 32
                  ? arith::FPToUIOp::create(b, loc, S(wide), v).getResult()
                  : arith::FPToSIOp::create(b, loc, S(wide), v).getResult();
    return wide == dt ? r : arith::TruncIOp::create(b, loc, S(dt), r).getResult();
  }
  if (df)
    return isUnsignedDT(from) ? arith::UIToFPOp::create(b, loc, S(dt), v).getResult()
                              : arith::SIToFPOp::create(b, loc, S(dt), v).getResult();
  unsigned sw = st.getIntOrFloatBitWidth(), dw = dt.getIntOrFloatBitWidth();
  if (sw > dw)
    return arith::TruncIOp::create(b, loc, S(dt), v);
  return isUnsignedDT(from) ? arith::ExtUIOp::create(b, loc, S(dt), v).getResult()
                            : arith::ExtSIOp::create(b, loc, S(dt), v).getResult();
}

bool Emitter::Address::contiguous() const {
  if (!linear || !wholeVectors(lanes))
    return false;
  for (unsigned l = 0; l < lanes; ++l)
    if (offsets[l] != (int64_t)l)
      return false;
  return true;
}

bool Emitter::Address::splat() const {
  return linear && llvm::all_of(offsets, [](int64_t o) { return o == 0; });
}

LogicalResult Emitter::address(UOpRef index, ArrayRef<UOpRef> shape, Address &a) {
  if (index->op == K::CAST && !index->src.empty())
    index = index->src[0];
  if (index->op != K::INDEX || index->src.size() < 2) {
    fail(index, "expected INDEX(buffer, index) as an address");
    return failure();
  }
  UOpRef bufU = index->src[0];
  if (bufU->op == K::AFTER || bufU->op == K::BUFFER) {
    // A LOCAL buffer, read after what fills it.
    if (!(a.buf = emitL(bufU)))
      return failure();
    while (bufU->op == K::AFTER)
      bufU = bufU->src[0];
  } else {
    auto it = args.find(bufU);
    if (it == args.end()) {
      fail(bufU, "only PARAM and LOCAL buffers can be indexed");
      return failure();
    }
    a.buf = it->second;
  }
  a.dt = bufU->dtype;
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
  a.lanes = numLanes(shape);
  a.gate = {};
  if (gateU) {
    Value g = emitL(gateU);
    if (!g)
      return failure();
    a.gate = g; // broadcast by the caller, where the access is placed
    a.gateShape = laneShape(gateU);
  }
  auto lin = linearizeIndex(
      i, isLaneRange, [&](UOpRef x) { return !laneShape(x).empty(); });
  if (lin)
    for (auto [r, k] : lin->strides)
      if (!llvm::is_contained(shape, r))
        lin.reset(); // cannot happen for a well-formed graph; stay safe
  int d = depthOf(i);
  if (d < 0)
    return failure();
  if (lin) {
    a.linear = true;
    SmallVector<Value> terms;
    for (auto [t, k] : lin->terms) {
      Value x = emit(t);
      if (!x)
        return failure();
      terms.push_back(x);
    }
    // The base lives where its index does (emit() may have left the
    // insertion point in an outer scope).
    setInsertionAt(d);
    Value base;
    auto add = [&](Value x) { base = base ? arith::AddIOp::create(b, loc, base, x).getResult() : x; };
    for (auto [n, tk] : llvm::enumerate(lin->terms)) {
      Value x = convert(terms[n], tk.first->dtype, DType::Int64);
      if (tk.second != 1)
        x = arith::MulIOp::create(b, loc, x,
                                  arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(tk.second)));
      add(x);
    }
    if (lin->offset || !base)
      add(arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(lin->offset)));
    a.base = arith::IndexCastOp::create(b, loc, b.getIndexType(), base);
    a.offsets.clear();
    for (unsigned l = 0; l < a.lanes; ++l) {
      LaneVals vals = laneVals(shape, l);
      int64_t o = 0;
      for (UOpRef r : shape)
        o += lin->strideOf(r) * vals[r];
      a.offsets.push_back(o);
    }
    llvm::SmallDenseSet<int64_t, 16> seen(a.offsets.begin(), a.offsets.end());
    a.distinct = seen.size() == a.lanes;
    // Segments along the lane range of stride 1: one vector access each,
    // whichever place that range has in the lane order.
    a.segments.clear();
    a.segPos.clear();
    int p = -1;
    for (auto [k, r] : llvm::enumerate(shape))
      if (lin->strideOf(r) == 1 && rangeSize(r) > 1)
        p = k;
    if (p >= 0 && !a.contiguous() && wholeVectors(rangeSize(shape[p]))) {
      int64_t inner = 1;
      for (UOpRef r : ArrayRef<UOpRef>(shape).drop_front(p + 1))
        inner *= rangeSize(r);
      int64_t m = rangeSize(shape[p]);
      llvm::DenseMap<int64_t, unsigned> segOf;
      a.segPos.resize(a.lanes);
      for (unsigned l = 0; l < a.lanes; ++l) {
        int64_t coord = (l / inner) % m;
        auto [it, fresh] = segOf.try_emplace(l - coord * inner, a.segments.size());
        if (fresh)
          a.segments.emplace_back(m, 0);
        a.segments[it->second][coord] = l;
        a.segPos[l] = it->second * m + coord;
      }
    }
    return success();
  }
  Value iv = emitL(i);
  if (!iv)
    return failure();
  setInsertionAt(d);
  SmallVector<UOpRef, 2> from = laneShape(i);
  Value wide = convert(iv, i->dtype, DType::Int64);
  a.linear = false;
  a.idx = arith::IndexCastOp::create(b, loc, shapedLike(wide, b.getIndexType()), wide);
  a.idx = broadcastTo(a.idx, from, shape);
  return success();
}

Value Emitter::laneAddress(OpBuilder &ob, const Address &a, unsigned l) {
  if (!a.linear)
    return a.lanes == 1 ? a.idx : vector::ExtractOp::create(ob, loc, a.idx, l).getResult();
  if (a.offsets[l] == 0)
    return a.base;
  Value off = arith::ConstantIndexOp::create(ob, loc, a.offsets[l]);
  return arith::AddIOp::create(ob, loc, a.base, off);
}

Value Emitter::fromMemory(OpBuilder &ob, Value v, DType dt) {
  if (dt == DType::Bool)
    return arith::TruncIOp::create(ob, loc, shapedLike(v, ob.getI1Type()), v);
  if (isHalfLike(dt))
    return arith::ExtFOp::create(ob, loc, shapedLike(v, ob.getF32Type()), v);
  return v;
}

Value Emitter::toMemory(OpBuilder &ob, Value v, DType dt) {
  if (dt == DType::Bool)
    return arith::ExtUIOp::create(ob, loc, shapedLike(v, ob.getI8Type()), v);
  if (isHalfLike(dt))
    return arith::TruncFOp::create(ob, loc, shapedLike(v, memoryType(ob.getContext(), dt)), v);
  return v;
}

Value Emitter::loadLanes(OpBuilder &ob, const Address &a, Value mask, Value pass) {
  Type mt = memoryType(ob.getContext(), a.dt);
  auto vload = [&](Value at, ArrayRef<int64_t> lanes, Value m) -> Value {
    auto vt = VectorType::get({(int64_t)lanes.size()}, mt);
    if (!m)
      return vector::LoadOp::create(ob, loc, vt, a.buf, ValueRange{at});
    Value p = pass ? pickLanes(ob, pass, lanes)
                   : arith::ConstantOp::create(ob, loc, ob.getZeroAttr(vt)).getResult();
    return vector::MaskedLoadOp::create(ob, loc, vt, a.buf, ValueRange{at}, m, p);
  };
  if (a.lanes == 1)
    return memref::LoadOp::create(ob, loc, a.buf, ValueRange{a.base ? a.base : a.idx});
  if (a.contiguous())
    return vload(a.base, llvm::to_vector(llvm::seq<int64_t>(0, a.lanes)), mask);
  if (!a.segments.empty()) {
    SmallVector<Value> segs;
    for (ArrayRef<int64_t> seg : a.segments)
      segs.push_back(vload(laneAddress(ob, a, seg[0]), seg, mask ? pickLanes(ob, mask, seg) : Value()));
    return pickLanes(ob, concat(ob, segs), a.segPos);
  }
  if (a.splat() && !mask) {
    Value s = memref::LoadOp::create(ob, loc, a.buf, ValueRange{a.base});
    return vector::BroadcastOp::create(ob, loc, VectorType::get({(int64_t)a.lanes}, mt), s);
  }
  // A gather: lane by lane, each gated lane behind its own branch.
  SmallVector<Value> elems;
  for (unsigned l = 0; l < a.lanes; ++l) {
    if (!mask) {
      elems.push_back(memref::LoadOp::create(ob, loc, a.buf, ValueRange{laneAddress(ob, a, l)}));
      continue;
    }
    Value g = vector::ExtractOp::create(ob, loc, mask, l);
    auto ifOp = scf::IfOp::create(ob, loc, TypeRange{mt}, g, /*addThenBlock=*/true,
                                  /*addElseBlock=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(tb, loc,
                         memref::LoadOp::create(tb, loc, a.buf, ValueRange{laneAddress(tb, a, l)})
                             .getResult());
    OpBuilder fb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(fb, loc,
                         pass ? pickLanes(fb, pass, {(int64_t)l})
                              : arith::ConstantOp::create(fb, loc, fb.getZeroAttr(mt)).getResult());
    elems.push_back(ifOp.getResult(0));
  }
  return vector::FromElementsOp::create(ob, loc, VectorType::get({(int64_t)a.lanes}, mt), elems);
}

Value Emitter::emitLoad(UOpRef u, UOpRef index, UOpRef alt) {
  // Operands may live in outer loops; the load itself sits at the index's depth.
  int depth = depthOf(index);
  if (depth < 0)
    return {};
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  Address a;
  if (failed(address(index, shape, a)))
    return {};
  Value other;
  if (alt && a.gate && !(other = emitL(alt)))
    return {};
  setInsertionAt(depth);
  if (!a.gate)
    return fromMemory(b, loadLanes(b, a, {}), a.dt);
  // Masked-off lanes read the alternative (0 without one), not memory.
  Value o = alt ? broadcastTo(other, laneShape(alt), shape) : Value();
  if (!alt) {
    Value z = constant(Scalar::fromInt(0), a.dt);
    if (!z)
      return {};
    o = broadcastTo(z, {}, shape);
  }
  if (!isa<VectorType>(a.gate.getType())) {
    // One gate for every lane: one branch around the whole access.
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{o.getType()}, a.gate, true, true);
    OpBuilder tb = ifOp.getThenBodyBuilder();
    scf::YieldOp::create(tb, loc, fromMemory(tb, loadLanes(tb, a, {}), a.dt));
    OpBuilder fb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(fb, loc, o);
    return ifOp.getResult(0);
  }
  Value mask = broadcastTo(a.gate, a.gateShape, shape);
  // Where memory holds the compute type, the alternative is the masked
  // load's pass-through; else the converted load is selected against it,
  // which keeps the alternative's exact value.
  if (memoryType(b.getContext(), a.dt) == ty(a.dt))
    return loadLanes(b, a, mask, o);
  Value loaded = fromMemory(b, loadLanes(b, a, mask), a.dt);
  return arith::SelectOp::create(b, loc, mask, loaded, o);
}

Value Emitter::emitReduce(UOpRef u, unsigned depth) {
  auto kindAttr = u->arg.attrs ? dyn_cast_or_null<tg::ReduceKindAttr>(u->arg.attrs.get("kind"))
                               : tg::ReduceKindAttr();
  if (!kindAttr)
    return fail(u, "REDUCE without a reduce kind");
  tg::ReduceKind kind = kindAttr.getValue();
  DType dt = u->dtype;
  Type t = ty(dt);
  if (!t)
    return fail(u, "unsupported dtype");
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
    if (r->op != K::RANGE)
      return fail(u, "REDUCE over a non-RANGE source");
    (isLaneRange(r) ? folded : loops).push_back(r);
  }
  llvm::stable_sort(loops, rangeIdsLess);
  SmallVector<UOpRef, 2> outShape = laneShape(u);
  unsigned nFold = numLanes(folded);
  // Folded lane c of every output lane at once: the output lanes stay one
  // vector and each is summed over c in tinygrad's order (acc + x0 + x1 ...),
  // which a horizontal vector.reduction would reassociate.
  auto foldLane = [&](Value x, UOpRef of, unsigned c) {
    LaneVals vals = laneVals(folded, c);
    return broadcastTo(x, laneShape(of), outShape, &vals);
  };
  // A float sum of products whose every lane is used once: tinygrad's C
  // writes `acc + a*b` and contracts it to an FMA. The product is formed
  // per folded lane so that LLVM fuses it into its add, as it does there.
  UOpRef src = u->src[0];
  // (Only where no conversion sits between: a cast that computes nothing
  // is no barrier to the contraction either.)
  auto noConversion = [&](DType from, DType to) {
    return ty(from) == ty(to) && !(isHalfLike(to) && from != to);
  };
  bool mulFold = kind == tg::ReduceKind::Add && f && src->op == K::MUL &&
                 noConversion(src->dtype, dt) && noConversion(src->src[0]->dtype, src->dtype) &&
                 noConversion(src->src[1]->dtype, src->dtype) && users.lookup(src) == 1 &&
                 numLanes(laneShape(src)) == numLanes(outShape) * nFold;
  auto emitSrc = [&]() -> Value {
    if (!mulFold)
      return emitL(src);
    return emitL(src->src[0]) && emitL(src->src[1]) ? Value(memo.lookup(src->src[0]).v) : Value();
  };
  auto term = [&](Value x, unsigned c) -> Value {
    if (!mulFold)
      return foldLane(x, src, c);
    Value l = foldLane(memo.lookup(src->src[0]).v, src->src[0], c);
    Value r = foldLane(memo.lookup(src->src[1]).v, src->src[1], c);
    return arith::MulFOp::create(b, loc, l, r, contract());
  };
  auto prepare = [&](Value x) { return mulFold ? x : convert(x, src->dtype, dt); };
  if (loops.empty()) {
    // Only lanes: the horizontal reduce, no accumulator (tinygrad's
    // expand_horizontal_reduce).
    Value x = emitSrc();
    if (!x)
      return {};
    setInsertionAt(depth);
    x = prepare(x);
    Value cur = term(x, 0);
    for (unsigned c = 1; c < nFold; ++c)
      cur = combine(cur, term(x, c));
    return cur;
  }
  // The accumulator: a stack slot in the entry block holding every output
  // lane (SROA keeps it in registers).
  unsigned nOut = numLanes(outShape);
  Type accT = nOut > 1 ? Type(VectorType::get({(int64_t)nOut}, t)) : t;
  OpBuilder eb(b.getContext());
  eb.setInsertionPointToStart(entry);
  Value acc = memref::AllocaOp::create(eb, loc, MemRefType::get({}, accT));
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
  if (nOut > 1)
    initV = vector::BroadcastOp::create(b, loc, accT, initV);
  memref::StoreOp::create(b, loc, initV, acc);
  // The reduce's own loops open at `depth`, inside whatever is open there.
  return atDepth(depth, [&]() -> Value {
    unsigned d = depth;
    for (UOpRef r : loops) {
      openLoop(r, d);
      d = scopes.size() - 1;
    }
    if (error.empty()) {
      if (Value x = emitSrc()) {
        b.setInsertionPoint(scopes.back().tail);
        x = prepare(x);
        Value cur = memref::LoadOp::create(b, loc, acc);
        for (unsigned c = 0; c < nFold; ++c)
          cur = combine(cur, term(x, c));
        memref::StoreOp::create(b, loc, cur, acc);
      }
    }
    while (scopes.size() > depth + 1)
      closeLoop();
    if (!error.empty())
      return Value();
    setInsertionAt(depth);
    return memref::LoadOp::create(b, loc, acc).getResult();
  });
}

Value Emitter::emitAfter(UOpRef u, unsigned depth) {
  Value v = emitL(u->src[0]);
  if (!v)
    return {};
  // The deps run where the AFTER is first needed, at its depth: a LOCAL
  // buffer's fill (an END over its own loops) lands before the loops that
  // read it, once per iteration of the loops it depends on.
  for (UOpRef d : u->src.drop_front()) {
    bool effect = d->op == K::END || d->op == K::STORE || d->op == K::GROUP || d->op == K::SINK;
    if (!effect) {
      if (!emitL(d))
        return {};
      continue;
    }
    if (failed(atDepth(depth, [&] { return emitEffect(d); })))
      return {};
  }
  return v;
}

Value Emitter::emitLocalBuffer(UOpRef u) {
  auto pa = u->arg.attrs ? dyn_cast_or_null<tg::ParamAttr>(u->arg.attrs.get("arg")) : tg::ParamAttr();
  if (!pa || pa.getAddrspace() != tg::AddrSpace::Local)
    return fail(u, "only LOCAL buffers are lowered on CPU");
  Type et = memoryType(b.getContext(), u->dtype);
  if (!et || u->src.empty() || !u->src[0]->vmax().isInt() || u->src[0]->vmax().i <= 0 ||
      u->src[0]->vmax().i > (int64_t(1) << 24))
    return fail(u, "a LOCAL buffer needs a constant size of at most 16M elements and a storage dtype");
  // The entry block: one array for the whole kernel, aligned to a cache
  // line so that the vector rows read from it never split one. Thread pool
  // workers are std::threads with the default 8 MB stack; the heuristic
  // keeps a panel within half an L2.
  OpBuilder eb(b.getContext());
  eb.setInsertionPointToStart(entry);
  return memref::AllocaOp::create(eb, loc, MemRefType::get({(int64_t)u->src[0]->vmax().i}, et),
                                  ValueRange{}, eb.getI64IntegerAttr(64));
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
                         : arith::SubIOp::create(b, loc, zeroLike(v[0]), v[0]).getResult();
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
    Value zero = zeroLike(v[0]);
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
    return arith::DivFOp::create(b, loc, splatLike(v[0], b.getFloatAttr(t, 1.0)), v[0]);
  case K::THREEFRY: {
    // tinygrad's threefry2x32 decomposition (codegen/decomp/op.py).
    Type u32 = shapedLike(v[0], b.getI32Type()), u64 = shapedLike(v[0], b.getI64Type());
    auto c32 = [&](uint32_t c) { return splatLike(v[0], b.getI32IntegerAttr(c)); };
    Value s32 = splatLike(v[0], b.getI64IntegerAttr(32));
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

Value Emitter::emitNode(UOpRef u) {
  switch (u->op) {
  case K::INDEX:
    return emitLoad(u, u, nullptr);
  case K::LOAD:
    return emitLoad(u, u->src[0], u->src.size() > 1 ? u->src[1] : nullptr);
  default:
    break;
  }
  // Everything else is one op over the node's lanes, each source
  // broadcast (or permuted) to them.
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  bool ownOperands = u->op == K::PARAM || u->op == K::BUFFER || u->op == K::CONST;
  SmallVector<Value, 3> in;
  if (!ownOperands)
    for (UOpRef s : u->src) {
      // A copy: laneShape may grow the map.
      SmallVector<UOpRef, 2> from = laneShape(s);
      in.push_back(broadcastTo(memo.lookup(s).v, from, shape));
    }
  return emitNodeOp(u, in);
}

Value Emitter::emitNodeOp(UOpRef u, ArrayRef<Value> in) {
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
      x = arith::TruncFOp::create(b, loc, shapedLike(x, ft), x);
    Value r = arith::BitcastOp::create(b, loc, shapedLike(x, tt), x);
    return isHalfLike(to) ? arith::ExtFOp::create(b, loc, shapedLike(r, b.getF32Type()), r).getResult()
                          : r;
  }
  case K::BUFFER:
    return emitLocalBuffer(u);
  case K::EXPAND:
  case K::RESHAPE: {
    // A scalar given a one-element shape (`Tensor(1).unsqueeze(0)` padded
    // and expanded by a variable): the same value, as tinygrad's
    // devectorizer makes an EXPAND of a scalar a STACK of one.
    tg::ValueInfo info = tg::getValueInfo(u->type);
    int64_t n = 1;
    for (int64_t d : info.shape)
      n = d == tg::kDynamic ? -1 : n * d;
    if (n == 1 && in.size() >= 1 && !isa<VectorType>(in[0].getType()))
      return in[0];
    return fail(u, "a movement op left in the kernel (only a one-element " +
                       sym::getOpName(u->op) + " of a scalar lowers)");
  }
  default:
    break;
  }
  if (!sym::isALU(u->op))
    return fail(u, "op has no CPU lowering");
  return alu(u, in);
}

void Emitter::storeLanes(OpBuilder &ob, const Address &a, Value v, Value mask) {
  auto vstore = [&](Value x, Value at, Value m) {
    if (m)
      vector::MaskedStoreOp::create(ob, loc, a.buf, ValueRange{at}, m, x);
    else
      vector::StoreOp::create(ob, loc, x, a.buf, ValueRange{at});
  };
  if (a.lanes == 1) {
    memref::StoreOp::create(ob, loc, v, a.buf, ValueRange{a.base ? a.base : a.idx});
    return;
  }
  if (a.contiguous())
    return vstore(v, a.base, mask);
  if (!a.segments.empty() && a.distinct) {
    for (ArrayRef<int64_t> seg : a.segments)
      vstore(pickLanes(ob, v, seg), laneAddress(ob, a, seg[0]), mask ? pickLanes(ob, mask, seg) : Value());
    return;
  }
  // A scatter, in lane order (a later lane at the same address wins).
  for (unsigned l = 0; l < a.lanes; ++l) {
    Value x = vector::ExtractOp::create(ob, loc, v, l);
    if (!mask) {
      memref::StoreOp::create(ob, loc, x, a.buf, ValueRange{laneAddress(ob, a, l)});
      continue;
    }
    Value g = vector::ExtractOp::create(ob, loc, mask, l);
    auto ifOp = scf::IfOp::create(ob, loc, g, /*withElse=*/false);
    OpBuilder ib = ifOp.getThenBodyBuilder();
    memref::StoreOp::create(ib, loc, x, a.buf, ValueRange{laneAddress(ib, a, l)});
  }
}

LogicalResult Emitter::emitStore(UOpRef u) {
  if (u->src.size() < 2) {
    fail(u, "STORE needs an address and a value");
    return failure();
  }
  UOpRef index = u->src[0], val = u->src[1];
  unsigned depth = scopes.size() - 1;
  // A copy: laneShapes grows (and moves) while the node is emitted.
  SmallVector<UOpRef, 2> shape = laneShape(u);
  Value v = emitL(val);
  if (!v)
    return failure();
  Address a;
  if (failed(address(index, shape, a)))
    return failure();
  Value g2;
  if (u->src.size() > 2 && !(g2 = emitL(u->src[2])))
    return failure();
  b.setInsertionPoint(scopes[depth].tail);
  SmallVector<UOpRef, 2> valShape = laneShape(val);
  Value x = convertCompute(broadcastTo(v, valShape, shape), val->dtype, a.dt);
  if (!x) {
    fail(u, "unsupported store dtype");
    return failure();
  }
  x = toMemory(b, x, a.dt);
  // The gates: the index's and the store's own; over the store's lanes
  // when either has lanes, else one scalar for the whole store.
  SmallVector<std::pair<Value, SmallVector<UOpRef, 2>>, 2> gates;
  if (a.gate)
    gates.push_back({a.gate, a.gateShape});
  if (g2)
    gates.push_back({g2, laneShape(u->src[2])});
  bool laned = llvm::any_of(gates, [](auto &p) { return numLanes(p.second) > 1; });
  Value g;
  for (auto &[gv, from] : gates) {
    Value x = laned ? broadcastTo(gv, from, shape) : gv;
    g = g ? arith::AndIOp::create(b, loc, g, x).getResult() : x;
  }
  if (!g) {
    storeLanes(b, a, x, {});
    return success();
  }
  if (!isa<VectorType>(g.getType())) {
    auto ifOp = scf::IfOp::create(b, loc, g, /*withElse=*/false);
    OpBuilder ib = ifOp.getThenBodyBuilder();
    storeLanes(ib, a, x, {});
    return success();
  }
  storeLanes(b, a, x, g);
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
  for (UOpRef u : topo)
    for (UOpRef x : u->src)
      ++users[x];
  chooseLaneOrder(topo);
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
  // A small kernel (tinygrad's own opts: lanes mostly UNROLL lanes folded
  // into a horizontal sum) runs faster as scalars that LLVM's loop
  // vectorizer widens across the output loop, as clang does with
  // tinygrad's C; the loop vectorizer leaves loops of vector ops alone.
  // Measured on the corpus (bench/kernels): the threefry kernels of randint
  // and rand_uniform 0.42x tinygrad as vectors, 1.0x as scalars.
  // cpu::emitObject scalarizes what is marked.
  // Not a float sum over UPCAST lanes: LLVM then contracts products into
  // FMAs other than those clang forms for tinygrad's C (conv2d_groups: one
  // element 1.4e-5 off), where the vector form matches it.
  bool floatSum = llvm::any_of(topo, [](UOpRef u) {
    if (u->op != K::REDUCE || !isFloat(u->dtype) || !u->arg.attrs)
      return false;
    auto k = dyn_cast_or_null<tg::ReduceKindAttr>(u->arg.attrs.get("kind"));
    return k && k.getValue() == tg::ReduceKind::Add;
  });
  bool upcast = llvm::any_of(topo, [](UOpRef u) {
    return u->op == K::RANGE && opt::Scheduler::axisType(u) == tg::AxisType::Upcast;
  });
  index32 = llvm::all_of(topo, [](UOpRef u) {
    if (u->dtype != DType::WeakInt)
      return true;
    const Scalar &lo = u->vmin(), &hi = u->vmax();
    return lo.isInt() && hi.isInt() && lo.i >= INT32_MIN && hi.i <= INT32_MAX;
  });
  // Nor a kernel with lane-gated accesses: the scalarizer leaves their
  // masked loads and stores whole, and LLVM rebuilds each mask from the
  // scalarized lane compares in 64-bit lanes (cumsum_1d: 0.54x tinygrad
  // scalarized, 1.2x as vectors).
  bool laneGated = llvm::any_of(topo, [&](UOpRef u) {
    if (u->op != K::INDEX || u->src.size() < 2)
      return false;
    UOpRef i = u->src[1];
    return i->op == K::WHERE && i->src[2]->isInvalid() && !laneShape(i->src[0]).empty();
  });
  if (!(floatSum && upcast) && !laneGated && iterationPoints(topo) < kScalarizeBelowPoints)
    fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr(cpu::kScalarizeAttr)}));
  entry = fn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  scopes.push_back({nullptr, nullptr, entry, nextScopeId++, entry->getTerminator()});
  for (size_t i = 0; i < bufs.size(); ++i)
    args[bufs[i]] = entry->getArgument(i);
  b.setInsertionPoint(entry->getTerminator());
  for (size_t i = 0; i < vars.size(); ++i) {
    Value a = entry->getArgument(bufs.size() + i);
    Type vt = ty(vars[i]->dtype);
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
  auto t0 = std::chrono::steady_clock::now();
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
  double passesMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  FailureOr<KernelSignature> sig = Emitter(module, loc).run(k, name);
  if (succeeded(sig)) {
    sig->appliedOpts.assign(applied.begin(), applied.end());
    sig->passesMs = passesMs;
  }
  return sig;
}
