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
#include "Emitter.h"

#include "tinygrad/Conversion/KernelToStandard.h"
#include "tinygrad/Codegen/Estimates.h"
#include "tinygrad/Codegen/Steps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include <chrono>
#include <thread>

using namespace mlir;
using namespace mlir::tinygrad;
using mlir::tinygrad::kernel_emitter::Emitter;
using K = sym::Op;
using sym::UOpRef;

namespace mlir::tinygrad::kernel_emitter {

/// The dtype tinygrad's C declares variable `v` with: its own, a weakint
/// one committed by pm_lower_weak's default_dtype (int, or long where its
/// bounds leave int32).
static DType declaredVarDType(UOpRef v) {
  if (v->dtype != DType::WeakInt)
    return v->dtype;
  const Scalar &lo = v->vmin(), &hi = v->vmax();
  bool fits = lo.isInt() && hi.isInt() && lo.i >= INT32_MIN && hi.i <= INT32_MAX;
  return fits ? DType::Int32 : DType::Int64;
}

LogicalResult Emitter::emitEffect(UOpRef u) {
  switch (u->op) {
  case K::END: {
    auto done = emittedEnds.find(u);
    if (done != emittedEnds.end() && done->second.first < scopes.size() &&
        scopes[done->second.first].id == done->second.second)
      return success();
    SmallVector<UOpRef, 4> rs;
    // UPCAST/UNROLL ranges are the store's lanes, not loops.
    for (UOpRef r : closedRanges(u))
      if (scopeOf(r) < 0 && !isLaneRange(r))
        rs.push_back(r);
    llvm::stable_sort(rs, rangeIdsLess);
    UOpRef cond = loopCondition(u);
    if (cond && (rs.size() != 1 || !isBoundless(rs[0]))) {
      fail(u, "an END with a condition closes a bound-less loop (UOp.loop) it opens");
      return failure();
    }
    size_t base = scopes.size();
    for (UOpRef r : rs) {
      if (cond)
        openDoWhile(r, scopes.size() - 1);
      else
        openLoop(r, scopes.size() - 1);
      if (!error.empty())
        return failure();
    }
    // A do-while's body may be a value computed each iteration (a volatile
    // load its condition tests: test_wait_loop's wait_ext).
    UOpRef body = u->src[0];
    bool valueBody = cond && !isEffect(body) && body->op != K::AFTER && body->op != K::NOOP;
    LogicalResult res = valueBody ? success(emitL(body) != nullptr) : emitEffect(body);
    if (succeeded(res) && cond)
      res = closeDoWhile(rs[0], cond);
    while (scopes.size() > base)
      closeLoop();
    if (succeeded(res))
      emittedEnds[u] = {unsigned(scopes.size() - 1), scopes.back().id};
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
  case K::BARRIER:
    // What it waits for: effects (a LOCAL buffer's fill) run here; the
    // reads of LOCAL memory a loop's closing barrier lists (no thread may
    // overwrite them before all threads are done) are values of the body
    // already emitted in their own loops: they only order.
    for (UOpRef s : u->src)
      if (isEffect(s) && failed(emitEffect(s)))
        return failure();
    // A CPU program is one thread of tinygrad's workgroup: a BARRIER orders
    // nothing, the effects it waits for run in order.
    if (gpu()) {
      b.setInsertionPoint(scopes.back().tail);
      gpu::BarrierOp::create(b, loc);
      note(lastInserted(), u, 1);
    }
    return success();
  case K::NOOP:
    return success();
  case K::AFTER:
    // Reached as an effect (a kernel's SINK or END over `buf.after(stores)`):
    // its deps run where the AFTER is placed.
    return emitL(u) ? success() : failure();
  case K::CALL:
    return emitCallEffect(u);
  case K::CUSTOM:
    return emitCustom(u);
  case K::PARAM:
  case K::BUFFER:
  case K::CONST:
    // A buffer the kernel names but does nothing with (`UOp.sink(buf)`).
    return success();
  default:
    // A view of a buffer that holds effects (`buf.reshape(s).after(...)`
    // at the SINK): what tinygrad's linearizer runs is what it depends on.
    if (sym::isMovement(u->op))
      return emitEffect(u->src[0]);
    fail(u, "not a side effect the CPU target lowers");
    return failure();
  }
}

bool Emitter::isEffect(UOpRef d) {
  switch (d->op) {
  case K::END:
  case K::STORE:
  case K::GROUP:
  case K::SINK:
  case K::BARRIER:
  case K::CUSTOM:
    return true;
  case K::CALL:
    return d->dtype == DType::Void;
  default:
    return false;
  }
}

FailureOr<KernelSignature> Emitter::run(UOpRef sink, StringRef name) {
  MLIRContext *ctx = module.getContext();
  KernelSignature sig;
  sig.name = name.str();
  sctx = &sink->ctx();
  SmallVector<UOpRef> topo;
  opt::toposort(sink, topo);
  for (UOpRef u : topo)
    for (UOpRef x : u->src)
      ++users[x];
  chooseLaneOrder(topo);
  // (After chooseLaneOrder: laneShape keeps what it first finds.) Each
  // node is one vector of its lanes, and the target's back end takes so
  // many (TargetDescription::maxValueLanes: LLVM's x86 type legalization
  // aborts the whole process past 32768). opts_to_apply can ask for more
  // (random-kernels --layers --candidates 4, seed 2242 #10: upcasts and
  // full unrolls to 35840 lanes), where BEAM's own candidates stop at 256
  // (BEAM_UPCAST_MAX): refused with a diagnostic instead.
  for (UOpRef u : topo) {
    uint64_t lanes = 1;
    for (UOpRef r : laneShape(u))
      lanes = std::min<uint64_t>(lanes * (uint64_t)std::max<int64_t>(1, rangeSize(r)), uint64_t(1) << 32);
    if (lanes > target.maxValueLanes) {
      mlir::emitError(loc, "kernel ") << name << ": " << sym::getOpName(u->op) << " has " << lanes
                                      << " lanes (its UPCAST and UNROLL axes), over the " << target.maxValueLanes
                                      << " a vector value may have";
      return failure();
    }
  }
  // Which values tinygrad's devectorized C reads once per lane (so names).
  collectReadPerLane(topo);
  SmallVector<UOpRef> bufs, vars;
  // outs/ins as tinygrad's ProgramInfo has them (a STORE's buffer is an out,
  // a LOAD's an in). Loads are implicit here: an INDEX is read wherever it is
  // used other than as a store's address, and one interned INDEX can be both
  // (`x[0] = x[0] + y[0]`).
  llvm::DenseSet<UOpRef> storeAddrCasts;
  for (UOpRef u : topo)
    if (u->op == K::STORE && !u->src.empty() && u->src[0]->op == K::CAST)
      storeAddrCasts.insert(u->src[0]);
  // The PARAM an INDEX addresses, through AFTERs and views (buf_uop).
  auto paramOf = [](UOpRef x) -> UOpRef {
    if (x->op != K::INDEX || x->src.empty())
      return nullptr;
    UOpRef st = storageOf(x->src[0]);
    return st && st->op == K::PARAM ? st : nullptr;
  };
  for (UOpRef u : topo) {
    if (u->op == K::PARAM)
      (u->param().isALU ? vars : bufs).push_back(u);
    // A CALL's or CUSTOM's INDEX is an address it is handed, not a load.
    if (u->op == K::CALL || u->op == K::CUSTOM)
      continue;
    for (auto [i, s] : llvm::enumerate(u->src)) {
      UOpRef p = paramOf(s);
      if (!p)
        continue;
      bool isAddress = (u->op == K::STORE && i == 0) || storeAddrCasts.count(u);
      (isAddress ? sig.outs : sig.ins).push_back(p->param().slot);
    }
  }
  llvm::sort(bufs, [](UOpRef a, UOpRef c) { return a->param().slot < c->param().slot; });
  for (auto *v : {&sig.outs, &sig.ins}) {
    llvm::sort(*v);
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  // Buffers some INDEX reads as another dtype (a BITCAST view of their
  // bytes) are declared as bytes; their own dtype is a view too.
  for (UOpRef u : topo)
    if (isBufferView(u))
      viewedStorage.insert(storageOf(u));
  SmallVector<Type> argTypes;
  uint64_t bufferBytes = 0;
  for (UOpRef p : bufs) {
    Type et = memoryType(ctx, p->dtype);
    if (!et) {
      mlir::emitError(loc, "PARAM slot ") << p->param().slot << ": unsupported dtype";
      return failure();
    }
    if (viewedStorage.count(p))
      et = b.getI8Type();
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
    int64_t bytes = size * (int64_t)storageBytes(p->dtype);
    argTypes.push_back(MemRefType::get({viewedStorage.count(p) ? bytes : size}, et));
    bufferBytes += (uint64_t)bytes;
    sig.globals.push_back(p->param().slot);
    sig.bufferElems.push_back(size);
  }
  // Which stores stream is decided per store (streamAlignment: a buffer of
  // at least half the last-level cache); whether any may, here: the kernel's
  // buffers together exceed that cache and it is memory-bound by the
  // target's ops-per-access bound.
  size_t aluNodes = 0, accesses = 0;
  for (UOpRef u : topo) {
    if (isALU(u->op))
      ++aluNodes;
    else if (u->op == K::INDEX)
      ++accesses;
  }
  streaming = bufferBytes >= target.lastCacheBytes && aluNodes <= (size_t)target.streamMaxOpsPerAccess * accesses;
  for (size_t vi = 0; vi < vars.size(); ++vi) {
    UOpRef v = vars[vi];
    Type t = scalarType(ctx, v->dtype);
    if (!t || !isa<IntegerType>(t)) {
      mlir::emitError(loc, "variable ") << v->param().name << ": unsupported dtype";
      return failure();
    }
    // tinygrad's CPU programs pass every argument in a 64-bit slot and its
    // C declares a variable at its dtype: `const long` for a 64-bit one (a
    // weakint one too where its bounds leave int32, pm_lower_weak's
    // default_dtype), else `const int` (narrower ones arrive promoted).
    DType declared = declaredVarDType(v);
    argTypes.push_back(getInfo(declared).bitsize == 64 ? b.getI64Type() : b.getI32Type());
    sig.vars.push_back(v->param().name.str());
    sig.varDTypes.push_back(declared);
    if (v->param().name == "core_id") {
      sig.coreIdArg = bufs.size() + vi;
      if (auto mm = v->param().vminVmax; mm && mm->second.isInt())
        sig.threads = (int64_t)mm->second.i + 1;
    }
  }
  index32 = llvm::all_of(topo, [](UOpRef u) {
    if (u->dtype != DType::WeakInt)
      return true;
    const Scalar &lo = u->vmin(), &hi = u->vmax();
    return lo.isInt() && hi.isInt() && lo.i >= INT32_MIN && hi.i <= INT32_MAX;
  });
  if (gpu()) {
    streaming = false;
    for (UOpRef p : bufs)
      if (viewedStorage.count(p)) {
        mlir::emitError(loc, "PARAM slot ") << p->param().slot << ": a view of a buffer as another dtype is not lowered for "
                                            << target.name;
        return failure();
      }
    if (failed(buildGPUEntry(name, topo, bufs, ArrayRef<Type>(argTypes).take_front(bufs.size()), vars, sig)))
      return failure();
    return finishKernel(sink, bufs, vars, sig);
  }
  b.setInsertionPointToEnd(module.getBody());
  auto cpuFn = func::FuncOp::create(b, loc, name, b.getFunctionType(argTypes, {}));
  fn = cpuFn;
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
  // cpu::emitObject scalarizes what is marked. A float sum over UPCAST
  // lanes scalarizes too: contractLikeClang fuses its products in our IR
  // as clang fuses them in tinygrad's C, so the scalarizer splits FMAs and
  // LLVM forms none of its own (conv2d_groups: 0.64x tinygrad as a 25-lane
  // accumulator vector LLVM splits into shuffles, 1.07-1.14x scalarized,
  // bit for bit).
  // Nor an elementwise kernel over half-like buffers: scalarized, the loop
  // vectorizer widens its lanes as interleave groups of 16-bit words, all
  // word shuffles on AVX2 (half_arith: 0.8x tinygrad scalarized, 1.1x as
  // vectors); with a reduce the scalar form still wins (matmul_half).
  bool halfElementwise =
      llvm::none_of(topo, [](UOpRef u) { return u->op == K::REDUCE; }) &&
      llvm::any_of(topo, [](UOpRef u) { return u->op == K::PARAM && isHalfLike(u->dtype); });
  bool small = iterationPoints(topo) < kScalarizeBelowPoints;
  // Nor a kernel that divides by variables (as xsin's reduction did when
  // it divided by a 2^k it computes as a float): scalarized, its loop was
  // widened around the divides anyway, eight lanes of scalar divides
  // between extracts and inserts (un_sin: 200 ms to compile, 0.7-0.9x
  // tinygrad); as our vectors, whose divides cpu::emitObject splits into
  // lanes, 35-56 ms and 0.9-1.0x.
  bool varDivide = llvm::any_of(topo, [](UOpRef u) {
    return (u->op == K::CDIV || u->op == K::FLOORDIV || u->op == K::CMOD || u->op == K::FLOORMOD) &&
           u->src[1]->op != K::CONST;
  });
  // Nor a small reduce split into independent accumulators
  // (splitReduceAccumulators: a 256-element sum): scalarized, the SLP
  // vectorizer regathered its lanes through shuffles (7.4 ms of LLVM); as
  // one accumulator vector, an add per loaded vector.
  bool splitAccumulators = llvm::any_of(topo, [](UOpRef u) {
    return u->op == K::REDUCE && u->arg.attrs && u->arg.attrs.get(opt::kPairwiseFoldAttr);
  });
  scalarize = !halfElementwise && small && !varDivide && !splitAccumulators;
  scalarizeIfGathersOnly = !halfElementwise && !small && !varDivide;
  if (!small)
    fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr(cpu::kKeepLoopsAttr)}));
  entry = cpuFn.addEntryBlock();
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  scopes.push_back({nullptr, nullptr, entry, nextScopeId++, entry->getTerminator()});
  for (size_t i = 0; i < bufs.size(); ++i) {
    Value arg = entry->getArgument(i);
    if (viewedStorage.count(bufs[i])) {
      byteStorage[bufs[i]] = arg;
      arg = viewAs(arg, 0, sig.bufferElems[i], bufs[i]->dtype);
    }
    args[bufs[i]] = arg;
  }
  b.setInsertionPoint(entry->getTerminator());
  for (size_t i = 0; i < vars.size(); ++i) {
    Value a = entry->getArgument(bufs.size() + i);
    Type vt = ty(vars[i]->dtype);
    unsigned w = vt.getIntOrFloatBitWidth(), aw = a.getType().getIntOrFloatBitWidth();
    args[vars[i]] = w > aw   ? arith::ExtSIOp::create(b, loc, vt, a).getResult()
                    : w < aw ? arith::TruncIOp::create(b, loc, vt, a).getResult()
                             : a;
  }
  return finishKernel(sink, bufs, vars, sig);
}

FailureOr<KernelSignature> Emitter::finishKernel(UOpRef sink, ArrayRef<UOpRef> bufs, ArrayRef<UOpRef> vars,
                                                 KernelSignature &sig) {
  MLIRContext *ctx = module.getContext();
  if (failed(emitEffect(sink))) {
    mlir::emitError(loc, "tg-lower-kernel: cannot lower kernel: ") << error;
    if (gpu())
      fn->getParentOp()->erase();
    else
      fn.erase();
    return failure();
  }
  if (gpu()) {
    if (target.sharedMaxBytes && workgroupBytes > target.sharedMaxBytes) {
      mlir::emitError(loc) << "the kernel needs " << workgroupBytes << " bytes of workgroup memory, more than "
                           << target.name << " allows (" << target.sharedMaxBytes << ")";
      fn->getParentOp()->erase();
      return failure();
    }
  }
  // Nor a kernel whose lane-gated accesses became masked vector loads or
  // stores: the scalarizer leaves those whole, and LLVM rebuilds each mask
  // from the scalarized lane compares in 64-bit lanes (cumsum_1d: 0.54x
  // tinygrad scalarized, 1.2x as vectors). Gated gathers, lane by lane
  // behind branches, scalarize as tinygrad's C does them (gather_dim1:
  // 0.6-0.88x as vectors, whose lane indices and gates LLVM extracts one
  // by one; 1.02x scalarized).
  // A large kernel that loads lanes by gated gathers (each lane behind
  // its own branch, its value inserted into a vector) and loads no vector
  // at all gains nothing from our vectors (a vector store of its output
  // row does not change that: beautiful_mnist's max-pool backward with 4
  // lanes of its row, 93 ms as kept-loops vectors, 36 ms scalarized, at 1
  // thread; tinygrad's C 45): its accumulators are
  // shuffled across registers around the branches, where clang keeps
  // tinygrad's C scalar. Scalarized and given O2 as the small kernels are.
  // mnist_train's step at 1 thread, CPU time against tinygrad's C: its
  // transposed-conv input gradient (4x4 output lanes by a 6-tap unroll, 96
  // accumulators fed by masked strided loads) 0.25x -> 1.2x, a 4x4-window
  // reduce 0.67x -> 1.4x. Not ungated gathers: the conv weight gradients
  // (strided, unmasked loads of a 6x6 window) ran 2.2x tinygrad as our
  // vectors and 0.83x scalarized.
  bool gathersOnly = scalarizeIfGathersOnly && vectorLoads == 0 && gatedGathers > 0;
  // Nor a large kernel without lanes (opts that give no axis vectors:
  // tinygrad's own for some kernels, BEAM's candidates that only thread
  // or unroll by loops): the kept-loops pipeline has no loop vectorizer,
  // so its loops stayed scalar where clang -O2 widens tinygrad's C
  // (softmax 4096x1024's exp-and-divide kernel under THREAD alone: 33 ms,
  // tinygrad's C 1.4 ms). Given O2, as tinygrad's C is.
  bool noLanes = scalarizeIfGathersOnly && !fn.walk([](Operation *op) {
                                              return llvm::any_of(op->getResultTypes(), llvm::IsaPred<VectorType>)
                                                         ? WalkResult::interrupt()
                                                         : WalkResult::advance();
                                            }).wasInterrupted();
  // Nor a large kernel whose lanes lie across a strided axis only, its
  // innermost loops scalar loads and stores along a contiguous one
  // (InnermostLoops.cpp): widened by LLVM as clang widens tinygrad's C.
  bool lanesAcrossOnly = scalarizeIfGathersOnly && !noLanes && innermostLoopsWalkContiguousScalars(fn);
  if (!gpu() && (scalarize || gathersOnly || noLanes || lanesAcrossOnly) && !fn.walk([](Operation *op) {
                       return isa<vector::MaskedLoadOp, vector::MaskedStoreOp>(op) ? WalkResult::interrupt()
                                                                                  : WalkResult::advance();
                     }).wasInterrupted())
    fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr(cpu::kScalarizeAttr)}));
  if (streamed) {
    // Loaded already where this runs as tg-lower-kernel (a dependent
    // dialect); the library's pipeline emits before any pass runs.
    ctx->getOrLoadDialect<LLVM::LLVMDialect>();
    b.setInsertionPoint(entry->getTerminator());
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
  }
  // Before contractLikeClang, which fuses (erases) ops the nodes are noted at.
  SmallVector<unsigned> lanes;
  sig.linear = linearize(bufs, vars, lanes);
  sig.linearLanes.assign(lanes.begin(), lanes.end());
  codegen::Estimates est = codegen::estimatesFromUOps(*sctx, sig.linear->src, lanes);
  sig.estOps = est.ops;
  sig.estLds = est.lds;
  sig.estMem = est.mem;
  contractLikeClang(fn, target.fusedFMA);
  // After the last op is emitted: the capabilities follow the types used.
  if (gpu())
    finishGPUEntry();
  return sig;
}

} // namespace mlir::tinygrad::kernel_emitter

unsigned mlir::tinygrad::hostThreads() {
  unsigned n = std::thread::hardware_concurrency();
  return n ? n : 1;
}

FailureOr<KernelSignature> mlir::tinygrad::lowerKernelToStandard(ModuleOp module, UOpRef kernel,
                                                                StringRef name, Location loc,
                                                                const TargetDescription &target,
                                                                tg::KernelInfoAttr info, opt::OptMode optMode) {
  if (kernel->op != K::SINK) {
    mlir::emitError(loc, "a kernel is a SINK, got ") << sym::getOpName(kernel->op);
    return failure();
  }
  sym::Context &ctx = kernel->ctx();
  auto t0 = std::chrono::steady_clock::now();
  // full_rewrite_to_sink's engine steps (lib/Codegen/Steps), then the
  // emitter gives the result its loops.
  SmallVector<opt::Opt> applied;
  std::string why;
  sym::UOpRef k = codegen::fullRewriteToSink(ctx, kernel, {info, target, optMode}, &applied, why);
  if (!k) {
    mlir::emitError(loc, why);
    return failure();
  }
  double passesMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  FailureOr<KernelSignature> sig = Emitter(module, loc, target).run(k, name);
  if (succeeded(sig)) {
    sig->appliedOpts.assign(applied.begin(), applied.end());
    sig->passesMs = passesMs;
  }
  return sig;
}
