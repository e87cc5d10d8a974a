//===- Emitter.h - the kernel emitter's state, shared by its parts -*- C++ -*-===//
//
// Private to lib/Conversion/KernelToStandard. The emitter structures one
// kernel graph into scf/arith/memref/vector (see KernelEmitter.cpp for the
// placement rules); its methods live by job: scopes and lanes
// (EmitScopes.cpp), casts and constants (EmitCasts.cpp), loads, stores and
// addressing (EmitMemory.cpp), reductions (EmitReduce.cpp), ALU and other
// value nodes (EmitNodes.cpp), lanes tinygrad folds to 0 (EmitZeroLanes.cpp),
// effects and the function (KernelEmitter.cpp), then clang's FMAs on the
// emitted function (ContractLikeClang.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_LIB_CONVERSION_KERNELTOSTANDARD_EMITTER_H
#define TINYGRAD_LIB_CONVERSION_KERNELTOSTANDARD_EMITTER_H

#include "tinygrad/Conversion/KernelToStandard.h"

#include <chrono>

#include "tinygrad/Codegen/LinearIndex.h"

#include "tinygrad/Codegen/Decompositions.h"
#include "tinygrad/Codegen/Opts.h"
#include "tinygrad/Codegen/Simplify.h"
#include "tinygrad/Target/CPU/CPUTarget.h"

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include <map>
#include <thread>
#include <tuple>

namespace mlir::tinygrad::kernel_emitter {

using K = sym::Op; // mlir::Op is taken
using sym::UOpRef;

/// The type a dtype computes in: weak ints in i64 (index math), weak floats
/// at default_float (float32), bools as i1. half and bfloat16 compute in
/// float32 and round only where tinygrad's C rounds (stores, casts, named
/// half variables, every bfloat16 op: Emitter::roundLikeC).
inline Type scalarType(MLIRContext *ctx, DType dt) {
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
/// The dtype whose memory a weak dtype's values take (scalarType's
/// choice): an accumulator of a weak float REDUCE is float32 memory.
inline DType storedDType(DType dt) {
  return dt == DType::WeakInt ? DType::Int64 : dt == DType::WeakFloat ? DType::Float32 : dt;
}
/// Bools are bytes in memory; half-like floats keep their storage type.
inline Type memoryType(MLIRContext *ctx, DType dt) {
  if (dt == DType::Float16)
    return Float16Type::get(ctx);
  if (dt == DType::BFloat16)
    return BFloat16Type::get(ctx);
  return dt == DType::Bool ? IntegerType::get(ctx, 8) : scalarType(ctx, dt);
}
inline bool isHalfLike(DType dt) { return dt == DType::Float16 || dt == DType::BFloat16; }
/// 8- and 16-bit ints: C computes them in int (integer promotion).
inline bool isNarrowInt(DType dt) {
  return dt == DType::Int8 || dt == DType::UInt8 || dt == DType::Int16 || dt == DType::UInt16;
}
inline bool isUnsignedDT(DType dt) { return isUnsigned(dt) || dt == DType::Bool; }

/// Whether n lanes split into whole vector registers. Odd lengths (a
/// 3-wide window row) become partial accesses and inserts in LLVM; scalar
/// loads assembled into a vector measured faster (conv2d_basic 2x).
inline bool wholeVectors(int64_t n) { return n >= 2 && (llvm::isPowerOf2_64(n) || n % 4 == 0); }

/// Below this many points of the iteration space (every RANGE, lanes
/// included) a kernel is scalarized before LLVM's O3 (see Emitter::run).
constexpr int64_t kScalarizeBelowPoints = 1 << 16;
inline int64_t iterationPoints(ArrayRef<UOpRef> topo) {
  int64_t p = 1;
  for (UOpRef u : topo)
    if (u->op == K::RANGE)
      p = std::min<int64_t>(p * opt::Scheduler::size(u).value_or(1 << 20), int64_t(1) << 40);
  return p;
}

/// tinygrad orders ranges by their arg tuple: axis ids compared as a whole
/// (a split range's parts share their first id).
inline bool rangeIdsLess(UOpRef a, UOpRef b) {
  auto ids = [](UOpRef r) -> llvm::ArrayRef<int64_t> {
    if (r->arg.attrs)
      if (auto a = dyn_cast_or_null<DenseI64ArrayAttr>(r->arg.attrs.get("ids")))
        return a.asArrayRef();
    return {};
  };
  llvm::ArrayRef<int64_t> x = ids(a), y = ids(b);
  return std::lexicographical_compare(x.begin(), x.end(), y.begin(), y.end());
}

/// Fuses each single-use product into the sum it is an operand of, as
/// clang's -ffp-contract=on does in tinygrad's C (ContractLikeClang.cpp).
/// `fusedFMA`: the target rounds math.fma once (else f32 ones go through f64).
void contractLikeClang(FunctionOpInterface fn, bool fusedFMA = true);

/// Every innermost loop of `fn` loads and stores scalars only, none of them
/// an accumulator, and walks some buffer one element per iteration: the
/// loops LLVM's loop vectorizer widens (InnermostLoops.cpp).
bool innermostLoopsWalkContiguousScalars(FunctionOpInterface fn);

class Emitter {
public:
  Emitter(ModuleOp module, Location loc, const TargetDescription &target)
      : module(module), loc(loc), b(module.getContext()), target(target) {}

  FailureOr<KernelSignature> run(UOpRef sink, StringRef name);

private:
  /// The body (emitEffect of the SINK), the target's finishing touches,
  /// the linear form and estimates: run()'s part after the entry.
  FailureOr<KernelSignature> finishKernel(UOpRef sink, ArrayRef<UOpRef> bufs, ArrayRef<UOpRef> vars,
                                          KernelSignature &sig);
  /// Small CPU kernels run scalarized (see run()).
  bool scalarize = false;
  /// A large CPU kernel that still runs scalarized if it gathers gated
  /// lanes and loads no vector (see finishKernel).
  bool scalarizeIfGathersOnly = false;
  /// Multi-lane loads emitted as vector loads (contiguous lanes, or runs
  /// of them), and loads of lanes gathered lane by lane behind their gates.
  int64_t vectorLoads = 0, gatedGathers = 0;

private:
  struct Scope {
    UOpRef range;        ///< null for the function body
    /// The scf.for, or the scf.while of a bound-less loop (null for the
    /// function body).
    Operation *loop;
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
    /// An 8- or 16-bit integer ALU value the C keeps inline: its value in
    /// C's `int` (integer promotion), before the wrap a variable would give.
    Value promoted = {};
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
    /// A volatile PARAM (another thread writes it while the kernel runs):
    /// every lane is its own volatile access (loadElement, storeElement).
    bool isVolatile = false;
    /// The buffer's element count where it is static, else -1.
    int64_t size = -1;
    /// Per lane of a lane-gated access: 1 always in, 0 never, -1 decided
    /// at run time (empty: not known per lane).
    SmallVector<int8_t> laneGates;
    /// Per lane gated at run time: its gate as a scalar i1 (lanes whose
    /// gates simplify to the same node share the value), else null.
    SmallVector<Value> laneGateVals;
    /// Whether the run-time gate (per lane of laneGateVals, else `gate`) is
    /// likely true, read without a branch (likelyTrueGate).
    SmallVector<bool> laneGateLikely;
    bool gateLikely = false;
    bool contiguous() const;
    bool splat() const;
  };

  ModuleOp module;
  Location loc;
  OpBuilder b;
  /// The kernel: a func.func (CPU) or a gpu.func (GPU targets).
  FunctionOpInterface fn;
  Block *entry = nullptr;
  SmallVector<Scope> scopes;
  unsigned nextScopeId = 0;
  llvm::DenseMap<UOpRef, Memo> memo;
  llvm::DenseMap<UOpRef, Value> args;          ///< PARAM -> function argument
  llvm::DenseMap<UOpRef, SmallVector<UOpRef, 4>> rangeSets;
  llvm::DenseMap<UOpRef, SmallVector<UOpRef, 2>> laneShapes;
  /// laneSimplified's results by the lane-substituted graph (see there).
  llvm::DenseMap<UOpRef, UOpRef> laneSimplifiedMemo;
  llvm::DenseMap<UOpRef, unsigned> users; ///< how many nodes use each node
  /// Nodes a node with more lanes reads (one without lanes, or one whose
  /// lanes the reader repeats along its own): tinygrad's devectorized C
  /// reads each of their lanes several times, so it names them.
  llvm::DenseSet<UOpRef> readPerLane;
  /// Lane ranges by their smallest |stride| in a store's index, then in a
  /// load's (0: none); the order of lanes in every vector follows it.
  llvm::DenseMap<UOpRef, std::pair<int64_t, int64_t>> laneStrides;
  /// The lanes of a REDUCE that folds them pairwise (our heuristic's split
  /// accumulators): the fastest lanes, see laneBefore.
  llvm::DenseSet<UOpRef> pairwiseLanes;
  /// Lane ranges a staged panel (a LOCAL buffer our heuristic packed) is
  /// read contiguously along, whole vector registers of them: the fastest
  /// lanes after pairwise ones, see laneBefore.
  llvm::DenseSet<UOpRef> panelLanes;
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
  /// the same set of pairs (tinygrad's renderer inlines single-use ALUs);
  /// contractLikeClang makes those FMAs before LLVM's vectorizers run.
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
  /// The integer `v` in `like`'s type (every lane of a vector).
  Value intLike(Value like, int64_t v) { return createScalarOrSplatConstant(b, loc, like.getType(), v); }
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
  /// A bound-less loop (UOp.loop): a void RANGE, no induction variable.
  static bool isBoundless(UOpRef r) { return r->op == K::RANGE && r->dtype == DType::Void; }
  /// The condition of a do-while END(body, RANGE, cond): loop again while
  /// it holds (tinygrad's C: `if (!(cond)) { break; } }`); null otherwise.
  static UOpRef loopCondition(UOpRef end) {
    if (end->op != K::END || end->src.size() != 3 || end->src[1]->op != K::RANGE ||
        end->src[2]->dtype != DType::Bool)
      return nullptr;
    return end->src[2];
  }
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

  /// Opens RANGE `range` as a loop in scope `depth` (on a bad bound: sets
  /// `error`, opens nothing).
  void openLoop(UOpRef range, unsigned depth);
  /// Opens bound-less RANGE `range` as a do-while loop in scope `depth`:
  /// an scf.while whose "before" region is the body, ending in the
  /// scf.condition closeDoWhile gives the END's condition.
  void openDoWhile(UOpRef range, unsigned depth);
  /// Emits `cond` after the body of the open do-while of `range` and makes
  /// it the loop's condition.
  LogicalResult closeDoWhile(UOpRef range, UOpRef cond);
  /// ENDs already emitted, by depth and scope id (as Memo): an inner loop's
  /// END is both its outer END's body and the dep of an AFTER reading the
  /// register after it (test_wait_loop's loop_in_loop), and runs once.
  llvm::DenseMap<UOpRef, std::pair<unsigned, unsigned>> emittedEnds;
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
  /// `negate` (in: wanted, out: done): the value negated as tinygrad
  /// computes `-1 * REDUCE` (see negatedFold).
  Value emitReduce(UOpRef u, unsigned depth, bool *negate = nullptr);
  /// For `x * -1` (or NEG x) of a float loop-free ADD REDUCE used only
  /// there: that REDUCE (null where not). tinygrad's symbolic distributes the -1 over
  /// the unrolled sum's ADD chain, `-1*(x+y) -> (-x)+(-y)`, so its C is
  /// `-(t0)-(t1)-...`: the first term's product rounded and negated, each
  /// later one fused as `cur - a*b`, and an exact zero sum of the negated
  /// terms is +0.0 where -(+0.0) is -0.0 (random-kernels seed 1945 #7).
  UOpRef negatedFold(UOpRef u);
  /// A WHERE whose condition depends on lane ranges only, each lane's
  /// branch picked statically (null, error unset, where it does not apply).
  Value laneStaticWhere(UOpRef u, unsigned depth);
  /// A WHERE with lanes whose condition depends on lane ranges only and
  /// is decided in every lane: each lane's gate (1 true, 0 false).
  std::optional<SmallVector<int8_t>> decidedLanes(UOpRef u);
  /// readPerLane, from the kernel's nodes (EmitReadPerLane.cpp).
  void collectReadPerLane(ArrayRef<UOpRef> topo);
  /// AFTER: its side-effecting deps (a LOCAL buffer's fill) emitted once at
  /// the AFTER's depth, then the value of its first source.
  Value emitAfter(UOpRef u, unsigned depth);
  /// A LOCAL BUFFER: a stack array in the entry block.
  Value emitLocalBuffer(UOpRef u);
  Value emitLoad(UOpRef u, UOpRef index, UOpRef alt);
  /// Every lane of `a` in the memory type; lanes `mask` clears are not
  /// read and take `pass` (0 if null).
  Value loadLanes(OpBuilder &ob, const Address &a, Value mask, Value pass = {});
  /// One element of `a` at element index `at` (memref.load, or a volatile
  /// llvm.load for a volatile buffer), and its store.
  Value loadElement(OpBuilder &ob, const Address &a, Value at);
  void storeElement(OpBuilder &ob, const Address &a, Value x, Value at);
  /// Lane `l`'s element index.
  Value laneAddress(OpBuilder &ob, const Address &a, unsigned l);
  /// Lanes `group` of a linear gather of `a` (a static, non-volatile buffer) under
  /// the run-time gate `g`, read without a branch: every load in bounds
  /// whatever `g` is, each lane selected against its `pass` value.
  SmallVector<Value> loadGroupUnbranched(OpBuilder &ob, const Address &a, Value g, ArrayRef<unsigned> group,
                                         ArrayRef<Value> pass);
  /// `substituted` (a graph with lane values in place of lane ranges)
  /// simplified by the symbolic rules, once per graph: the nodes being
  /// hash-consed, the lanes that agree on the ranges a graph reads, and
  /// the same gate or index met again (every load of a padded window reads
  /// it), are one rewrite. In a 324-lane weight-gradient convolution the
  /// per-lane rewrites were a quarter of its compile (perf); memoized, its
  /// codegen went 38 -> 32 ms.
  UOpRef laneSimplified(UOpRef substituted);
  /// Each lane's gate simplified with its lane values substituted.
  SmallVector<int8_t> staticLaneGates(UOpRef gate, ArrayRef<UOpRef> shape,
                                      SmallVectorImpl<UOpRef> *exprs = nullptr);
  /// The linear form of an index that is linear only lane by lane (`where`:
  /// the index, or WHERE(gate, index, Invalid)), found as tinygrad's
  /// expander does: each lane's index with its lane values in place,
  /// simplified (given its gate), then strides fitted to the offsets. When
  /// no strides fit, the terms alone (no strides, offset 0) and each lane of
  /// `shape`'s constant offset in `laneOffsets` (else left empty).
  std::optional<LinearIndex> laneWiseLinear(UOpRef where, ArrayRef<int8_t> laneGates, ArrayRef<UOpRef> shape,
                                            SmallVectorImpl<int64_t> &laneOffsets);
  /// Lanes tinygrad's per-lane symbolic folds to the constant 0 (a border
  /// lane's gated load, `x*0`, `0+0`), over u's lanes; empty when none
  /// (EmitZeroLanes.cpp).
  using LaneMask = SmallVector<bool, 8>;
  LaneMask zeroLanes(UOpRef u);
  /// The constant tinygrad's per-lane symbolic folds each lane of u to
  /// (null where it is none), over u's lanes; empty when no lane is one.
  using LaneConsts = SmallVector<UOpRef, 8>;
  LaneConsts constLanes(UOpRef u);
  /// constLanes of a REDUCE: the lanes whose terms all fold to 0.
  LaneConsts reduceZeroLanes(UOpRef u);
  /// The output lanes `out` of a reduce whose unrolled group of terms
  /// (`src` at each lane of `folded`) is, lane by lane, another output
  /// lane's: one UOp in tinygrad's devectorized form, used twice, so its C
  /// names it (EmitSharedLanes.cpp; looked for behind a lane-decided
  /// WHERE only). Empty when no lane shares its group.
  LaneMask lanesSharingTheirGroup(UOpRef src, ArrayRef<UOpRef> folded, ArrayRef<UOpRef> out);
  /// A reduce term `src` (lanes `srcShape`) in one output lane and one
  /// folded lane, as tinygrad's devectorizer sees it: the lane values
  /// substituted, simplified by the engine's symbolic; interned, so lanes
  /// whose expressions coincide are one UOp. Null where the rewrite fails.
  UOpRef laneTerm(UOpRef src, ArrayRef<UOpRef> srcShape, const LaneVals &outVals, const LaneVals &foldVals);
  /// A float ADD of dtype `dt` that a reduce's term `src` is in `lanes`
  /// (over src's lanes) once tinygrad's per-lane symbolic decides the
  /// WHEREs above it, and its inlined operands, which tinygrad's C adds to
  /// the sum one by one (EmitInlinedAdds.cpp). Empty when src is no WHERE.
  struct InlinedAdd {
    UOpRef add;
    LaneMask lanes;
    SmallVector<UOpRef, 4> leaves;
  };
  SmallVector<InlinedAdd, 2> inlinedAddLanes(UOpRef src, DType dt);
  /// For a loop-free reduce of `op` over term `src`: per folded lane c, the
  /// output lanes whose running value once c is combined is a variable of
  /// tinygrad's C (its UOp used twice: lanes sharing a prefix of their
  /// chains); empty when too many lanes to look (EmitNamedPartials.cpp).
  SmallVector<LaneMask> namedPartials(UOpRef src, sym::Op op, ArrayRef<UOpRef> folded, ArrayRef<UOpRef> out);
  llvm::DenseMap<UOpRef, LaneConsts> constMasks;
  /// Per load: its lanes statically gated off, as their alternative's
  /// constant (0 without one).
  llvm::DenseMap<UOpRef, LaneConsts> loadConstLanes;
  /// Per-lane facts `m` over lanes `from`, read by the lanes of `to`.
  template <typename Lanes>
  static Lanes lanesTo(const Lanes &m, ArrayRef<UOpRef> from, ArrayRef<UOpRef> to,
                       const LaneVals *extra = nullptr) {
    Lanes out;
    if (m.empty())
      return out;
    for (unsigned l = 0, n = numLanes(to); l < n; ++l)
      out.push_back(m[numLanes(from) <= 1 ? 0 : laneIndex(from, to, l, extra)]);
    return out;
  }
  /// Mask `m` over lanes `from`, read by the lanes of `to`.
  static LaneMask maskTo(const LaneMask &m, ArrayRef<UOpRef> from, ArrayRef<UOpRef> to,
                         const LaneVals *extra = nullptr);
  Value maskConstant(ArrayRef<bool> m);
  /// `ifSet` in the lanes `m` sets, else `otherwise` (no op when uniform).
  Value selectLanes(ArrayRef<bool> m, Value ifSet, Value otherwise);
  /// A float MUL, ADD or FDIV `r` over operands `v` with tinygrad's
  /// per-lane folds of its zero lanes: `x*0` is +0.0, `x+0` is x, and
  /// `0/y` (tinygrad's 0*(1/y) before its late rewrite) is +0.0.
  Value foldZeroLanes(UOpRef u, ArrayRef<Value> v, Value r);
  LogicalResult emitEffect(UOpRef u);
  /// Nodes that run for their effect where they are used as an AFTER's
  /// dep or an END's body (stores, barriers, void CALLs, CUSTOM lines).
  static bool isEffect(UOpRef d);
  LogicalResult emitStore(UOpRef u);
  /// A CALL of a function address (EmitCalls.cpp): its value, placed at its
  /// depth; as an effect (void), in the innermost open loop.
  Value emitCall(UOpRef u);
  LogicalResult emitCallEffect(UOpRef u);
  /// The indirect call; `depth`: where a value call goes (none: a void
  /// call in the innermost scope). Null value for a void call.
  FailureOr<Value> buildCall(UOpRef u, std::optional<unsigned> depth);
  /// The address of element `elem` (index) of `buf` as an !llvm.ptr.
  Value pointerAt(OpBuilder &ob, Value buf, Value elem, DType dt);
  /// A CUSTOM statement of the known forms (EmitCalls.cpp), else a
  /// diagnostic naming its text.
  LogicalResult emitCustom(UOpRef u);
  /// `streamAlign`: non-zero where the store may bypass the caches (see
  /// streamAlignment), the byte alignment its non-temporal form needs.
  void storeLanes(OpBuilder &ob, const Address &a, Value v, Value mask, unsigned streamAlign = 0);
  /// Whether a contiguous vector store through `a` (to `index`) streams past
  /// the caches, and at what alignment: in a kernel whose buffers exceed
  /// the last-level cache, a store of whole 16..64-byte vectors at an index
  /// that is a multiple of its lanes, advancing by its own width with the
  /// innermost loop (so the write-combining buffers fill whole lines). 0
  /// when not.
  unsigned streamAlignment(const Address &a, UOpRef index);
  /// i1: whether buffer `buf` starts at a multiple of `align` bytes, tested
  /// once in the entry block.
  Value isAligned(Value buf, unsigned align);
  llvm::DenseMap<std::pair<Value, unsigned>, Value> alignedTests;
  TargetDescription target;

  // ---- GPU targets (KernelEmitter.cpp's GPU entry, EmitGPU.cpp).
  /// A GPU kernel: every memory access one scalar per lane (vector loads
  /// of scalar buffers are no logical pointer in SPIR-V, and lanes need not
  /// be aligned), accumulators and REG buffers in private memory, LOCAL
  /// buffers in workgroup memory, SPECIALs the launch ids.
  bool gpu() const { return target.hasLocal; }
  /// The memory spaces of private (Function) and workgroup memory in the
  /// target's conversion (null: the default space).
  Attribute privateSpace, workgroupSpace;
  /// Vulkan bindings: a buffer argument's element offset inside its
  /// binding (from the word pack), added to every index into it.
  llvm::DenseMap<Value, Value> bufOffsets;
  /// Workgroup memory the kernel's LOCAL buffers take, in bytes.
  int64_t workgroupBytes = 0;
  /// Creates the gpu.module and gpu.func with the target's entry ABI for
  /// `bufs` (memref types `bufTypes`) and `vars`, and maps them to values
  /// (args); fills the signature's launch fields.
  LogicalResult buildGPUEntry(StringRef name, ArrayRef<UOpRef> topo, ArrayRef<UOpRef> bufs,
                              ArrayRef<Type> bufTypes, ArrayRef<UOpRef> vars, KernelSignature &sig);
  /// After emission: the SPIR-V target environment the types used need.
  void finishGPUEntry();
  /// SPECIAL: the workgroup or thread id it names.
  Value emitSpecial(UOpRef u);
  /// loadLanes with a mask on a GPU: no branches (an scf.if with results
  /// becomes a Function variable outside SPIR-V's entry block), each lane
  /// read at its address where its gate holds and at element 0 (always in
  /// the buffer) where not, then selected against `pass` (0 if null).
  Value gatedLoadsOnGPU(OpBuilder &ob, const Address &a, Value mask, Value pass);
  /// An element of buffer `buf` at `idx` (its view offset added).
  Value loadAt(OpBuilder &ob, Value buf, Value idx);
  void storeAt(OpBuilder &ob, Value v, Value buf, Value idx);
  /// A REDUCE's accumulator of `n` lanes of `t`: a 0-d stack slot of the
  /// whole value on the CPU; n private scalars on a GPU.
  Value accAlloc(Type t, unsigned n);
  Value accLoad(Value acc, Type accT);
  Operation *accStore(Value v, Value acc);

  /// The kernel's buffers exceed the last-level cache.
  bool streaming = false;
  /// A non-temporal store was emitted: the function ends with a fence, as
  /// such stores are not ordered with the launch's completion signal.
  bool streamed = false;

  // ---- The program as compiled, in tinygrad's linear form (EmitLinear.cpp).
  // While emitting, each node is noted at the MLIR op that completes it
  // (its value's defining op, a store, a REDUCE's accumulator ops); after
  // emitting, a walk over the function in op order reads them back, each
  // scf.for a RANGE ... END: what tinygrad's linearizer would list for the
  // code we emitted, placement and all.
  struct Noted {
    UOpRef u;
    unsigned lanes;
    /// An INDEX read as a value: INDEX, then LOAD(INDEX).
    bool load = false;
  };
  llvm::DenseMap<Operation *, SmallVector<Noted, 2>> notes;
  llvm::DenseMap<Operation *, UOpRef> loopRanges;
  /// A do-while's condition, listed as its END's third source.
  llvm::DenseMap<Operation *, UOpRef> loopConds;
  /// What a REDUCE's value is in the linear form: its accumulator's LOAD
  /// after the loop, or the last op of a horizontal fold; also the `x * -1`
  /// of a fold emitted negated (negatedFold), no ALU of its own.
  llvm::DenseMap<UOpRef, UOpRef> reduceValues;
  /// WHEREs emitted as a lane shuffle (laneStaticWhere): a STACK of their
  /// branches' lanes in the linear form, no ALU.
  llvm::DenseSet<UOpRef> laneShuffles;
  unsigned nextRegSlot = 0;
  sym::Context *sctx = nullptr;
  sym::Context &symCtx() { return *sctx; }
  /// Notes `u` (`lanes` wide) after `anchor` (null: the function's top).
  void note(Operation *anchor, UOpRef u, unsigned lanes, bool load = false) {
    notes[anchor].push_back({u, lanes, load});
  }
  /// Notes a value node emitted as `v`.
  void noteValue(UOpRef u, Value v);
  /// The op just before b's insertion point (what was inserted last there).
  Operation *lastInserted() {
    Block *blk = b.getInsertionBlock();
    auto ip = b.getInsertionPoint();
    return blk && ip != blk->begin() ? &*std::prev(ip) : nullptr;
  }
  /// The noted program in op order as a LINEAR node, with the lanes of
  /// each of its sources (KernelSignature::linear).
  UOpRef linearize(ArrayRef<UOpRef> bufs, ArrayRef<UOpRef> vars, SmallVectorImpl<unsigned> &lanes);

  Value convert(Value v, DType from, DType to);
  /// The sources' promoted values (null where none) for the node being
  /// emitted, and the promoted value it leaves for its consumer.
  SmallVector<Value, 3> promotedIn;
  Value promotedOut;
  /// u's ALU over 8- and 16-bit integers in C's int, as tinygrad's C
  /// computes it; null where u is not such a node.
  Value promotedAlu(UOpRef u, ArrayRef<Value> in);
  /// A half-like value (computed in f32) rounded to its storage type.
  Value roundToStorage(Value v, DType dt);
  /// u's value rounded where tinygrad's C rounds it (see EmitCasts.cpp).
  Value roundLikeC(UOpRef u, Value v);
  Value convertCompute(Value v, DType from, DType to);
  /// A float (f32/f64, scalar or vector) to integer dtype `to` with the
  /// defined rule of EmitCasts.cpp (x86's, for values C leaves undefined).
  Value floatToInt(Value v, DType to);
  /// To a `width`-bit signed integer as x86's cvtt*: truncated, INT_MIN for
  /// NaN and out of range; no poison.
  Value floatToSigned(Value v, unsigned width);
  Value constant(const Scalar &s, DType dt);
  Value alu(UOpRef u, ArrayRef<Value> srcs);
  /// u's integer CDIV/CMOD/FLOORDIV/FLOORMOD of a by d with tinygrad's
  /// answers where C's are undefined (a zero divisor, INT_MIN / -1).
  Value guardedDivision(UOpRef u, Value a, Value d, bool uns);
  /// The division itself (d is never 0, nor -1 under INT_MIN).
  Value integerDivision(UOpRef u, Value a, Value d, bool uns);
  /// u's SHL/SHR of x by y, defined for every count (exec_alu's answers).
  Value guardedShift(UOpRef u, Value x, Value y, bool uns);
  /// CDIV/CMOD/FLOORDIV/FLOORMOD of integers of at most 32 bits by a
  /// variable divisor, through an exact f64 quotient.
  Value divideViaF64(K op, Value a, Value d, bool uns);
  /// How INDEX `index` addresses each lane of `shape`.
  LogicalResult address(UOpRef index, ArrayRef<UOpRef> shape, Address &a);
  /// The memref an INDEX's buffer expression names (a.buf, a.dt) and its
  /// elements (-1: unknown): a PARAM argument, a LOCAL/REG BUFFER after
  /// what fills it, or a view of one's bytes as another dtype.
  LogicalResult memoryOf(UOpRef bufU, Address &a, int64_t &size);
  /// The PARAM/BUFFER under AFTERs and views (SHRINK, BITCAST), or null.
  static UOpRef storageOf(UOpRef u);
  /// A BITCAST/SHRINK of a buffer (not of a loaded value): the same bytes
  /// seen at an offset or as another dtype.
  static bool isBufferView(UOpRef u);
  /// Bytes per element of dt in memory.
  unsigned storageBytes(DType dt);
  /// The i8 memref holding a viewed storage's bytes.
  Value storageBytesOf(UOpRef storage);
  /// `bytes` from `byteOffset` as `elems` elements of dt (memref.view), one
  /// per distinct view.
  Value viewAs(Value bytes, int64_t byteOffset, int64_t elems, DType dt);
  /// Storage (PARAM/BUFFER) some view reads as another dtype: declared as
  /// bytes (byteStorage), its own dtype a view of them.
  llvm::DenseSet<UOpRef> viewedStorage;
  llvm::DenseMap<UOpRef, Value> byteStorage;
  std::map<std::tuple<void *, int64_t, int64_t, unsigned>, Value> viewCache;
  /// Memory value (bools as bytes, halves in storage type) to compute
  /// value and back.
  Value fromMemory(OpBuilder &ob, Value v, DType dt);
  Value toMemory(OpBuilder &ob, Value v, DType dt);
};

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

} // namespace mlir::tinygrad::kernel_emitter

#endif
