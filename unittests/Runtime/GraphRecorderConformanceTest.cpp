//===- GraphRecorderConformanceTest.cpp - graphs on two queues ------------===//
//
// tgrt_graph_recorder_*: a schedule put on the device's compute and copy
// queues with only the cross-queue waits its data dependencies need, as
// tinygrad's HCQGraph does, then replayed with patched buffers. Part of the
// conformance suite (Conformance.h): every driver runs these.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

using namespace tgrt_cts;

namespace {

std::vector<uint32_t> iotaU(size_t n, uint32_t start) { return tgrt_test::iota<uint32_t>(n, start); }

constexpr uint32_t kAffineK = 2; // cts_affine's k among its arguments (buf, n, k, ...)
constexpr uint64_t kWritesArg0 = 1;

class GraphRecorder : public Conformance {
protected:
  void TearDown() override {
    if (rec)
      TGRT_EXPECT_OK(tgrt_graph_recorder_destroy(rec));
    Conformance::TearDown();
  }
  void SetUp() override {
    Conformance::SetUp();
    if (!IsSkipped())
      TGRT_ASSERT_OK(tgrt_graph_recorder_create(dev, &rec));
  }
  tgrt_status record(tgrt_program *p, std::vector<tgrt_buffer *> bufs, std::vector<int64_t> scalars,
                     uint32_t n, uint64_t written) {
    Call c = call(std::move(bufs), std::move(scalars), n);
    return tgrt_graph_recorder_dispatch(rec, p, c.args.data(), static_cast<uint32_t>(c.args.size()),
                                        &c.dispatch, written);
  }
  uint32_t waits() {
    uint32_t n = ~0u;
    EXPECT_EQ(tgrt_graph_recorder_wait_count(rec, &n), TGRT_OK) << tgrt_last_error();
    return n;
  }
  tgrt_graph *finish() {
    tgrt_graph *g = nullptr;
    EXPECT_EQ(tgrt_graph_recorder_finish(rec, &g), TGRT_OK) << tgrt_last_error();
    if (g)
      graphs.push_back(g);
    return g;
  }
  /// Finishes the recording and launches the graph once, waiting for it.
  void runOnce() {
    tgrt_graph *g = finish();
    ASSERT_NE(g, nullptr);
    tgrt_signal *done = named("done");
    TGRT_ASSERT_OK(tgrt_graph_launch(g, done, 1));
    TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  }
  tgrt_graph_recorder *rec = nullptr;
};

TEST_P(GraphRecorder, CopyFeedsKernelFeedsCopyAcrossQueues) {
  const uint32_t n = 300;
  tgrt_buffer *stage = upload(iotaU(n, 7)), *a = alloc(n * 4), *out = alloc(n * 4);
  tgrt_buffer *b = upload(iotaU(n, 50)), *x = upload(iotaU(n, 900)), *y = alloc(n * 4);
  tgrt_program *aff = kernel(kAffine);
  // copy: stage -> a                     (no wait)
  TGRT_ASSERT_OK(tgrt_graph_recorder_copy(rec, a, 0, stage, 0, n * 4));
  // copy: x -> y, independent            (no wait: same queue, other memory)
  TGRT_ASSERT_OK(tgrt_graph_recorder_copy(rec, y, 0, x, 0, n * 4));
  EXPECT_EQ(waits(), 0u);
  // compute: a = affine(a, 5)            (waits for the copy into a)
  TGRT_ASSERT_OK(record(aff, {a}, {n, 5}, n, kWritesArg0));
  EXPECT_EQ(waits(), 1u);
  // compute: b = affine(b, 1), independent (no wait)
  TGRT_ASSERT_OK(record(aff, {b}, {n, 1}, n, kWritesArg0));
  EXPECT_EQ(waits(), 1u);
  // copy: a -> out                       (waits for the kernel that wrote a)
  TGRT_ASSERT_OK(tgrt_graph_recorder_copy(rec, out, 0, a, 0, n * 4));
  EXPECT_EQ(waits(), 2u);
  // copy: y -> x, reads what copy 2 wrote (same queue: no wait)
  TGRT_ASSERT_OK(tgrt_graph_recorder_copy(rec, x, 0, y, 0, n * 4));
  EXPECT_EQ(waits(), 2u);
  // compute: a = affine(a, 9) overwrites what the copy out reads (waits for it)
  TGRT_ASSERT_OK(record(aff, {a}, {n, 9}, n, kWritesArg0));
  EXPECT_EQ(waits(), 3u);
  tgrt_graph *g = finish();
  ASSERT_NE(g, nullptr);
  uint32_t execs = 0;
  TGRT_ASSERT_OK(tgrt_graph_exec_count(g, &execs));
  EXPECT_EQ(execs, 3u);

  tgrt_signal *done = named("done");
  auto check = [&](uint32_t start, int64_t k) {
    std::vector<uint32_t> gotOut = download<uint32_t>(out, n), gotA = download<uint32_t>(a, n);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(gotOut[i], affineRef(start + i, k)) << i;
      ASSERT_EQ(gotA[i], affineRef(affineRef(start + i, k), 9)) << i;
    }
  };
  TGRT_ASSERT_OK(tgrt_graph_launch(g, done, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  check(7, 5);
  std::vector<uint32_t> gotB = download<uint32_t>(b, n), gotX = download<uint32_t>(x, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(gotB[i], affineRef(50 + i, 1)) << i;
    ASSERT_EQ(gotX[i], 900 + i) << i;
  }

  // Replays with a new staged input, a new output and a new k, launched
  // back to back: each launch sees its own patches, and the signals the
  // graph waits on are rebased per launch.
  constexpr int kLaunches = 6;
  std::vector<tgrt_buffer *> outs;
  for (int l = 0; l < kLaunches; ++l) {
    tgrt_buffer *s2 = upload(iotaU(n, 1000 * (l + 1)));
    outs.push_back(alloc(n * 4));
    TGRT_ASSERT_OK(tgrt_graph_update_buffer(g, stage, s2));
    TGRT_ASSERT_OK(tgrt_graph_update_buffer(g, out, outs.back()));
    TGRT_ASSERT_OK(tgrt_graph_update_arg(g, 0, kAffineK, l - 3));
    TGRT_ASSERT_OK(tgrt_graph_launch(g, done, l + 2));
  }
  TGRT_ASSERT_OK(tgrt_signal_wait(done, kLaunches + 1, kWaitMs));
  for (int l = 0; l < kLaunches; ++l) {
    std::vector<uint32_t> got = download<uint32_t>(outs[l], n);
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], affineRef(1000 * (l + 1) + i, l - 3)) << l << " " << i;
  }
  std::vector<uint32_t> gotA = download<uint32_t>(a, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(gotA[i], affineRef(affineRef(1000 * kLaunches + i, kLaunches - 4), 9)) << i;
}

TEST_P(GraphRecorder, ViewsConflictOnlyWhereTheyOverlap) {
  // Two halves of one allocation: a copy into the low half and a kernel on
  // the high half are independent; a kernel on the low half is not.
  const uint32_t n = 256, half = n / 2;
  tgrt_buffer *whole = alloc(n * 4), *stage = upload(iotaU(half, 3));
  tgrt_buffer *lo = nullptr, *hi = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_view(whole, 0, half * 4, &lo));
  TGRT_ASSERT_OK(tgrt_buffer_view(whole, half * 4, half * 4, &hi));
  tgrt_program *aff = kernel(kAffine);
  TGRT_ASSERT_OK(tgrt_graph_recorder_copy(rec, lo, 0, stage, 0, half * 4));
  TGRT_ASSERT_OK(record(aff, {hi}, {half, 2}, half, kWritesArg0));
  EXPECT_EQ(waits(), 0u);
  TGRT_ASSERT_OK(record(aff, {lo}, {half, 4}, half, kWritesArg0));
  EXPECT_EQ(waits(), 1u);
  // A read-only use of `whole` by a copy after both kernels waits once
  // (for the compute queue's latest), not once per kernel.
  tgrt_buffer *back = alloc(n * 4);
  TGRT_ASSERT_OK(tgrt_graph_recorder_copy(rec, back, 0, whole, 0, n * 4));
  EXPECT_EQ(waits(), 2u);
  ASSERT_NO_FATAL_FAILURE(runOnce());
  std::vector<uint32_t> got = download<uint32_t>(back, n);
  for (uint32_t i = 0; i < half; ++i) {
    ASSERT_EQ(got[i], affineRef(3 + i, 4)) << i;
    ASSERT_EQ(got[half + i], affineRef(0, 2)) << i;
  }
  TGRT_EXPECT_OK(tgrt_buffer_free(lo));
  TGRT_EXPECT_OK(tgrt_buffer_free(hi));
}

TEST_P(GraphRecorder, ReadsDoNotWaitForReads) {
  // A kernel and a copy that only read the same buffer need no wait.
  const uint32_t n = 64;
  tgrt_buffer *src = upload(iotaU(n, 1)), *sum = alloc(n * 4), *copy = alloc(n * 4);
  tgrt_program *add = kernel(kAdd);
  TGRT_ASSERT_OK(record(add, {sum, src, src}, {n}, n, kWritesArg0));
  TGRT_ASSERT_OK(tgrt_graph_recorder_copy(rec, copy, 0, src, 0, n * 4));
  EXPECT_EQ(waits(), 0u);
  ASSERT_NO_FATAL_FAILURE(runOnce());
  EXPECT_EQ(download<uint32_t>(copy, n), iotaU(n, 1));
}

TEST_P(GraphRecorder, Errors) {
  const uint32_t n = 16;
  tgrt_buffer *buf = alloc(n * 4), *small = alloc(8);
  tgrt_program *aff = kernel(kAffine);
  tgrt_graph *none = nullptr;
  TGRT_EXPECT_ERROR(tgrt_graph_recorder_finish(rec, &none), TGRT_INVALID_ARGUMENT, "nothing was recorded");
  TGRT_EXPECT_ERROR(tgrt_graph_recorder_copy(rec, small, 0, buf, 0, n * 4), TGRT_OUT_OF_RANGE,
                    "destination");
  TGRT_EXPECT_ERROR(tgrt_graph_recorder_copy(nullptr, buf, 0, buf, 0, 4), TGRT_INVALID_ARGUMENT,
                    "recorder");
  Call c = call({buf}, {n, 1}, n);
  TGRT_EXPECT_ERROR(tgrt_graph_recorder_dispatch(rec, aff, c.args.data(), static_cast<uint32_t>(c.args.size()),
                                                 nullptr, kWritesArg0),
                    TGRT_INVALID_ARGUMENT, "dispatch is NULL");
  TGRT_EXPECT_ERROR(tgrt_graph_recorder_dispatch(rec, aff, c.args.data(), static_cast<uint32_t>(c.args.size()),
                                                 &c.dispatch, 1u << 1),
                    TGRT_INVALID_ARGUMENT, "not a buffer");
  TGRT_EXPECT_ERROR(tgrt_graph_recorder_create(nullptr, nullptr), TGRT_INVALID_ARGUMENT, "device");
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(waits(), 0u);
  TGRT_EXPECT_ERROR(tgrt_graph_recorder_finish(rec, &none), TGRT_INVALID_ARGUMENT, "nothing was recorded");
}

INSTANTIATE_TEST_SUITE_P(Drivers, GraphRecorder, ::testing::ValuesIn(kDrivers),
                         [](const auto &info) { return driverTestName(info.param); });

} // namespace
