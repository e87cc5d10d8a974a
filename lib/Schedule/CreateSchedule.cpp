//===- CreateSchedule.cpp - kernel graph -> LINEAR of calls ---------------===//
#include "tinygrad/Schedule/CreateSchedule.h"

#include "tinygrad/Schedule/TensorGraph.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include <deque>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sched::tgraph;

namespace {
using Op = sym::Op;

llvm::Error err(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

bool isKernelSink(UOpRef u) {
  return u->op == Op::SINK && u->arg.attrs &&
         isa_and_nonnull<tg::KernelInfoAttr>(u->arg.attrs.get("arg"));
}

/// toposort(gate_kernel_sink): post-order, sources in order; kernel bodies
/// and nested LINEARs are neither entered nor listed.
std::vector<UOpRef> scheduleToposort(UOpRef root) {
  std::vector<UOpRef> out;
  llvm::DenseSet<UOpRef> done;
  llvm::SmallVector<std::pair<UOpRef, bool>, 64> stack{{root, false}};
  while (!stack.empty()) {
    auto [u, visited] = stack.pop_back_val();
    if (done.count(u))
      continue;
    if (visited) {
      done.insert(u);
      out.push_back(u);
      continue;
    }
    if (u->op == Op::LINEAR || isKernelSink(u))
      continue;
    stack.push_back({u, true});
    for (UOpRef s : llvm::reverse(u->src))
      stack.push_back({s, false});
  }
  return out;
}

/// _unwrap_src: through views and casts to the data source.
UOpRef unwrapSrc(UOpRef s) {
  while (!s->src.empty() && s->op != Op::AFTER && s->op != Op::BUFFER &&
         s->op != Op::PARAM && s->op != Op::MSELECT && s->op != Op::MSTACK)
    s = s->src[0];
  return s;
}

/// `u.buf_uop` for single-device graphs.
UOpRef bufUOp(UOpRef u) {
  if (u->op == Op::BUFFER || u->op == Op::PARAM)
    return u;
  if (base(u)->op == Op::AFTER)
    return base(bufUOp(base(u)->src[0]));
  UOpRef s = u;
  while (!s->src.empty() && s->op != Op::BUFFER && s->op != Op::PARAM &&
         s->op != Op::STAGE && s->op != Op::MSTACK)
    s = s->src[0];
  return s;
}

llvm::Expected<std::vector<UOpRef>> states(UOpRef s) {
  s = unwrapSrc(s);
  if (s->op == Op::MSELECT || s->op == Op::MSTACK)
    return err("create_schedule: multi-device buffer states (" + sym::getOpName(s->op) +
               ") are not supported");
  if (s->op != Op::AFTER && s->op != Op::BUFFER && s->op != Op::PARAM)
    return err("create_schedule: input to kernel must resolve to a buffer state, not " +
               sym::getOpName(s->op));
  return std::vector<UOpRef>{s};
}

struct SplitAfter {
  llvm::SmallVector<UOpRef, 2> kernels, deps;
};
llvm::Expected<SplitAfter> splitAfter(UOpRef after) {
  SplitAfter r;
  for (UOpRef s : after->src.drop_front()) {
    if (s->op == Op::CALL || s->op == Op::END)
      r.kernels.push_back(s);
    else if (s->op == Op::AFTER)
      r.deps.push_back(s);
    else if (s->op != Op::STORE)
      return err("create_schedule: AFTER source should be CALL, END, STORE, or AFTER, not " +
                 sym::getOpName(s->op));
  }
  return r;
}

std::string describeBuffer(UOpRef b) {
  if (auto p = paramAttr(b))
    return (sym::getOpName(b->op) + "(slot " + llvm::Twine(p.getSlot()) + ")").str();
  return sym::getOpName(b->op).str();
}
} // namespace

llvm::Expected<UOpRef> sched::createSchedule(Context &ctx, UOpRef schedSink) {
  llvm::DenseMap<UOpRef, llvm::SmallVector<UOpRef, 2>> children;
  llvm::MapVector<UOpRef, int> inDegree;
  struct Write {
    UOpRef after, prev;
    llvm::SmallVector<UOpRef, 2> kernels;
  };
  llvm::DenseMap<UOpRef, std::vector<Write>> writes;
  struct Read {
    UOpRef after, kernel, state;
  };
  std::vector<Read> reads;
  llvm::DenseMap<UOpRef, UOpRef> writtenBuf; // kernel -> buffer it writes (for diagnostics)

  for (UOpRef u : scheduleToposort(schedSink)) {
    if (u->op != Op::AFTER)
      continue;
    auto split = splitAfter(u);
    if (!split)
      return split.takeError();
    UOpRef prev = unwrapSrc(u->src[0]);
    llvm::SmallDenseSet<UOpRef, 4> prevKernels;
    if (prev->op == Op::AFTER) {
      auto ps = splitAfter(prev);
      if (!ps)
        return ps.takeError();
      prevKernels.insert(ps->kernels.begin(), ps->kernels.end());
    }
    Write w{u, prev, {}};
    for (UOpRef k : split->kernels)
      if (!prevKernels.count(k))
        w.kernels.push_back(k);
    writes[bufUOp(u)].push_back(w);
    for (UOpRef k : split->kernels) {
      inDegree.insert({k, 0});
      writtenBuf.insert({k, bufUOp(u)});
      if (k->op == Op::END && k->src[0]->op != Op::CALL)
        return err("create_schedule: END src[0] should be a CALL, not " +
                   sym::getOpName(k->src[0]->op));
      llvm::ArrayRef<UOpRef> kdeps =
          (k->op == Op::END ? k->src[0] : k)->src.drop_front();
      std::vector<UOpRef> readStates, depStates;
      for (UOpRef s : kdeps) {
        auto st = states(s);
        if (!st)
          return st.takeError();
        readStates.insert(readStates.end(), st->begin(), st->end());
      }
      for (UOpRef st : readStates)
        reads.push_back({u, k, st});
      depStates = readStates;
      for (UOpRef s : split->deps) {
        auto st = states(s);
        if (!st)
          return st.takeError();
        depStates.insert(depStates.end(), st->begin(), st->end());
      }
      // RAW: after the kernels that produced the states it reads or joins
      for (UOpRef st : depStates) {
        if (st->op != Op::AFTER)
          continue;
        auto ss = splitAfter(st);
        if (!ss)
          return ss.takeError();
        for (UOpRef t : ss->kernels) {
          children[t].push_back(k);
          ++inDegree[k];
        }
      }
    }
  }
  // WAR: a reader of state S runs before the write that supersedes S
  for (const Read &r : reads) {
    auto it = writes.find(bufUOp(r.state));
    if (it == writes.end())
      continue;
    for (const Write &w : it->second) {
      if (w.after == r.after || w.prev != r.state)
        continue;
      for (UOpRef t : w.kernels) {
        if (t == r.kernel || ctx.inBackwardSlice(t, r.kernel))
          continue;
        children[r.kernel].push_back(t);
        ++inDegree[t];
      }
    }
  }

  std::deque<UOpRef> queue;
  for (auto &[k, d] : inDegree)
    if (d == 0)
      queue.push_back(k);
  llvm::SmallVector<UOpRef, 16> linear;
  while (!queue.empty()) {
    UOpRef rk = queue.front();
    queue.pop_front();
    if (rk->op == Op::LINEAR) {
      linear.append(rk->src.begin(), rk->src.end());
    } else {
      UOpRef k = rk->op == Op::END ? rk->src[0] : rk;
      if (k->op != Op::CALL)
        return err("create_schedule: unexpected " + sym::getOpName(k->op) + " in the queue");
      llvm::SmallVector<UOpRef, 8> bufs;
      for (UOpRef s : k->src.drop_front())
        if (!isBoundVar(s))
          bufs.push_back(bufUOp(unwrapSrc(s)));
      linear.push_back(call(ctx, k->src[0], bufs));
    }
    for (UOpRef x : children.lookup(rk))
      if (--inDegree[x] == 0)
        queue.push_back(x);
  }
  std::vector<std::string> stuck;
  for (auto &[k, d] : inDegree)
    if (d && !llvm::is_contained(stuck, describeBuffer(writtenBuf.lookup(k))))
      stuck.push_back(describeBuffer(writtenBuf.lookup(k)));
  if (!stuck.empty()) {
    std::string names;
    for (const std::string &s : stuck)
      names += (names.empty() ? "" : ", ") + s;
    return err("create_schedule: cycle detected in assign graph: the kernels writing " +
               names + " wait on each other");
  }
  return ctx.get(Op::LINEAR, ctx.typeFor(DType::Void), linear);
}

llvm::Expected<UOpRef> sched::resolveLinearCall(Context &ctx, UOpRef linearCall,
                                                int64_t &nextSlot) {
  if (linearCall->op != Op::CALL || linearCall->src.empty() ||
      linearCall->src[0]->op != Op::LINEAR)
    return err("resolve_linear_call: expected CALL(LINEAR, *args)");
  llvm::ArrayRef<UOpRef> args = linearCall->src.drop_front();
  llvm::DenseMap<UOpRef, UOpRef> fresh, memo;
  std::string error;
  // pm_post_sched_cache over everything but the kernel bodies
  std::function<UOpRef(UOpRef)> go = [&](UOpRef u) -> UOpRef {
    if (auto it = memo.find(u); it != memo.end())
      return it->second;
    UOpRef r = u;
    if (u->op == Op::PARAM) {
      int64_t slot = paramAttr(u).getSlot();
      if (slot >= 0) {
        if (slot >= (int64_t)args.size()) {
          error = "resolve_linear_call: PARAM slot " + std::to_string(slot) + " but the call has " +
                  std::to_string(args.size()) + " arguments";
          return u;
        }
        r = args[slot];
      }
    } else if (u->op == Op::BUFFER && u->src.size() == 1 && paramAttr(u) &&
               paramAttr(u).getAddrspace() == tg::AddrSpace::Global) {
      UOpRef &b = fresh[u];
      if (!b) {
        int64_t n = 1;
        for (int64_t d : shapeOf(u))
          n *= d;
        b = newBuffer(ctx, paramAttr(u).getDevice(), n, elementType(u), nextSlot++);
      }
      r = b;
    } else if (!u->src.empty()) {
      llvm::SmallVector<UOpRef, 8> src;
      bool opaque = u->op == Op::CALL && (u->src[0]->op == Op::SINK || u->src[0]->op == Op::COPY ||
                                          u->src[0]->op == Op::PROGRAM);
      for (auto [i, s] : llvm::enumerate(u->src))
        src.push_back(opaque && i == 0 ? s : go(s));
      r = ctx.replaceSrc(u, src);
    }
    memo[u] = r;
    return r;
  };
  UOpRef linear = go(linearCall->src[0]);
  if (!error.empty())
    return err(error);
  // bound variables: the kernels' positional variable PARAMs p<i> get the
  // variable back (its name and slot -1), as apply_binds substitutes
  llvm::StringMap<UOpRef> binds;
  for (auto [i, a] : llvm::enumerate(args))
    if (isBoundVar(a)) {
      UOpRef v = a->src[0];
      binds["p" + std::to_string(i)] = ctx.get(Op::PARAM, v->type, v->src, v->arg);
    }
  if (binds.empty())
    return linear;
  llvm::SmallVector<UOpRef, 16> items;
  for (UOpRef si : linear->src) {
    llvm::DenseMap<UOpRef, UOpRef> subs;
    forEachNode(si, [&](UOpRef u) {
      if (u->op == Op::PARAM)
        if (auto p = paramAttr(u); p && p.getAddrspace() == tg::AddrSpace::ALU && p.getName())
          if (auto it = binds.find(p.getName().getValue()); it != binds.end())
            subs[u] = it->second;
    });
    items.push_back(subs.empty() ? si : sym::substitute(ctx, si, subs));
  }
  return ctx.get(Op::LINEAR, linear->type, items);
}

namespace {
/// `PARAM.index(CONST 0 | RANGE r)` of a copy kernel: the PARAM, or null.
UOpRef copyOperand(UOpRef idx, UOpRef range) {
  if (idx->op != Op::INDEX || idx->src.size() != 2 || idx->src[0]->op != Op::PARAM)
    return nullptr;
  UOpRef i = idx->src[1];
  if (range ? i != range : !(i->op == Op::CONST && i->intVal() && *i->intVal() == 0))
    return nullptr;
  return idx->src[0];
}
} // namespace

llvm::Expected<UOpRef> sched::copyFromStore(Context &ctx, UOpRef linear) {
  llvm::SmallVector<UOpRef, 16> items;
  Props props;
  for (UOpRef si : linear->src) {
    UOpRef body = si->src.empty() ? nullptr : si->src[0];
    if (si->op != Op::CALL || !body || body->op != Op::SINK) {
      items.push_back(si);
      continue;
    }
    // dst.index(0).store(src.index(0)).sink(), or the same over one RANGE + END
    UOpRef dst = nullptr, src = nullptr;
    if (body->src.size() == 1) {
      UOpRef st = body->src[0], range = nullptr;
      if (st->op == Op::END && st->src.size() == 2 && st->src[1]->op == Op::RANGE) {
        range = st->src[1];
        st = st->src[0];
      }
      if (st->op == Op::STORE && st->src.size() == 2) {
        dst = copyOperand(st->src[0], range);
        src = copyOperand(st->src[1], range);
      }
    }
    if (dst && src && props.device(dst) != props.device(src)) {
      auto dev = props.device(dst);
      MLIRContext *m = ctx.getMLIRContext();
      auto attrs = DictionaryAttr::get(m, {NamedAttribute(StringAttr::get(m, "device"), dev)});
      UOpRef cp = ctx.get(Op::COPY, src->type, {src}, sym::Arg{Scalar(), attrs});
      llvm::SmallVector<UOpRef, 4> s{cp};
      s.append(si->src.begin() + 1, si->src.end());
      items.push_back(ctx.replaceSrc(si, s));
      continue;
    }
    // not a copy: every buffer of the kernel must be on one device
    llvm::SetVector<Attribute> devices;
    forEachNode(body, [&](UOpRef u) {
      if (u->op == Op::PARAM)
        if (auto d = props.device(u))
          devices.insert(d);
    });
    if (devices.size() >= 2)
      return err("pm_copy_from_store: all buffers of a kernel must be on the same device");
    items.push_back(si);
  }
  return ctx.get(Op::LINEAR, linear->type, items);
}

llvm::Expected<llvm::StringMap<int64_t>> sched::boundVarVals(UOpRef call, UOpRef linear) {
  llvm::StringSet<> used;
  for (UOpRef si : linear->src)
    forEachNode(si->src[0], [&](UOpRef u) {
      if (auto p = paramAttr(u); p && p.getName() &&
          (isVariable(u) || (u->op == Op::PARAM && p.getAddrspace() == tg::AddrSpace::ALU)))
        used.insert(p.getName().getValue());
    });
  llvm::StringMap<int64_t> vals;
  for (UOpRef b : call->src.drop_front()) {
    if (!isBoundVar(b))
      continue;
    llvm::StringRef name = paramAttr(b->src[0]).getName().getValue();
    if (!used.count(name))
      continue;
    int64_t v = int64_t(*b->src[1]->src[1]->intVal());
    auto [it, inserted] = vals.try_emplace(name, v);
    if (!inserted && it->second != v)
      return err("bind mismatch on " + name + ", " + llvm::Twine(it->second) + " != " + llvm::Twine(v));
  }
  return vals;
}

unsigned sched::countKernels(UOpRef linear) {
  unsigned n = 0;
  for (UOpRef si : linear->src)
    if (si->op == Op::CALL && !si->src.empty() && si->src[0]->op == Op::SINK)
      ++n;
  return n;
}
