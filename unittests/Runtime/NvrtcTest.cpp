//===- NvrtcTest.cpp - CUDA C source to cubin through NVRTC ----------------===//
//
// NVRTC needs no GPU, so these run wherever the CUDA toolkit is installed
// (here: /usr/local/cuda); without it the compile tests skip saying that
// NVRTC is missing, and the error-path tests still run.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cstdlib>
#include <cstring>

namespace {

const char *kAdd = R"(extern "C" __global__ void add(float *c, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
})";

/// A compile of kAdd, or a skip when NVRTC is absent.
struct Compiled {
  std::vector<uint8_t> bytes;
  tgrt_status status;
  std::string error;
};

Compiled compile(const char *source, const char *arch, uint32_t format,
                 std::vector<const char *> options = {}) {
  void *bin = nullptr;
  size_t size = 0;
  Compiled c;
  c.status = tgrt_nvrtc_compile(source, arch, format, options.data(),
                                static_cast<uint32_t>(options.size()), &bin, &size);
  c.error = tgrt_last_error();
  if (c.status == TGRT_OK) {
    c.bytes.assign(static_cast<uint8_t *>(bin), static_cast<uint8_t *>(bin) + size);
    EXPECT_EQ(tgrt_nvrtc_free(bin), TGRT_OK);
  }
  return c;
}

#define SKIP_WITHOUT_NVRTC(c)                                                                      \
  if ((c).status == TGRT_UNAVAILABLE)                                                              \
  GTEST_SKIP() << "no NVRTC (CUDA toolkit): " << (c).error

/// The SM a cubin's ELF header names (e_flags; its layout changed with
/// ELF ABI version 8, as llvm-readelf decodes it).
unsigned cubinSM(const std::vector<uint8_t> &elf) {
  uint32_t flags;
  std::memcpy(&flags, elf.data() + 48, 4);
  return elf[8] >= 8 ? (flags >> 8) & 0xff : flags & 0xff;
}

TEST(Nvrtc, CompilesCudaCToACubinForEachArch) {
  for (auto [arch, sm] : {std::pair{"sm_80", 80u}, {"sm_90", 90u}}) {
    Compiled c = compile(kAdd, arch, TGRT_FORMAT_CUBIN);
    SKIP_WITHOUT_NVRTC(c);
    ASSERT_EQ(c.status, TGRT_OK) << c.error;
    ASSERT_GT(c.bytes.size(), 64u);
    EXPECT_EQ(std::memcmp(c.bytes.data(), "\x7f" "ELF", 4), 0);
    EXPECT_EQ(c.bytes[18], 190) << "e_machine is EM_CUDA";
    EXPECT_EQ(cubinSM(c.bytes), sm) << arch;
    std::string text(c.bytes.begin(), c.bytes.end());
    EXPECT_NE(text.find(".text.add"), std::string::npos) << "the kernel's section";
  }
}

TEST(Nvrtc, CompilesToPtx) {
  Compiled c = compile(kAdd, "sm_80", TGRT_FORMAT_PTX, {"--use_fast_math"});
  SKIP_WITHOUT_NVRTC(c);
  ASSERT_EQ(c.status, TGRT_OK) << c.error;
  std::string ptx(c.bytes.begin(), c.bytes.end());
  EXPECT_NE(ptx.find(".target sm_80"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find(".entry add"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.back(), '\0'); // NUL-terminated, as cuModuleLoadData reads PTX
}

TEST(Nvrtc, CompileErrorsCarryTheLog) {
  Compiled c = compile("extern \"C\" __global__ void k() { undeclared = 1; }", "sm_90", TGRT_FORMAT_CUBIN);
  SKIP_WITHOUT_NVRTC(c);
  EXPECT_EQ(c.status, TGRT_INVALID_ARGUMENT);
  EXPECT_NE(c.error.find("undeclared"), std::string::npos) << c.error;
  Compiled bad = compile(kAdd, "sm_1", TGRT_FORMAT_CUBIN);
  EXPECT_EQ(bad.status, TGRT_INVALID_ARGUMENT) << bad.error;
}

TEST(Nvrtc, ArgumentErrors) {
  void *bin = nullptr;
  size_t size = 0;
  TGRT_EXPECT_ERROR(tgrt_nvrtc_compile(nullptr, "sm_90", TGRT_FORMAT_CUBIN, nullptr, 0, &bin, &size),
                    TGRT_INVALID_ARGUMENT, "must not be NULL");
  TGRT_EXPECT_ERROR(tgrt_nvrtc_compile(kAdd, "gfx942", TGRT_FORMAT_CUBIN, nullptr, 0, &bin, &size),
                    TGRT_INVALID_ARGUMENT, "'gfx942'");
  TGRT_EXPECT_ERROR(tgrt_nvrtc_compile(kAdd, "compute_90", TGRT_FORMAT_CUBIN, nullptr, 0, &bin, &size),
                    TGRT_INVALID_ARGUMENT, "real arch");
  TGRT_EXPECT_ERROR(tgrt_nvrtc_compile(kAdd, "sm_90", TGRT_FORMAT_SPIRV, nullptr, 0, &bin, &size),
                    TGRT_INVALID_ARGUMENT, "format 2");
  TGRT_EXPECT_ERROR(tgrt_nvrtc_compile(kAdd, "sm_90", TGRT_FORMAT_CUBIN, nullptr, 1, &bin, &size),
                    TGRT_INVALID_ARGUMENT, "options is NULL");
  EXPECT_EQ(tgrt_nvrtc_free(nullptr), TGRT_OK);
}

TEST(Nvrtc, MissingLibraryIsUnavailable) {
  setenv("TGRT_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so.13", 1);
  void *bin = nullptr;
  size_t size = 0;
  tgrt_status s = tgrt_nvrtc_compile(kAdd, "sm_90", TGRT_FORMAT_CUBIN, nullptr, 0, &bin, &size);
  std::string error = tgrt_last_error();
  unsetenv("TGRT_NVRTC_LIBRARY");
  EXPECT_EQ(s, TGRT_UNAVAILABLE) << error;
  EXPECT_NE(error.find("no NVRTC"), std::string::npos) << error;
  EXPECT_NE(error.find("/nonexistent/libnvrtc.so.13"), std::string::npos) << error;
}

} // namespace
