//===- hcq_deps.hpp - which waits a step on a queue needs -------*- C++ -*-===//
//
// tinygrad's HCQGraph dependency planning (runtime/graph/hcq.py: DepsTracker
// in device.py and HCQGraph._resolve_deps), shared by the two places that
// put a schedule on queues: tg-schedule-to-hcq (lib/Execution/
// ScheduleToHCQ.cpp, the compiled path) and the runtime's graph recorder
// (runtime/lib/GraphRecorder.cpp, tgrt_graph_recorder_*). Header-only C++17
// with no dependency, so that the runtime stays free of MLIR and LLVM.
//
// Steps are numbered by the caller with increasing values (tinygrad: the
// step index + 1); a step's queue signals that value when something waits
// for it. A step waits for the last step of every other queue that touched
// memory it reads (a write) or writes (a read or a write), and only for the
// latest such step per queue; same-queue order needs no wait (queues run in
// order), and a wait an earlier wait of the queue already covers is dropped.
//
//===----------------------------------------------------------------------===//
#ifndef TINYGRAD_RT_HCQ_DEPS_HPP
#define TINYGRAD_RT_HCQ_DEPS_HPP

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace tgrt {
namespace hcq_deps {

/// A step's value on a queue.
struct Dep {
  unsigned queue;
  uint64_t value;
};

/// Bytes [begin, end) of one allocation (`storage`), read or written.
struct Access {
  uint64_t storage;
  int64_t begin, end;
  bool written;
};

/// tinygrad's DepsTracker: per allocation, the byte ranges last written and
/// read since, each with the step that did it.
class DepsTracker {
  struct Range {
    int64_t begin, end;
    Dep dep;
  };
  std::map<uint64_t, std::vector<Range>> writes_, reads_;

public:
  /// The steps `accesses` must wait for; the accesses are then recorded as
  /// `dep`'s.
  std::vector<Dep> access(const std::vector<Access> &accesses, Dep dep) {
    std::vector<Dep> wait;
    auto overlapping = [&](const std::vector<Range> &rs, const Access &a) {
      for (const Range &r : rs)
        if (r.begin < a.end && a.begin < r.end)
          wait.push_back(r.dep);
    };
    for (const Access &a : accesses) {
      overlapping(writes_[a.storage], a);
      if (a.written)
        overlapping(reads_[a.storage], a);
    }
    for (const Access &a : accesses) {
      if (!a.written) {
        reads_[a.storage].push_back({a.begin, a.end, dep});
        continue;
      }
      // A write hides what it overwrites: keep only the parts outside it.
      for (auto *map : {&writes_, &reads_}) {
        std::vector<Range> kept;
        for (const Range &r : (*map)[a.storage]) {
          if (r.begin < std::min(a.begin, r.end))
            kept.push_back({r.begin, std::min(a.begin, r.end), r.dep});
          if (std::max(a.end, r.begin) < r.end)
            kept.push_back({std::max(a.end, r.begin), r.end, r.dep});
        }
        (*map)[a.storage] = std::move(kept);
      }
      writes_[a.storage].push_back({a.begin, a.end, dep});
    }
    return wait;
  }
};

/// HCQGraph._resolve_deps over numbered queues.
class Planner {
  DepsTracker deps_;
  std::vector<std::optional<uint64_t>> last_;            // per queue: its last step's value
  std::vector<std::map<unsigned, uint64_t>> reached_;     // per queue: values known reached, per queue

  void grow(unsigned q) {
    if (q >= last_.size()) {
      last_.resize(q + 1);
      reached_.resize(q + 1);
    }
  }

public:
  /// Plans step `value` on queue `q`, touching `accesses`: the waits it
  /// needs on other queues, in emission order (oldest first).
  std::vector<Dep> step(unsigned q, const std::vector<Access> &accesses, uint64_t value) {
    grow(q);
    std::vector<Dep> all = deps_.access(accesses, {q, value});
    if (last_[q])
      all.push_back({q, *last_[q]});
    std::stable_sort(all.begin(), all.end(), [](const Dep &x, const Dep &y) { return x.value > y.value; });
    std::vector<Dep> waits;
    for (const Dep &d : all) {
      if (covers(q, d))
        continue;
      reached_[q][d.queue] = d.value;
      // Same-queue order needs no wait: queues run in order.
      if (d.queue != q)
        waits.push_back(d);
    }
    std::reverse(waits.begin(), waits.end());
    last_[q] = value;
    return waits;
  }

  /// True when queue `q` already waited for `d` (or a later step of its queue).
  bool covers(unsigned q, Dep d) const {
    if (q >= reached_.size())
      return false;
    auto it = reached_[q].find(d.queue);
    return it != reached_[q].end() && it->second >= d.value;
  }

  /// The value of queue `q`'s last step, if it has one.
  std::optional<uint64_t> last(unsigned q) const { return q < last_.size() ? last_[q] : std::nullopt; }
};

} // namespace hcq_deps
} // namespace tgrt

#endif // TINYGRAD_RT_HCQ_DEPS_HPP
