//===- ProgramTest.cpp - tgc_program: schedule, compile, run a tensor graph ===//
#include "TestInputs.h"
#include "tinygrad-rt/runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {
using tgctest::lastError;
using tgctest::readInput;

/// A context and the module of one input graph, released in any order.
struct Graph {
  explicit Graph(const char *file) {
    EXPECT_EQ(tgc_context_create(&ctx), TGC_OK);
    std::string text = readInput(file);
    EXPECT_EQ(tgc_module_import_json(ctx, text.data(), text.size(), file, nullptr, &mod), TGC_OK) << lastError();
  }
  ~Graph() {
    if (mod)
      tgc_module_destroy(mod);
    tgc_context_destroy(ctx);
  }
  tgc_context *ctx = nullptr;
  tgc_module *mod = nullptr;
};

struct Progress {
  std::vector<std::string> stages;
  std::vector<uint64_t> done, total;
};
void onProgress(const char *stage, uint64_t done, uint64_t total, void *user) {
  auto *p = static_cast<Progress *>(user);
  p->stages.push_back(stage);
  p->done.push_back(done);
  p->total.push_back(total);
}

/// tgc_program_create reporting its progress into `progress`.
tgc_status createWithProgress(tgc_module *mod, Progress &progress, tgc_program **out) {
  tgc_program_options opts = TGC_PROGRAM_OPTIONS_DEFAULT;
  opts.progress = onProgress;
  opts.user_data = &progress;
  return tgc_program_create(mod, &opts, out);
}

tgc_tensor_info bufferInfo(tgc_program *p, size_t i) {
  tgc_tensor_info info = {};
  info.api_version = TGC_API_VERSION;
  EXPECT_EQ(tgc_program_buffer_info(p, i, &info), TGC_OK) << lastError();
  return info;
}
tgc_tensor_info outputInfo(tgc_program *p, size_t i) {
  tgc_tensor_info info = {};
  info.api_version = TGC_API_VERSION;
  EXPECT_EQ(tgc_program_output_info(p, i, &info), TGC_OK) << lastError();
  return info;
}

/// Runs tensor_softmax.json's program on `x` (3x4): softmax over rows, and
/// the transpose padded with a row of zeros in front.
void runSoftmaxAndTranspose(tgc_program *p, const std::vector<float> &x) {
  ASSERT_EQ(tgc_program_set_buffer(p, 0, x.data(), 48), TGC_OK) << lastError();
  ASSERT_EQ(tgc_program_run(p), TGC_OK) << lastError();
  std::vector<float> sm(12), tp(15);
  ASSERT_EQ(tgc_program_read_output(p, 0, sm.data(), 48), TGC_OK) << lastError();
  ASSERT_EQ(tgc_program_read_output(p, 1, tp.data(), 60), TGC_OK) << lastError();
  for (int r = 0; r < 3; ++r) {
    double sum = 0;
    for (int c = 0; c < 4; ++c)
      sum += std::exp(x[r * 4 + c] - x[r * 4 + 3]);
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(sm[r * 4 + c], std::exp(x[r * 4 + c] - x[r * 4 + 3]) / sum, 1e-5) << r << "," << c;
  }
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(tp[i * 3 + j], i == 0 ? 0.0f : x[j * 4 + (i - 1)]) << i << "," << j;
}

// a (6,5) * b (6,1) broadcast: one kernel; run twice on new inputs.
TEST(CAPIProgram, RunsABroadcastMultiply) {
  Graph g("tensor_mul_bcast.json");
  ASSERT_TRUE(g.mod);
  Progress progress;
  tgc_program *p = nullptr;
  ASSERT_EQ(createWithProgress(g.mod, progress, &p), TGC_OK) << lastError();
  EXPECT_EQ(progress.stages, (std::vector<std::string>{"schedule", "compile"}));
  EXPECT_EQ(progress.done.back(), 1u);
  EXPECT_EQ(progress.total.back(), 1u);

  tgc_program_info info = {};
  EXPECT_EQ(tgc_program_get_info(p, &info), TGC_INVALID_ARGUMENT); // api_version unset
  info.api_version = TGC_API_VERSION;
  ASSERT_EQ(tgc_program_get_info(p, &info), TGC_OK) << lastError();
  EXPECT_EQ(info.num_buffers, 2u);
  EXPECT_EQ(info.num_outputs, 1u);
  EXPECT_EQ(info.num_kernels, 1u);

  tgc_tensor_info a = bufferInfo(p, 0), b = bufferInfo(p, 1), out = outputInfo(p, 0);
  EXPECT_EQ(a.slot, 6);
  EXPECT_STREQ(a.dtype, "float32");
  EXPECT_STREQ(a.device, "CPU");
  ASSERT_EQ(a.ndim, 1u);
  EXPECT_EQ(a.shape[0], 30);
  EXPECT_EQ(a.bytes, 120u);
  EXPECT_EQ(b.slot, 8);
  EXPECT_EQ(b.shape[0], 6);
  ASSERT_EQ(out.ndim, 2u);
  EXPECT_EQ(out.shape[0], 6);
  EXPECT_EQ(out.shape[1], 5);
  EXPECT_EQ(out.slot, -1);
  EXPECT_EQ(out.bytes, 120u);

  for (float scale : {1.0f, -0.5f}) {
    std::vector<float> av(30), bv(6), got(30);
    for (int i = 0; i < 30; ++i)
      av[i] = scale * i;
    for (int i = 0; i < 6; ++i)
      bv[i] = i + 1;
    ASSERT_EQ(tgc_program_set_buffer(p, 0, av.data(), 120), TGC_OK) << lastError();
    ASSERT_EQ(tgc_program_set_buffer(p, 1, bv.data(), 24), TGC_OK) << lastError();
    ASSERT_EQ(tgc_program_run(p), TGC_OK) << lastError();
    ASSERT_EQ(tgc_program_read_output(p, 0, got.data(), 120), TGC_OK) << lastError();
    for (int i = 0; i < 30; ++i)
      EXPECT_EQ(got[i], av[i] * bv[i / 5]) << i;
  }
  tgc_program_destroy(p);
}

// softmax over rows (several kernels) and a padded transpose, two outputs;
// the program outlives its module and context handles.
TEST(CAPIProgram, RunsSoftmaxAndAPaddedTranspose) {
  tgc_program *p = nullptr;
  {
    Graph g("tensor_softmax.json");
    ASSERT_TRUE(g.mod);
    Progress progress;
    ASSERT_EQ(createWithProgress(g.mod, progress, &p), TGC_OK) << lastError();
    ASSERT_GE(progress.stages.size(), 3u);
    EXPECT_EQ(progress.done.back(), progress.total.back());
  }
  ASSERT_EQ(outputInfo(p, 0).ndim, 2u);
  tgc_tensor_info t = outputInfo(p, 1);
  ASSERT_EQ(t.ndim, 2u);
  EXPECT_EQ(t.shape[0], 5);
  EXPECT_EQ(t.shape[1], 3);
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i)
    x[i] = i / 4.0f;
  runSoftmaxAndTranspose(p, x);
  tgc_program_destroy(p);
}

// The same softmax program on the runtime's Vulkan device: every kernel
// compiled to SPIR-V, the schedule recorded on the Vulkan driver's queues.
TEST(CAPIProgram, RunsOnTheVulkanDevice) {
  tgrt_device *probe = nullptr;
  if (tgrt_device_open("VULKAN", nullptr, &probe) != TGRT_OK)
    GTEST_SKIP() << "no Vulkan device: " << tgrt_last_error();
  tgrt_device_close(probe);
  Graph g("tensor_softmax.json");
  ASSERT_TRUE(g.mod);
  tgc_program *p = nullptr;
  EXPECT_EQ(tgc_program_create_for_target(g.mod, "vulkan:9", nullptr, &p), TGC_COMPILE_FAILED);
  EXPECT_NE(lastError().find("vulkan:9"), std::string::npos) << lastError();
  ASSERT_EQ(tgc_program_create_for_target(g.mod, "vulkan", nullptr, &p), TGC_OK) << lastError();
  std::vector<float> x(12);
  for (int i = 0; i < 12; ++i)
    x[i] = i / 4.0f - 1.0f;
  runSoftmaxAndTranspose(p, x);
  tgc_program_destroy(p);
}

TEST(CAPIProgram, BadArgumentsAreErrors) {
  EXPECT_EQ(tgc_program_create(nullptr, nullptr, nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_program_destroy(nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_program_run(nullptr), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("program must not be NULL"), std::string::npos) << lastError();

  Graph g("tensor_mul_bcast.json");
  ASSERT_TRUE(g.mod);
  tgc_program_options opts = TGC_PROGRAM_OPTIONS_DEFAULT;
  opts.api_version = 99;
  tgc_program *p = nullptr;
  EXPECT_EQ(tgc_program_create(g.mod, &opts, &p), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("api_version is 99"), std::string::npos) << lastError();
  EXPECT_EQ(p, nullptr);

  ASSERT_EQ(tgc_program_create(g.mod, nullptr, &p), TGC_OK) << lastError();
  float buf[30] = {};
  EXPECT_EQ(tgc_program_set_buffer(p, 0, buf, 8), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("holds 120 bytes, got 8"), std::string::npos) << lastError();
  EXPECT_EQ(tgc_program_set_buffer(p, 2, buf, 8), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_program_set_buffer(p, 0, nullptr, 120), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_program_read_output(p, 0, buf, 4), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("has 120 bytes, got 4"), std::string::npos) << lastError();
  EXPECT_EQ(tgc_program_read_output(p, 1, buf, 120), TGC_INVALID_ARGUMENT);
  tgc_tensor_info info = {};
  EXPECT_EQ(tgc_program_buffer_info(p, 0, &info), TGC_INVALID_ARGUMENT); // api_version unset
  info.api_version = TGC_API_VERSION;
  EXPECT_EQ(tgc_program_buffer_info(p, 5, &info), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_program_output_info(p, 1, &info), TGC_INVALID_ARGUMENT);
  tgc_program_destroy(p);
}

// A module whose root is not a SINK of tensors is not a program.
TEST(CAPIProgram, RejectsWhatIsNotATensorProgram) {
  tgc_context *ctx = nullptr;
  ASSERT_EQ(tgc_context_create(&ctx), TGC_OK);
  std::string text = readInput("symbolic.mlir");
  tgc_module *m = nullptr;
  ASSERT_EQ(tgc_module_parse_mlir(ctx, text.data(), text.size(), "symbolic.mlir", &m), TGC_OK) << lastError();
  tgc_program *p = nullptr;
  EXPECT_EQ(tgc_program_create(m, nullptr, &p), TGC_PASS_FAILED);
  EXPECT_NE(lastError().find("a tensor program is a SINK"), std::string::npos) << lastError();
  EXPECT_EQ(p, nullptr);
  tgc_module_destroy(m);
  tgc_context_destroy(ctx);
}

} // namespace
