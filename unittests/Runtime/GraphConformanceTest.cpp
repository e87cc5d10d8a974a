//===- GraphConformanceTest.cpp - graph replay on every driver ------------===//
//
// tgrt_graph_*: a schedule recorded once and launched again with new input
// buffers, new variable values and new launch dims, as tinygrad's
// TinyJit/HCQGraph replays. Part of the conformance suite (Conformance.h):
// every driver runs these.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <cstring>

using namespace tgrt_cts;

namespace {

std::vector<uint32_t> iotaU(size_t n, uint32_t start) { return tgrt_test::iota<uint32_t>(n, start); }

/// The index of cts_affine's k among its arguments (buf, n, k, ...).
constexpr uint32_t kAffineN = 1, kAffineK = 2;

TEST_P(Conformance, GraphReplaysWithNewBuffersAndVariables) {
  const uint32_t n = 256;
  tgrt_buffer *in = upload(iotaU(n, 0)), *out = alloc(n * 4), *sum = alloc(n * 4);
  tgrt_program *aff = kernel(kAffine), *add = kernel(kAdd);
  tgrt_queue *q = queue();
  // in = affine(in, k); out = in; sum = out + out (as floats)
  TGRT_ASSERT_OK(exec(q, aff, {in}, {n, 5}, n));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, out, 0, in, 0, n * 4));
  TGRT_ASSERT_OK(exec(q, add, {sum, out, out}, {n}, n));
  tgrt_graph *g = graph({q});
  uint32_t execs = 0;
  TGRT_ASSERT_OK(tgrt_graph_exec_count(g, &execs));
  EXPECT_EQ(execs, 2u);
  // The queue is free again: the graph keeps its own copy.
  TGRT_ASSERT_OK(tgrt_queue_reset(q));
  tgrt_signal *done = named("done");
  TGRT_ASSERT_OK(tgrt_graph_launch(g, done, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(out, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], affineRef(i, 5)) << i;

  // A new input and a new k: only those change.
  tgrt_buffer *in2 = upload(iotaU(n, 1000));
  TGRT_ASSERT_OK(tgrt_graph_update_buffer(g, in, in2));
  TGRT_ASSERT_OK(tgrt_graph_update_arg(g, 0, kAffineK, -7));
  TGRT_ASSERT_OK(tgrt_graph_launch(g, done, 2));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 2, kWaitMs));
  got = download<uint32_t>(out, n);
  std::vector<uint32_t> gotIn = download<uint32_t>(in, n);
  std::vector<float> gotSum = download<float>(sum, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], affineRef(1000 + i, -7)) << i;
    ASSERT_EQ(gotIn[i], affineRef(i, 5)) << i; // the first launch's, untouched since
    float f;
    std::memcpy(&f, &got[i], 4);
    if (f == f)
      ASSERT_EQ(gotSum[i], f + f) << i;
  }
}

TEST_P(Conformance, GraphLaunchesInFlightKeepTheirOwnPatches) {
  // Launch after launch without waiting, patching k each time: each launch
  // must run with the k it was launched with, in launch order.
  const uint32_t n = 128;
  tgrt_buffer *buf = upload(iotaU(n, 3));
  tgrt_program *aff = kernel(kAffine);
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, 0}, n));
  tgrt_graph *g = graph({q});
  tgrt_signal *done = named("done");
  constexpr int kLaunches = 60;
  for (int i = 0; i < kLaunches; ++i) {
    TGRT_ASSERT_OK(tgrt_graph_update_arg(g, 0, kAffineK, 11 * i + 1));
    TGRT_ASSERT_OK(tgrt_graph_launch(g, i + 1 == kLaunches ? done : nullptr, 1));
  }
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(buf, n);
  for (uint32_t j = 0; j < n; ++j) {
    uint32_t v = 3 + j;
    for (int i = 0; i < kLaunches; ++i)
      v = affineRef(v, 11 * i + 1);
    ASSERT_EQ(got[j], v) << j;
  }
}

TEST_P(Conformance, GraphAcrossComputeAndCopyQueuesRebasesItsSignals) {
  // compute: affine(in) -> signal(ready, 1); copy: wait(ready, 1) -> copy
  // in -> out. `ready` is the graph's own: launch k uses ready >= k+1, so a
  // copy never runs on the previous launch's signal.
  const uint32_t n = 200;
  tgrt_buffer *in = alloc(n * 4), *out = alloc(n * 4);
  tgrt_program *aff = kernel(kAffine);
  tgrt_signal *ready = named("ready"), *done = named("done");
  tgrt_queue *xq = queue(), *cq = queue(TGRT_QUEUE_COPY);
  TGRT_ASSERT_OK(exec(xq, aff, {in}, {n, 0}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(xq, ready, 1));
  TGRT_ASSERT_OK(tgrt_queue_wait(cq, ready, 1));
  TGRT_ASSERT_OK(tgrt_queue_copy(cq, out, 0, in, 0, n * 4));
  tgrt_graph *g = graph({xq, cq});
  constexpr int kLaunches = 12;
  std::vector<tgrt_buffer *> ins, outs;
  for (int i = 0; i < kLaunches; ++i) {
    ins.push_back(upload(iotaU(n, 100 * i)));
    outs.push_back(alloc(n * 4));
    TGRT_ASSERT_OK(tgrt_graph_update_buffer(g, in, ins.back()));
    TGRT_ASSERT_OK(tgrt_graph_update_buffer(g, out, outs.back()));
    TGRT_ASSERT_OK(tgrt_graph_update_arg(g, 0, kAffineK, i));
    TGRT_ASSERT_OK(tgrt_graph_launch(g, done, i + 1));
  }
  TGRT_ASSERT_OK(tgrt_signal_wait(done, kLaunches, kWaitMs));
  EXPECT_EQ(valueOf(ready), (uint64_t)kLaunches);
  for (int i = 0; i < kLaunches; ++i) {
    std::vector<uint32_t> got = download<uint32_t>(outs[i], n);
    for (uint32_t j = 0; j < n; ++j)
      ASSERT_EQ(got[j], affineRef(100 * i + j, i)) << i << " " << j;
  }
  // The captured buffers were never written.
  EXPECT_EQ(download<uint32_t>(out, n), std::vector<uint32_t>(n, 0));
}

TEST_P(Conformance, GraphUpdatesLaunchDims) {
  // n and the launch dims of a bound variable, patched together.
  const uint32_t size = 512, n = 70;
  tgrt_buffer *buf = upload(iotaU(size, 0));
  tgrt_program *aff = kernel(kAffine);
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(exec(q, aff, {buf}, {size, 1}, size));
  tgrt_graph *g = graph({q});
  Call small = call({buf}, {n, 1}, n);
  TGRT_ASSERT_OK(tgrt_graph_update_arg(g, 0, kAffineN, n));
  TGRT_ASSERT_OK(tgrt_graph_update_dispatch(g, 0, small.dispatch.global_size));
  tgrt_signal *done = named("done");
  TGRT_ASSERT_OK(tgrt_graph_launch(g, done, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(buf, size);
  for (uint32_t i = 0; i < size; ++i)
    ASSERT_EQ(got[i], i < n ? affineRef(i, 1) : i) << i;
  const uint32_t zero[3] = {0, 1, 1};
  EXPECT_NE(tgrt_graph_update_dispatch(g, 0, zero), TGRT_OK);
}

TEST_P(Conformance, GraphKeepsWhatItCapturedAlive) {
  const uint32_t n = 64;
  tgrt_buffer *in = nullptr, *out = alloc(n * 4);
  TGRT_ASSERT_OK(tgrt_buffer_alloc(dev, n * 4, &in));
  std::vector<uint32_t> init = iotaU(n, 9);
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(in, 0, init.data(), n * 4));
  tgrt_program *aff = kernel(kAffine, nullptr, false);
  tgrt_queue *q = nullptr;
  TGRT_ASSERT_OK(tgrt_queue_create(dev, TGRT_QUEUE_COMPUTE, &q));
  TGRT_ASSERT_OK(exec(q, aff, {in}, {n, 2}, n));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, out, 0, in, 0, n * 4));
  tgrt_graph *g = graph({q});
  TGRT_ASSERT_OK(tgrt_queue_destroy(q));
  TGRT_ASSERT_OK(tgrt_program_free(aff));
  TGRT_ASSERT_OK(tgrt_buffer_free(in));
  tgrt_signal *done = named("done");
  for (uint64_t i = 1; i <= 3; ++i)
    TGRT_ASSERT_OK(tgrt_graph_launch(g, done, i));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 3, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(out, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], affineRef(affineRef(affineRef(init[i], 2), 2), 2)) << i;
}

TEST_P(Conformance, GraphErrors) {
  const uint32_t n = 16;
  tgrt_buffer *buf = alloc(n * 4), *small = alloc(n * 2), *stranger = alloc(n * 4);
  tgrt_program *aff = kernel(kAffine);
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, 1}, n));
  tgrt_graph *g = graph({q}), *none = nullptr;
  TGRT_EXPECT_ERROR(tgrt_graph_create(nullptr, 1, &none), TGRT_INVALID_ARGUMENT, "no queues");
  TGRT_EXPECT_ERROR(tgrt_graph_create(&q, 0, &none), TGRT_INVALID_ARGUMENT, "no queues");
  TGRT_EXPECT_ERROR(tgrt_graph_create(&q, 1, nullptr), TGRT_INVALID_ARGUMENT, "out_graph");
  TGRT_EXPECT_ERROR(tgrt_graph_update_buffer(g, stranger, buf), TGRT_NOT_FOUND, "no such buffer");
  TGRT_EXPECT_ERROR(tgrt_graph_update_buffer(g, buf, small), TGRT_OUT_OF_RANGE, "32 bytes");
  TGRT_EXPECT_ERROR(tgrt_graph_update_buffer(g, buf, nullptr), TGRT_INVALID_ARGUMENT, "buffer");
  TGRT_EXPECT_ERROR(tgrt_graph_update_arg(g, 1, kAffineK, 0), TGRT_OUT_OF_RANGE, "the graph has 1");
  TGRT_EXPECT_ERROR(tgrt_graph_update_arg(g, 0, 0, 0), TGRT_INVALID_ARGUMENT, "not an integer");
  TGRT_EXPECT_ERROR(tgrt_graph_update_arg(g, 0, 40, 0), TGRT_INVALID_ARGUMENT, "not an integer");
  TGRT_EXPECT_ERROR(tgrt_graph_update_dispatch(g, 0, nullptr), TGRT_INVALID_ARGUMENT, "NULL");
  TGRT_EXPECT_ERROR(tgrt_graph_launch(nullptr, nullptr, 0), TGRT_INVALID_ARGUMENT, "graph");
  // Queues of two devices.
  tgrt_device *other = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open(GetParam().device, nullptr, &other));
  tgrt_queue *oq = nullptr;
  TGRT_ASSERT_OK(tgrt_queue_create(other, TGRT_QUEUE_COMPUTE, &oq));
  tgrt_queue *both[] = {q, oq};
  TGRT_EXPECT_ERROR(tgrt_graph_create(both, 2, &none), TGRT_INVALID_ARGUMENT, "another device");
  EXPECT_EQ(none, nullptr);
  TGRT_EXPECT_OK(tgrt_queue_destroy(oq));
  TGRT_EXPECT_OK(tgrt_device_close(other));
  // A graph of a closed device refuses to launch.
  tgrt_device *closing = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open(GetParam().device, nullptr, &closing));
  tgrt_queue *cq = nullptr;
  tgrt_graph *cg = nullptr;
  TGRT_ASSERT_OK(tgrt_queue_create(closing, TGRT_QUEUE_COPY, &cq));
  TGRT_ASSERT_OK(tgrt_graph_create(&cq, 1, &cg));
  TGRT_ASSERT_OK(tgrt_device_close(closing));
  TGRT_EXPECT_ERROR(tgrt_graph_launch(cg, nullptr, 0), TGRT_FAILED_PRECONDITION, "closed");
  TGRT_EXPECT_OK(tgrt_graph_destroy(cg));
  TGRT_EXPECT_OK(tgrt_queue_destroy(cq));
}

} // namespace
