//===- TensorProgram.cpp - schedule, compile and run a tensor program -----===//
//
// Storage: one runtime buffer per BUFFER of the LINEAR; a memory-planned
// buffer (a SHRINK of a BUFFER, maybe BITCAST) is a view into its arena.
// Outputs are read on the host through their movement ops, as tinygrad's
// Tensor.numpy() reads a realized view.
//
// Execution: the LINEAR becomes a function of hcq queue commands
// (ScheduleToHCQ.h), compiled to a host function of runtime calls
// (HCQHostFunction.h) that records the runtime's queues once; they are
// captured as a graph (HCQRuntime.h) and run() replays it.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Execution/TensorProgram.h"
#include "ExecError.h"

#include "tinygrad/Execution/AheadOfTime.h"
#include "tinygrad/Execution/HCQHostFunction.h"
#include "tinygrad/Execution/HCQRuntime.h"
#include "tinygrad/Execution/LoadKernel.h"
#include "tinygrad/Execution/ScheduleToHCQ.h"

#include "tinygrad/Dialect/HCQ/IR/HCQ.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Schedule/CreateSchedule.h"
#include "tinygrad/Schedule/KernelGraph.h"
#include "tinygrad/Schedule/TensorGraph.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Ranges.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad-rt/runtime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"

#include <chrono>
#include <cstring>
#include <map>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::exec;
using sym::UOpRef;
namespace tgraph = sched::tgraph;

namespace {
using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

llvm::Error rtError(const llvm::Twine &what) { return error(what + ": " + tgrt_last_error()); }

/// create_linear_with_vars on the SINK `tensor` with the options' kernel
/// graph (ours, sched::getKernelGraph, unless given).
llvm::Expected<sched::ScheduledProgram> scheduleTensor(sym::Context &ctx, UOpRef tensor,
                                                       const ProgramOptions &opts) {
  if (!tensor || tensor->op != sym::Op::SINK)
    return error("a tensor program is a SINK of the tensors to realize");
  sched::KernelGraphFn kernelGraph = opts.kernelGraph;
  if (!kernelGraph)
    kernelGraph = [&ctx](UOpRef body) -> llvm::Expected<UOpRef> {
      ctx.errors.clear();
      if (UOpRef kg = sched::getKernelGraph(ctx, body))
        return kg;
      std::string why;
      for (const std::string &e : ctx.errors)
        why += (why.empty() ? "" : "; ") + e;
      return error("get_kernel_graph: " + (why.empty() ? std::string("failed") : why));
    };
  return sched::scheduleProgram(ctx, tensor, kernelGraph);
}

/// The LINEAR's distinct kernel bodies in launch order: each is compiled
/// once however often it is launched.
std::vector<UOpRef> kernelBodies(UOpRef linear) {
  std::vector<UOpRef> bodies;
  llvm::DenseSet<UOpRef> seen;
  for (UOpRef si : linear->src)
    if (UOpRef body = si->src[0]; body->op == sym::Op::SINK && seen.insert(body).second)
      bodies.push_back(body);
  return bodies;
}

/// Kernel `n` of the schedule (`body`) compiled for the options' target,
/// the schedule's variable values given for a GPU's launch dims.
llvm::Expected<CompiledKernel> compileBody(KernelCompiler &compiler, MLIRContext *mctx, UOpRef body, size_t n,
                                           const ProgramOptions &opts, const llvm::StringMap<int64_t> &varVals) {
  OpBuilder b(mctx);
  OwningOpRef<ModuleOp> mod = ModuleOp::create(UnknownLoc::get(mctx));
  b.setInsertionPointToEnd(mod->getBody());
  Value root = sym::Materializer(b, mod->getLoc()).materialize(body);
  CompileOptions kopts = opts.kernel;
  for (const auto &v : varVals)
    kopts.varValues[v.getKey().str()] = v.getValue();
  const TargetDescription &target = opts.target;
  FailureOr<CompiledKernel> k = opts.compile ? opts.compile(root, target, kopts) : compiler.compile(root, target, kopts);
  if (failed(k))
    return error("kernel " + llvm::Twine(n) + " of the schedule does not compile for " + target.name);
  if (target.isGPU() && llvm::is_contained(k->globalSizeFor, -1))
    return error("kernel " + llvm::Twine(n) + ": its workgroup count depends on a variable the schedule "
                                              "does not bind");
  return std::move(*k);
}

int64_t numel(UOpRef u) {
  int64_t n = 1;
  for (int64_t d : tgraph::shapeOf(u))
    n *= d;
  return n;
}
std::string dtypeName(UOpRef u) {
  auto dt = tg::getDType(tgraph::elementType(u));
  return dt ? getName(*dt).str() : "void";
}
int64_t itemsize(UOpRef u) {
  auto dt = tg::getDType(tgraph::elementType(u));
  return dt ? getInfo(*dt).itemsize : 1;
}

/// `u`'s shape with each symbolic dim (a realized tensor of bound-Variable
/// length) evaluated at the values its bound variables store; -1 where one
/// does not evaluate to an integer.
llvm::SmallVector<int64_t> boundShape(sym::Context &ctx, UOpRef u) {
  llvm::SmallVector<int64_t> shape = tgraph::shapeOf(u);
  for (auto [i, d] : llvm::enumerate(shape)) {
    if (d != tg::kDynamic)
      continue;
    d = -1;
    UOpRef x = tgraph::dimNode(ctx, u, i);
    if (!x)
      continue;
    llvm::DenseMap<UOpRef, UOpRef> subs;
    for (UOpRef v : sym::toposort(x))
      if (tgraph::isBoundVar(v))
        subs[v] = v->src[1]->src[1]; // AFTER(var, STORE(var, value))
    if (auto n = sym::simplify(ctx, subs.empty() ? x : sym::substitute(ctx, x, subs))->intVal())
      d = (int64_t)*n;
  }
  return shape;
}

/// Row-major multi-index helpers for reading a view on the host.
llvm::SmallVector<int64_t> unflatten(int64_t flat, llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> idx(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    idx[i] = shape[i] ? flat % shape[i] : 0;
    flat = shape[i] ? flat / shape[i] : 0;
  }
  return idx;
}
int64_t flatten(llvm::ArrayRef<int64_t> idx, llvm::ArrayRef<int64_t> shape) {
  int64_t f = 0;
  for (size_t i = 0; i < shape.size(); ++i)
    f = f * shape[i] + idx[i];
  return f;
}

/// Shapes of a view's nodes, symbolic dims evaluated at their bound values
/// (boundShape), computed once per node.
using ShapeMemo = llvm::DenseMap<UOpRef, llvm::SmallVector<int64_t>>;
llvm::ArrayRef<int64_t> shapeIn(ShapeMemo &memo, UOpRef u) {
  auto it = memo.find(u);
  if (it == memo.end())
    it = memo.try_emplace(u, tgraph::hasStaticShape(u) ? tgraph::shapeOf(u) : boundShape(u->ctx(), u)).first;
  return it->second;
}

/// The byte offset in buffer `base` of the element that index `idx` of view
/// `u` reads, or -1 for padding (which reads as zero). A BITCAST (a view of
/// a contiguous range as elements of another size) maps through bytes: the
/// part of a byte offset below one source element is carried to the end.
llvm::Expected<int64_t> sourceIndex(UOpRef u, llvm::SmallVector<int64_t> idx, UOpRef &base, ShapeMemo &memo) {
  int64_t carried = 0;
  while (true) {
    if (u->op == sym::Op::BUFFER) {
      base = u;
      return flatten(idx, tgraph::shapeOf(u)) * itemsize(u) + carried;
    }
    UOpRef s = u->src.empty() ? nullptr : u->src[0];
    // a view of bound-Variable length: its dims at their bound values
    llvm::SmallVector<int64_t> in = s ? llvm::SmallVector<int64_t>(shapeIn(memo, s)) : llvm::SmallVector<int64_t>{};
    if (llvm::is_contained(in, -1) || llvm::is_contained(shapeIn(memo, u), -1))
      return error("a " + sym::getOpName(u->op) + " of a symbolic shape its bound variables do not give");
    switch (u->op) {
    case sym::Op::RESHAPE:
      idx = unflatten(flatten(idx, shapeIn(memo, u)), in);
      break;
    case sym::Op::PERMUTE: {
      auto perm = cast<DenseI64ArrayAttr>(u->arg.attrs.get("perm")).asArrayRef();
      llvm::SmallVector<int64_t> si(in.size());
      for (size_t i = 0; i < perm.size(); ++i)
        si[perm[i]] = idx[i];
      idx = si;
      break;
    }
    case sym::Op::EXPAND: {
      size_t added = idx.size() - in.size();
      llvm::SmallVector<int64_t> si(idx.begin() + added, idx.end());
      for (size_t i = 0; i < si.size(); ++i)
        if (in[i] == 1)
          si[i] = 0;
      idx = si;
      break;
    }
    case sym::Op::SHRINK: {
      auto st = tgraph::constInts(u->src[1]);
      if (!st)
        return error("a symbolic SHRINK on an output");
      for (size_t i = 0; i < idx.size(); ++i)
        idx[i] += (*st)[i];
      break;
    }
    case sym::Op::PAD: {
      auto lo = tgraph::constInts(u->src[1]);
      if (!lo)
        return error("a symbolic PAD on an output");
      for (size_t i = 0; i < idx.size(); ++i) {
        idx[i] -= (*lo)[i];
        if (idx[i] < 0 || idx[i] >= in[i])
          return -1;
      }
      break;
    }
    case sym::Op::FLIP: {
      auto flags = cast<DenseBoolArrayAttr>(u->arg.attrs.get("flags")).asArrayRef();
      for (size_t i = 0; i < idx.size(); ++i)
        if (flags[i])
          idx[i] = in[i] - 1 - idx[i];
      break;
    }
    case sym::Op::DETACH:
    case sym::Op::CONTIGUOUS:
      break;
    case sym::Op::BITCAST: {
      int64_t bytes = flatten(idx, shapeIn(memo, u)) * itemsize(u) + carried, from = itemsize(s);
      carried = bytes % from;
      idx = unflatten(bytes / from, in);
      break;
    }
    default:
      return error("an output is " + sym::getOpName(u->op) + ", not a view of a buffer");
    }
    u = s;
  }
}

struct Compiled {
  KernelSignature sig;
  tgrt_program *prog = nullptr;
  /// A GPU kernel's launch: workgroups (for the schedule's variable values)
  /// and the workgroup size. Unset on the CPU, whose launch is core_id.
  std::optional<std::array<int64_t, 3>> global, local;
  std::string object; ///< a CPU kernel's ELF object, for --emit=aot
};
} // namespace

struct TensorProgram::Impl {
  UOpRef linear = nullptr;
  std::vector<UOpRef> tensorBufs, outputViews;
  tgrt_device *dev = nullptr;
  llvm::DenseMap<UOpRef, Compiled> kernels;
  std::map<UOpRef, tgrt_buffer *> storage, views;
  llvm::StringMap<int64_t> varVals;
  OwningOpRef<ModuleOp> hcqModule;
  std::unique_ptr<HCQHostFunction> host;
  std::unique_ptr<HCQReplay> replay;
  /// What lowerToHCQ gave the schedule: its objects by index (--emit=aot).
  HCQScheduleInput hcqInput;
  std::map<UOpRef, unsigned> storageIds;
  std::vector<UOpRef> programBodies;
  std::vector<int64_t> varValues;

  ~Impl() {
    replay.reset(); // the graph holds buffers and programs
    for (auto &[u, v] : views)
      tgrt_buffer_free(v);
    for (auto &[u, b] : storage)
      tgrt_buffer_free(b);
    for (auto &[body, k] : kernels)
      if (k.prog)
        tgrt_program_free(k.prog);
    if (dev)
      tgrt_device_close(dev);
  }

  /// The allocation behind a LINEAR argument or a BUFFER, and the byte
  /// offset of the argument in it: a memory-planned buffer is a SHRINK of
  /// its arena (maybe BITCAST).
  struct Storage {
    UOpRef base;
    int64_t offset;
  };
  llvm::Expected<Storage> storageOf(UOpRef a) {
    UOpRef base = a;
    int64_t offset = 0;
    if (a->op == sym::Op::BITCAST)
      base = a->src[0];
    if (base->op == sym::Op::SHRINK) {
      auto st = tgraph::constInts(base->src[1]);
      if (!st)
        return error("a buffer at a symbolic offset");
      offset = (*st)[0] * itemsize(base);
      base = base->src[0];
    }
    if (base->op != sym::Op::BUFFER)
      return error("a " + sym::getOpName(a->op) + " where a buffer was expected");
    return Storage{base, offset};
  }

  /// The runtime buffer behind a LINEAR argument or a BUFFER (allocated on
  /// first use), or a view for a memory-planned one.
  llvm::Expected<tgrt_buffer *> bufferFor(UOpRef a) {
    if (auto it = views.find(a); it != views.end())
      return it->second;
    auto st = storageOf(a);
    if (!st)
      return st.takeError();
    UOpRef base = st->base;
    tgrt_buffer *&buf = storage[base];
    if (!buf && tgrt_buffer_alloc(dev, std::max<int64_t>(1, numel(base) * itemsize(base)), &buf) != TGRT_OK) {
      storage.erase(base);
      return rtError("allocating a buffer");
    }
    if (base == a)
      return buf;
    tgrt_buffer *view = nullptr;
    if (tgrt_buffer_view(buf, st->offset, std::max<int64_t>(1, numel(a) * itemsize(a)), &view) != TGRT_OK)
      return rtError("a view of a planned buffer");
    views[a] = view;
    return view;
  }

  llvm::Error lowerToHCQ(MLIRContext *mctx);
};

/// tg-schedule-to-hcq on the LINEAR: its calls as steps on the CPU device;
/// then the hcq function compiled to host code (convert-hcq-to-runtime),
/// run once to record its queues, which are captured for replay.
llvm::Error TensorProgram::Impl::lowerToHCQ(MLIRContext *mctx) {
  HCQScheduleInput in;
  HCQBindings bind;
  in.devices = {"CPU"};
  bind.devices = {dev};
  llvm::DenseMap<tgrt_buffer *, unsigned> bufferIndex;
  std::map<UOpRef, unsigned> storageIndex;
  auto buffer = [&](UOpRef a) -> llvm::Expected<unsigned> {
    auto b = bufferFor(a);
    if (!b)
      return b.takeError();
    auto [it, fresh] = bufferIndex.try_emplace(*b, in.buffers.size());
    if (fresh) {
      auto st = storageOf(a);
      if (!st)
        return st.takeError();
      unsigned id = storageIndex.try_emplace(st->base, storageIndex.size()).first->second;
      in.buffers.push_back({0, id, st->offset, st->offset + numel(a) * itemsize(a)});
      bind.buffers.push_back(*b);
    }
    return it->second;
  };
  llvm::DenseMap<UOpRef, unsigned> programIndex;
  llvm::StringMap<unsigned> varIndex;
  for (auto [n, si] : llvm::enumerate(linear->src)) {
    UOpRef body = si->src[0];
    llvm::ArrayRef<UOpRef> args = si->src.drop_front();
    HCQStep step;
    if (body->op == sym::Op::COPY) {
      if (args.size() != 2)
        return error("a COPY call takes (dst, src)");
      auto dst = buffer(args[0]);
      if (!dst)
        return dst.takeError();
      auto src = buffer(args[1]);
      if (!src)
        return src.takeError();
      step.kind = HCQStep::Copy;
      step.dst = *dst;
      step.src = *src;
      step.bytes = numel(args[1]) * itemsize(args[1]);
      in.steps.push_back(std::move(step));
      continue;
    }
    if (body->op != sym::Op::SINK)
      return error("call " + llvm::Twine(n) + " has a " + sym::getOpName(body->op) + " body");
    Compiled &k = kernels[body];
    auto [pit, freshProgram] = programIndex.try_emplace(body, in.programs.size());
    if (freshProgram) {
      in.programs.push_back({k.sig.name, 0});
      bind.programs.push_back(k.prog);
      programBodies.push_back(body);
    }
    step.program = pit->second;
    for (int64_t slot : k.sig.globals) {
      if (slot < 0 || slot >= (int64_t)args.size())
        return error("kernel " + llvm::Twine(n) + " reads PARAM " + llvm::Twine(slot) + " of " +
                     llvm::Twine(args.size()) + " call arguments");
      auto b = buffer(args[slot]);
      if (!b)
        return error("kernel " + llvm::Twine(n) + ", argument " + llvm::Twine(slot) + ": " +
                     llvm::toString(b.takeError()));
      if (llvm::is_contained(k.sig.outs, slot))
        step.written.push_back(step.args.size());
      step.args.push_back({HCQExecArg::Buffer, *b});
    }
    for (const std::string &v : k.sig.vars) {
      if ((int64_t)step.args.size() == k.sig.coreIdArg) {
        step.args.push_back({HCQExecArg::CoreId, 0});
        continue;
      }
      auto it = varVals.find(v);
      if (it == varVals.end())
        return error("kernel " + llvm::Twine(n) + " uses variable '" + v + "', which nothing binds");
      auto [vit, freshVar] = varIndex.try_emplace(v, in.vars.size());
      if (freshVar) {
        in.vars.push_back(v);
        bind.vars.push_back(it->second);
      }
      step.args.push_back({HCQExecArg::Var, vit->second});
    }
    if (k.global) {
      std::copy(k.global->begin(), k.global->end(), step.global);
      std::copy(k.local->begin(), k.local->end(), step.local);
    } else {
      step.global[0] = k.sig.coreIdArg >= 0 ? k.sig.threads : 1;
    }
    in.steps.push_back(std::move(step));
  }
  mctx->loadDialect<hcq::HCQDialect, func::FuncDialect, arith::ArithDialect>();
  Location loc = NameLoc::get(StringAttr::get(mctx, "schedule"));
  hcqModule = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockEnd(hcqModule->getBody());
  FailureOr<func::FuncOp> fn = buildHCQSchedule(b, loc, "schedule", in);
  if (failed(fn))
    return error("the schedule does not lower to hcq queue commands");
  if (failed(verify(*hcqModule)))
    return error("the hcq schedule does not verify");
  hcqInput = in;
  storageIds = storageIndex;
  varValues = bind.vars;
  auto h = HCQHostFunction::compile(*fn);
  if (!h)
    return h.takeError();
  host = std::move(*h);
  auto r = HCQReplay::capture(*host, *fn, bind);
  if (!r)
    return r.takeError();
  replay = std::move(*r);
  return llvm::Error::success();
}

TensorProgram::TensorProgram(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
TensorProgram::~TensorProgram() = default;

llvm::Expected<std::unique_ptr<TensorProgram>>
TensorProgram::create(sym::Context &ctx, UOpRef tensor, const ProgramOptions &opts, Stage *failedAt) {
  auto at = [&](Stage s) {
    if (failedAt)
      *failedAt = s;
  };
  at(Stage::Schedule);
  auto impl = std::make_unique<Impl>();
  auto t0 = Clock::now();
  auto sp = scheduleTensor(ctx, tensor, opts);
  double scheduleMs = msSince(t0);
  if (!sp)
    return sp.takeError();
  std::unique_ptr<TensorProgram> p(new TensorProgram(std::move(impl)));
  Impl &I = *p->impl;
  p->scheduled = std::move(*sp);
  p->scheduleTime = scheduleMs;
  I.linear = p->scheduled.linear;
  I.varVals = p->scheduled.varVals;
  p->kernelCount = sched::countKernels(I.linear);
  p->copyCount = I.linear->src.size() - p->kernelCount;
  if (opts.progress)
    opts.progress("schedule", 1, 1);

  at(Stage::Runtime);
  const TargetDescription &target = opts.target;
  if (tgrt_device_open(target.runtimeDevice(), nullptr, &I.dev) != TGRT_OK)
    return rtError(llvm::Twine("opening the ") + target.runtimeDevice() + " device for " + target.name);

  // Every distinct kernel body, compiled and loaded once.
  auto t1 = Clock::now();
  std::vector<UOpRef> bodies = kernelBodies(I.linear);
  MLIRContext *mctx = ctx.getMLIRContext();
  KernelCompiler compiler(mctx);
  for (auto [n, body] : llvm::enumerate(bodies)) {
    at(Stage::Compile);
    llvm::Expected<CompiledKernel> k = compileBody(compiler, mctx, body, n, opts, I.varVals);
    if (!k)
      return k.takeError();
    at(Stage::Runtime);
    Compiled &c = I.kernels[body];
    tgrt_status loaded;
    c.sig = k->signature;
    if (target.isGPU()) {
      c.global = k->globalSizeFor;
      c.local = c.sig.localSize;
    } else {
      c.object = k->binary;
    }
    loaded = loadKernel(I.dev, static_cast<uint32_t>(k->format), k->binary, c.sig, c.sig.localSize, &c.prog);
    if (loaded != TGRT_OK)
      return rtError("loading kernel " + llvm::Twine(n));
    if (opts.progress)
      opts.progress("compile", n + 1, bodies.size());
  }
  p->compileTime = msSince(t1);

  tgraph::forEachNode(tensor, [&](UOpRef u) {
    if (auto pa = tgraph::paramAttr(u);
        pa && u->op == sym::Op::BUFFER && pa.getDevice() && pa.getAddrspace() == tg::AddrSpace::Global)
      I.tensorBufs.push_back(u);
  });
  llvm::sort(I.tensorBufs,
             [](UOpRef a, UOpRef b) { return tgraph::paramAttr(a).getSlot() < tgraph::paramAttr(b).getSlot(); });
  for (UOpRef b : I.tensorBufs) {
    auto dev = dyn_cast_or_null<StringAttr>(tgraph::paramAttr(b).getDevice());
    p->bufferInfos.push_back({tgraph::paramAttr(b).getSlot(), dtypeName(b), dev ? dev.getValue().str() : "",
                              numel(b), numel(b) * itemsize(b)});
  }
  for (UOpRef out : tensor->src) {
    UOpRef view = sym::substitute(ctx, out, p->scheduled.bufferMap);
    I.outputViews.push_back(view);
    llvm::SmallVector<int64_t> shape = boundShape(ctx, view);
    if (llvm::is_contained(shape, -1))
      return error("output " + llvm::Twine(p->outputInfos.size()) + " has a symbolic shape its bound variables "
                                                                    "do not give a value");
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    p->outputInfos.push_back({shape, dtypeName(view), itemsize(view), n * itemsize(view)});
  }
  // The schedule's own compile (hcq ops to a JIT-compiled host function)
  // and its one recording count as compile time.
  at(Stage::Runtime);
  auto t2 = Clock::now();
  if (auto err = I.lowerToHCQ(mctx))
    return std::move(err);
  p->compileTime += msSince(t2);
  return p;
}

llvm::Expected<CompiledProgram> TensorProgram::compileOnly(sym::Context &ctx, UOpRef tensor, const ProgramOptions &opts,
                                                           Stage *failedAt) {
  auto at = [&](Stage s) {
    if (failedAt)
      *failedAt = s;
  };
  at(Stage::Schedule);
  CompiledProgram out;
  auto t0 = Clock::now();
  auto sp = scheduleTensor(ctx, tensor, opts);
  out.scheduleMs = msSince(t0);
  if (!sp)
    return sp.takeError();
  out.launches = sched::countKernels(sp->linear);
  out.copies = sp->linear->src.size() - out.launches;
  if (opts.progress)
    opts.progress("schedule", 1, 1);
  auto t1 = Clock::now();
  std::vector<UOpRef> bodies = kernelBodies(sp->linear);
  KernelCompiler compiler(ctx.getMLIRContext());
  at(Stage::Compile);
  for (auto [n, body] : llvm::enumerate(bodies)) {
    llvm::Expected<CompiledKernel> k = compileBody(compiler, ctx.getMLIRContext(), body, n, opts, sp->varVals);
    if (!k)
      return k.takeError();
    ++out.kernels;
    out.format = k->format;
    out.binaryBytes += k->binary.size();
    if (opts.progress)
      opts.progress("compile", n + 1, bodies.size());
  }
  out.compileMs = msSince(t1);
  return out;
}

llvm::Error TensorProgram::setBuffer(size_t index, const void *data, size_t bytes) {
  if (index >= bufferInfos.size())
    return error("buffer " + llvm::Twine(index) + " of " + llvm::Twine(bufferInfos.size()));
  const BufferInfo &bi = bufferInfos[index];
  if ((int64_t)bytes != bi.bytes)
    return error("buffer " + llvm::Twine(index) + " (slot " + llvm::Twine(bi.slot) + ", " +
                 llvm::Twine(bi.elements) + " x " + bi.dtype + ") holds " + llvm::Twine(bi.bytes) +
                 " bytes, got " + llvm::Twine(bytes));
  auto buf = impl->bufferFor(impl->tensorBufs[index]);
  if (!buf)
    return buf.takeError();
  if (bytes && tgrt_buffer_copy_in(*buf, 0, data, bytes) != TGRT_OK)
    return rtError("filling buffer " + llvm::Twine(index));
  return llvm::Error::success();
}

llvm::Error TensorProgram::run() {
  auto t0 = Clock::now();
  if (auto err = impl->replay->launch())
    return err;
  runTime = msSince(t0);
  return llvm::Error::success();
}

void TensorProgram::printHCQ(llvm::raw_ostream &os) const {
  impl->hcqModule->print(os);
}

void TensorProgram::printHostFunction(llvm::raw_ostream &os) const { os << impl->host->llvmDialect(); }

llvm::Expected<AOTFiles> TensorProgram::emitAOT(llvm::StringRef name, llvm::StringRef source) const {
  Impl &I = *impl;
  AOTProgram p;
  p.source = source.str();
  p.schedule = *I.hcqModule->getOps<func::FuncOp>().begin();
  p.buffers = I.hcqInput.buffers;
  p.vars = I.hcqInput.vars;
  p.varValues = I.varValues;
  std::map<UOpRef, unsigned> ids = I.storageIds;
  p.storageBytes.resize(ids.size());
  auto storageId = [&](UOpRef base) {
    auto [it, fresh] = ids.try_emplace(base, ids.size());
    if (fresh)
      p.storageBytes.push_back(0);
    p.storageBytes[it->second] = std::max<int64_t>(1, numel(base) * itemsize(base));
    return it->second;
  };
  for (auto &[base, id] : I.storageIds)
    storageId(base);
  for (UOpRef body : I.programBodies) {
    const Compiled &k = I.kernels.find(body)->second;
    if (k.global)
      return error("an ahead-of-time program holds CPU kernels only: kernel " + k.sig.name +
                   " was compiled for a GPU target");
    p.kernels.push_back(k.object);
    p.entries.push_back(k.sig.name);
  }
  for (auto [i, b] : llvm::enumerate(I.tensorBufs))
    p.inputs.push_back({storageId(b), 0, bufferInfos[i].bytes, bufferInfos[i].dtype, {bufferInfos[i].elements},
                        bufferInfos[i].device});
  for (auto [i, view] : llvm::enumerate(I.outputViews)) {
    // A reshape keeps a dense range dense; anything else must already be one.
    UOpRef v = view;
    while (v->op == sym::Op::RESHAPE)
      v = v->src[0];
    auto st = I.storageOf(v);
    if (!st || numel(v) != numel(view))
      return error("output " + llvm::Twine(i) + " is not a dense range of one buffer (" +
                   (st ? sym::getOpName(view->op) : llvm::toString(st.takeError())) +
                   "): --emit=aot writes only such outputs");
    const OutputInfo &oi = outputInfos[i];
    p.outputs.push_back({storageId(st->base), st->offset, oi.bytes, oi.dtype,
                         std::vector<int64_t>(oi.shape.begin(), oi.shape.end()), "CPU"});
  }
  return emitAheadOfTime(p, name);
}

llvm::Expected<std::vector<char>> TensorProgram::readOutput(size_t index) {
  if (index >= outputInfos.size())
    return error("output " + llvm::Twine(index) + " of " + llvm::Twine(outputInfos.size()));
  UOpRef view = impl->outputViews[index];
  const OutputInfo &oi = outputInfos[index];
  std::vector<char> out(oi.bytes, 0);
  std::map<UOpRef, std::vector<char>> host;
  ShapeMemo shapes;
  int64_t count = oi.itemsize ? oi.bytes / oi.itemsize : 0;
  for (int64_t e = 0; e < count; ++e) {
    UOpRef base = nullptr;
    auto src = sourceIndex(view, unflatten(e, oi.shape), base, shapes);
    if (!src)
      return error("output " + llvm::Twine(index) + ": " + llvm::toString(src.takeError()));
    if (*src < 0)
      continue;
    auto &h = host[base];
    if (h.empty()) {
      int64_t bytes = numel(base) * itemsize(base);
      h.resize(std::max<int64_t>(1, bytes));
      auto buf = impl->bufferFor(base);
      if (!buf)
        return buf.takeError();
      if (tgrt_buffer_copy_out(*buf, 0, h.data(), bytes) != TGRT_OK)
        return rtError("reading output " + llvm::Twine(index));
    }
    if (*src + oi.itemsize > (int64_t)h.size())
      return error("output " + llvm::Twine(index) + ": a view past the end of its buffer");
    std::memcpy(&out[e * oi.itemsize], &h[*src], oi.itemsize);
  }
  return out;
}
