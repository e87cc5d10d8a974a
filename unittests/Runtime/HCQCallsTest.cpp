//===- HCQCallsTest.cpp - the runtime calls of compiled hcq schedules -----===//
//
// tinygrad-rt/hcq.h called the way a compiled schedule calls it (no branch
// between calls): the first failure stops the rest and names its op, the
// state owns what the calls created, and a capture state yields a graph of
// the submitted queues. Runs under ASan/LSan and TSan with the other
// runtime tests.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "tinygrad-rt/hcq.h"

#include <string>

namespace {

using namespace tgrt_test;

struct HCQCalls : RuntimeTest {
  tgrt_hcq_state *state = nullptr;
  void TearDown() override {
    tgrt_hcq_state_destroy(state);
    RuntimeTest::TearDown();
  }
  void makeState(bool capture) { TGRT_ASSERT_OK(tgrt_hcq_state_create(capture, 10000, &state)); }
  std::string message() {
    const char *m = nullptr;
    tgrt_hcq_state_status(state, &m);
    return m ? m : "";
  }

  /// copy src -> mid on the copy queue, then mid -> dst on the compute
  /// queue after it, as a compiled schedule records them.
  void record(tgrt_buffer *src, tgrt_buffer *mid, tgrt_buffer *dst, size_t bytes) {
    tgrt_queue *cq = tgrt_hcq_queue(state, dev, 1);
    tgrt_signal *cs = tgrt_hcq_new_signal(state, dev, 0);
    tgrt_queue *q = tgrt_hcq_queue(state, dev, 0);
    tgrt_signal *s = tgrt_hcq_new_signal(state, dev, 0);
    tgrt_hcq_memory_barrier(state, q);
    tgrt_hcq_copy(state, cq, mid, src, bytes);
    tgrt_hcq_signal(state, cq, cs, 1);
    tgrt_hcq_wait(state, q, cs, 1);
    tgrt_hcq_copy(state, q, dst, mid, bytes);
    tgrt_hcq_timestamp(state, q, s);
    tgrt_hcq_signal(state, q, s, 2);
    tgrt_hcq_submit(state, cq, dev);
    tgrt_hcq_submit(state, q, dev);
    tgrt_hcq_host_wait(state, s, 2);
  }
};

TEST_F(HCQCalls, RecordSubmitAndWait) {
  makeState(false);
  tgrt_buffer *src = upload(iota<uint32_t>(64, 7)), *mid = alloc(256), *dst = alloc(256);
  record(src, mid, dst, 256);
  TGRT_ASSERT_OK(tgrt_hcq_state_status(state, nullptr));
  EXPECT_EQ(download<uint32_t>(dst, 64), iota<uint32_t>(64, 7));
}

// After a failing call nothing else runs: the copy that would have
// succeeded later leaves dst untouched, and the message names the op.
TEST_F(HCQCalls, TheFirstFailureStopsTheRest) {
  makeState(false);
  tgrt_buffer *src = upload(iota<uint32_t>(64, 7)), *mid = alloc(16), *dst = upload(std::vector<uint32_t>(64, 0));
  record(src, mid, dst, 256); // mid is too small for the first copy
  EXPECT_EQ(tgrt_hcq_state_status(state, nullptr), TGRT_OUT_OF_RANGE);
  EXPECT_EQ(message().rfind("hcq.copy: ", 0), 0u) << message();
  EXPECT_EQ(download<uint32_t>(dst, 64), std::vector<uint32_t>(64, 0));
  // A bad queue kind and an exec over TGRT_MAX_ARGS arguments are errors
  // of the call itself.
  tgrt_hcq_state_destroy(state);
  makeState(false);
  EXPECT_EQ(tgrt_hcq_queue(state, dev, 2), nullptr);
  EXPECT_EQ(message(), "hcq.queue: queue kind 2 is neither compute (0) nor copy (1)");
}

// A capture records but neither submits nor waits; its graph replays.
TEST_F(HCQCalls, CaptureMakesAGraph) {
  makeState(true);
  tgrt_buffer *src = upload(iota<uint32_t>(64, 0)), *mid = alloc(256), *dst = alloc(256);
  record(src, mid, dst, 256);
  TGRT_ASSERT_OK(tgrt_hcq_state_status(state, nullptr));
  tgrt_graph *g = nullptr;
  TGRT_ASSERT_OK(tgrt_hcq_state_capture(state, &g));
  tgrt_hcq_state_destroy(state); // the graph keeps what it captured
  state = nullptr;
  tgrt_signal *done = signal();
  for (uint32_t launch = 1; launch <= 5; ++launch) {
    std::vector<uint32_t> in = iota<uint32_t>(64, launch * 100);
    TGRT_ASSERT_OK(tgrt_buffer_copy_in(src, 0, in.data(), 256));
    TGRT_ASSERT_OK(tgrt_graph_launch(g, done, launch));
    TGRT_ASSERT_OK(tgrt_signal_wait(done, launch, 10000));
    EXPECT_EQ(download<uint32_t>(dst, 64), in) << "launch " << launch;
  }
  TGRT_EXPECT_OK(tgrt_graph_destroy(g));
  // Not a capture state: no graph.
  makeState(false);
  EXPECT_EQ(tgrt_hcq_state_capture(state, &g), TGRT_INVALID_ARGUMENT);
}

// A submit names the queue's device; another device's is an error.
TEST_F(HCQCalls, SubmitChecksTheDevice) {
  tgrt_device *other = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open("CPU", nullptr, &other));
  makeState(false);
  tgrt_queue *q = tgrt_hcq_queue(state, dev, 0);
  tgrt_hcq_submit(state, q, other);
  EXPECT_EQ(message(), "hcq.submit: the queue belongs to another device");
  tgrt_hcq_state_destroy(state);
  state = nullptr;
  TGRT_EXPECT_OK(tgrt_device_close(other));
}

} // namespace
