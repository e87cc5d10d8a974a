//===- TensorGraph.h - tinygrad's UOp properties on tensor graphs -*- C++ -*-===//
//
// The scheduler reads properties tinygrad derives on the fly (base, device,
// addrspace, buffer identity, bound variables, tags) and builds tensor-level
// nodes (buffers, params, movement ops, stores). These are those UOp
// properties and constructors over the interned engine's nodes, with the
// result types the tg/tgt ops infer, so rebuilt nodes intern to the same
// pointers as imported ones.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_SCHEDULE_TENSORGRAPH_H
#define TINYGRAD_SCHEDULE_TENSORGRAPH_H

#include "tinygrad/Dialect/TG/IR/TG.h"
#include "tinygrad/Symbolic/UOp.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

namespace mlir::tinygrad::sched {
using sym::Context;
using sym::Op;
using sym::UOpRef;

/// In their own namespace: the kernel-graph code (Graph.h) has helpers of
/// the same names with other conventions.
namespace tgraph {
using sym::Op;

/// tinygrad's `tag`: None (nullopt) or a tuple of ints (possibly empty).
using Tag = std::optional<llvm::SmallVector<int64_t, 2>>;
Tag getTag(UOpRef u);
/// `u.replace(tag=t)`.
UOpRef withTag(Context &ctx, UOpRef u, const Tag &t);

/// The ParamArg of a BUFFER/PARAM (null for other ops).
tg::ParamAttr paramAttr(UOpRef u);
/// Static shape of a value (`()` for scalars); dims tinygrad keeps symbolic
/// are tg::kDynamic.
llvm::SmallVector<int64_t> shapeOf(UOpRef u);
bool hasStaticShape(UOpRef u);
/// Dim `i` of u's shape as a node: a CONST, or the symbolic expression
/// tinygrad's `_shape` gives it (sched::dimOf); null when none is found.
UOpRef dimNode(Context &ctx, UOpRef u, unsigned i);
std::optional<tg::AddrSpace> typeAddrSpace(UOpRef u);

/// Memoized derived properties that walk sources (tinygrad's
/// recursive_property). One per graph traversal.
class Props {
public:
  /// `u.device`: a StringAttr (or ArrayAttr for multi-device), or null.
  Attribute device(UOpRef u);
  /// `u.device` as a single device name ("" when none / multi-device).
  llvm::StringRef deviceName(UOpRef u);
  /// `u.addrspace`.
  std::optional<tg::AddrSpace> addrspace(UOpRef u);

private:
  llvm::DenseMap<UOpRef, Attribute> devMemo;
  llvm::DenseMap<UOpRef, std::optional<tg::AddrSpace>> asMemo;
};

/// `u.base`: through movement ops and DETACH.
UOpRef base(UOpRef u);
/// `u.is_virtual`: no device, or a weak dtype.
bool isVirtual(Props &p, UOpRef u);
/// `u.has_buffer_identity(after_ok)`.
bool hasBufferIdentity(UOpRef u, bool afterOk = false);
/// `u.is_variable` / `u.is_bound_var`.
bool isVariable(UOpRef u);
bool isBoundVar(UOpRef u);

//===----------------------------------------------------------------------===//
// Constructors (tinygrad's UOp methods of the same names)
//===----------------------------------------------------------------------===//

/// `shape_to_shape_arg`: one CONST, or a STACK of CONSTs.
UOpRef shapeArg(Context &ctx, llvm::ArrayRef<int64_t> shape);
/// `UOp.new_buffer(device, size, dtype, slot)`.
UOpRef newBuffer(Context &ctx, Attribute device, int64_t size, Type dtype,
                 int64_t slot);
/// `x.reshape(shape)` (the identity when the shape is unchanged).
UOpRef reshape(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape);
/// `x.shrink(((s0,e0),...))` (the identity when nothing is cut).
UOpRef shrink(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> starts,
              llvm::ArrayRef<int64_t> ends);
/// `x.shrink_to(shape)`.
UOpRef shrinkTo(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape);
/// `x.shrink_to(shape)` for a shape of symbolic dims (tg::kDynamic in
/// `shape`, their nodes in `dims`; every dim's node, static ones CONSTs).
UOpRef shrinkToDims(Context &ctx, UOpRef x, llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<UOpRef> dims);
/// `x.bitcast(dtype)` (the identity for the same dtype).
UOpRef bitcast(Context &ctx, UOpRef x, Type dtype);
UOpRef contiguous(Context &ctx, UOpRef x, const Tag &tag = std::nullopt);
UOpRef store(Context &ctx, UOpRef target, UOpRef value);
UOpRef after(Context &ctx, UOpRef x, llvm::ArrayRef<UOpRef> deps,
             const Tag &tag = std::nullopt);
UOpRef sink(Context &ctx, llvm::ArrayRef<UOpRef> srcs);
/// `UOp.param(slot, dtype, shape, device, addrspace)`.
UOpRef param(Context &ctx, int64_t slot, Type dtype,
             llvm::ArrayRef<int64_t> shape, Attribute device,
             tg::AddrSpace addrspace);
/// `CALL(body, *args)` with the default CallInfo.
UOpRef call(Context &ctx, UOpRef body, llvm::ArrayRef<UOpRef> args);

/// The element type (dtype) of a node as an MLIR type.
Type elementType(UOpRef u);
/// The ints of a shape operand (a CONST or a STACK of CONSTs), if constant.
std::optional<llvm::SmallVector<int64_t>> constInts(UOpRef s);
/// Calls `fn` once on every node reachable from `root` (kernel bodies too).
void forEachNode(UOpRef root, llvm::function_ref<void(UOpRef)> fn);

} // namespace tgraph
} // namespace mlir::tinygrad::sched

#endif
