//===- QueueTest.cpp - HCQ-style queues and timeline signals --------------===//

#include "TestUtil.h"

#include <chrono>
#include <thread>

using namespace tgrt_test;
using Clock = std::chrono::steady_clock;

namespace {

using SignalTest = RuntimeTest;
using QueueTest = RuntimeTest;

uint64_t valueOf(tgrt_signal *s) {
  uint64_t v = 0;
  EXPECT_EQ(tgrt_signal_value(s, &v), TGRT_OK);
  return v;
}

TEST_F(SignalTest, TimelineOnlyGrows) {
  tgrt_signal *s = signal(5);
  EXPECT_EQ(valueOf(s), 5u);
  TGRT_EXPECT_OK(tgrt_signal_signal(s, 7));
  TGRT_EXPECT_OK(tgrt_signal_signal(s, 7));
  TGRT_EXPECT_ERROR(tgrt_signal_signal(s, 6), TGRT_INVALID_ARGUMENT, "below the current value 7");
  EXPECT_EQ(valueOf(s), 7u);
  TGRT_EXPECT_OK(tgrt_signal_wait(s, 7, 0));
  TGRT_EXPECT_OK(tgrt_signal_wait(s, 3, 0));
  TGRT_EXPECT_ERROR(tgrt_signal_wait(s, 8, 0), TGRT_TIMEOUT, "did not reach value 8");
}

TEST_F(SignalTest, WaitTimesOut) {
  tgrt_signal *s = signal(0);
  auto start = Clock::now();
  TGRT_EXPECT_ERROR(tgrt_signal_wait(s, 1, 30), TGRT_TIMEOUT, "within 30 ms");
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(30));
}

TEST_F(SignalTest, WaitWakesOnAnotherThreadsSignal) {
  tgrt_signal *s = signal(0);
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(tgrt_signal_signal(s, 3), TGRT_OK);
  });
  TGRT_EXPECT_OK(tgrt_signal_wait(s, 2, TGRT_WAIT_INFINITE));
  EXPECT_GE(valueOf(s), 2u);
  t.join();
}

TEST_F(QueueTest, RecordingErrors) {
  tgrt_queue *copyq = queue(TGRT_QUEUE_COPY), *q = queue();
  tgrt_program *p = load("add");
  tgrt_buffer *a = alloc(16), *b = alloc(8);
  tgrt_arg args[] = {tgrt_arg_buffer(a), tgrt_arg_buffer(a), tgrt_arg_buffer(a), tgrt_arg_int(4)};
  TGRT_EXPECT_ERROR(tgrt_queue_exec(copyq, p, args, 4, -1, 1), TGRT_INVALID_ARGUMENT, "compute queue");
  TGRT_EXPECT_ERROR(tgrt_queue_exec(q, p, args, 64, -1, 1), TGRT_INVALID_ARGUMENT, "at most 63");
  TGRT_EXPECT_ERROR(tgrt_queue_exec(q, nullptr, args, 4, -1, 1), TGRT_INVALID_ARGUMENT, "program");
  TGRT_EXPECT_ERROR(tgrt_queue_copy(q, b, 0, a, 0, 9), TGRT_OUT_OF_RANGE, "destination");
  TGRT_EXPECT_ERROR(tgrt_queue_copy(q, a, 0, b, 4, 5), TGRT_OUT_OF_RANGE, "source");
  TGRT_EXPECT_ERROR(tgrt_queue_copy(q, a, SIZE_MAX, b, 0, 1), TGRT_OUT_OF_RANGE, "destination");
  TGRT_EXPECT_ERROR(tgrt_queue_copy(q, nullptr, 0, b, 0, 1), TGRT_INVALID_ARGUMENT, "dst");
  TGRT_EXPECT_ERROR(tgrt_queue_signal(q, nullptr, 1), TGRT_INVALID_ARGUMENT, "signal");
  TGRT_EXPECT_ERROR(tgrt_queue_wait(q, nullptr, 1), TGRT_INVALID_ARGUMENT, "signal");
  TGRT_EXPECT_ERROR(tgrt_queue_timestamp(q, nullptr), TGRT_INVALID_ARGUMENT, "signal");
  size_t n = 99;
  TGRT_EXPECT_OK(tgrt_queue_command_count(q, &n));
  EXPECT_EQ(n, 0u); // nothing was recorded
  TGRT_EXPECT_OK(tgrt_queue_submit(q)); // an empty submit is a no-op
}

TEST_F(QueueTest, CommandsRunInOrder) {
  tgrt_program *p = load("add");
  std::vector<float> a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
  tgrt_buffer *ba = upload(a), *bb = upload(b), *out = alloc(16), *copy = alloc(16);
  tgrt_signal *done = signal(0);
  tgrt_queue *q = queue();
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba), tgrt_arg_buffer(bb), tgrt_arg_int(4)};
  TGRT_ASSERT_OK(tgrt_queue_exec(q, p, args, 4, -1, 1));
  TGRT_ASSERT_OK(tgrt_queue_memory_barrier(q));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, copy, 0, out, 0, 16));
  // Second round on the result: out = out + b, after the copy took the first.
  tgrt_arg again[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(out), tgrt_arg_buffer(bb), tgrt_arg_int(4)};
  TGRT_ASSERT_OK(tgrt_queue_exec(q, p, again, 4, -1, 1));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  size_t n = 0;
  TGRT_ASSERT_OK(tgrt_queue_command_count(q, &n));
  EXPECT_EQ(n, 5u);
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, 10000));
  EXPECT_EQ(download<float>(copy, 4), (std::vector<float>{11, 22, 33, 44}));
  EXPECT_EQ(download<float>(out, 4), (std::vector<float>{21, 42, 63, 84}));
}

TEST_F(QueueTest, WaitHoldsTheQueueUntilSignaled) {
  std::vector<float> src = {5, 6, 7, 8};
  tgrt_buffer *bs = upload(src), *dst = alloc(16);
  tgrt_signal *gate = signal(0), *done = signal(0);
  tgrt_queue *q = queue(TGRT_QUEUE_COPY);
  TGRT_ASSERT_OK(tgrt_queue_wait(q, gate, 2));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, dst, 0, bs, 0, 16));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_EXPECT_ERROR(tgrt_signal_wait(done, 1, 50), TGRT_TIMEOUT, "did not reach");
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 1)); // not enough yet
  TGRT_EXPECT_ERROR(tgrt_signal_wait(done, 1, 30), TGRT_TIMEOUT, "did not reach");
  EXPECT_EQ(download<float>(dst, 4), std::vector<float>(4, 0.0f));
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 2));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, TGRT_WAIT_INFINITE));
  EXPECT_EQ(download<float>(dst, 4), src);
}

TEST_F(QueueTest, ComputeAndCopyEnginesSyncThroughSignals) {
  // copy engine: wait(computed) -> copy -> signal(copied)
  // compute engine: wait(gate) -> exec -> signal(computed)
  // The copy queue is submitted first; it must not run ahead of compute.
  tgrt_program *p = load("threads", "square_slices");
  std::vector<float> a(1024, 3.0f);
  tgrt_buffer *ba = upload(a), *out = alloc(4096), *host = alloc(4096);
  tgrt_signal *gate = signal(0), *computed = signal(0), *copied = signal(0);
  tgrt_queue *cq = queue(TGRT_QUEUE_COPY), *xq = queue(TGRT_QUEUE_COMPUTE);
  TGRT_ASSERT_OK(tgrt_queue_wait(cq, computed, 1));
  TGRT_ASSERT_OK(tgrt_queue_copy(cq, host, 0, out, 0, 4096));
  TGRT_ASSERT_OK(tgrt_queue_signal(cq, copied, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(cq));
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba), tgrt_arg_int(0)};
  TGRT_ASSERT_OK(tgrt_queue_wait(xq, gate, 1));
  TGRT_ASSERT_OK(tgrt_queue_exec(xq, p, args, 3, 2, 8));
  TGRT_ASSERT_OK(tgrt_queue_signal(xq, computed, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(xq));
  TGRT_EXPECT_ERROR(tgrt_signal_wait(copied, 1, 20), TGRT_TIMEOUT, "did not reach");
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(copied, 1, 10000));
  EXPECT_EQ(download<float>(host, 1024), std::vector<float>(1024, 9.0f));
}

TEST_F(QueueTest, RecordingSurvivesSubmitUntilReset) {
  tgrt_program *p = load("threads", "count_ids");
  tgrt_buffer *hits = alloc(4 * 4);
  tgrt_signal *s = signal(0);
  tgrt_queue *q = queue();
  tgrt_arg args[] = {tgrt_arg_buffer(hits), tgrt_arg_int(0)};
  TGRT_ASSERT_OK(tgrt_queue_exec(q, p, args, 2, 1, 4));
  for (int i = 0; i < 3; ++i)
    TGRT_ASSERT_OK(tgrt_queue_submit(q)); // the same recording, three times
  // Recording after a submit does not change what was submitted.
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(s, 1, 10000));
  EXPECT_EQ(download<int>(hits, 4), std::vector<int>(4, 4));
  TGRT_ASSERT_OK(tgrt_queue_reset(q));
  size_t n = 1;
  TGRT_ASSERT_OK(tgrt_queue_command_count(q, &n));
  EXPECT_EQ(n, 0u);
}

TEST_F(QueueTest, ManySubmissionsAdvanceTheTimeline) {
  tgrt_program *p = load("threads", "count_ids");
  tgrt_buffer *hits = alloc(3 * 4);
  tgrt_signal *timeline = signal(0);
  tgrt_queue *q = queue();
  tgrt_arg args[] = {tgrt_arg_buffer(hits), tgrt_arg_int(0)};
  constexpr int kSubmits = 200;
  uint64_t last = 0;
  for (int i = 1; i <= kSubmits; ++i) {
    TGRT_ASSERT_OK(tgrt_queue_reset(q));
    TGRT_ASSERT_OK(tgrt_queue_wait(q, timeline, i - 1));
    TGRT_ASSERT_OK(tgrt_queue_exec(q, p, args, 2, 1, 3));
    TGRT_ASSERT_OK(tgrt_queue_signal(q, timeline, i));
    TGRT_ASSERT_OK(tgrt_queue_submit(q));
    uint64_t v = valueOf(timeline);
    EXPECT_GE(v, last); // never goes back
    last = v;
  }
  TGRT_ASSERT_OK(tgrt_signal_wait(timeline, kSubmits, 10000));
  EXPECT_EQ(download<int>(hits, 3), std::vector<int>(3, kSubmits));
}

TEST_F(QueueTest, QueueSignalNeverLowersATimeline) {
  tgrt_signal *s = signal(10), *done = signal(0);
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, 4));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, 10000));
  EXPECT_EQ(valueOf(s), 10u);
}

TEST_F(QueueTest, Timestamps) {
  tgrt_program *p = load("threads", "count_ids");
  tgrt_buffer *hits = alloc(64 * 4);
  tgrt_signal *t0 = signal(), *t1 = signal(), *done = signal();
  uint64_t ns = 1;
  TGRT_ASSERT_OK(tgrt_signal_timestamp(t0, &ns));
  EXPECT_EQ(ns, 0u);
  tgrt_queue *q = queue();
  tgrt_arg args[] = {tgrt_arg_buffer(hits), tgrt_arg_int(0)};
  TGRT_ASSERT_OK(tgrt_queue_timestamp(q, t0));
  TGRT_ASSERT_OK(tgrt_queue_exec(q, p, args, 2, 1, 64));
  TGRT_ASSERT_OK(tgrt_queue_timestamp(q, t1));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, 10000));
  uint64_t a = 0, b = 0;
  TGRT_ASSERT_OK(tgrt_signal_timestamp(t0, &a));
  TGRT_ASSERT_OK(tgrt_signal_timestamp(t1, &b));
  EXPECT_GT(a, 0u);
  EXPECT_GE(b, a);
}

TEST_F(QueueTest, SynchronizeWaitsForSubmittedWork) {
  tgrt_signal *gate = signal(0), *done = signal(0);
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(tgrt_queue_wait(q, gate, 1));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_EXPECT_ERROR(tgrt_device_synchronize(dev, 20), TGRT_TIMEOUT, "compute engine");
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 1));
  TGRT_ASSERT_OK(tgrt_device_synchronize(dev, TGRT_WAIT_INFINITE));
  EXPECT_EQ(valueOf(done), 1u);
}

TEST_F(QueueTest, SubmittedWorkKeepsItsObjectsAlive) {
  std::vector<float> src = {1, 2, 3, 4};
  tgrt_buffer *bs = nullptr, *dst = alloc(16);
  TGRT_ASSERT_OK(tgrt_buffer_alloc(dev, 16, &bs));
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(bs, 0, src.data(), 16));
  tgrt_signal *gate = signal(0), *done = signal(0);
  tgrt_queue *q = nullptr;
  TGRT_ASSERT_OK(tgrt_queue_create(dev, TGRT_QUEUE_COPY, &q));
  TGRT_ASSERT_OK(tgrt_queue_wait(q, gate, 1));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, dst, 0, bs, 0, 16));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  // Release the queue and the source while the copy is still pending.
  TGRT_ASSERT_OK(tgrt_queue_destroy(q));
  TGRT_ASSERT_OK(tgrt_buffer_free(bs));
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, 10000));
  EXPECT_EQ(download<float>(dst, 4), src);
}

TEST(QueueClose, CloseDrainsSubmittedWork) {
  tgrt_device *dev = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open("CPU", nullptr, &dev));
  std::vector<uint8_t> obj = kernelObject("threads");
  tgrt_program *p = nullptr;
  tgrt_buffer *hits = nullptr;
  tgrt_signal *done = nullptr;
  tgrt_queue *q = nullptr;
  TGRT_ASSERT_OK(tgrt_program_load(dev, obj.data(), obj.size(), "count_ids", &p));
  TGRT_ASSERT_OK(tgrt_buffer_alloc(dev, 8 * 4, &hits));
  TGRT_ASSERT_OK(tgrt_signal_create(dev, 0, &done));
  TGRT_ASSERT_OK(tgrt_queue_create(dev, TGRT_QUEUE_COMPUTE, &q));
  tgrt_arg args[] = {tgrt_arg_buffer(hits), tgrt_arg_int(0)};
  for (int i = 0; i < 10; ++i)
    TGRT_ASSERT_OK(tgrt_queue_exec(q, p, args, 2, 1, 8));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_device_close(dev)); // returns after the work ran
  uint64_t v = 0;
  TGRT_ASSERT_OK(tgrt_signal_value(done, &v));
  EXPECT_EQ(v, 1u);
  std::vector<int> got(8);
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(hits, 0, got.data(), 32));
  EXPECT_EQ(got, std::vector<int>(8, 10));
  TGRT_EXPECT_OK(tgrt_queue_destroy(q));
  TGRT_EXPECT_OK(tgrt_signal_destroy(done));
  TGRT_EXPECT_OK(tgrt_buffer_free(hits));
  TGRT_EXPECT_OK(tgrt_program_free(p));
}

TEST(QueueClose, CloseAbandonsWorkBlockedForever) {
  tgrt_device *dev = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open("CPU", nullptr, &dev));
  tgrt_signal *never = nullptr, *done = nullptr;
  tgrt_queue *q = nullptr, *c = nullptr;
  TGRT_ASSERT_OK(tgrt_signal_create(dev, 0, &never));
  TGRT_ASSERT_OK(tgrt_signal_create(dev, 0, &done));
  TGRT_ASSERT_OK(tgrt_queue_create(dev, TGRT_QUEUE_COMPUTE, &q));
  TGRT_ASSERT_OK(tgrt_queue_create(dev, TGRT_QUEUE_COPY, &c));
  TGRT_ASSERT_OK(tgrt_queue_wait(q, never, 1));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_queue_submit(q)); // a second batch behind the first
  // The copy engine finishes its own work first.
  TGRT_ASSERT_OK(tgrt_queue_signal(c, done, 0));
  TGRT_ASSERT_OK(tgrt_queue_submit(c));
  auto start = Clock::now();
  TGRT_EXPECT_ERROR(tgrt_device_close(dev), TGRT_ABORTED, "4 queued command(s)");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  uint64_t v = 9;
  TGRT_ASSERT_OK(tgrt_signal_value(done, &v));
  EXPECT_EQ(v, 0u);
  TGRT_EXPECT_OK(tgrt_queue_destroy(q));
  TGRT_EXPECT_OK(tgrt_queue_destroy(c));
  TGRT_EXPECT_OK(tgrt_signal_destroy(never));
  TGRT_EXPECT_OK(tgrt_signal_destroy(done));
}

} // namespace
