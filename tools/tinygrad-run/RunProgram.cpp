//===- RunProgram.cpp - run a tensor program record -----------------------===//
//
// A schedules.jsonl record: its tensor graph is scheduled (callify, kernel
// graph, create_schedule, resolve, copies, memory planning), every kernel
// compiled by the CPU pipeline, the LINEAR run in order through the runtime
// on the record's inputs and bound variables, and each realized tensor read
// back through its views and compared with the record's outputs.
//
// Inputs: a program's inputs were realized before it was built, so they are
// the tensor graph's device buffers with the lowest slots, in creation
// order; buffers the program creates itself (clone/assign targets) follow.
//
//===----------------------------------------------------------------------===//
#include "RunProgram.h"
#include "CaseValues.h"

#include "tinygrad/Codegen/CPUPipeline.h"
#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/InitAllDialects.h"
#include "tinygrad/Schedule/CreateSchedule.h"
#include "tinygrad/Schedule/KernelGraph.h"
#include "tinygrad/Schedule/SchedulePipeline.h"
#include "tinygrad/Schedule/TensorGraph.h"
#include "tinygrad/Symbolic/Bridge.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "tinygrad/Target/TinygradJSON.h"
#include "tinygrad-rt/runtime.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <map>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace tgcase;
namespace json = llvm::json;
using sym::UOpRef;

namespace {
using Op = mlir::tinygrad::sym::Op;
using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

struct Runner {
  const tgrun::ProgramOptions &opts;
  std::string error;
  bool failed(const llvm::Twine &msg) {
    if (error.empty())
      error = msg.str();
    return false;
  }
};

int64_t numel(UOpRef u) {
  int64_t n = 1;
  for (int64_t d : sched::tgraph::shapeOf(u))
    n *= d;
  return n;
}
llvm::StringRef dtypeName(UOpRef u) {
  auto dt = tg::getDType(sched::tgraph::elementType(u));
  return dt ? getName(*dt) : "void";
}
int64_t itemsize(UOpRef u) {
  auto dt = tg::getDType(sched::tgraph::elementType(u));
  return dt ? getInfo(*dt).itemsize : 1;
}

/// Row-major multi-index helpers for reading a realized tensor through its
/// movement ops on the host.
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
/// The element of buffer `base` that index `idx` of view `u` reads, or -1
/// for padding (which reads as zero).
std::optional<int64_t> sourceIndex(UOpRef u, llvm::SmallVector<int64_t> idx, UOpRef &base,
                                   std::string &err) {
  while (true) {
    if (u->op == Op::BUFFER) {
      base = u;
      return flatten(idx, sched::tgraph::shapeOf(u));
    }
    UOpRef s = u->src.empty() ? nullptr : u->src[0];
    llvm::SmallVector<int64_t> in = s ? sched::tgraph::shapeOf(s) : llvm::SmallVector<int64_t>{};
    switch (u->op) {
    case Op::RESHAPE:
      idx = unflatten(flatten(idx, sched::tgraph::shapeOf(u)), in);
      break;
    case Op::PERMUTE: {
      auto perm = cast<DenseI64ArrayAttr>(u->arg.attrs.get("perm")).asArrayRef();
      llvm::SmallVector<int64_t> si(in.size());
      for (size_t i = 0; i < perm.size(); ++i)
        si[perm[i]] = idx[i];
      idx = si;
      break;
    }
    case Op::EXPAND: {
      size_t added = idx.size() - in.size();
      llvm::SmallVector<int64_t> si(idx.begin() + added, idx.end());
      for (size_t i = 0; i < si.size(); ++i)
        if (in[i] == 1)
          si[i] = 0;
      idx = si;
      break;
    }
    case Op::SHRINK: {
      auto st = sched::tgraph::constInts(u->src[1]);
      if (!st) {
        err = "a symbolic SHRINK on an output";
        return std::nullopt;
      }
      for (size_t i = 0; i < idx.size(); ++i)
        idx[i] += (*st)[i];
      break;
    }
    case Op::PAD: {
      auto lo = sched::tgraph::constInts(u->src[1]);
      if (!lo) {
        err = "a symbolic PAD on an output";
        return std::nullopt;
      }
      for (size_t i = 0; i < idx.size(); ++i) {
        idx[i] -= (*lo)[i];
        if (idx[i] < 0 || idx[i] >= in[i])
          return -1;
      }
      break;
    }
    case Op::FLIP: {
      auto flags = cast<DenseBoolArrayAttr>(u->arg.attrs.get("flags")).asArrayRef();
      for (size_t i = 0; i < idx.size(); ++i)
        if (flags[i])
          idx[i] = in[i] - 1 - idx[i];
      break;
    }
    case Op::DETACH:
    case Op::CONTIGUOUS:
      break;
    default:
      err = "an output is " + sym::getOpName(u->op).str() + ", not a view of a buffer";
      return std::nullopt;
    }
    u = s;
  }
}
} // namespace

int tgrun::runProgram(const json::Value &parsed, llvm::StringRef text, const ProgramOptions &opts) {
  using Op = mlir::tinygrad::sym::Op;
  auto die = [&](const llvm::Twine &msg) {
    llvm::errs() << opts.casePath << ": error: " << msg << "\n";
    return 1;
  };
  const json::Object *rec = parsed.getAsObject();
  llvm::StringRef id = rec->getString("id").value_or("");
  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext mctx(registry);
  mctx.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> tensorMod = importTinygradJSONValue(
      parsed, &mctx, "tensor_graph", FileLineColLoc::get(&mctx, opts.casePath, 1, 1), text);
  if (!tensorMod)
    return 1;
  sym::Context ctx(&mctx);
  UOpRef tensor = sym::Importer(ctx).import(getTinygradRoot(*tensorMod));
  if (!tensor)
    return 1;

  // The kernel graph: ours (sched::getKernelGraph), or tinygrad's from
  // --kernel-graphs for comparison. A file is read before the clock starts:
  // schedule_ms is scheduling only.
  OwningOpRef<ModuleOp> kgMod;
  UOpRef recordKernelGraph = nullptr;
  std::string kgError;
  if (opts.kernelGraphs.empty()) {
    // ours
  } else if (auto buf = llvm::MemoryBuffer::getFile(opts.kernelGraphs); !buf) {
    kgError = ("cannot read " + opts.kernelGraphs).str();
  } else {
    llvm::SmallVector<llvm::StringRef> lines;
    (*buf)->getBuffer().split(lines, '\n', -1, false);
    std::string needle = ("\"id\":\"" + id + "\"").str();
    kgError = ("no kernel graph for program '" + id + "' in " + opts.kernelGraphs).str();
    for (llvm::StringRef line : lines) {
      if (!line.contains(needle))
        continue;
      auto v = json::parse(line);
      if (!v) {
        kgError = llvm::toString(v.takeError());
        break;
      }
      kgMod = importTinygradJSONValue(*v, &mctx, "kernel_graph");
      if (kgMod)
        recordKernelGraph = sym::Importer(ctx).import(getTinygradRoot(*kgMod));
      kgError = recordKernelGraph ? "" : ("cannot import the kernel graph of " + id).str();
      break;
    }
  }
  sched::KernelGraphFn kernelGraph = [&](UOpRef body) -> llvm::Expected<UOpRef> {
    auto fail = [](const llvm::Twine &m) {
      return llvm::createStringError(llvm::inconvertibleErrorCode(), m.str());
    };
    if (!opts.kernelGraphs.empty())
      return recordKernelGraph ? llvm::Expected<UOpRef>(recordKernelGraph) : fail(kgError);
    ctx.errors.clear();
    if (UOpRef kg = sched::getKernelGraph(ctx, body))
      return kg;
    std::string why;
    for (const std::string &e : ctx.errors)
      why += (why.empty() ? "" : "; ") + e;
    return fail("get_kernel_graph: " + (why.empty() ? std::string("failed") : why));
  };

  auto t0 = Clock::now();
  auto prog = sched::scheduleProgram(ctx, tensor, kernelGraph);
  double scheduleMs = msSince(t0);
  if (!prog)
    return die(llvm::toString(prog.takeError()));
  UOpRef linear = prog->linear;

  // Compile every kernel body once.
  auto t1 = Clock::now();
  tgrt_device *dev = nullptr;
  if (tgrt_device_open("CPU", nullptr, &dev) != TGRT_OK)
    return die(llvm::Twine("device: ") + tgrt_last_error());
  struct Compiled {
    KernelSignature sig;
    tgrt_program *prog;
  };
  llvm::DenseMap<UOpRef, Compiled> kernels;
  for (UOpRef si : linear->src) {
    UOpRef body = si->src[0];
    if (body->op != Op::SINK || kernels.count(body))
      continue;
    OpBuilder b(&mctx);
    OwningOpRef<ModuleOp> mod = ModuleOp::create(FileLineColLoc::get(&mctx, opts.casePath, 1, 1));
    b.setInsertionPointToEnd(mod->getBody());
    Value root = sym::Materializer(b, mod->getLoc()).materialize(body);
    FailureOr<CPUKernel> k = compileKernelForCPU(root);
    if (failed(k))
      return die("kernel " + llvm::Twine(kernels.size()) + " of the schedule does not compile");
    tgrt_program *p = nullptr;
    if (tgrt_program_load(dev, k->object.data(), k->object.size(), k->signature.name.c_str(), &p) != TGRT_OK)
      return die(llvm::Twine("loading a kernel: ") + tgrt_last_error());
    kernels[body] = {k->signature, p};
  }
  double compileMs = msSince(t1);

  // Storage: one runtime buffer per BUFFER, views for memory-planned ones.
  std::map<UOpRef, tgrt_buffer *> storage;
  std::vector<tgrt_buffer *> owned;
  auto bufferFor = [&](UOpRef a) -> tgrt_buffer * {
    UOpRef base = a;
    int64_t offset = 0;
    if (a->op == Op::BITCAST)
      base = a->src[0];
    if (base->op == Op::SHRINK) {
      auto st = sched::tgraph::constInts(base->src[1]);
      offset = st ? (*st)[0] * itemsize(base) : 0;
      base = base->src[0];
    }
    if (base->op != Op::BUFFER)
      return nullptr;
    tgrt_buffer *&buf = storage[base];
    if (!buf) {
      if (tgrt_buffer_alloc(dev, std::max<int64_t>(1, numel(base) * itemsize(base)), &buf) != TGRT_OK)
        return nullptr;
      owned.push_back(buf);
    }
    if (base == a)
      return buf;
    tgrt_buffer *view = nullptr;
    if (tgrt_buffer_view(buf, offset, std::max<int64_t>(1, numel(a) * itemsize(a)), &view) != TGRT_OK)
      return nullptr;
    owned.push_back(view);
    return view;
  };

  // Inputs: the lowest-slot device buffers of the tensor graph.
  std::vector<UOpRef> tensorBufs;
  {
    sched::tgraph::forEachNode(tensor, [&](UOpRef u) {
      if (auto p = sched::tgraph::paramAttr(u); p && u->op == Op::BUFFER && p.getDevice() &&
                                                 p.getAddrspace() == tg::AddrSpace::Global)
        tensorBufs.push_back(u);
    });
    llvm::sort(tensorBufs, [](UOpRef a, UOpRef b) {
      return sched::tgraph::paramAttr(a).getSlot() < sched::tgraph::paramAttr(b).getSlot();
    });
  }
  const json::Array *inputs = rec->getArray("inputs");
  if (!inputs)
    return die("no `inputs` in the record");
  if (inputs->size() > tensorBufs.size())
    return die("the record has " + llvm::Twine(inputs->size()) + " inputs but the tensor graph " +
               llvm::Twine(tensorBufs.size()) + " buffers");
  for (auto [i, in] : llvm::enumerate(*inputs)) {
    const json::Object *io = in.getAsObject();
    UOpRef b = tensorBufs[i];
    llvm::StringRef name = io ? io->getString("name").value_or("?") : "?";
    const json::Array *vals = io ? io->getArray("values") : nullptr;
    llvm::StringRef dt = io ? io->getString("dtype").value_or("") : "";
    if (!vals)
      return die("input '" + name + "' has no values");
    if (dt != dtypeName(b))
      return die("input '" + name + "' is " + dt + " but buffer slot " +
                 llvm::Twine(sched::tgraph::paramAttr(b).getSlot()) + " holds " + dtypeName(b));
    if ((int64_t)vals->size() != numel(b))
      return die("input '" + name + "' has " + llvm::Twine(vals->size()) + " values but buffer slot " +
                 llvm::Twine(sched::tgraph::paramAttr(b).getSlot()) + " holds " + llvm::Twine(numel(b)));
    auto desc = describe(dt);
    if (!desc)
      return die("input '" + name + "': unsupported dtype " + dt);
    std::vector<char> bytes(vals->size() * desc->bytes);
    for (size_t j = 0; j < vals->size(); ++j)
      if (!encode((*vals)[j], dt, *desc, &bytes[j * desc->bytes]))
        return die("input '" + name + "': bad value at " + llvm::Twine(j));
    tgrt_buffer *buf = bufferFor(b);
    if (!buf || tgrt_buffer_copy_in(buf, 0, bytes.data(), bytes.size()) != TGRT_OK)
      return die(llvm::Twine("input '") + name + "': " + tgrt_last_error());
  }
  // Buffers on tinygrad's PYTHON device that the record has no values for
  // are tinygrad's RNG state, created from Python lists by the first random
  // op after `Tensor.manual_seed(S)` (the corpus README: random programs seed
  // with 1337 first): in creation (slot) order the key
  // [sha256(int32 0 big-endian) mod 2^32, S] and the counter [0, 0]
  // (tensor.py _next_counter). Any other such buffer is an error.
  unsigned rngState = 0;
  for (UOpRef b : llvm::ArrayRef<UOpRef>(tensorBufs).drop_front(inputs->size())) {
    auto dev = dyn_cast_or_null<StringAttr>(sched::tgraph::paramAttr(b).getDevice());
    if (!dev || dev.getValue() != "PYTHON")
      continue;
    if (dtypeName(b) != "uint32" || numel(b) != 2 || rngState >= 2)
      return die("the record has no values for PYTHON-device buffer slot " +
                 llvm::Twine(sched::tgraph::paramAttr(b).getSlot()) + " (" + dtypeName(b) + ")");
    constexpr uint32_t kFirstDeviceKey = 347607321u; // sha256(b"\0\0\0\0") mod 2^32
    uint32_t words[2] = {rngState == 0 ? kFirstDeviceKey : 0u, rngState == 0 ? opts.rngSeed : 0u};
    tgrt_buffer *buf = bufferFor(b);
    if (!buf || tgrt_buffer_copy_in(buf, 0, words, sizeof(words)) != TGRT_OK)
      return die(llvm::Twine("RNG state: ") + tgrt_last_error());
    ++rngState;
  }

  // Run the LINEAR in order.
  auto t2 = Clock::now();
  for (auto [n, si] : llvm::enumerate(linear->src)) {
    UOpRef body = si->src[0];
    llvm::ArrayRef<UOpRef> args = si->src.drop_front();
    if (body->op == Op::COPY) {
      if (args.size() != 2)
        return die("a COPY call takes (dst, src)");
      tgrt_buffer *dst = bufferFor(args[0]), *src = bufferFor(args[1]);
      int64_t bytes = numel(args[1]) * itemsize(args[1]);
      std::vector<char> tmp(std::max<int64_t>(1, bytes));
      if (!dst || !src || tgrt_buffer_copy_out(src, 0, tmp.data(), bytes) != TGRT_OK ||
          tgrt_buffer_copy_in(dst, 0, tmp.data(), bytes) != TGRT_OK)
        return die(llvm::Twine("copy ") + llvm::Twine(n) + ": " + tgrt_last_error());
      continue;
    }
    if (body->op != Op::SINK)
      return die("call " + llvm::Twine(n) + " has a " + sym::getOpName(body->op) + " body");
    Compiled &k = kernels[body];
    std::vector<tgrt_arg> launch;
    for (size_t gi = 0; gi < k.sig.globals.size(); ++gi) {
      int64_t slot = k.sig.globals[gi];
      if (slot < 0 || slot >= (int64_t)args.size())
        return die("kernel " + llvm::Twine(n) + " reads PARAM " + llvm::Twine(slot) + " of " +
                   llvm::Twine(args.size()) + " call arguments");
      tgrt_buffer *buf = bufferFor(args[slot]);
      if (!buf)
        return die("kernel " + llvm::Twine(n) + ": argument " + llvm::Twine(slot) + " is not a buffer");
      launch.push_back(tgrt_arg_buffer(buf));
    }
    for (const std::string &v : k.sig.vars) {
      if ((int64_t)launch.size() == k.sig.coreIdArg) {
        launch.push_back(tgrt_arg_int(0));
        continue;
      }
      auto it = prog->varVals.find(v);
      if (it == prog->varVals.end())
        return die("kernel " + llvm::Twine(n) + " uses variable '" + v + "', which nothing binds");
      launch.push_back(tgrt_arg_int(it->second));
    }
    if (tgrt_program_launch(k.prog, launch.data(), launch.size(), k.sig.coreIdArg, k.sig.threads) != TGRT_OK)
      return die(llvm::Twine("launch: ") + tgrt_last_error());
  }
  double runMs = msSince(t2);

  // Compare each realized tensor with the record's output.
  const json::Array *outputs = rec->getArray("outputs");
  if (!outputs || outputs->size() != tensor->src.size())
    return die("the record's outputs do not match the tensor graph's " + llvm::Twine(tensor->src.size()) +
               " sink sources");
  size_t checked = 0, bad = 0;
  json::Array mismatches, written;
  for (auto [oi, outV] : llvm::enumerate(*outputs)) {
    const json::Object *o = outV.getAsObject();
    UOpRef view = sym::substitute(ctx, tensor->src[oi], prog->bufferMap);
    llvm::SmallVector<int64_t> shape = sched::tgraph::shapeOf(view);
    const json::Array *wantShape = o ? o->getArray("shape") : nullptr;
    bool shapeOk = wantShape && wantShape->size() == shape.size();
    for (size_t i = 0; shapeOk && i < shape.size(); ++i)
      shapeOk = (*wantShape)[i].getAsInteger() == shape[i];
    if (!shapeOk)
      return die("output " + llvm::Twine(oi) + " has shape " + tg::formatShape(shape) +
                 ", the record's differs");
    const json::Array *want = o->getArray("values");
    if (!want && opts.writeOutputs.empty())
      continue; // symbolic shape: shape only
    llvm::StringRef dt = dtypeName(view);
    auto desc = describe(dt);
    if (!desc)
      return die("output " + llvm::Twine(oi) + ": unsupported dtype " + dt);
    int64_t count = numel(view);
    json::Array gotValues;
    if (want && (int64_t)want->size() != count)
      return die("output " + llvm::Twine(oi) + ": the record has " + llvm::Twine(want->size()) +
                 " values for " + llvm::Twine(count) + " elements");
    std::map<UOpRef, std::vector<char>> host;
    std::vector<char> zero(desc->bytes, 0), wbytes(desc->bytes);
    for (int64_t e = 0; e < count; ++e) {
      UOpRef base = nullptr;
      std::string err;
      auto src = sourceIndex(view, unflatten(e, shape), base, err);
      if (!src)
        return die("output " + llvm::Twine(oi) + ": " + err);
      const char *gp = zero.data();
      if (*src >= 0) {
        auto &h = host[base];
        if (h.empty()) {
          h.resize(std::max<int64_t>(1, numel(base) * itemsize(base)));
          tgrt_buffer *buf = bufferFor(base);
          if (!buf || tgrt_buffer_copy_out(buf, 0, h.data(), numel(base) * itemsize(base)) != TGRT_OK)
            return die(llvm::Twine("reading an output: ") + tgrt_last_error());
        }
        gp = &h[*src * desc->bytes];
      }
      Elem g = decode(gp, dt, *desc);
      if (!opts.writeOutputs.empty())
        gotValues.push_back(toJSON(g, *desc));
      if (!want)
        continue;
      if (!encode((*want)[e], dt, *desc, wbytes.data()))
        return die("output " + llvm::Twine(oi) + ": bad expected value at " + llvm::Twine(e));
      Elem w = decode(wbytes.data(), dt, *desc);
      bool ok = g.isFloat ? floatsMatch(g.f, w.f, dt) : g.i == w.i;
      if (e < (int64_t)opts.showValues)
        llvm::outs() << "  out" << oi << "[" << e << "]  ours " << show(g, *desc) << "  tinygrad "
                     << show(w, *desc) << (ok ? "" : "  <- differs") << "\n";
      ++checked;
      if (!ok) {
        if (bad < 8)
          mismatches.push_back(json::Object{{"output", (int64_t)oi}, {"index", e},
                                            {"got", show(g, *desc)}, {"want", show(w, *desc)}});
        ++bad;
      }
    }
    if (!opts.writeOutputs.empty()) {
      json::Array shapeJ;
      for (int64_t d : shape)
        shapeJ.push_back(d);
      written.push_back(json::Object{{"shape", std::move(shapeJ)}, {"dtype", dt.str()}, {"values", std::move(gotValues)}});
    }
  }
  if (!opts.writeOutputs.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream os(opts.writeOutputs, ec);
    if (ec)
      return die("cannot write " + opts.writeOutputs + ": " + ec.message());
    os << json::Value(std::move(written)) << "\n";
  }
  for (tgrt_buffer *b : llvm::reverse(owned))
    tgrt_buffer_free(b);
  for (auto &[body, k] : kernels)
    tgrt_program_free(k.prog);
  tgrt_device_close(dev);

  unsigned numKernels = sched::countKernels(linear);
  unsigned numCopies = linear->src.size() - numKernels;
  bool match = bad == 0;
  llvm::outs() << (match ? "MATCH" : "MISMATCH") << ": " << checked - bad << "/" << checked
               << " values, " << numKernels << " kernels, " << numCopies << " copies, schedule "
               << llvm::format("%.2f", scheduleMs) << " ms, compile " << llvm::format("%.2f", compileMs)
               << " ms, run " << llvm::format("%.3f", runMs) << " ms, peak "
               << prog->plan.plannedBytes << " B planned vs " << prog->plan.unplannedBytes << " B\n";
  for (const json::Value &m : mismatches)
    llvm::outs() << "  mismatch " << m << "\n";
  if (opts.json) {
    auto want = rec->getInteger("num_kernels");
    llvm::outs() << json::Value(json::Object{{"match", match},
                                             {"values", (int64_t)checked},
                                             {"mismatched", (int64_t)bad},
                                             {"kernels", (int64_t)numKernels},
                                             {"copies", (int64_t)numCopies},
                                             {"tinygrad_kernels", want ? json::Value(*want) : json::Value(nullptr)},
                                             {"schedule_ms", scheduleMs},
                                             {"compile_ms", compileMs},
                                             {"run_ms", runMs},
                                             {"peak_bytes_planned", prog->plan.plannedBytes},
                                             {"peak_bytes_unplanned", prog->plan.unplannedBytes},
                                             {"mismatches", std::move(mismatches)}})
                 << "\n";
  }
  return match ? 0 : 2;
}
