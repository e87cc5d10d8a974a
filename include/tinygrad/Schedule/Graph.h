//===- Graph.h - tinygrad's UOp properties the scheduler reads -*- C++ -*-===//
//
// The scheduler asks the tensor graph for derived properties tinygrad keeps
// on UOp (shape, device, base, ranges, buf_uop, ...) and builds nodes with
// tinygrad's constructors (x.index, x.store, buf.after, ...). Shapes come
// from the MLIR result type every node carries; the constructors here derive
// that type the way the dialects' type inference does, so a node built here
// interns equal to the same node imported from JSON.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_GRAPH_H
#define TINYGRAD_SCHEDULE_GRAPH_H

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include <functional>

namespace mlir::tinygrad::sched {

using sym::Context;
using sym::Op;
using sym::UOp;
using sym::UOpRef;
using Shape = llvm::SmallVector<int64_t, 4>;
using sym::Ranges;

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

/// tinygrad's `_shape`: nullopt for ops without one (SINK, CALL, ...).
/// STORE/END/AFTER pass their first source's shape through, as tinygrad's do.
std::optional<Shape> shapeOf(UOpRef u);
/// Dim `i` of u's shape as a node: a CONST, or the symbolic expression
/// tinygrad's `_shape` gives it; null when it cannot be found.
UOpRef dimOf(Context &ctx, UOpRef u, unsigned i);
/// `x.base`: through movement ops and DETACH.
UOpRef baseOf(UOpRef u);
/// `x.device` as its attribute (a string or an array of strings), or null.
Attribute deviceOf(UOpRef u);
/// `x.addrspace`.
std::optional<tg::AddrSpace> addrspaceOf(UOpRef u);
/// `x.buf_uop`.
UOpRef bufUOp(Context &ctx, UOpRef u);
/// The ParamAttr of a PARAM/BUFFER, or null.
tg::ParamAttr paramArg(UOpRef u);
tg::BufferizeOptsAttr stageOpts(UOpRef u);
/// `x.is_variable`: a 0-d ALU BUFFER with a value range.
bool isVariable(UOpRef u);
/// `x.is_bound_var`: AFTER(var, STORE(var, CONST)).
bool isBoundVar(UOpRef u);
/// RANGE's (axis ids, axis type).
llvm::ArrayRef<int64_t> rangeIds(UOpRef r);
tg::AxisType rangeType(UOpRef r);
/// tinygrad orders ranges by their arg tuple.
bool rangeArgLess(UOpRef a, UOpRef b);
/// A node's "tg.tag" attribute (tinygrad's tag; `()` is an empty array).
Attribute tagOf(UOpRef u);
/// `marg` of a movement op: RESHAPE/EXPAND a shape, PAD/SHRINK pairs, PERMUTE
/// the permutation, FLIP the flags (0/1).
struct MArg {
  Shape shape;                                  ///< RESHAPE/EXPAND
  llvm::SmallVector<std::pair<int64_t, int64_t>> pairs; ///< PAD/SHRINK
  llvm::SmallVector<int64_t> perm;              ///< PERMUTE / FLIP flags
  llvm::SmallVector<UOpRef> offsets;            ///< PAD/SHRINK offsets as nodes (symbolic ones too)
  llvm::SmallVector<UOpRef> shapeNodes;         ///< RESHAPE/EXPAND dims as nodes
  /// The source's dims as nodes (filled by the caller for symbolic RESHAPEs).
  llvm::SmallVector<UOpRef> inDims;
};
std::optional<MArg> margOf(UOpRef u);
/// `broadcast_axes(src_shape, out_shape)`: the out axes added or expanded.
llvm::SmallVector<unsigned> broadcastAxes(llvm::ArrayRef<int64_t> src,
                                          llvm::ArrayRef<int64_t> out);

using sym::RangeCache;
using sym::toposort;

/// The cache of the running get_kernel_graph (rules reach it from builders).
RangeCache &rangeCache();

//===----------------------------------------------------------------------===//
// Construction (tinygrad's UOp methods)
//===----------------------------------------------------------------------===//

/// MLIR type for a value of `dt` with `shape` (scalar when empty).
Type valueType(Context &ctx, DType dt, llvm::ArrayRef<int64_t> shape,
               std::optional<tg::AddrSpace> as = std::nullopt);
Type voidType(Context &ctx);
DictionaryAttr attrs(Context &ctx, llvm::ArrayRef<NamedAttribute> a);
/// `u` with one attribute set (null value: removed).
UOpRef withAttr(Context &ctx, UOpRef u, llvm::StringRef name, Attribute value);
UOpRef withSrc(Context &ctx, UOpRef u, llvm::ArrayRef<UOpRef> src);

UOpRef index(Context &ctx, UOpRef buf, llvm::ArrayRef<UOpRef> idx);
UOpRef store(Context &ctx, UOpRef dst, UOpRef val);
UOpRef end(Context &ctx, UOpRef x, llvm::ArrayRef<UOpRef> rngs);
UOpRef after(Context &ctx, UOpRef x, llvm::ArrayRef<UOpRef> deps);
UOpRef sink(Context &ctx, llvm::ArrayRef<UOpRef> src, Attribute arg = {});
UOpRef noop(Context &ctx, llvm::ArrayRef<UOpRef> src = {});
UOpRef range(Context &ctx, int64_t end, int64_t id,
             tg::AxisType at = tg::AxisType::Weak);
UOpRef stage(Context &ctx, UOpRef src, llvm::ArrayRef<UOpRef> rngs,
             tg::BufferizeOptsAttr opts);
UOpRef reduceRanged(Context &ctx, UOpRef src, llvm::ArrayRef<UOpRef> rngs,
                    tg::ReduceKind kind);
/// `shape_to_shape_arg`: a CONST for one dim, a STACK otherwise.
UOpRef shapeArg(Context &ctx, llvm::ArrayRef<int64_t> shape);
UOpRef reshape(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape);
UOpRef expand(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape);
UOpRef shrink(Context &ctx, UOpRef x,
              llvm::ArrayRef<std::pair<int64_t, int64_t>> bounds);
/// `x.permute(perm)` (x itself for the identity).
UOpRef permute(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> perm);
/// The tensor-level REDUCE over the first `n` axes.
UOpRef reduceAxes(Context &ctx, UOpRef x, tg::ReduceKind kind, int64_t n);
/// A BUFFER/PARAM of `size` elements with `arg`.
UOpRef storage(Context &ctx, Op op, llvm::ArrayRef<int64_t> shape, tg::ParamAttr arg);
/// `x.valid(cond)` = cond.where(x, Invalid).
UOpRef valid(Context &ctx, UOpRef x, UOpRef cond);
/// `x.get_idx()` / `x.get_valid()`.
UOpRef getIdx(UOpRef x);
UOpRef getValid(Context &ctx, UOpRef x);

/// GroupOp.All.
sym::pat::OpSet allOps();

/// Installs a fresh range cache for one get_kernel_graph run.
class ScopedRangeCache {
public:
  ScopedRangeCache();
  ~ScopedRangeCache();

private:
  RangeCache cache;
  RangeCache *prev;
};

/// Record an error ("<where>: <what>") and return null.
UOpRef fail(Context &ctx, llvm::StringRef where, const llvm::Twine &what);
std::string formatShape(llvm::ArrayRef<int64_t> s);

} // namespace mlir::tinygrad::sched

#endif
