//===- MemoryPlan.cpp - intermediates share storage -----------------------===//
//
// The events (open at first use, close after last use, a copy buffer held
// as long again) and lanes are tinygrad's. tinygrad places buffers with a
// TLSF allocator; this uses first fit over the free 256-byte blocks, which
// gives the same guarantee (live buffers never overlap, dead ones are
// reused) with possibly different offsets.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Schedule/MemoryPlan.h"

#include "tinygrad/Dialect/TG/IR/TypeRules.h"
#include "tinygrad/Schedule/TensorGraph.h"
#include "tinygrad/Symbolic/Rewrite.h"
#include "llvm/ADT/MapVector.h"
#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::tinygrad;
using namespace mlir::tinygrad::sched;
using namespace mlir::tinygrad::sched::tgraph;

namespace {
using Op = sym::Op;
constexpr int64_t kBlock = 256;

int64_t roundUp(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

int64_t nbytesOf(UOpRef b) {
  int64_t n = 1;
  for (int64_t d : shapeOf(b))
    n *= d;
  auto dt = tg::getDType(elementType(b));
  return n * (dt ? getInfo(*dt).itemsize : 1);
}

/// First-fit placement in one arena: free intervals by offset.
class Arena {
public:
  int64_t alloc(int64_t size) {
    for (auto it = free.begin(); it != free.end(); ++it) {
      auto [off, len] = *it;
      if (len < size)
        continue;
      free.erase(it);
      if (len > size)
        free[off + size] = len - size;
      return off;
    }
    int64_t off = top;
    // grow: merge with a free block that ends at the top
    if (!free.empty()) {
      auto last = std::prev(free.end());
      if (last->first + last->second == top) {
        off = last->first;
        free.erase(last);
      }
    }
    top = off + size;
    return off;
  }
  void release(int64_t off, int64_t size) {
    auto [it, ok] = free.emplace(off, size);
    (void)ok;
    if (auto next = std::next(it); next != free.end() && off + size == next->first) {
      it->second += next->second;
      free.erase(next);
    }
    if (it != free.begin()) {
      auto prev = std::prev(it);
      if (prev->first + prev->second == it->first) {
        prev->second += it->second;
        free.erase(it);
      }
    }
  }
  int64_t peak = 0;

private:
  std::map<int64_t, int64_t> free;
  int64_t top = 0;
};
} // namespace

MemoryPlan sched::memoryPlan(Context &ctx, UOpRef linear,
                             const llvm::DenseSet<UOpRef> &held, int64_t &nextSlot) {
  MemoryPlan plan;
  plan.linear = linear;
  Props props;
  llvm::MapVector<UOpRef, std::pair<int, int>> life; // first, last appearance
  llvm::DenseSet<UOpRef> copyBufs;
  for (auto [i, si] : llvm::enumerate(linear->src)) {
    for (UOpRef s : si->src.drop_front()) {
      if (s->op != Op::BUFFER || held.count(s))
        continue;
      llvm::StringRef dev = props.deviceName(s);
      if (dev.empty() || dev.starts_with("DISK") || dev.starts_with("TINYFS") ||
          dev.starts_with("CL") || dev.starts_with("WEBGPU"))
        continue;
      auto [it, fresh] = life.insert({s, {int(i), int(i)}});
      it->second.second = i;
      if (!si->src.empty() && si->src[0]->op == Op::COPY)
        copyBufs.insert(s);
    }
  }
  if (life.empty())
    return plan;
  struct Event {
    int at;
    bool open;
    unsigned order;
    UOpRef b;
  };
  std::vector<Event> events;
  unsigned order = 0;
  for (auto &[b, fl] : life)
    events.push_back({fl.first, true, order++, b});
  for (auto &[b, fl] : life) {
    int hold = copyBufs.count(b) ? fl.second - fl.first + 1 : 0;
    events.push_back({fl.second + 1 + hold, false, order++, b});
  }
  // tinygrad sorts by (index, is_open): closes before opens at one index
  std::stable_sort(events.begin(), events.end(), [](const Event &a, const Event &b) {
    return a.at != b.at ? a.at < b.at : (!a.open && b.open);
  });
  using Lane = std::pair<std::string, int>;
  std::map<Lane, Arena> arenas;
  llvm::DenseMap<UOpRef, int64_t> offsets;
  auto lane = [&](UOpRef b) { return Lane(props.deviceName(b).str(), copyBufs.count(b) ? 1 : 0); };
  for (const Event &e : events) {
    Arena &a = arenas[lane(e.b)];
    int64_t size = roundUp(nbytesOf(e.b), kBlock);
    if (e.open)
      offsets[e.b] = a.alloc(size);
    else
      a.release(offsets[e.b], size);
    a.peak = std::max(a.peak, offsets[e.b] + nbytesOf(e.b));
  }
  std::map<Lane, UOpRef> arenaBufs;
  for (auto &[l, a] : arenas) {
    int64_t size = roundUp(a.peak, kBlock);
    plan.plannedBytes += size;
    arenaBufs[l] = newBuffer(ctx, StringAttr::get(ctx.getMLIRContext(), l.first), size,
                             tg::getTypeForDType(ctx.getMLIRContext(), DType::Int8), nextSlot++);
  }
  llvm::DenseMap<UOpRef, UOpRef> replace;
  for (auto &[b, fl] : life) {
    plan.unplannedBytes += roundUp(nbytesOf(b), kBlock);
    int64_t off = offsets[b];
    UOpRef view = shrink(ctx, arenaBufs[lane(b)], {off}, {off + nbytesOf(b)});
    replace[b] = bitcast(ctx, view, elementType(b));
  }
  plan.plannedBuffers = life.size();
  plan.arenas = arenas.size();
  // only the call arguments change: kernel bodies hold PARAMs, not buffers
  llvm::SmallVector<UOpRef, 16> items;
  for (UOpRef si : linear->src) {
    llvm::SmallVector<UOpRef, 8> src{si->src[0]};
    for (UOpRef s : si->src.drop_front())
      src.push_back(replace.lookup(s) ? replace.lookup(s) : s);
    items.push_back(ctx.replaceSrc(si, src));
  }
  plan.linear = ctx.get(Op::LINEAR, linear->type, items);
  return plan;
}
