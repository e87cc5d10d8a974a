//===- TestUtil.h - helpers for the runtime tests --------------*- C++ -*-===//
#ifndef TGRT_UNITTESTS_TESTUTIL_H
#define TGRT_UNITTESTS_TESTUTIL_H

#include "tinygrad-rt/runtime.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <numeric>
#include <string>
#include <vector>

#define TGRT_ASSERT_OK(expr)                                                                       \
  do {                                                                                             \
    tgrt_status s_ = (expr);                                                                       \
    ASSERT_EQ(s_, TGRT_OK) << #expr << " -> " << tgrt_status_string(s_) << ": "                    \
                           << tgrt_last_error();                                                   \
  } while (0)

#define TGRT_EXPECT_OK(expr)                                                                       \
  do {                                                                                             \
    tgrt_status s_ = (expr);                                                                       \
    EXPECT_EQ(s_, TGRT_OK) << #expr << " -> " << tgrt_status_string(s_) << ": "                    \
                           << tgrt_last_error();                                                   \
  } while (0)

/// Expects `expr` to fail with `code` and a message containing `substring`.
#define TGRT_EXPECT_ERROR(expr, code, substring)                                                   \
  do {                                                                                             \
    tgrt_status s_ = (expr);                                                                       \
    EXPECT_EQ(s_, code) << #expr << " -> " << tgrt_status_string(s_) << ": "                       \
                        << tgrt_last_error();                                                      \
    EXPECT_NE(std::string(tgrt_last_error()).find(substring), std::string::npos)                  \
        << #expr << ": message '" << tgrt_last_error() << "' lacks '" << substring << "'";         \
  } while (0)

namespace tgrt_test {

/// The folder of the kernels the test CMake builds: TGRT_TEST_KERNEL_DIR
/// from the environment (the device check runs this binary on another
/// machine, its kernels next to it), else the build's.
inline std::string kernelDir() {
  const char *env = std::getenv("TGRT_TEST_KERNEL_DIR");
  return env && *env ? env : TGRT_TEST_KERNEL_DIR;
}

/// Bytes of a kernel built by the test CMake (kernels/<name>.c to .o,
/// kernels/<name>.spirv.mlir to <name>_spirv.spv).
inline std::vector<uint8_t> kernelObject(const std::string &name, const std::string &ext = ".o") {
  std::string path = kernelDir() + "/" + name + ext;
  std::ifstream f(path, std::ios::binary);
  EXPECT_TRUE(f.good()) << "missing test kernel " << path;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}

/// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

private:
  const char *name_;
  std::string old_;
  bool had_ = false;
};

/// A GPU launch of `groups` x 1 x 1 workgroups of `local` x 1 x 1 threads.
inline tgrt_dispatch gpuDispatch(uint32_t groups, uint32_t local) {
  tgrt_dispatch d{};
  d.api_version = TGRT_API_VERSION;
  d.global_size[0] = groups, d.global_size[1] = d.global_size[2] = 1;
  d.local_size[0] = local, d.local_size[1] = d.local_size[2] = 1;
  d.core_id_arg_index = -1;
  return d;
}

/// start, start+1, ... (n values).
template <typename T> std::vector<T> iota(size_t n, T start) {
  std::vector<T> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

/// A fixture with an open device and automatic release of what a test makes.
class RuntimeTest : public ::testing::Test {
protected:
  /// Threads for the fixture's device (more than the 2 cores of CI on
  /// purpose: the pool must be correct when oversubscribed).
  static constexpr uint32_t kThreads = 4;

  /// The device the fixture opens.
  virtual const char *deviceName() const { return "CPU"; }

  void SetUp() override {
    tgrt_device_options opts = TGRT_DEVICE_OPTIONS_DEFAULT;
    opts.num_threads = kThreads;
    TGRT_ASSERT_OK(tgrt_device_open(deviceName(), &opts, &dev));
  }
  void TearDown() override {
    for (tgrt_queue *q : queues)
      TGRT_EXPECT_OK(tgrt_queue_destroy(q));
    for (tgrt_program *p : programs)
      TGRT_EXPECT_OK(tgrt_program_free(p));
    for (tgrt_buffer *b : buffers)
      TGRT_EXPECT_OK(tgrt_buffer_free(b));
    for (tgrt_signal *s : signals)
      TGRT_EXPECT_OK(tgrt_signal_destroy(s));
    if (dev)
      TGRT_EXPECT_OK(tgrt_device_close(dev));
  }

  tgrt_buffer *alloc(size_t size) {
    tgrt_buffer *b = nullptr;
    EXPECT_EQ(tgrt_buffer_alloc(dev, size, &b), TGRT_OK) << tgrt_last_error();
    if (b)
      buffers.push_back(b);
    return b;
  }
  template <typename T> tgrt_buffer *upload(const std::vector<T> &v) {
    tgrt_buffer *b = alloc(v.size() * sizeof(T));
    EXPECT_EQ(tgrt_buffer_copy_in(b, 0, v.data(), v.size() * sizeof(T)), TGRT_OK);
    return b;
  }
  template <typename T> std::vector<T> download(tgrt_buffer *b, size_t count) {
    std::vector<T> v(count);
    EXPECT_EQ(tgrt_buffer_copy_out(b, 0, v.data(), count * sizeof(T)), TGRT_OK) << tgrt_last_error();
    return v;
  }
  tgrt_buffer *view(tgrt_buffer *parent, size_t offset, size_t size) {
    tgrt_buffer *v = nullptr;
    EXPECT_EQ(tgrt_buffer_view(parent, offset, size, &v), TGRT_OK) << tgrt_last_error();
    if (v)
      buffers.push_back(v);
    return v;
  }
  tgrt_program *load(const std::string &kernel, const char *entry = nullptr) {
    std::vector<uint8_t> obj = kernelObject(kernel);
    tgrt_program *p = nullptr;
    EXPECT_EQ(tgrt_program_load(dev, obj.data(), obj.size(), entry, &p), TGRT_OK)
        << kernel << ": " << tgrt_last_error();
    if (p)
      programs.push_back(p);
    return p;
  }
  tgrt_signal *signal(uint64_t initial = 0) {
    tgrt_signal *s = nullptr;
    EXPECT_EQ(tgrt_signal_create(dev, initial, &s), TGRT_OK) << tgrt_last_error();
    if (s)
      signals.push_back(s);
    return s;
  }
  tgrt_queue *queue(tgrt_queue_type type = TGRT_QUEUE_COMPUTE) {
    tgrt_queue *q = nullptr;
    EXPECT_EQ(tgrt_queue_create(dev, type, &q), TGRT_OK) << tgrt_last_error();
    if (q)
      queues.push_back(q);
    return q;
  }

  tgrt_device *dev = nullptr;
  std::vector<tgrt_buffer *> buffers;
  std::vector<tgrt_program *> programs;
  std::vector<tgrt_signal *> signals;
  std::vector<tgrt_queue *> queues;
};

} // namespace tgrt_test

#endif // TGRT_UNITTESTS_TESTUTIL_H
