//===- CudaTest.cpp - the CUDA driver ---------------------------------------===//
//
// Without an NVIDIA GPU (this project's build machines) only the error
// paths run: no libcuda, and the CUDA toolkit's stub libcuda, whose cuInit
// returns CUDA_ERROR_STUB_LIBRARY. The CudaDevice tests run where
// tgrt_device_open("CUDA:0") succeeds and skip, saying so, where the driver
// reports itself unavailable: they are never counted as passed here (they
// need hardware). Their kernels are compiled by NVRTC in the test.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <sys/stat.h>

#include <cstdlib>
#include <numeric>

using namespace tgrt_test;

namespace {

bool exists(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

/// The toolkit's stub libcuda, or "" (CUDA_PATH, else /usr/local/cuda).
std::string stubLibcuda() {
  const char *root = std::getenv("CUDA_PATH");
  std::string path = std::string(root && *root ? root : "/usr/local/cuda") + "/lib64/stubs/libcuda.so";
  return exists(path) ? path : "";
}

TEST(CudaDriver, MissingLibraryIsUnavailable) {
  ScopedEnv env("TGRT_CUDA_LIBRARY", "/nonexistent/libcuda.so.1");
  tgrt_device *dev = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open("CUDA:0", nullptr, &dev), TGRT_UNAVAILABLE, "no CUDA driver");
  EXPECT_NE(std::string(tgrt_last_error()).find("/nonexistent/libcuda.so.1"), std::string::npos)
      << tgrt_last_error();
  EXPECT_EQ(dev, nullptr);
  // Asking again gives the same answer (the failed load is remembered).
  TGRT_EXPECT_ERROR(tgrt_device_open("CUDA", nullptr, &dev), TGRT_UNAVAILABLE, "no CUDA driver");
}

TEST(CudaDriver, StubLibraryIsUnavailable) {
  std::string stub = stubLibcuda();
  if (stub.empty())
    GTEST_SKIP() << "no CUDA toolkit stub library (CUDA_PATH or /usr/local/cuda)/lib64/stubs/libcuda.so";
  ScopedEnv env("TGRT_CUDA_LIBRARY", stub.c_str());
  tgrt_device *dev = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open("CUDA:0", nullptr, &dev), TGRT_UNAVAILABLE, "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(dev, nullptr);
}

TEST(CudaDriver, BadIndexIsAnArgumentError) {
  tgrt_device *dev = nullptr;
  TGRT_EXPECT_ERROR(tgrt_device_open("CUDA:x", nullptr, &dev), TGRT_INVALID_ARGUMENT, "'x'");
}

/// An NVIDIA GPU through the driver; skipped (needs hardware) without one.
class CudaDevice : public RuntimeTest {
protected:
  const char *deviceName() const override { return "CUDA:0"; }
  void SetUp() override {
    tgrt_status s = tgrt_device_open("CUDA:0", nullptr, &dev);
    if (s == TGRT_UNAVAILABLE)
      GTEST_SKIP() << "needs hardware: " << tgrt_last_error();
    ASSERT_EQ(s, TGRT_OK) << tgrt_last_error();
    tgrt_device_info info{};
    info.api_version = TGRT_API_VERSION;
    TGRT_ASSERT_OK(tgrt_device_query(dev, &info));
    arch = info.arch;
  }
  /// A program of `format` from `bytes` with tinygrad's interface:
  /// `buffers` buffers, then scalars of `scalars` bytes; `local` threads
  /// per block (0: any).
  tgrt_program *create(uint32_t format, const void *bytes, size_t size, const char *entry, uint32_t buffers,
                       const std::vector<uint8_t> &scalars, uint32_t local) {
    tgrt_program_desc d{};
    d.api_version = TGRT_API_VERSION;
    d.format = format;
    d.binary = bytes;
    d.size = size;
    d.entry_name = entry;
    d.num_buffers = buffers;
    d.num_scalars = static_cast<uint32_t>(scalars.size());
    d.scalar_bytes = scalars.data();
    d.local_size[0] = local, d.local_size[1] = d.local_size[2] = local ? 1 : 0;
    tgrt_program *p = nullptr;
    EXPECT_EQ(tgrt_program_create(dev, &d, &p), TGRT_OK) << tgrt_last_error();
    if (p)
      programs.push_back(p);
    return p;
  }
  /// NVRTC's cubin of `source` for this device.
  tgrt_program *compile(const char *source, const char *entry, uint32_t buffers,
                        const std::vector<uint8_t> &scalars, uint32_t local = 0) {
    void *bin = nullptr;
    size_t size = 0;
    tgrt_status s = tgrt_nvrtc_compile(source, arch.c_str(), TGRT_FORMAT_CUBIN, nullptr, 0, &bin, &size);
    EXPECT_EQ(s, TGRT_OK) << tgrt_last_error();
    if (s != TGRT_OK)
      return nullptr;
    tgrt_program *p = create(TGRT_FORMAT_CUBIN, bin, size, entry, buffers, scalars, local);
    tgrt_nvrtc_free(bin);
    return p;
  }
  /// PTX our compiler made at build time (kernels/<name>_sm80.ptx from
  /// test/Target/GPU/Inputs/<name>.mlir).
  tgrt_program *loadOurPtx(const char *name, uint32_t buffers, const std::vector<uint8_t> &scalars,
                           uint32_t local) {
    std::vector<uint8_t> ptx = kernelObject(std::string(name) + "_sm80", ".ptx");
    ptx.push_back(0);
    return create(TGRT_FORMAT_PTX, ptx.data(), ptx.size(), name, buffers, scalars, local);
  }
  std::string arch;
};

const char *kAdd = R"(extern "C" __global__ void add(float *c, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
})";

TEST_F(CudaDevice, QueryDescribesTheGpu) {
  tgrt_device_info info{};
  info.api_version = TGRT_API_VERSION;
  TGRT_ASSERT_OK(tgrt_device_query(dev, &info));
  EXPECT_STREQ(info.driver, "CUDA");
  EXPECT_EQ(std::string(info.arch).rfind("sm_", 0), 0u) << info.arch;
  EXPECT_EQ(info.subgroup_size, 32u);
  EXPECT_GE(info.max_workgroup_invocations, 1024u);
  EXPECT_GE(info.shared_memory_bytes, 48u * 1024);
  EXPECT_EQ(info.features & TGRT_FEATURE_HOST_MEMORY, 0u);
}

TEST_F(CudaDevice, CopiesRoundTripAndBuffersStartZeroed) {
  std::vector<int32_t> v(1000);
  std::iota(v.begin(), v.end(), -7);
  tgrt_buffer *b = upload(v);
  EXPECT_EQ(download<int32_t>(b, v.size()), v);
  tgrt_buffer *z = alloc(256);
  EXPECT_EQ(download<uint8_t>(z, 256), std::vector<uint8_t>(256, 0));
  void *host = nullptr;
  TGRT_EXPECT_ERROR(tgrt_buffer_host_pointer(b, &host), TGRT_UNSUPPORTED, "host-visible");
}

TEST_F(CudaDevice, AddRunsWithViewsAndScalars) {
  tgrt_program *p = compile(kAdd, "add", 3, {4}, 64);
  ASSERT_NE(p, nullptr);
  const int n = 1000;
  std::vector<float> a(n), b(n);
  std::iota(a.begin(), a.end(), 1.0f);
  std::iota(b.begin(), b.end(), 0.5f);
  tgrt_buffer *A = upload(a), *B = upload(b);
  // The output is a view 12 bytes into a larger buffer: its address is passed.
  tgrt_buffer *big = alloc(12 + n * 4), *C = nullptr;
  TGRT_ASSERT_OK(tgrt_buffer_view(big, 12, n * 4, &C));
  buffers.push_back(C);
  tgrt_arg args[] = {tgrt_arg_buffer(C), tgrt_arg_buffer(A), tgrt_arg_buffer(B), tgrt_arg_int(n - 1)};
  tgrt_dispatch d = gpuDispatch((n + 63) / 64, 64);
  TGRT_ASSERT_OK(tgrt_program_dispatch(p, args, 4, &d));
  std::vector<float> c = download<float>(C, n);
  for (int i = 0; i < n - 1; ++i)
    ASSERT_EQ(c[i], a[i] + b[i]) << i;
  EXPECT_EQ(c[n - 1], 0.0f); // i < n-1 only
}

TEST_F(CudaDevice, QueuedLaunchesAndCopiesRunInOrder) {
  tgrt_program *p = compile(kAdd, "add", 3, {4});
  ASSERT_NE(p, nullptr);
  const int n = 256;
  std::vector<float> ones(n, 1.0f);
  tgrt_buffer *acc = upload(std::vector<float>(n, 0.0f)), *one = upload(ones), *tmp = alloc(n * 4);
  tgrt_queue *q = queue();
  tgrt_arg args[] = {tgrt_arg_buffer(tmp), tgrt_arg_buffer(acc), tgrt_arg_buffer(one), tgrt_arg_int(n)};
  tgrt_dispatch d = gpuDispatch(n / 128, 128);
  for (int i = 0; i < 5; ++i) { // acc += 1, five times, through tmp
    TGRT_ASSERT_OK(tgrt_queue_dispatch(q, p, args, 4, &d));
    TGRT_ASSERT_OK(tgrt_queue_copy(q, acc, 0, tmp, 0, n * 4));
  }
  tgrt_signal *s = signal();
  TGRT_ASSERT_OK(tgrt_queue_signal(q, s, 1));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_signal_wait(s, 1, 60000));
  EXPECT_EQ(download<float>(acc, n), std::vector<float>(n, 5.0f));
}

TEST_F(CudaDevice, OverlappingCopyIsAMemmove) {
  std::vector<int32_t> v(64);
  std::iota(v.begin(), v.end(), 0);
  tgrt_buffer *b = upload(v);
  tgrt_queue *q = queue(TGRT_QUEUE_COPY);
  TGRT_ASSERT_OK(tgrt_queue_copy(q, b, 4 * 4, b, 0, 32 * 4));
  TGRT_ASSERT_OK(tgrt_queue_submit(q));
  TGRT_ASSERT_OK(tgrt_device_synchronize(dev, 60000));
  std::vector<int32_t> got = download<int32_t>(b, 64);
  for (int i = 0; i < 32; ++i)
    ASSERT_EQ(got[4 + i], i);
}

TEST_F(CudaDevice, OurPtxRuns) {
  // test/Target/GPU/Inputs/add.mlir through tg-gpu-to-nvvm and --emit-ptx.
  tgrt_program *add = loadOurPtx("add", 3, {4}, 64);
  ASSERT_NE(add, nullptr);
  std::vector<float> a(1024), b(1024);
  std::iota(a.begin(), a.end(), 0.0f);
  std::iota(b.begin(), b.end(), 100.0f);
  tgrt_buffer *A = upload(a), *B = upload(b), *C = alloc(1024 * 4);
  tgrt_arg args[] = {tgrt_arg_buffer(A), tgrt_arg_buffer(B), tgrt_arg_buffer(C), tgrt_arg_int(1000)};
  tgrt_dispatch d = gpuDispatch(16, 64);
  TGRT_ASSERT_OK(tgrt_program_dispatch(add, args, 4, &d));
  std::vector<float> c = download<float>(C, 1024);
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(c[i], i < 1000 ? a[i] + b[i] : 0.0f) << i;
  // reduce.mlir: 64 sums of 64 through shared memory and a barrier.
  tgrt_program *reduce = loadOurPtx("reduce", 2, {}, 64);
  ASSERT_NE(reduce, nullptr);
  std::vector<float> in(4096);
  for (int i = 0; i < 4096; ++i)
    in[i] = float(i % 64);
  tgrt_buffer *In = upload(in), *Out = alloc(64 * 4);
  tgrt_arg rargs[] = {tgrt_arg_buffer(In), tgrt_arg_buffer(Out)};
  d = gpuDispatch(64, 64);
  TGRT_ASSERT_OK(tgrt_program_dispatch(reduce, rargs, 2, &d));
  EXPECT_EQ(download<float>(Out, 64), std::vector<float>(64, 2016.0f)); // 0+1+...+63
}

TEST_F(CudaDevice, LaunchErrors) {
  tgrt_program *p = compile(kAdd, "add", 3, {4}, 64);
  ASSERT_NE(p, nullptr);
  tgrt_buffer *b = alloc(256);
  tgrt_arg args[] = {tgrt_arg_buffer(b), tgrt_arg_buffer(b), tgrt_arg_buffer(b), tgrt_arg_int(64)};
  tgrt_dispatch d = gpuDispatch(1, 32);
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, args, 4, &d), TGRT_INVALID_ARGUMENT, "compiled for 64x1x1");
  d = gpuDispatch(1, 64);
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, args, 3, &d), TGRT_INVALID_ARGUMENT, "3 buffers and 1 scalars");
  tgrt_arg swapped[] = {tgrt_arg_buffer(b), tgrt_arg_buffer(b), tgrt_arg_int(1), tgrt_arg_int(64)};
  TGRT_EXPECT_ERROR(tgrt_program_dispatch(p, swapped, 4, &d), TGRT_INVALID_ARGUMENT, "must be a buffer");
}

TEST_F(CudaDevice, BadProgramsAreRejected) {
  tgrt_program_desc d{};
  d.api_version = TGRT_API_VERSION;
  d.format = TGRT_FORMAT_CUBIN;
  const char junk[128] = "not a cubin";
  d.binary = junk;
  d.size = sizeof junk;
  d.entry_name = "add";
  tgrt_program *p = nullptr;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_OBJECT, "not a cubin");
  d.format = TGRT_FORMAT_SPIRV;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_UNSUPPORTED, "cubin or PTX");
  const char ptx[] = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k() { ret; }\n";
  d.format = TGRT_FORMAT_PTX;
  d.binary = ptx;
  d.size = sizeof ptx;
  d.entry_name = "missing";
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_NOT_FOUND, "'missing'");
  d.entry_name = "k";
  TGRT_EXPECT_OK(tgrt_program_create(dev, &d, &p));
  if (p)
    programs.push_back(p);
}

} // namespace
