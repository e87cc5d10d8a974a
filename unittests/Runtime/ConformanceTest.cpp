//===- ConformanceTest.cpp - every driver against one set of tests --------===//
//
// What a driver must do behind the C API (Conformance.h lists the drivers):
// queue order, cross-queue and cross-device waits, timeouts that name the
// signal and the value, timestamps in the host's clock, copies at any
// offset, scalar arguments, many queues, submits from several threads,
// objects kept alive by work in flight, errors for bad programs and absent
// devices, and timeline values past 2^31, 2^32 and near 2^64.
//
//===----------------------------------------------------------------------===//

#include "Conformance.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <thread>

using namespace tgrt_cts;
using Clock = std::chrono::steady_clock;

namespace {

uint64_t hostNs() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
}

std::vector<uint32_t> iotaU(size_t n, uint32_t start) { return tgrt_test::iota<uint32_t>(n, start); }
std::vector<float> iotaF(size_t n, float start) { return tgrt_test::iota<float>(n, start); }

TEST_P(Conformance, QueryNamesTheDriver) {
  tgrt_device_info info{};
  info.api_version = TGRT_API_VERSION;
  TGRT_ASSERT_OK(tgrt_device_query(dev, &info));
  EXPECT_EQ(std::string(info.driver), driverTestName(GetParam()));
  uint32_t threads = 0;
  TGRT_EXPECT_OK(tgrt_device_thread_count(dev, &threads));
  EXPECT_GE(threads, 1u);
  const char *name = nullptr;
  TGRT_EXPECT_OK(tgrt_device_name(dev, &name));
  EXPECT_STREQ(name, GetParam().device);
}

TEST_P(Conformance, CommandsRunInQueueOrder) {
  // A chain of non-commuting updates, a copy in the middle, and a second
  // kernel reading the copy: only in-order execution gives these values.
  const uint32_t n = 1000;
  std::vector<uint32_t> init = iotaU(n, 7);
  tgrt_buffer *buf = upload(init), *snap = alloc(n * 4), *sum = alloc(n * 4);
  tgrt_program *aff = kernel(kAffine), *add = kernel(kAdd);
  tgrt_queue *q = queue();
  tgrt_signal *done = named("done");
  const int64_t ks[] = {1, -2, 3, 0x500000004, -6};
  for (int64_t k : ks)
    TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, k}, n));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, snap, 0, buf, 0, n * 4));
  TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, 9}, n));
  // The add kernel takes floats; adding integer bit patterns as floats is
  // not the point, so add the snapshot to zeros and compare bits.
  tgrt_buffer *zeros = alloc(n * 4);
  TGRT_ASSERT_OK(exec(q, add, {sum, snap, zeros}, {n}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(buf, n), gotSnap = download<uint32_t>(snap, n);
  std::vector<float> gotSum = download<float>(sum, n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t v = init[i];
    for (int64_t k : ks)
      v = affineRef(v, k);
    ASSERT_EQ(gotSnap[i], v) << i;
    float f;
    std::memcpy(&f, &v, 4);
    // -0.0 + 0.0 = +0.0 and NaNs may change bits: compare as floats.
    if (f == f)
      ASSERT_EQ(gotSum[i], f + 0.0f) << i;
    ASSERT_EQ(got[i], affineRef(v, 9)) << i;
  }
}

TEST_P(Conformance, SubmissionsRunInSubmitOrder) {
  const uint32_t n = 300;
  std::vector<uint32_t> init = iotaU(n, 1);
  tgrt_buffer *buf = upload(init);
  tgrt_program *aff = kernel(kAffine);
  tgrt_queue *q = queue();
  tgrt_signal *done = named("done");
  constexpr int kSubmits = 50;
  for (int i = 0; i < kSubmits; ++i) {
    TGRT_ASSERT_OK(tgrt_queue_reset(q));
    TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, 1000 + i}, n));
    TGRT_ASSERT_OK(tgrt_queue_signal(q, done, i + 1));
    TGRT_ASSERT_OK(tgrt_queue_submit(q));
  }
  TGRT_ASSERT_OK(tgrt_signal_wait(done, kSubmits, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(buf, n);
  for (uint32_t j = 0; j < n; ++j) {
    uint32_t v = init[j];
    for (int i = 0; i < kSubmits; ++i)
      v = affineRef(v, 1000 + i);
    ASSERT_EQ(got[j], v) << j;
  }
}

TEST_P(Conformance, CrossQueueWaits) {
  // copy: wait(computed) -> copy -> signal(copied); compute: wait(gate) ->
  // kernel -> signal(computed). The copy queue goes first and must not run
  // ahead; nothing moves until the host opens the gate.
  const uint32_t n = 512;
  tgrt_buffer *buf = upload(iotaU(n, 0)), *out = alloc(n * 4);
  tgrt_program *aff = kernel(kAffine);
  tgrt_signal *gate = named("gate"), *computed = named("computed"), *copied = named("copied");
  tgrt_queue *cq = queue(TGRT_QUEUE_COPY), *xq = queue();
  TGRT_ASSERT_OK(tgrt_queue_wait(cq, computed, 1));
  TGRT_ASSERT_OK(tgrt_queue_copy(cq, out, 0, buf, 0, n * 4));
  TGRT_ASSERT_OK(tgrt_queue_signal(cq, copied, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(cq));
  TGRT_ASSERT_OK(tgrt_queue_wait(xq, gate, 1));
  TGRT_ASSERT_OK(exec(xq, aff, {buf}, {n, 5}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(xq, computed, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(xq));
  TGRT_EXPECT_ERROR(tgrt_signal_wait(copied, 1, 30), TGRT_TIMEOUT, "'copied'");
  EXPECT_EQ(download<uint32_t>(out, n), std::vector<uint32_t>(n, 0));
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(copied, 1, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(out, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], affineRef(i, 5)) << i;
}

TEST_P(Conformance, CrossDeviceWaits) {
  // A second device of the same driver waits on the first one's signal.
  tgrt_device *other = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open(GetParam().device, nullptr, &other));
  const uint32_t n = 128;
  tgrt_buffer *a = upload(iotaU(n, 3)), *b = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_alloc(other, n * 4, &b));
  tgrt_program *affA = kernel(kAffine), *affB = kernel(kAffine, other, false);
  tgrt_signal *first = named("first"), *second = nullptr;
  TGRT_ASSERT_OK(tgrt_signal_create(other, 0, &second));
  tgrt_queue *qa = queue(), *qb = nullptr;
  TGRT_ASSERT_OK(tgrt_queue_create(other, TGRT_QUEUE_COMPUTE, &qb));
  // b's kernel must see a's result, which the host moves between devices.
  TGRT_ASSERT_OK(tgrt_queue_wait(qb, first, 2));
  TGRT_ASSERT_OK(exec(qb, affB, {b}, {n, 1}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(qb, second, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(qb));
  TGRT_ASSERT_OK(exec(qa, affA, {a}, {n, 2}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(qa, first, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(qa));
  TGRT_ASSERT_OK(tgrt_signal_wait(first, 1, kWaitMs));
  std::vector<uint32_t> mid = download<uint32_t>(a, n);
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(b, 0, mid.data(), n * 4));
  TGRT_EXPECT_ERROR(tgrt_signal_wait(second, 1, 20), TGRT_TIMEOUT, "value 1");
  TGRT_ASSERT_OK(tgrt_signal_signal(first, 2));
  TGRT_ASSERT_OK(tgrt_signal_wait(second, 1, kWaitMs));
  std::vector<uint32_t> got(n);
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(b, 0, got.data(), n * 4));
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], affineRef(affineRef(i + 3, 2), 1)) << i;
  TGRT_EXPECT_OK(tgrt_queue_destroy(qb));
  TGRT_EXPECT_OK(tgrt_signal_destroy(second));
  TGRT_EXPECT_OK(tgrt_program_free(affB));
  TGRT_EXPECT_OK(tgrt_buffer_free(b));
  TGRT_EXPECT_OK(tgrt_device_close(other));
}

TEST_P(Conformance, HostWaitTimeoutNamesTheSignalAndValue) {
  tgrt_signal *gate = named("gate", 3);
  auto start = Clock::now();
  TGRT_EXPECT_ERROR(tgrt_signal_wait(gate, 7, 30), TGRT_TIMEOUT, "signal 'gate'");
  EXPECT_NE(std::string(tgrt_last_error()).find("value 7"), std::string::npos) << tgrt_last_error();
  EXPECT_NE(std::string(tgrt_last_error()).find("it is 3"), std::string::npos) << tgrt_last_error();
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(30));
  // An unnamed signal is named by its number.
  tgrt_signal *anon = signal(0);
  TGRT_EXPECT_ERROR(tgrt_signal_wait(anon, 1, 0), TGRT_TIMEOUT, "signal #");
}

TEST_P(Conformance, StuckQueueWaitTimesOutNamingTheSignalAndValue) {
  TGRT_ASSERT_OK(tgrt_device_set_wait_timeout(dev, 100));
  const uint32_t n = 64;
  tgrt_buffer *buf = upload(iotaU(n, 0));
  tgrt_program *aff = kernel(kAffine);
  tgrt_signal *gate = named("gate"), *done = named("done");
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(tgrt_queue_wait(q, gate, 7));
  TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, 1}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  auto start = Clock::now();
  TGRT_EXPECT_ERROR(tgrt_device_synchronize(dev, kWaitMs), TGRT_TIMEOUT, "signal 'gate'");
  EXPECT_NE(std::string(tgrt_last_error()).find("value 7"), std::string::npos) << tgrt_last_error();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(20));
  // What followed the wait was dropped, not run late.
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 7));
  TGRT_EXPECT_ERROR(tgrt_signal_wait(done, 1, 50), TGRT_TIMEOUT, "signal 'done'");
  EXPECT_EQ(download<uint32_t>(buf, n), iotaU(n, 0));
  // The error was reported once; the device takes new work.
  TGRT_EXPECT_OK(tgrt_device_synchronize(dev, kWaitMs));
  TGRT_ASSERT_OK(tgrt_queue_reset(q));
  TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, 1}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 2));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 2, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(buf, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], affineRef(i, 1)) << i;
  TGRT_EXPECT_ERROR(tgrt_device_set_wait_timeout(nullptr, 1), TGRT_INVALID_ARGUMENT, "device");
}

TEST_P(Conformance, TimestampsFollowQueueOrderInTheHostClock) {
  const uint32_t n = 1 << 16;
  tgrt_buffer *buf = alloc(n * 4), *copy = alloc(n * 4);
  tgrt_program *aff = kernel(kAffine);
  tgrt_signal *t0 = named("t0"), *t1 = named("t1"), *t2 = named("t2"), *done = named("done");
  uint64_t ns = 1;
  TGRT_ASSERT_OK(tgrt_signal_timestamp(t0, &ns));
  EXPECT_EQ(ns, 0u); // none written yet
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(tgrt_queue_timestamp(q, t0));
  for (int i = 0; i < 4; ++i)
    TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, i}, n));
  TGRT_ASSERT_OK(tgrt_queue_timestamp(q, t1));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, copy, 0, buf, 0, n * 4));
  TGRT_ASSERT_OK(tgrt_queue_timestamp(q, t2));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  uint64_t before = hostNs();
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  uint64_t after = hostNs();
  uint64_t a = 0, b = 0, c = 0;
  TGRT_ASSERT_OK(tgrt_signal_timestamp(t0, &a));
  TGRT_ASSERT_OK(tgrt_signal_timestamp(t1, &b));
  TGRT_ASSERT_OK(tgrt_signal_timestamp(t2, &c));
  EXPECT_LE(before, a);
  EXPECT_LT(a, b); // four kernels over 2^16 elements take time
  EXPECT_LE(b, c);
  EXPECT_LE(c, after);
}

TEST_P(Conformance, HostCopiesAtOddOffsets) {
  std::vector<uint8_t> bytes(257);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(i * 7 + 1);
  tgrt_buffer *b = alloc(300);
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(b, 3, bytes.data(), bytes.size()));
  std::vector<uint8_t> got(300);
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(b, 0, got.data(), got.size()));
  for (size_t i = 0; i < 300; ++i)
    ASSERT_EQ(got[i], i >= 3 && i < 260 ? bytes[i - 3] : 0) << i;
  std::vector<uint8_t> part(5);
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(b, 11, part.data(), 5));
  EXPECT_EQ(part, std::vector<uint8_t>(bytes.begin() + 8, bytes.begin() + 13));
  // Through a view at an odd offset.
  tgrt_buffer *v = view(b, 101, 50);
  uint8_t x[3] = {0xAA, 0xBB, 0xCC};
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(v, 49 - 2, x, 2));
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_in(v, 49, x, 2), TGRT_OUT_OF_RANGE, "50-byte");
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(b, 101 + 47, part.data(), 3));
  EXPECT_EQ(part[0], 0xAA);
  EXPECT_EQ(part[1], 0xBB);
  EXPECT_EQ(part[2], bytes[101 + 49 - 3]);
}

TEST_P(Conformance, DeviceCopiesBetweenBuffersAndViews) {
  std::vector<uint8_t> bytes(200);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(i + 1);
  tgrt_buffer *src = upload(bytes), *dst = alloc(200), *dst2 = alloc(200);
  tgrt_buffer *srcView = view(src, 3, 150), *dstView = view(dst, 7, 150);
  tgrt_signal *done = named("done");
  tgrt_queue *q = queue(TGRT_QUEUE_COPY);
  TGRT_ASSERT_OK(tgrt_queue_copy(q, dst2, 0, src, 0, 200));         // whole buffers
  TGRT_ASSERT_OK(tgrt_queue_copy(q, dstView, 1, srcView, 5, 13));   // odd offsets, odd size
  TGRT_ASSERT_OK(tgrt_queue_copy(q, dst, 100, dst, 8, 9));          // inside one buffer
  TGRT_ASSERT_OK(tgrt_queue_copy(q, dst2, 10, dst2, 5, 20));        // overlapping, forward
  TGRT_ASSERT_OK(tgrt_queue_copy(q, dst2, 0, dst2, 0, 0));          // empty
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  std::vector<uint8_t> want(200, 0), want2 = bytes;
  for (int i = 0; i < 13; ++i)
    want[7 + 1 + i] = bytes[3 + 5 + i];
  for (int i = 0; i < 9; ++i)
    want[100 + i] = want[8 + i];
  std::memmove(want2.data() + 10, want2.data() + 5, 20);
  EXPECT_EQ(download<uint8_t>(dst, 200), want);
  EXPECT_EQ(download<uint8_t>(dst2, 200), want2);
  TGRT_EXPECT_ERROR(tgrt_queue_copy(q, dstView, 140, srcView, 0, 11), TGRT_OUT_OF_RANGE, "destination");
}

TEST_P(Conformance, KernelsOnViewsAtElementOffsets) {
  // Views start 4, 12 and 20 bytes in: element-aligned, not 16-aligned.
  const uint32_t n = 100;
  tgrt_buffer *a = upload(iotaF(n + 3, 0)), *b = upload(iotaF(n + 1, 500)), *c = alloc((n + 5) * 4);
  tgrt_buffer *va = view(a, 12, n * 4), *vb = view(b, 4, n * 4), *vc = view(c, 20, n * 4);
  tgrt_program *add = kernel(kAdd);
  TGRT_ASSERT_OK(dispatchNow(add, {vc, va, vb}, {n}, n));
  std::vector<float> out = download<float>(c, n + 5);
  for (uint32_t i = 0; i < n + 5; ++i)
    ASSERT_EQ(out[i], i < 5 ? 0.0f : (float)(i - 5 + 3) + (float)(i - 5 + 1 + 500)) << i;
}

TEST_P(Conformance, ScalarArguments) {
  // n leaves the tail alone; k's two 32-bit halves both matter.
  const uint32_t size = 200, n = 131;
  std::vector<uint32_t> init = iotaU(size, 11);
  tgrt_buffer *buf = upload(init);
  tgrt_program *aff = kernel(kAffine);
  tgrt_queue *q = queue();
  tgrt_signal *done = named("done");
  const int64_t ks[] = {0, 1, -1, INT64_MIN, INT64_MAX, 0x123456789abcdefll, -0x7edcba9876543210ll};
  for (int64_t k : ks)
    TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, k}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(buf, size);
  for (uint32_t i = 0; i < size; ++i) {
    uint32_t v = init[i];
    if (i < n)
      for (int64_t k : ks)
        v = affineRef(v, k);
    ASSERT_EQ(got[i], v) << i;
  }
  // The same through a direct dispatch.
  TGRT_ASSERT_OK(dispatchNow(aff, {buf}, {1, 0x0000000100000000ll}, 1));
  EXPECT_EQ(download<uint32_t>(buf, 1)[0], affineRef(got[0], 0x0000000100000000ll));
}

TEST_P(Conformance, ManyQueues) {
  // Pairs of queues: compute i updates buffer i and signals; copy i waits
  // for it and copies out. Copies go first, computes in reverse order.
  constexpr int kPairs = 16;
  const uint32_t n = 96;
  tgrt_program *aff = kernel(kAffine);
  std::vector<tgrt_buffer *> bufs, outs;
  std::vector<tgrt_signal *> computed, copied;
  std::vector<tgrt_queue *> xq, cq;
  for (int i = 0; i < kPairs; ++i) {
    bufs.push_back(upload(iotaU(n, i * 1000)));
    outs.push_back(alloc(n * 4));
    computed.push_back(signal(0));
    copied.push_back(signal(0));
    xq.push_back(queue());
    cq.push_back(queue(TGRT_QUEUE_COPY));
  }
  for (int i = 0; i < kPairs; ++i) {
    TGRT_ASSERT_OK(tgrt_queue_wait(cq[i], computed[i], 1));
    TGRT_ASSERT_OK(tgrt_queue_copy(cq[i], outs[i], 0, bufs[i], 0, n * 4));
    TGRT_ASSERT_OK(tgrt_queue_signal(cq[i], copied[i], 1));
    TGRT_ASSERT_OK(tgrt_queue_submit(cq[i]));
  }
  for (int i = kPairs - 1; i >= 0; --i) {
    TGRT_ASSERT_OK(exec(xq[i], aff, {bufs[i]}, {n, i}, n));
    TGRT_ASSERT_OK(tgrt_queue_signal(xq[i], computed[i], 1));
    TGRT_ASSERT_OK(tgrt_queue_submit(xq[i]));
  }
  // And a chain through every compute queue on one buffer, in order.
  tgrt_buffer *chain = upload(iotaU(n, 5));
  tgrt_signal *link = named("link");
  for (int i = 0; i < kPairs; ++i) {
    TGRT_ASSERT_OK(tgrt_queue_reset(xq[i]));
    TGRT_ASSERT_OK(tgrt_queue_wait(xq[i], link, i));
    TGRT_ASSERT_OK(exec(xq[i], aff, {chain}, {n, 100 + i}, n));
    TGRT_ASSERT_OK(tgrt_queue_signal(xq[i], link, i + 1));
    TGRT_ASSERT_OK(tgrt_queue_submit(xq[i]));
  }
  for (int i = 0; i < kPairs; ++i) {
    TGRT_ASSERT_OK(tgrt_signal_wait(copied[i], 1, kWaitMs));
    std::vector<uint32_t> got = download<uint32_t>(outs[i], n);
    for (uint32_t j = 0; j < n; ++j)
      ASSERT_EQ(got[j], affineRef(i * 1000 + j, i)) << i << " " << j;
  }
  TGRT_ASSERT_OK(tgrt_signal_wait(link, kPairs, kWaitMs));
  std::vector<uint32_t> got = download<uint32_t>(chain, n);
  for (uint32_t j = 0; j < n; ++j) {
    uint32_t v = 5 + j;
    for (int i = 0; i < kPairs; ++i)
      v = affineRef(v, 100 + i);
    ASSERT_EQ(got[j], v) << j;
  }
}

TEST_P(Conformance, ConcurrentSubmitFromTwoThreads) {
  constexpr int kThreadsSubmitting = 2, kRounds = 100;
  const uint32_t n = 64;
  tgrt_program *aff = kernel(kAffine);
  tgrt_buffer *bufs[kThreadsSubmitting], *outs[kThreadsSubmitting];
  tgrt_signal *sigs[kThreadsSubmitting];
  tgrt_queue *qs[kThreadsSubmitting];
  for (int t = 0; t < kThreadsSubmitting; ++t) {
    bufs[t] = upload(iotaU(n, t * 7));
    outs[t] = alloc(n * 4);
    sigs[t] = signal(0);
    qs[t] = queue();
  }
  std::atomic<int> failures{0};
  auto worker = [&](int t) {
    for (int r = 0; r < kRounds; ++r) {
      bool ok = tgrt_queue_reset(qs[t]) == TGRT_OK &&
                exec(qs[t], aff, {bufs[t]}, {n, r * 3 + t}, n) == TGRT_OK &&
                tgrt_queue_copy(qs[t], outs[t], 0, bufs[t], 0, n * 4) == TGRT_OK &&
                tgrt_queue_signal(qs[t], sigs[t], r + 1) == TGRT_OK &&
                tgrt_queue_submit(qs[t]) == TGRT_OK;
      if (!ok)
        failures.fetch_add(1);
      // A direct launch from the same thread now and then, on other data.
      if (r % 25 == 0) {
        std::vector<uint32_t> zeros(n);
        tgrt_buffer *scratch = nullptr;
        ok = tgrt_buffer_alloc(dev, n * 4, &scratch) == TGRT_OK &&
             dispatchNow(aff, {scratch}, {n, r}, n) == TGRT_OK &&
             tgrt_buffer_copy_out(scratch, 0, zeros.data(), n * 4) == TGRT_OK &&
             zeros[n - 1] == affineRef(0, r) && tgrt_buffer_free(scratch) == TGRT_OK;
        if (!ok)
          failures.fetch_add(1);
      }
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  EXPECT_EQ(failures.load(), 0) << tgrt_last_error();
  for (int t = 0; t < kThreadsSubmitting; ++t) {
    TGRT_ASSERT_OK(tgrt_signal_wait(sigs[t], kRounds, kWaitMs));
    std::vector<uint32_t> got = download<uint32_t>(outs[t], n);
    for (uint32_t j = 0; j < n; ++j) {
      uint32_t v = t * 7 + j;
      for (int r = 0; r < kRounds; ++r)
        v = affineRef(v, r * 3 + t);
      ASSERT_EQ(got[j], v) << t << " " << j;
    }
  }
}

TEST_P(Conformance, ObjectsLiveWhileCommandsAreInFlight) {
  const uint32_t n = 100;
  std::vector<float> init = iotaF(n + 1, 1);
  tgrt_buffer *in = nullptr, *inView = nullptr, *out = alloc(n * 4), *copy = alloc(n * 4);
  TGRT_ASSERT_OK(tgrt_buffer_alloc(dev, (n + 1) * 4, &in));
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(in, 0, init.data(), (n + 1) * 4));
  TGRT_ASSERT_OK(tgrt_buffer_view(in, 4, n * 4, &inView));
  tgrt_program *add = kernel(kAdd, nullptr, /*owned=*/false);
  tgrt_signal *gate = named("gate"), *done = named("done"), *stamp = nullptr;
  TGRT_ASSERT_OK(tgrt_signal_create(dev, 0, &stamp));
  tgrt_queue *q = nullptr;
  TGRT_ASSERT_OK(tgrt_queue_create(dev, TGRT_QUEUE_COMPUTE, &q));
  TGRT_ASSERT_OK(tgrt_queue_wait(q, gate, 1));
  TGRT_ASSERT_OK(exec(q, add, {out, inView, inView}, {n}, n));
  TGRT_ASSERT_OK(tgrt_queue_copy(q, copy, 0, inView, 0, n * 4));
  TGRT_ASSERT_OK(tgrt_queue_timestamp(q, stamp));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  // Every handle the commands name is released before they run.
  TGRT_ASSERT_OK(tgrt_queue_destroy(q));
  TGRT_ASSERT_OK(tgrt_program_free(add));
  TGRT_ASSERT_OK(tgrt_buffer_free(inView));
  TGRT_ASSERT_OK(tgrt_buffer_free(in));
  TGRT_ASSERT_OK(tgrt_signal_destroy(stamp));
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, kWaitMs));
  std::vector<float> got = download<float>(out, n), gotCopy = download<float>(copy, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[i], 2 * init[i + 1]) << i;
    ASSERT_EQ(gotCopy[i], init[i + 1]) << i;
  }
}

TEST_P(Conformance, CloseWaitsForWorkInFlight) {
  tgrt_device *d = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open(GetParam().device, nullptr, &d));
  const uint32_t n = 4096;
  tgrt_buffer *buf = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_alloc(d, n * 4, &buf));
  tgrt_program *aff = kernel(kAffine, d, false);
  tgrt_queue *q = nullptr;
  TGRT_ASSERT_OK(tgrt_queue_create(d, TGRT_QUEUE_COMPUTE, &q));
  for (int i = 0; i < 20; ++i)
    TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, i}, n));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_queue_destroy(q));
  TGRT_ASSERT_OK(tgrt_program_free(aff));
  TGRT_ASSERT_OK(tgrt_device_close(d)); // returns once the work ran
  std::vector<uint32_t> got(n);
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(buf, 0, got.data(), n * 4));
  uint32_t v = 0;
  for (int i = 0; i < 20; ++i)
    v = affineRef(v, i);
  EXPECT_EQ(got, std::vector<uint32_t>(n, v));
  TGRT_EXPECT_OK(tgrt_buffer_free(buf));
}

TEST_P(Conformance, FailingProgramLoadIsAnError) {
  std::vector<uint8_t> junk(256, 0x5a);
  tgrt_program_desc d = programDesc(kAdd, junk);
  tgrt_program *p = nullptr;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_OBJECT, "");
  // Truncated real binaries.
  std::vector<uint8_t> real = binary(kAdd, dev);
  d.binary = real.data();
  d.size = real.size() / 2 / 4 * 4;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_OBJECT, "");
  // Another driver's format (the CPU's, or Vulkan's for the CPU).
  d.format = format() == KernelFormat::Elf ? TGRT_FORMAT_SPIRV : TGRT_FORMAT_ELF;
  d.offsets_word = 0;
  d.size = real.size();
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_UNSUPPORTED, "");
  EXPECT_EQ(p, nullptr);
  // The device is fine afterwards.
  tgrt_program *add = kernel(kAdd);
  tgrt_buffer *x = upload(iotaF(4, 1)), *y = alloc(16);
  TGRT_ASSERT_OK(dispatchNow(add, {y, x, x}, {4}, 4));
  EXPECT_EQ(download<float>(y, 4), (std::vector<float>{2, 4, 6, 8}));
}

TEST_P(Conformance, TimelineValuesPast32BitsAndNearTheTop) {
  // Hardware signals are often 32-bit words (tinygrad swaps signals at
  // 2^31): values must survive 2^31, 2^32, jumps wider than 2^32, and
  // reach UINT64_MAX.
  const uint64_t k31 = 1ull << 31, k32 = 1ull << 32;
  const uint32_t n = 32;
  tgrt_buffer *buf = upload(iotaU(n, 0));
  tgrt_program *aff = kernel(kAffine);
  tgrt_signal *s = named("timeline", k31 - 2), *gate = named("gate", 1), *done = named("done");
  tgrt_queue *q = queue();
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, k31 + 1));
  TGRT_ASSERT_OK(tgrt_queue_wait(q, s, k31 + 1));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, k32 - 1));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, k32 + 2));
  TGRT_ASSERT_OK(tgrt_queue_wait(q, s, k32 + 2));
  // A 32-bit compare would see gate (1) >= (2^32 + 1) as 1 >= 1.
  TGRT_ASSERT_OK(tgrt_queue_wait(q, gate, k32 + 1));
  TGRT_ASSERT_OK(exec(q, aff, {buf}, {n, 1}, n));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, UINT64_MAX - 15));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, done, k32 * 5));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(s, k32 + 2, kWaitMs));
  TGRT_EXPECT_ERROR(tgrt_signal_wait(done, 1, 50), TGRT_TIMEOUT, "signal 'done'");
  EXPECT_EQ(valueOf(s), k32 + 2);
  TGRT_ASSERT_OK(tgrt_signal_signal(gate, k32 + 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, k32 * 5, kWaitMs));
  EXPECT_EQ(valueOf(s), UINT64_MAX - 15);
  TGRT_ASSERT_OK(tgrt_signal_signal(s, UINT64_MAX));
  TGRT_ASSERT_OK(tgrt_signal_wait(s, UINT64_MAX, 0));
  std::vector<uint32_t> got = download<uint32_t>(buf, n);
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(got[i], affineRef(i, 1)) << i;
}

INSTANTIATE_TEST_SUITE_P(Drivers, Conformance, ::testing::ValuesIn(kDrivers),
                         [](const ::testing::TestParamInfo<DriverCase> &info) {
                           return driverTestName(info.param);
                         });

/// The tests that need no device of the driver: they run on every machine,
/// also where the hardware is absent.
class DriverOpen : public ::testing::TestWithParam<DriverCase> {};

TEST_P(DriverOpen, MissingDeviceIsAnError) {
  tgrt_device *d = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open(GetParam().missingDevice, nullptr, &d), TGRT_UNAVAILABLE,
                    "'" + std::string(GetParam().missingDevice) + "'");
  EXPECT_EQ(d, nullptr);
}

INSTANTIATE_TEST_SUITE_P(Drivers, DriverOpen, ::testing::ValuesIn(kDrivers),
                         [](const auto &info) { return driverTestName(info.param); });

/// The drivers that open a vendor library: one that is not there is an
/// error returned, naming the library and the device.
class DriverLibrary : public ::testing::TestWithParam<DriverCase> {};

TEST_P(DriverLibrary, MissingLibraryIsAnError) {
  const char *path = "/nonexistent/tgrt-conformance/driver.so";
  tgrt_test::ScopedEnv env(GetParam().libraryEnv, path);
  tgrt_device *d = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open(GetParam().device, nullptr, &d), TGRT_UNAVAILABLE, path);
  EXPECT_NE(std::string(tgrt_last_error()).find("'" + std::string(GetParam().device) + "'"),
            std::string::npos)
      << tgrt_last_error();
  EXPECT_EQ(d, nullptr);
}

INSTANTIATE_TEST_SUITE_P(Drivers, DriverLibrary, ::testing::ValuesIn(driversWithLibrary()),
                         [](const auto &info) { return driverTestName(info.param); });

} // namespace
