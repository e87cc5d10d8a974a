//===- bench-runtime.cpp - the runtime's cost per kernel launch -----------===//
//
// A schedule of N small kernels (a ping-pong chain of out = in * 2 + 1 over
// a few floats, with an int variable) on the CPU driver, run four ways:
//   replay      a tgrt_graph captured once; per launch the input buffer and
//               the variable are patched, the graph launched, the host waits
//               (TinyJit's steady state);
//   pipelined   the same, launching again without waiting in between (each
//               patch then copies the recording the launch before holds);
//   queue       the schedule recorded into a queue and submitted each time;
//   direct      tgrt_program_launch per kernel.
// plus the kernel called natively (the floor). Each figure is the median
// over repetitions of (time of one schedule) / N, in microseconds. Prints
// one JSON object.
//
// usage: bench-runtime [kernels=1000] [repetitions=100]
//
//===----------------------------------------------------------------------===//

#include "tinygrad-rt/runtime.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" void bench_axpb(float *out, const float *in, int n); // kernel.c, natively

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kElems = 16;

void check(tgrt_status s, const char *what) {
  if (s != TGRT_OK) {
    std::fprintf(stderr, "bench-runtime: %s: %s: %s\n", what, tgrt_status_string(s), tgrt_last_error());
    std::exit(1);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median over `reps` of the time of body() divided by `perRep`, in us.
template <typename F> double timePerLaunch(int reps, int perRep, F body) {
  for (int i = 0; i < std::max(2, reps / 10); ++i)
    body(i); // warm up
  std::vector<double> us;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    body(i);
    us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / perRep);
  }
  return median(us);
}

} // namespace

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 100;
  if (n < 2 || reps < 1) {
    std::fprintf(stderr, "usage: bench-runtime [kernels>=2] [repetitions>=1]\n");
    return 2;
  }
  std::ifstream f(TGRT_BENCH_KERNEL, std::ios::binary);
  std::vector<char> obj((std::istreambuf_iterator<char>(f)), {});
  if (obj.empty()) {
    std::fprintf(stderr, "bench-runtime: cannot read %s\n", TGRT_BENCH_KERNEL);
    return 1;
  }
  tgrt_device *dev = nullptr;
  check(tgrt_device_open("CPU", nullptr, &dev), "open");
  tgrt_program *prog = nullptr;
  check(tgrt_program_load(dev, obj.data(), obj.size(), "bench_axpb", &prog), "load");
  // in0/in1: alternate inputs; a/b: the ping-pong chain.
  tgrt_buffer *in0, *in1, *a, *b;
  for (tgrt_buffer **p : {&in0, &in1, &a, &b})
    check(tgrt_buffer_alloc(dev, kElems * sizeof(float), p), "alloc");
  tgrt_signal *done = nullptr;
  check(tgrt_signal_create(dev, 0, &done), "signal");
  uint64_t doneValue = 0;

  auto record = [&](tgrt_queue *q) {
    for (int i = 0; i < n; ++i) {
      tgrt_buffer *src = i == 0 ? in0 : (i % 2 ? a : b), *dst = i % 2 ? b : a;
      tgrt_arg args[] = {tgrt_arg_buffer(dst), tgrt_arg_buffer(src), tgrt_arg_int(kElems)};
      check(tgrt_queue_exec(q, prog, args, 3, -1, 1), "record");
    }
  };

  tgrt_queue *q = nullptr;
  check(tgrt_queue_create(dev, TGRT_QUEUE_COMPUTE, &q), "queue");
  record(q);
  tgrt_graph *g = nullptr;
  check(tgrt_graph_create(&q, 1, &g), "graph");

  double replay = timePerLaunch(reps, n, [&](int i) {
    check(tgrt_graph_update_buffer(g, in0, i % 2 ? in1 : in0), "update_buffer");
    check(tgrt_graph_update_arg(g, 0, 2, kElems - (i % 2)), "update_arg");
    check(tgrt_graph_launch(g, done, ++doneValue), "launch");
    check(tgrt_signal_wait(done, doneValue, 60000), "wait");
  });
  // Pipelined: `depth` launches back to back, then one wait.
  const int depth = 8;
  double pipelined = timePerLaunch(std::max(1, reps / depth), n * depth, [&](int) {
    for (int k = 0; k < depth; ++k) {
      check(tgrt_graph_update_buffer(g, in0, k % 2 ? in1 : in0), "update_buffer");
      check(tgrt_graph_update_arg(g, 0, 2, kElems - (k % 2)), "update_arg");
      check(tgrt_graph_launch(g, k + 1 == depth ? done : nullptr, ++doneValue), "launch");
    }
    check(tgrt_signal_wait(done, doneValue, 60000), "wait");
  });
  double queued = timePerLaunch(reps, n, [&](int) {
    check(tgrt_queue_reset(q), "reset");
    record(q);
    check(tgrt_queue_signal(q, done, ++doneValue), "signal");
    check(tgrt_queue_submit(q), "submit");
    check(tgrt_signal_wait(done, doneValue, 60000), "wait");
  });
  double direct = timePerLaunch(reps, n, [&](int) {
    for (int i = 0; i < n; ++i) {
      tgrt_buffer *src = i == 0 ? in0 : (i % 2 ? a : b), *dst = i % 2 ? b : a;
      tgrt_arg args[] = {tgrt_arg_buffer(dst), tgrt_arg_buffer(src), tgrt_arg_int(kElems)};
      check(tgrt_program_launch(prog, args, 3, -1, 1), "launch");
    }
  });
  // The floor: the same kernel called natively through a pointer.
  static float x[kElems], y[kElems];
  void (*volatile kernel)(float *, const float *, int) = bench_axpb;
  double native = timePerLaunch(reps, n, [&](int) {
    for (int i = 0; i < n; ++i)
      kernel(i % 2 ? y : x, i % 2 ? x : y, kElems);
  });

  std::printf("{\"kernels_per_schedule\": %d, \"repetitions\": %d, \"replay_us_per_launch\": %.4f, "
              "\"replay_pipelined_us_per_launch\": %.4f, \"queue_us_per_launch\": %.4f, "
              "\"direct_us_per_launch\": %.4f, \"native_us_per_call\": %.4f}\n",
              n, reps, replay, pipelined, queued, direct, native);

  check(tgrt_graph_destroy(g), "graph_destroy");
  check(tgrt_queue_destroy(q), "queue_destroy");
  check(tgrt_signal_destroy(done), "signal_destroy");
  for (tgrt_buffer *p : {in0, in1, a, b})
    check(tgrt_buffer_free(p), "free");
  check(tgrt_program_free(prog), "program_free");
  check(tgrt_device_close(dev), "close");
  return 0;
}
