//===- Conformance.h - the driver conformance suite's fixture ---*- C++ -*-===//
//
// One set of tests run against every driver, as IREE's HAL CTS is: the
// tests speak only the C API and a small kernel vocabulary (cts_add,
// cts_affine) that every driver has in its own binary format. Adding a
// driver is one line in kDrivers (conformance drivers) plus its kernels:
// kernels/conformance.c for ELF, kernels/cts_*.spirv.mlir for SPIR-V.
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_UNITTESTS_CONFORMANCE_H
#define TGRT_UNITTESTS_CONFORMANCE_H

#include "TestUtil.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace tgrt_cts {

/// The binary format a driver's kernels come in.
enum class KernelFormat { Elf, Spirv };

/// A driver under test.
struct DriverCase {
  const char *device;        ///< the name the suite opens
  KernelFormat format;       ///< which kernels it loads
  const char *missingDevice; ///< a name of this driver with no device behind it
  /// Set to skip the driver explicitly (a machine without the hardware).
  const char *skipEnv;
};

/// Every driver the suite runs on: one line per driver.
inline const DriverCase kDrivers[] = {
    {"CPU", KernelFormat::Elf, "CPU:1", nullptr},
    {"VULKAN:0", KernelFormat::Spirv, "VULKAN:99", "TGRT_TEST_NO_VULKAN"},
};

/// The test name of a driver ("CPU", "VULKAN").
inline std::string driverTestName(const DriverCase &d) {
  std::string n = d.device;
  return n.substr(0, n.find(':'));
}
/// How gtest prints a DriverCase in failure messages.
inline void PrintTo(const DriverCase &d, std::ostream *os) { *os << d.device; }

/// A kernel of the suite's vocabulary: its buffers come first, then its
/// scalars (4 or 8 bytes each).
struct KernelSig {
  const char *name;
  uint32_t buffers;
  std::vector<uint8_t> scalarBytes;
};
inline const KernelSig kAdd{"cts_add", 3, {4}};       // out, a, b; n
inline const KernelSig kAffine{"cts_affine", 1, {4, 8}}; // buf; n, k

/// cts_affine on one element.
inline uint32_t affineRef(uint32_t v, int64_t k) {
  uint64_t u = static_cast<uint64_t>(k);
  return v * 3u + (static_cast<uint32_t>(u) ^ static_cast<uint32_t>(u >> 32));
}

/// Workgroup size the SPIR-V kernels are compiled for.
constexpr uint32_t kLocal = 64;

class Conformance : public tgrt_test::RuntimeTest,
                    public ::testing::WithParamInterface<DriverCase> {
protected:
  const char *deviceName() const override { return GetParam().device; }

  void SetUp() override {
    if (const char *env = GetParam().skipEnv)
      if (const char *v = std::getenv(env); v && *v && std::string(v) != "0")
        GTEST_SKIP() << env << " is set";
    RuntimeTest::SetUp();
  }

  void TearDown() override {
    for (tgrt_graph *g : graphs)
      TGRT_EXPECT_OK(tgrt_graph_destroy(g));
    RuntimeTest::TearDown();
  }

  bool isCPU() const { return GetParam().format == KernelFormat::Elf; }

  tgrt_graph *graph(std::vector<tgrt_queue *> qs) {
    tgrt_graph *g = nullptr;
    EXPECT_EQ(tgrt_graph_create(qs.data(), static_cast<uint32_t>(qs.size()), &g), TGRT_OK)
        << tgrt_last_error();
    if (g)
      graphs.push_back(g);
    return g;
  }
  std::vector<tgrt_graph *> graphs;

  /// A program of the suite's vocabulary on `device` (default: the fixture's),
  /// not tracked by the fixture when `owned` is false.
  tgrt_program *kernel(const KernelSig &k, tgrt_device *device = nullptr, bool owned = true) {
    device = device ? device : dev;
    tgrt_program *p = nullptr;
    if (GetParam().format == KernelFormat::Elf) {
      std::vector<uint8_t> obj = tgrt_test::kernelObject("conformance");
      EXPECT_EQ(tgrt_program_load(device, obj.data(), obj.size(), k.name, &p), TGRT_OK)
          << k.name << ": " << tgrt_last_error();
    } else {
      std::vector<uint8_t> spv = tgrt_test::kernelObject(k.name, ".spv");
      tgrt_program_desc d = spirvDesc(k, spv);
      EXPECT_EQ(tgrt_program_create(device, &d, &p), TGRT_OK) << k.name << ": " << tgrt_last_error();
    }
    if (p && owned)
      programs.push_back(p);
    return p;
  }

  static tgrt_program_desc spirvDesc(const KernelSig &k, const std::vector<uint8_t> &spv) {
    tgrt_program_desc d{};
    d.api_version = TGRT_API_VERSION;
    d.format = TGRT_FORMAT_SPIRV;
    d.binary = spv.data();
    d.size = spv.size();
    d.entry_name = k.name;
    d.num_buffers = k.buffers;
    d.num_scalars = static_cast<uint32_t>(k.scalarBytes.size());
    d.scalar_bytes = k.scalarBytes.data();
    d.offsets_word = 1;
    d.local_size[0] = kLocal, d.local_size[1] = d.local_size[2] = 1;
    return d;
  }

  /// The driver's argument list and launch for `n` elements: buffers, then
  /// scalars; the CPU kernels also take the thread count and core_id.
  struct Call {
    std::vector<tgrt_arg> args;
    tgrt_dispatch dispatch{};
  };
  Call call(std::vector<tgrt_buffer *> bufs, std::vector<int64_t> scalars, uint32_t n) const {
    Call c;
    for (tgrt_buffer *b : bufs)
      c.args.push_back(tgrt_arg_buffer(b));
    for (int64_t s : scalars)
      c.args.push_back(tgrt_arg_int(s));
    c.dispatch.api_version = TGRT_API_VERSION;
    for (int d = 0; d < 3; ++d)
      c.dispatch.global_size[d] = c.dispatch.local_size[d] = 1;
    c.dispatch.core_id_arg_index = -1;
    if (GetParam().format == KernelFormat::Elf) {
      uint32_t threads = std::max<uint32_t>(1, std::min<uint32_t>(kThreads, n));
      c.args.push_back(tgrt_arg_int(threads));
      c.args.push_back(tgrt_arg_int(0));
      c.dispatch.core_id_arg_index = static_cast<int32_t>(c.args.size() - 1);
      c.dispatch.global_size[0] = threads;
    } else {
      c.dispatch.global_size[0] = std::max<uint32_t>(1, (n + kLocal - 1) / kLocal);
      c.dispatch.local_size[0] = kLocal;
    }
    return c;
  }

  /// Records a kernel in `q`.
  tgrt_status exec(tgrt_queue *q, tgrt_program *p, std::vector<tgrt_buffer *> bufs,
                   std::vector<int64_t> scalars, uint32_t n) {
    Call c = call(std::move(bufs), std::move(scalars), n);
    return tgrt_queue_dispatch(q, p, c.args.data(), static_cast<uint32_t>(c.args.size()), &c.dispatch);
  }
  /// Runs a kernel now.
  tgrt_status dispatchNow(tgrt_program *p, std::vector<tgrt_buffer *> bufs,
                          std::vector<int64_t> scalars, uint32_t n) {
    Call c = call(std::move(bufs), std::move(scalars), n);
    return tgrt_program_dispatch(p, c.args.data(), static_cast<uint32_t>(c.args.size()), &c.dispatch);
  }

  tgrt_signal *named(const char *name, uint64_t initial = 0) {
    tgrt_signal *s = signal(initial);
    EXPECT_EQ(tgrt_signal_set_name(s, name), TGRT_OK) << tgrt_last_error();
    return s;
  }
  uint64_t valueOf(tgrt_signal *s) {
    uint64_t v = 0;
    EXPECT_EQ(tgrt_signal_value(s, &v), TGRT_OK) << tgrt_last_error();
    return v;
  }

  /// Generous: lavapipe under the sanitizers on a loaded 2-core machine.
  static constexpr uint64_t kWaitMs = 60000;
};

} // namespace tgrt_cts

#endif // TGRT_UNITTESTS_CONFORMANCE_H
