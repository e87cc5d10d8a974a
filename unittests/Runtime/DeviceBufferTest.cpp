//===- DeviceBufferTest.cpp - devices, buffers, views, error reporting ----===//

#include "TestUtil.h"

#include <cstring>
#include <functional>
#include <thread>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
// Huge allocations must come back as TGRT_OUT_OF_MEMORY, not abort ASan.
extern "C" const char *__asan_default_options() { return "allocator_may_return_null=1"; }
#endif
#if __has_feature(thread_sanitizer)
// The same for TSan; and a report fails the run (exit code 66 by default).
extern "C" const char *__tsan_default_options() { return "allocator_may_return_null=1"; }
#endif
#endif

using namespace tgrt_test;

extern "C" int tgrt_c_api_smoke(void); // CApiSmoke.c, compiled as C99

namespace {

TEST(RuntimeBasics, UsableFromC99) { EXPECT_EQ(tgrt_c_api_smoke(), 0) << tgrt_last_error(); }

TEST(RuntimeBasics, VersionAndStatusNames) {
  EXPECT_EQ(tgrt_api_version(), (uint32_t)TGRT_API_VERSION);
  EXPECT_STREQ(tgrt_status_string(TGRT_OK), "TGRT_OK");
  EXPECT_STREQ(tgrt_status_string(TGRT_TIMEOUT), "TGRT_TIMEOUT");
  EXPECT_STREQ(tgrt_status_string(TGRT_UNAVAILABLE), "TGRT_UNAVAILABLE");
  // Every status the header defines has its own name.
  for (int s = TGRT_OK; s <= TGRT_UNAVAILABLE; ++s)
    EXPECT_STRNE(tgrt_status_string(static_cast<tgrt_status>(s)), "TGRT_UNKNOWN") << s;
  EXPECT_NE(tgrt_last_error(), nullptr);
}

TEST(RuntimeBasics, OpenWithDefaults) {
  tgrt_device *dev = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open("CPU", nullptr, &dev));
  const char *name = nullptr;
  uint32_t threads = 0;
  TGRT_EXPECT_OK(tgrt_device_name(dev, &name));
  TGRT_EXPECT_OK(tgrt_device_thread_count(dev, &threads));
  EXPECT_STREQ(name, "CPU");
  EXPECT_GE(threads, 1u); // 0 = every core
  TGRT_EXPECT_OK(tgrt_device_synchronize(dev, 0)); // nothing submitted
  TGRT_EXPECT_OK(tgrt_device_close(dev));
}

TEST(RuntimeBasics, OpenErrors) {
  tgrt_device *dev = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open(nullptr, nullptr, &dev), TGRT_INVALID_ARGUMENT, "name");
  TGRT_EXPECT_ERROR(tgrt_device_open("GPU", nullptr, &dev), TGRT_NOT_FOUND, "'GPU'");
  TGRT_EXPECT_ERROR(tgrt_device_open("CPU", nullptr, nullptr), TGRT_INVALID_ARGUMENT, "out_device");
  tgrt_device_options opts = TGRT_DEVICE_OPTIONS_DEFAULT;
  opts.api_version = TGRT_API_VERSION + 1;
  TGRT_EXPECT_ERROR(tgrt_device_open("CPU", &opts, &dev), TGRT_INVALID_ARGUMENT, "api_version");
  opts = TGRT_DEVICE_OPTIONS_DEFAULT;
  opts.num_threads = 1u << 20;
  TGRT_EXPECT_ERROR(tgrt_device_open("CPU", &opts, &dev), TGRT_INVALID_ARGUMENT, "num_threads");
  EXPECT_EQ(dev, nullptr); // out-parameters are written only on success
}

TEST(RuntimeBasics, GpuDriversOpenADeviceOrSayWhyNot) {
  // Whatever this machine has: a device, or TGRT_UNAVAILABLE with a reason
  // (never another status, never a crash).
  for (const char *name : {"CUDA:0", "AMD:0"}) {
    tgrt_device *dev = nullptr;
    tgrt_status s = tgrt_device_open(name, nullptr, &dev);
    if (s == TGRT_OK) {
      TGRT_EXPECT_OK(tgrt_device_close(dev));
      continue;
    }
    EXPECT_EQ(s, TGRT_UNAVAILABLE) << name << ": " << tgrt_last_error();
    EXPECT_STRNE(tgrt_last_error(), "") << name;
  }
}

TEST(RuntimeBasics, LastErrorIsPerThread) {
  tgrt_device *dev = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open("NOPE", nullptr, &dev), TGRT_NOT_FOUND, "NOPE");
  std::string other;
  std::thread([&] {
    tgrt_device *d = nullptr;
    (void)tgrt_device_open("ELSEWHERE", nullptr, &d);
    other = tgrt_last_error();
  }).join();
  EXPECT_NE(other.find("ELSEWHERE"), std::string::npos);
  EXPECT_NE(std::string(tgrt_last_error()).find("NOPE"), std::string::npos);
}

using BufferTest = RuntimeTest;

TEST_F(BufferTest, AllocIsAlignedAndZeroed) {
  for (size_t size : {0, 1, 63, 64, 1000, 1 << 20}) {
    tgrt_buffer *b = alloc(size);
    ASSERT_NE(b, nullptr);
    void *p = nullptr;
    size_t got = 1234;
    TGRT_ASSERT_OK(tgrt_buffer_host_pointer(b, &p));
    TGRT_ASSERT_OK(tgrt_buffer_size(b, &got));
    EXPECT_EQ(got, size);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << size;
    std::vector<uint8_t> zeros(size, 0);
    if (size)
      EXPECT_EQ(std::memcmp(p, zeros.data(), size), 0);
  }
}

TEST_F(BufferTest, HugeAllocationFails) {
  tgrt_buffer *b = nullptr;
  TGRT_EXPECT_ERROR(tgrt_buffer_alloc(dev, SIZE_MAX, &b), TGRT_OUT_OF_MEMORY, "allocate");
  TGRT_EXPECT_ERROR(tgrt_buffer_alloc(dev, size_t(1) << 62, &b), TGRT_OUT_OF_MEMORY, "allocate");
  EXPECT_EQ(b, nullptr);
}

TEST_F(BufferTest, CopyInAndOut) {
  tgrt_buffer *b = alloc(16);
  const uint8_t in[6] = {1, 2, 3, 4, 5, 6};
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(b, 10, in, 6));
  uint8_t out[16];
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(b, 0, out, 16));
  const uint8_t want[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6};
  EXPECT_EQ(std::memcmp(out, want, 16), 0);
  uint8_t two[2];
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(b, 11, two, 2));
  EXPECT_EQ(two[0], 2);
  EXPECT_EQ(two[1], 3);
}

TEST_F(BufferTest, CopyBoundsErrors) {
  tgrt_buffer *b = alloc(16);
  uint8_t data[32] = {7};
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_in(b, 0, data, 17), TGRT_OUT_OF_RANGE, "16-byte buffer");
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_in(b, 10, data, 7), TGRT_OUT_OF_RANGE, "[10, 10+7)");
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_in(b, 17, data, 0), TGRT_OUT_OF_RANGE, "outside");
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_in(b, 1, data, SIZE_MAX), TGRT_OUT_OF_RANGE, "outside");
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_out(b, SIZE_MAX, data, 2), TGRT_OUT_OF_RANGE, "outside");
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_out(b, 8, data, 9), TGRT_OUT_OF_RANGE, "outside");
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_in(b, 0, nullptr, 4), TGRT_INVALID_ARGUMENT, "src");
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_out(b, 0, nullptr, 4), TGRT_INVALID_ARGUMENT, "dst");
  // Empty copies at the very end are fine.
  TGRT_EXPECT_OK(tgrt_buffer_copy_in(b, 16, data, 0));
  TGRT_EXPECT_OK(tgrt_buffer_copy_out(b, 16, nullptr, 0));
  // Failed copies wrote nothing.
  std::vector<uint8_t> now = download<uint8_t>(b, 16);
  EXPECT_EQ(now, std::vector<uint8_t>(16, 0));
}

TEST_F(BufferTest, ViewsShareMemoryAndKeepTheParentAlive) {
  tgrt_buffer *parent = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_alloc(dev, 64, &parent));
  tgrt_buffer *view = nullptr, *inner = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_view(parent, 4, 32, &view));
  TGRT_ASSERT_OK(tgrt_buffer_view(view, 8, 8, &inner));
  void *pp = nullptr, *vp = nullptr, *ip = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_host_pointer(parent, &pp));
  TGRT_ASSERT_OK(tgrt_buffer_host_pointer(view, &vp));
  TGRT_ASSERT_OK(tgrt_buffer_host_pointer(inner, &ip));
  EXPECT_EQ(static_cast<uint8_t *>(vp), static_cast<uint8_t *>(pp) + 4);
  EXPECT_EQ(static_cast<uint8_t *>(ip), static_cast<uint8_t *>(pp) + 12);
  size_t size = 0;
  TGRT_ASSERT_OK(tgrt_buffer_size(inner, &size));
  EXPECT_EQ(size, 8u);

  const uint32_t v = 0xdeadbeef;
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(inner, 4, &v, 4));
  uint32_t seen = 0;
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(parent, 16, &seen, 4));
  EXPECT_EQ(seen, v);

  // Views are bounds-checked against their own size.
  TGRT_EXPECT_ERROR(tgrt_buffer_copy_in(inner, 5, &v, 4), TGRT_OUT_OF_RANGE, "8-byte buffer");
  tgrt_buffer *bad = nullptr;
  TGRT_EXPECT_ERROR(tgrt_buffer_view(view, 30, 4, &bad), TGRT_OUT_OF_RANGE, "32-byte buffer");
  TGRT_EXPECT_ERROR(tgrt_buffer_view(view, 1, SIZE_MAX, &bad), TGRT_OUT_OF_RANGE, "outside");
  EXPECT_EQ(bad, nullptr);

  // Releasing the parent first leaves the views usable.
  TGRT_ASSERT_OK(tgrt_buffer_free(parent));
  TGRT_ASSERT_OK(tgrt_buffer_free(view));
  seen = 0;
  TGRT_ASSERT_OK(tgrt_buffer_copy_out(inner, 4, &seen, 4));
  EXPECT_EQ(seen, v);
  TGRT_ASSERT_OK(tgrt_buffer_free(inner));
}

// tinygrad's CPU allocator owns its memory; our graphs run on it in place
// through imported buffers (python/tinygrad_mlir/cpu_graph.py).
TEST_F(BufferTest, ImportedHostMemoryIsUsedInPlaceAndNeverFreed) {
  std::vector<float> a = {1, 2, 3, 4}, b = {10, 20, 30, 40}, out(4, 0.f), out2(4, 0.f);
  auto import = [&](std::vector<float> &v) {
    tgrt_buffer *h = nullptr;
    EXPECT_EQ(tgrt_buffer_import_host(dev, v.data(), v.size() * 4, &h), TGRT_OK) << tgrt_last_error();
    if (h)
      buffers.push_back(h);
    return h;
  };
  tgrt_buffer *ha = import(a), *hb = import(b), *ho = import(out), *ho2 = import(out2);
  ASSERT_TRUE(ha && hb && ho && ho2);
  void *p = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_host_pointer(ha, &p));
  EXPECT_EQ(p, a.data());
  size_t size = 0;
  TGRT_ASSERT_OK(tgrt_buffer_size(ha, &size));
  EXPECT_EQ(size, 16u);
  // Host copies and views go to the caller's memory.
  const float seven = 7;
  TGRT_ASSERT_OK(tgrt_buffer_copy_in(view(ha, 4, 8), 4, &seven, 4));
  EXPECT_EQ(a[2], 7.f);
  a[2] = 3;

  // A kernel recorded on imported buffers writes the caller's memory; a
  // graph patched to another imported buffer writes that one.
  tgrt_program *add = load("add");
  tgrt_queue *q = queue();
  tgrt_arg args[4] = {tgrt_arg_buffer(ho), tgrt_arg_buffer(ha), tgrt_arg_buffer(hb), tgrt_arg_int(4)};
  TGRT_ASSERT_OK(tgrt_queue_exec(q, add, args, 4, -1, 1));
  tgrt_graph *g = nullptr;
  TGRT_ASSERT_OK(tgrt_graph_create(&q, 1, &g));
  tgrt_signal *done = signal();
  TGRT_ASSERT_OK(tgrt_graph_launch(g, done, 1));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 1, 10000));
  EXPECT_EQ(out, (std::vector<float>{11, 22, 33, 44}));
  TGRT_ASSERT_OK(tgrt_graph_update_buffer(g, ho, ho2));
  b[0] = 100;
  TGRT_ASSERT_OK(tgrt_graph_launch(g, done, 2));
  TGRT_ASSERT_OK(tgrt_signal_wait(done, 2, 10000));
  EXPECT_EQ(out2, (std::vector<float>{101, 22, 33, 44}));
  EXPECT_EQ(out, (std::vector<float>{11, 22, 33, 44}));
  TGRT_ASSERT_OK(tgrt_graph_destroy(g));

  // Zero bytes may have no address; bytes need one.
  tgrt_buffer *empty = nullptr, *bad = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_import_host(dev, nullptr, 0, &empty));
  TGRT_ASSERT_OK(tgrt_buffer_free(empty));
  TGRT_EXPECT_ERROR(tgrt_buffer_import_host(dev, nullptr, 8, &bad), TGRT_INVALID_ARGUMENT, "host is NULL");
  TGRT_EXPECT_ERROR(tgrt_buffer_import_host(dev, a.data(), 16, nullptr), TGRT_INVALID_ARGUMENT, "out_buffer");
  TGRT_EXPECT_ERROR(tgrt_buffer_import_host(nullptr, a.data(), 16, &bad), TGRT_INVALID_ARGUMENT, "device");
  EXPECT_EQ(bad, nullptr);
  // The fixture frees the imported handles; the vectors free their own
  // memory afterwards (a runtime free of it would be a double free under ASan).
}

TEST_F(BufferTest, NullAndMistypedHandles) {
  tgrt_buffer *b = alloc(8);
  void *p = nullptr;
  size_t n = 0;
  uint32_t u = 0;
  uint64_t v = 0;
  const char *s = nullptr;
  tgrt_buffer *ob = nullptr;
  tgrt_program *op = nullptr;
  tgrt_signal *os = nullptr;
  tgrt_queue *oq = nullptr;
  uint8_t byte = 0;
  const std::vector<std::function<tgrt_status()>> calls = {
      [&] { return tgrt_device_close(nullptr); },
      [&] { return tgrt_device_name(nullptr, &s); },
      [&] { return tgrt_device_thread_count(nullptr, &u); },
      [&] { return tgrt_device_synchronize(nullptr, 0); },
      [&] { return tgrt_buffer_alloc(nullptr, 8, &ob); },
      [&] { return tgrt_buffer_view(nullptr, 0, 0, &ob); },
      [&] { return tgrt_buffer_free(nullptr); },
      [&] { return tgrt_buffer_size(nullptr, &n); },
      [&] { return tgrt_buffer_host_pointer(nullptr, &p); },
      [&] { return tgrt_buffer_copy_in(nullptr, 0, &byte, 1); },
      [&] { return tgrt_buffer_copy_out(nullptr, 0, &byte, 1); },
      [&] { return tgrt_program_load(nullptr, &byte, 1, nullptr, &op); },
      [&] { return tgrt_program_free(nullptr); },
      [&] { return tgrt_program_entry_name(nullptr, &s); },
      [&] { return tgrt_program_launch(nullptr, nullptr, 0, -1, 1); },
      [&] { return tgrt_signal_create(nullptr, 0, &os); },
      [&] { return tgrt_signal_destroy(nullptr); },
      [&] { return tgrt_signal_value(nullptr, &v); },
      [&] { return tgrt_signal_signal(nullptr, 1); },
      [&] { return tgrt_signal_timestamp(nullptr, &v); },
      [&] { return tgrt_signal_wait(nullptr, 1, 0); },
      [&] { return tgrt_queue_create(nullptr, TGRT_QUEUE_COMPUTE, &oq); },
      [&] { return tgrt_queue_destroy(nullptr); },
      [&] { return tgrt_queue_exec(nullptr, nullptr, nullptr, 0, -1, 1); },
      [&] { return tgrt_queue_copy(nullptr, b, 0, b, 0, 1); },
      [&] { return tgrt_queue_signal(nullptr, nullptr, 1); },
      [&] { return tgrt_queue_wait(nullptr, nullptr, 1); },
      [&] { return tgrt_queue_timestamp(nullptr, nullptr); },
      [&] { return tgrt_queue_memory_barrier(nullptr); },
      [&] { return tgrt_queue_submit(nullptr); },
      [&] { return tgrt_queue_reset(nullptr); },
      [&] { return tgrt_queue_command_count(nullptr, &n); },
      // NULL out-pointers
      [&] { return tgrt_device_name(dev, nullptr); },
      [&] { return tgrt_device_thread_count(dev, nullptr); },
      [&] { return tgrt_buffer_alloc(dev, 8, nullptr); },
      [&] { return tgrt_buffer_view(b, 0, 1, nullptr); },
      [&] { return tgrt_buffer_size(b, nullptr); },
      [&] { return tgrt_buffer_host_pointer(b, nullptr); },
      [&] { return tgrt_program_load(dev, &byte, 1, nullptr, nullptr); },
      [&] { return tgrt_signal_create(dev, 0, nullptr); },
      [&] { return tgrt_queue_create(dev, TGRT_QUEUE_COMPUTE, nullptr); },
      // A handle of the wrong type.
      [&] { return tgrt_program_free(reinterpret_cast<tgrt_program *>(b)); },
      [&] { return tgrt_signal_wait(reinterpret_cast<tgrt_signal *>(b), 1, 0); },
      [&] { return tgrt_queue_submit(reinterpret_cast<tgrt_queue *>(dev)); },
      [&] { return tgrt_buffer_alloc(reinterpret_cast<tgrt_device *>(b), 8, &ob); },
  };
  for (size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i](), TGRT_INVALID_ARGUMENT) << "call " << i << ": " << tgrt_last_error();
    EXPECT_GT(std::strlen(tgrt_last_error()), 0u) << "call " << i;
  }
  TGRT_EXPECT_ERROR(tgrt_program_free(reinterpret_cast<tgrt_program *>(b)), TGRT_INVALID_ARGUMENT,
                    "not a valid program handle");
  EXPECT_EQ(ob, nullptr);
  EXPECT_EQ(op, nullptr);
  EXPECT_EQ(os, nullptr);
  EXPECT_EQ(oq, nullptr);
}

TEST(DeviceLifetime, ObjectsOutliveClose) {
  tgrt_device *dev = nullptr;
  TGRT_ASSERT_OK(tgrt_device_open("CPU", nullptr, &dev));
  std::vector<uint8_t> obj = kernelObject("add");
  tgrt_program *prog = nullptr;
  tgrt_buffer *buf = nullptr;
  tgrt_queue *q = nullptr;
  tgrt_signal *sig = nullptr;
  TGRT_ASSERT_OK(tgrt_program_load(dev, obj.data(), obj.size(), nullptr, &prog));
  TGRT_ASSERT_OK(tgrt_buffer_alloc(dev, 16, &buf));
  TGRT_ASSERT_OK(tgrt_queue_create(dev, TGRT_QUEUE_COMPUTE, &q));
  TGRT_ASSERT_OK(tgrt_signal_create(dev, 0, &sig));
  TGRT_ASSERT_OK(tgrt_queue_signal(q, sig, 1));
  TGRT_ASSERT_OK(tgrt_device_close(dev));
  // The device's threads are gone; its objects can still be used where no
  // thread is needed, and released.
  tgrt_arg args[4] = {tgrt_arg_buffer(buf), tgrt_arg_buffer(buf), tgrt_arg_buffer(buf),
                      tgrt_arg_int(4)};
  TGRT_EXPECT_ERROR(tgrt_program_launch(prog, args, 4, -1, 1), TGRT_FAILED_PRECONDITION, "closed");
  TGRT_EXPECT_ERROR(tgrt_queue_submit(q), TGRT_FAILED_PRECONDITION, "closed");
  float f = 1.5f;
  TGRT_EXPECT_OK(tgrt_buffer_copy_in(buf, 0, &f, 4));
  TGRT_EXPECT_OK(tgrt_signal_signal(sig, 2));
  TGRT_EXPECT_OK(tgrt_queue_destroy(q));
  TGRT_EXPECT_OK(tgrt_signal_destroy(sig));
  TGRT_EXPECT_OK(tgrt_buffer_free(buf));
  TGRT_EXPECT_OK(tgrt_program_free(prog));
}

} // namespace
