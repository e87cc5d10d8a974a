//===- AmdTest.cpp - the AMD (HSA) driver -------------------------------------===//
//
// No machine this project runs on has an AMD GPU or ROCm's HSA runtime:
// here only the error path runs. The AmdDevice test runs where
// tgrt_device_open("AMD:0") succeeds and skips (needs hardware) otherwise.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

using namespace tgrt_test;

namespace {

TEST(AmdDriver, MissingRuntimeIsUnavailable) {
  ScopedEnv env("TGRT_HSA_LIBRARY", "/nonexistent/libhsa-runtime64.so.1");
  tgrt_device *dev = nullptr;
  tgrt_status s = tgrt_device_open("AMD:0", nullptr, &dev);
  std::string error = tgrt_last_error();
  EXPECT_EQ(s, TGRT_UNAVAILABLE) << error;
  EXPECT_NE(error.find("no HSA runtime"), std::string::npos) << error;
  EXPECT_NE(error.find("/nonexistent/libhsa-runtime64.so.1"), std::string::npos) << error;
  EXPECT_EQ(dev, nullptr);
}

class AmdDevice : public RuntimeTest {
protected:
  void SetUp() override {
    tgrt_status s = tgrt_device_open("AMD:0", nullptr, &dev);
    if (s == TGRT_UNAVAILABLE)
      GTEST_SKIP() << "needs hardware: " << tgrt_last_error();
    ASSERT_EQ(s, TGRT_OK) << tgrt_last_error();
  }
};

TEST_F(AmdDevice, QueryAndCopies) {
  tgrt_device_info info{};
  info.api_version = TGRT_API_VERSION;
  TGRT_ASSERT_OK(tgrt_device_query(dev, &info));
  EXPECT_STREQ(info.driver, "AMD");
  EXPECT_EQ(std::string(info.arch).rfind("gfx", 0), 0u) << info.arch;
  EXPECT_TRUE(info.subgroup_size == 32 || info.subgroup_size == 64) << info.subgroup_size;
  std::vector<int32_t> v = {1, -2, 3, -4, 5};
  tgrt_buffer *b = upload(v);
  EXPECT_EQ(download<int32_t>(b, v.size()), v);
  tgrt_program_desc d{};
  d.api_version = TGRT_API_VERSION;
  d.format = TGRT_FORMAT_HSACO;
  const char junk[128] = "not a code object";
  d.binary = junk;
  d.size = sizeof junk;
  d.entry_name = "k";
  tgrt_program *p = nullptr;
  TGRT_EXPECT_ERROR(tgrt_program_create(dev, &d, &p), TGRT_INVALID_OBJECT, "not an HSACO");
}

} // namespace
