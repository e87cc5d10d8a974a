//===- ElfLoaderTest.cpp - loading and running clang-built kernels --------===//
//
// Every kernel object here was built by the test CMake with tinygrad's CPU
// flags (clang -c -O2 -fPIC -ffreestanding -fno-math-errno -nostdlib
// --target=x86_64-none-unknown-elf -march=native).
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tgrt_test;

namespace {

class ElfLoaderTest : public RuntimeTest {
protected:
  /// Runs a kernel `void k(float *out, const float *a, int n)` over `a`.
  std::vector<float> runElementwise(const char *kernel, const std::vector<float> &a) {
    tgrt_program *p = load(kernel);
    if (!p)
      return {};
    int n = static_cast<int>(a.size());
    tgrt_buffer *out = alloc(a.size() * 4), *ba = upload(a);
    tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba), tgrt_arg_int(n)};
    EXPECT_EQ(tgrt_program_launch(p, args, 3, -1, 1), TGRT_OK) << tgrt_last_error();
    return download<float>(out, a.size());
  }
};

std::vector<float> ramp(size_t n, float scale = 0.25f, float offset = -3.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = offset + scale * static_cast<float>(i);
  return v;
}

TEST_F(ElfLoaderTest, AddKernel) {
  tgrt_program *p = load("add");
  ASSERT_NE(p, nullptr);
  const char *name = nullptr;
  TGRT_ASSERT_OK(tgrt_program_entry_name(p, &name));
  EXPECT_STREQ(name, "add");
  std::vector<float> a = ramp(100), b = ramp(100, -0.5f, 7.0f);
  tgrt_buffer *out = alloc(100 * 4), *ba = upload(a), *bb = upload(b);
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba), tgrt_arg_buffer(bb), tgrt_arg_int(100)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 4, -1, 1));
  std::vector<float> got = download<float>(out, 100);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(got[i], a[i] + b[i]) << i;
}

TEST_F(ElfLoaderTest, RodataTableAndConstantPool) {
  static const int table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
  tgrt_program *p = load("rodata");
  ASSERT_NE(p, nullptr);
  std::vector<float> a = ramp(64);
  tgrt_buffer *out = alloc(64 * 4), *ba = upload(a);
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 2, -1, 1));
  std::vector<float> got = download<float>(out, 64);
  for (int i = 0; i < 64; ++i) // -march=native may contract into an FMA
    EXPECT_NEAR(got[i], a[i] * 1.2345f + (float)table[(i * 7) & 15] - 0.375f, 1e-5) << i;
}

TEST_F(ElfLoaderTest, StaticAndGlobalHelpers) {
  tgrt_program *p = load("helper");
  ASSERT_NE(p, nullptr);
  const char *name = nullptr;
  TGRT_ASSERT_OK(tgrt_program_entry_name(p, &name));
  EXPECT_STREQ(name, "kernel_with_helper"); // at byte 0, before the global helper
  std::vector<float> a = ramp(33);
  std::vector<float> got = runElementwise("helper", a);
  ASSERT_EQ(got.size(), a.size());
  for (int i = 0; i < 33; ++i) {
    float x = a[i];
    EXPECT_NEAR(got[i], x * x * 0.5f + x * 3.0f - 2.0f + 0.75f, 1e-4) << i;
  }
}

TEST_F(ElfLoaderTest, BssAndGotStatePersistsPerProgram) {
  tgrt_program *p = load("bss");
  ASSERT_NE(p, nullptr);
  std::vector<float> a = ramp(16);
  tgrt_buffer *out = alloc(17 * 4), *ba = upload(a);
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 2, -1, 1));
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 2, -1, 1));
  std::vector<float> got = download<float>(out, 17);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ(got[i], 2 * a[i]) << i; // .bss started at zero
  EXPECT_EQ(got[16], 2.0f);            // the GOT-addressed counter
  // A second load has its own, zeroed, state.
  tgrt_program *q = load("bss");
  ASSERT_NE(q, nullptr);
  TGRT_ASSERT_OK(tgrt_program_launch(q, args, 2, -1, 1));
  got = download<float>(out, 17);
  EXPECT_EQ(got[0], a[0]);
  EXPECT_EQ(got[16], 1.0f);
}

TEST_F(ElfLoaderTest, LibmFromTheHost) {
  std::vector<float> a = ramp(40, 0.2f, -4.0f);
  std::vector<float> got = runElementwise("libm", a);
  ASSERT_EQ(got.size(), a.size());
  for (int i = 0; i < 40; ++i) {
    float want = std::exp(a[i]) + std::fabs(a[i]);
    EXPECT_NEAR(got[i], want, 1e-6f * std::fabs(want) + 1e-6f) << i;
  }
}

// Exact float -> bfloat16, round to nearest even.
uint16_t refBF16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (std::isnan(f))
    return static_cast<uint16_t>((u >> 16) | 0x40);
  uint32_t lower = u & 0xffff, upper = u >> 16;
  if (lower > 0x8000 || (lower == 0x8000 && (upper & 1)))
    ++upper;
  return static_cast<uint16_t>(upper);
}

float bf16ToFloat(uint16_t h) {
  uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// Exact double -> bfloat16: the two bf16 neighbours of d, nearest wins, ties
// to even. (Finite, normal-range d only.)
uint16_t refBF16(double d) {
  float t = static_cast<float>(d);
  if (std::fabs(static_cast<double>(t)) > std::fabs(d))
    t = std::nextafter(t, 0.0f); // truncate toward zero
  uint32_t u;
  std::memcpy(&u, &t, 4);
  uint16_t lo = static_cast<uint16_t>(u >> 16), hi = static_cast<uint16_t>(lo + 1);
  double dl = std::fabs(d - bf16ToFloat(lo)), dh = std::fabs(bf16ToFloat(hi) - d);
  if (dl < dh || (dl == dh && !(lo & 1)))
    return lo;
  return hi;
}

TEST_F(ElfLoaderTest, BFloat16Builtins) {
  tgrt_program *p = load("bf16");
  ASSERT_NE(p, nullptr);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> f = {1.0f, -2.5f, 1.00390625f /* tie, to even */, 1.01171875f /* tie, up */,
                          3.14159265f, -inf, std::numeric_limits<float>::quiet_NaN(), 1e-3f};
  std::vector<double> d = {1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), // double rounding trap
                           -(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)),
                           1.0 + std::ldexp(1.0, -8), // exact tie
                           2.718281828459045,
                           -1234.5678,
                           1e30,
                           0.1,
                           1.0 + std::ldexp(1.0, -8) - std::ldexp(1.0, -45)};
  tgrt_buffer *out = alloc(16 * 2), *bf = upload(f), *bd = upload(d);
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(bf), tgrt_arg_buffer(bd)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 3, -1, 1));
  std::vector<uint16_t> got = download<uint16_t>(out, 16);
  for (int i = 0; i < 8; ++i) {
    if (std::isnan(f[i]))
      EXPECT_TRUE(std::isnan(bf16ToFloat(got[i]))) << i;
    else
      EXPECT_EQ(got[i], refBF16(f[i])) << "float " << f[i];
    EXPECT_EQ(got[8 + i], refBF16(d[i])) << "double " << d[i];
  }
}

TEST_F(ElfLoaderTest, NamedEntriesAndAbsolute64Relocations) {
  tgrt_program *first = load("abs64", "first"), *second = load("abs64", "second");
  tgrt_program *byDefault = load("abs64");
  ASSERT_TRUE(first && second && byDefault);
  const char *name = nullptr;
  TGRT_ASSERT_OK(tgrt_program_entry_name(byDefault, &name));
  EXPECT_STREQ(name, "first");
  tgrt_buffer *out = alloc(4);
  tgrt_arg args[] = {tgrt_arg_buffer(out)};
  TGRT_ASSERT_OK(tgrt_program_launch(second, args, 1, -1, 1));
  EXPECT_EQ(download<float>(out, 1)[0], 3.0f); // *slots[1] + *slots[0] via R_X86_64_64
  TGRT_ASSERT_OK(tgrt_program_launch(first, args, 1, -1, 1));
  EXPECT_EQ(download<float>(out, 1)[0], 1.0f);
}

TEST_F(ElfLoaderTest, LlcObjectWithUnwindTables) {
  std::vector<float> a = ramp(20, 0.5f, -5.0f);
  std::vector<float> got = runElementwise("llc", a);
  ASSERT_EQ(got.size(), a.size());
  for (int i = 0; i < 20; ++i)
    EXPECT_NEAR(got[i], std::exp2(a[i]) * 0.75f, 1e-6f * std::exp2(a[i])) << i;
}

TEST_F(ElfLoaderTest, MissingEntry) {
  std::vector<uint8_t> obj = kernelObject("abs64");
  tgrt_program *p = nullptr;
  TGRT_EXPECT_ERROR(tgrt_program_load(dev, obj.data(), obj.size(), "third", &p), TGRT_NOT_FOUND,
                    "'third'");
  // A data symbol is not an entry point.
  TGRT_EXPECT_ERROR(tgrt_program_load(dev, obj.data(), obj.size(), "slots", &p), TGRT_NOT_FOUND,
                    "'slots'");
  EXPECT_EQ(p, nullptr);
}

TEST_F(ElfLoaderTest, NonPicAbsolute32Relocations) {
  tgrt_program *p = load("nopic");
  ASSERT_NE(p, nullptr);
  std::vector<int> idx = {7, 0, 3, 12, -1, 5, 2, 9};
  tgrt_buffer *out = alloc(8 * 4), *bi = upload(idx);
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(bi)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 2, -1, 1));
  std::vector<int> got = download<int>(out, 8);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(got[i], (idx[i] & 7) * (idx[i] & 7)) << i;
}

TEST_F(ElfLoaderTest, UnknownExternalIsNamed) {
  std::vector<uint8_t> obj = kernelObject("unknown");
  tgrt_program *p = nullptr;
  TGRT_EXPECT_ERROR(tgrt_program_load(dev, obj.data(), obj.size(), nullptr, &p), TGRT_NOT_FOUND,
                    "'not_a_libm_function' is not on the runtime's allow-list");
  EXPECT_EQ(p, nullptr);
}

TEST_F(ElfLoaderTest, ObjectBytesAreNotKept) {
  std::vector<uint8_t> obj = kernelObject("add");
  tgrt_program *p = nullptr;
  TGRT_ASSERT_OK(tgrt_program_load(dev, obj.data(), obj.size(), nullptr, &p));
  programs.push_back(p);
  std::fill(obj.begin(), obj.end(), 0xcc);
  obj.clear();
  obj.shrink_to_fit();
  std::vector<float> a = {1, 2}, b = {3, 4};
  tgrt_buffer *out = alloc(8), *ba = upload(a), *bb = upload(b);
  tgrt_arg args[] = {tgrt_arg_buffer(out), tgrt_arg_buffer(ba), tgrt_arg_buffer(bb), tgrt_arg_int(2)};
  TGRT_ASSERT_OK(tgrt_program_launch(p, args, 4, -1, 1));
  EXPECT_EQ(download<float>(out, 2), (std::vector<float>{4, 6}));
}

} // namespace
