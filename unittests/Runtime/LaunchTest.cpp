//===- LaunchTest.cpp - calling convention and parallel core_id launches --===//

#include "TestUtil.h"

#include <thread>

using namespace tgrt_test;

namespace {

using LaunchTest = RuntimeTest;

TEST_F(LaunchTest, ArgumentValidation) {
  tgrt_program *p = load("add");
  ASSERT_NE(p, nullptr);
  tgrt_buffer *b = alloc(16);
  std::vector<tgrt_arg> args(64, tgrt_arg_buffer(b));
  args[3] = tgrt_arg_int(4);
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, args.data(), 64, -1, 1), TGRT_INVALID_ARGUMENT, "at most 63");
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, nullptr, 4, -1, 1), TGRT_INVALID_ARGUMENT, "args is NULL");
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, args.data(), 4, 4, 2), TGRT_INVALID_ARGUMENT,
                    "core_id_arg_index 4");
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, args.data(), 4, -2, 1), TGRT_INVALID_ARGUMENT,
                    "core_id_arg_index -2");
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, args.data(), 4, -1, 2), TGRT_INVALID_ARGUMENT,
                    "no core_id argument");
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, args.data(), 4, 3, 0), TGRT_INVALID_ARGUMENT, "nthreads 0");
  std::vector<tgrt_arg> bad = {tgrt_arg_buffer(b), tgrt_arg_buffer(nullptr), tgrt_arg_buffer(b),
                               tgrt_arg_int(4)};
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, bad.data(), 4, -1, 1), TGRT_INVALID_ARGUMENT,
                    "argument 1 is a NULL buffer");
  bad[1].kind = 77;
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, bad.data(), 4, -1, 1), TGRT_INVALID_ARGUMENT, "unknown kind 77");
  // A buffer of another device.
  tgrt_device *other = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open("CPU", nullptr, &other));
  tgrt_buffer *foreign = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_alloc(other, 16, &foreign));
  bad[1] = tgrt_arg_buffer(foreign);
  TGRT_EXPECT_ERROR(tgrt_program_launch(p, bad.data(), 4, -1, 1), TGRT_INVALID_ARGUMENT, "another device");
  TGRT_EXPECT_OK(tgrt_buffer_free(foreign));
  TGRT_EXPECT_OK(tgrt_device_close(other));
}

TEST_F(LaunchTest, IntsTravelIn64BitSlots) {
  tgrt_program *p = load("add");
  std::vector<float> a(16, 1.0f), b(16, 2.0f);
  tgrt_buffer *out = alloc(16 * 4), *ba = upload(a), *bb = upload(b);
  // The kernel declares `const int n`: it reads the low 32 bits of the slot.
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba), tgrt_arg_buffer(bb),
                     tgrt_arg_int((int64_t(1) << 32) | 5)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 4, -1, 1));
  std::vector<float> got = download<float>(out, 16);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(got[i], i < 5 ? 3.0f : 0.0f) << i;
  // A negative int stays negative (the loop runs zero times).
  std::fill(a.begin(), a.end(), 9.0f);
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(ba, 0, a.data(), 64));
  args[3] = tgrt_arg_int(-7);
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 4, -1, 1));
  EXPECT_EQ(download<float>(out, 16), got);
}

TEST_F(LaunchTest, OffsetViewsAsArguments) {
  tgrt_program *p = load("add");
  std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8}, zeros(8, 0.0f);
  tgrt_buffer *ba = upload(a), *out = upload(zeros);
  tgrt_buffer *a1 = nullptr, *a2 = nullptr, *o3 = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_view(ba, 4, 16, &a1)); // a[1..5)
  TGRT_ASSERT_OK(tgrt_buffer_view(ba, 8, 16, &a2)); // a[2..6)
  TGRT_ASSERT_OK(tgrt_buffer_view(out, 12, 16, &o3));
  buffers.insert(buffers.end(), {a1, a2, o3});
  tgrt_arg args[] = {tgrt_arg_buffer(o3), tgrt_arg_buffer(a1), tgrt_arg_buffer(a2), tgrt_arg_int(4)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 4, -1, 1));
  EXPECT_EQ(download<float>(out, 8), (std::vector<float>{0, 0, 0, 5, 7, 9, 11, 0}));
}

TEST_F(LaunchTest, SixtyThreeArguments) {
  tgrt_program *p = load("args63");
  ASSERT_NE(p, nullptr);
  tgrt_buffer *out = alloc(8 * 8);
  std::vector<tgrt_arg> args(63);
  args[0] = tgrt_arg_buffer(out);
  int64_t want = 0;
  for (int i = 1; i <= 61; ++i) {
    args[i] = tgrt_arg_int(1000 + 17 * i);
    want += int64_t(1000 + 17 * i) * i;
  }
  args[62] = tgrt_arg_int(-1); // -> out[0]
  TGRT_ASSERT_OK(tgrt_program_launch(p, args.data(), 63, -1, 1));
  EXPECT_EQ(download<int64_t>(out, 1)[0], want);
  // The last argument as core_id: threads 0..5 write out[1..6].
  TGRT_ASSERT_OK(tgrt_program_launch(p, args.data(), 63, 62, 6));
  std::vector<int64_t> got = download<int64_t>(out, 8);
  for (int t = 1; t <= 6; ++t)
    EXPECT_EQ(got[t], want) << t;
  EXPECT_EQ(got[7], 0);
}

TEST_F(LaunchTest, CoreIdSlices) {
  tgrt_program *p = load("threads", "square_slices");
  ASSERT_NE(p, nullptr);
  std::vector<float> a(1024);
  for (int i = 0; i < 1024; ++i)
    a[i] = 0.5f * static_cast<float>(i % 97) - 10.0f;
  tgrt_buffer *out = alloc(1024 * 4), *ba = upload(a);
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba), tgrt_arg_int(0)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 3, 2, 8)); // 8 ids on 4 threads
  std::vector<float> got = download<float>(out, 1024);
  for (int i = 0; i < 1024; ++i)
    EXPECT_EQ(got[i], a[i] * a[i]) << i;
}

TEST_F(LaunchTest, EveryIdRunsExactlyOnce) {
  tgrt_program *p = load("threads", "count_ids");
  ASSERT_NE(p, nullptr);
  for (uint32_t n : {1u, 2u, 3u, 4u, 5u, 37u, 1000u}) {
    tgrt_buffer *hits = alloc(n * 4);
    tgrt_arg args[] = {tgrt_arg_buffer(hits), tgrt_arg_int(0)};
    for (int rep = 0; rep < 20; ++rep)
      TGRT_ASSERT_OK(tgrt_program_launch(p, args, 2, 1, n));
    EXPECT_EQ(download<int>(hits, n), std::vector<int>(n, 20)) << n << " ids";
  }
}

TEST_F(LaunchTest, ThreadsRunInParallel) {
  // Every call waits at a rendezvous until all kThreads calls have arrived;
  // run one after another, the first would wait alone and report -1.
  tgrt_program *p = load("threads", "rendezvous");
  ASSERT_NE(p, nullptr);
  uint32_t threads = 0;
  TGRT_ASSERT_OK(tgrt_device_thread_count(dev, &threads));
  ASSERT_EQ(threads, kThreads);
  for (int rep = 0; rep < 5; ++rep) {
    tgrt_buffer *state = alloc((1 + kThreads) * 4);
    tgrt_arg args[] = {tgrt_arg_buffer(state), tgrt_arg_int(kThreads), tgrt_arg_int(0)};
    TGRT_ASSERT_OK(tgrt_program_launch(p, args, 3, 2, kThreads));
    std::vector<int> got = download<int>(state, 1 + kThreads);
    EXPECT_EQ(got[0], (int)kThreads);
    for (uint32_t t = 0; t < kThreads; ++t)
      EXPECT_EQ(got[1 + t], 1) << "thread " << t << " never saw the others";
  }
}

TEST_F(LaunchTest, ConcurrentLaunchesFromManyHostThreads) {
  tgrt_program *p = load("threads", "count_ids");
  ASSERT_NE(p, nullptr);
  constexpr int kHosts = 4, kReps = 50;
  constexpr uint32_t kIds = 16;
  tgrt_buffer *hits[kHosts];
  for (auto &h : hits)
    h = alloc(kIds * 4);
  std::vector<std::thread> hosts;
  std::vector<tgrt_status> status(kHosts, TGRT_OK);
  for (int h = 0; h < kHosts; ++h)
    hosts.emplace_back([&, h] {
      tgrt_arg args[] = {tgrt_arg_buffer(hits[h]), tgrt_arg_int(0)};
      for (int r = 0; r < kReps && status[h] == TGRT_OK; ++r)
        status[h] = tgrt_program_launch(p, args, 2, 1, kIds);
    });
  for (auto &t : hosts)
    t.join();
  for (int h = 0; h < kHosts; ++h) {
    EXPECT_EQ(status[h], TGRT_OK);
    EXPECT_EQ(download<int>(hits[h], kIds), std::vector<int>(kIds, kReps)) << "host " << h;
  }
}

TEST(LaunchSingleThread, OneThreadDeviceStillRunsEveryId) {
  tgrt_device *dev = nullptr;
  tgrt_device_options opts = TGRT_DEVICE_OPTIONS_DEFAULT;
  opts.num_threads = 1;
  TGRT_ASSERT_OK(tgrt_device_open("CPU", &opts, &dev));
  std::vector<uint8_t> obj = kernelObject("threads");
  tgrt_program *p = nullptr;
  TGRT_ASSERT_OK(tgrt_program_load(dev, obj.data(), obj.size(), "count_ids", &p));
  tgrt_buffer *hits = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_alloc(dev, 9 * 4, &hits));
  tgrt_arg args[] = {tgrt_arg_buffer(hits), tgrt_arg_int(0)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 2, 1, 9));
  std::vector<int> got(9);
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(hits, 0, got.data(), 36));
  EXPECT_EQ(got, std::vector<int>(9, 1));
  TGRT_EXPECT_OK(tgrt_buffer_free(hits));
  TGRT_EXPECT_OK(tgrt_program_free(p));
  TGRT_EXPECT_OK(tgrt_device_close(dev));
}

} // namespace
