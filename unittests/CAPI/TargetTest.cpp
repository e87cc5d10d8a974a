//===- TargetTest.cpp - tgc_target_describe --------------------------------===//
//
// A front end reads a target's facts (dtypes, limits, its kernels' view
// offsets) from the compiler's description instead of keeping its own.
//
//===----------------------------------------------------------------------===//
#include "TestInputs.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {
using tgctest::lastError;

tgc_target_info describe(const char *target) {
  tgc_target_info info = {};
  info.api_version = TGC_API_VERSION;
  EXPECT_EQ(tgc_target_describe(target, &info), TGC_OK) << lastError();
  return info;
}

std::set<std::string> dtypes(const tgc_target_info &info) {
  std::set<std::string> s;
  for (size_t i = 0; i < info.num_dtypes; ++i)
    s.insert(info.dtypes[i]);
  return s;
}

TEST(CAPITarget, Vulkan) {
  tgc_target_info v = describe("vulkan");
  EXPECT_STREQ(v.name, "vulkan");
  EXPECT_STREQ(v.device, "VULKAN");
  EXPECT_EQ(v.has_local, 1);
  EXPECT_EQ(v.has_shared, 1);
  EXPECT_EQ(v.has_threads, 0);
  EXPECT_EQ(v.offsets_word, 1u);
  EXPECT_GT(v.local_max[0], 0);
  EXPECT_GT(v.local_prod_max, 0);
  EXPECT_GT(v.shared_max_bytes, 0);
  std::set<std::string> d = dtypes(v);
  EXPECT_TRUE(d.count("float32") && d.count("float16") && d.count("int64") && d.count("bool"));
  // bfloat16 is emulated in i16 (tg-gpu-emulate-bfloat16); fp8 is not listed
  // (as for tinygrad's ClangRenderer: emulated at half where asked for).
  EXPECT_TRUE(d.count("bfloat16"));
  EXPECT_FALSE(d.count("fp8e4m3"));
}

TEST(CAPITarget, CudaDTypesFollowTheArch) {
  tgc_target_info turing = describe("cuda:sm_75"), hopper = describe("cuda:sm_90");
  EXPECT_STREQ(hopper.device, "CUDA");
  EXPECT_STREQ(hopper.arch, "sm_90");
  EXPECT_EQ(hopper.offsets_word, 0u);
  EXPECT_EQ(hopper.subgroup_size, 32u);
  EXPECT_FALSE(dtypes(turing).count("bfloat16"));
  EXPECT_TRUE(dtypes(hopper).count("bfloat16"));
  EXPECT_TRUE(dtypes(hopper).count("fp8e4m3"));
}

TEST(CAPITarget, CpuHasThreadsNotWorkgroups) {
  tgc_target_info c = describe("cpu");
  EXPECT_STREQ(c.device, "CPU");
  EXPECT_EQ(c.has_threads, 1);
  EXPECT_EQ(c.has_local, 0);
  EXPECT_EQ(c.offsets_word, 0u);
  EXPECT_TRUE(dtypes(c).count("bfloat16"));
}

TEST(CAPITarget, StringsStayValid) {
  tgc_target_info a = describe("amd:gfx942");
  const char *name = a.name;
  for (int i = 0; i < 3; ++i)
    describe("amd:gfx942"), describe("vulkan");
  EXPECT_EQ(describe("amd:gfx942").name, name);
  EXPECT_STREQ(name, "amd:gfx942");
}

TEST(CAPITarget, Errors) {
  tgc_target_info info = {};
  info.api_version = TGC_API_VERSION;
  EXPECT_EQ(tgc_target_describe("metal", &info), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("metal"), std::string::npos) << lastError();
  EXPECT_EQ(tgc_target_describe("cuda:sm_50", &info), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("'sm_50'"), std::string::npos) << lastError();
  EXPECT_EQ(tgc_target_describe(nullptr, &info), TGC_INVALID_ARGUMENT);
  EXPECT_EQ(tgc_target_describe("vulkan", nullptr), TGC_INVALID_ARGUMENT);
  info.api_version = TGC_API_VERSION + 1;
  EXPECT_EQ(tgc_target_describe("vulkan", &info), TGC_INVALID_ARGUMENT);
  EXPECT_NE(lastError().find("api_version"), std::string::npos) << lastError();
}
} // namespace
