//===- Conformance.h - the driver conformance suite's fixture ---*- C++ -*-===//
//
// One set of tests run against every driver, as IREE's HAL CTS is: the
// tests speak only the C API and a small kernel vocabulary (cts_add,
// cts_affine) that every driver has in its own binary format. Adding a
// driver is one line in kDrivers plus its kernels, by format:
// kernels/conformance.c for ELF (CPU), kernels/cts_*.spirv.mlir for SPIR-V
// (VULKAN), kernels/cts.gpu.mlir compiled by our own routes to PTX (CUDA)
// and to HSACO per gfx chip (AMD). What differs between drivers (the
// program's format and ABI, launch dims, the CPU's extra arguments) is a
// switch on KernelFormat here; the tests themselves have no driver branches.
// CUDA and AMD need hardware this project's machines lack: there the suite
// skips with tgrt_device_open's own message (a skip, never a pass), except
// the tests that need no device (a missing device, a missing driver
// library), which run everywhere.
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
enum class KernelFormat { Elf, Spirv, Ptx, Hsaco };

/// A driver under test.
struct DriverCase {
  const char *device;        ///< the name the suite opens
  KernelFormat format;       ///< which kernels it loads
  const char *missingDevice; ///< a name of this driver with no device behind it
  /// Set to skip the driver explicitly (a machine without the hardware).
  const char *skipEnv;
  /// The environment variable naming the library the driver opens
  /// (nullptr: the driver needs none).
  const char *libraryEnv;
  /// Hardware a build machine may lack: where tgrt_device_open reports the
  /// device unavailable, the tests that need it skip with that message.
  /// Otherwise (CPU, and Vulkan, which lavapipe provides) it is a failure.
  bool needsHardware;
};

/// Every driver the suite runs on: one line per driver.
inline const DriverCase kDrivers[] = {
    {"CPU", KernelFormat::Elf, "CPU:1", nullptr, nullptr, false},
    {"VULKAN:0", KernelFormat::Spirv, "VULKAN:99", "TGRT_TEST_NO_VULKAN", "TGRT_VULKAN_LOADER", false},
    {"CUDA:0", KernelFormat::Ptx, "CUDA:99", nullptr, "TGRT_CUDA_LIBRARY", true},
    {"AMD:0", KernelFormat::Hsaco, "AMD:99", nullptr, "TGRT_HSA_LIBRARY", true},
};

/// The drivers that open a library of their own (for DriverLibrary).
inline std::vector<DriverCase> driversWithLibrary() {
  std::vector<DriverCase> out;
  for (const DriverCase &d : kDrivers)
    if (d.libraryEnv)
      out.push_back(d);
  return out;
}

/// The tgrt_program_format of a KernelFormat.
inline uint32_t programFormat(KernelFormat f) {
  switch (f) {
  case KernelFormat::Elf: return TGRT_FORMAT_ELF;
  case KernelFormat::Spirv: return TGRT_FORMAT_SPIRV;
  case KernelFormat::Ptx: return TGRT_FORMAT_PTX;
  case KernelFormat::Hsaco: return TGRT_FORMAT_HSACO;
  }
  return 0;
}

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

/// Workgroup size the GPU kernels (SPIR-V, PTX, HSACO) are compiled for.
constexpr uint32_t kLocal = 64;

/// Whether the test's driver was skipped by its environment variable.
inline bool skippedByEnv(const DriverCase &d) {
  const char *v = d.skipEnv ? std::getenv(d.skipEnv) : nullptr;
  return v && *v && std::string(v) != "0";
}

class Conformance : public tgrt_test::RuntimeTest,
                    public ::testing::WithParamInterface<DriverCase> {
protected:
  const char *deviceName() const override { return GetParam().device; }

  void SetUp() override {
    if (skippedByEnv(GetParam()))
      GTEST_SKIP() << GetParam().skipEnv << " is set";
    tgrt_device_options opts = TGRT_DEVICE_OPTIONS_DEFAULT;
    opts.num_threads = kThreads;
    tgrt_status s = tgrt_device_open(deviceName(), &opts, &dev);
    if (s == TGRT_UNAVAILABLE && GetParam().needsHardware)
      GTEST_SKIP() << "needs hardware: " << tgrt_last_error();
    ASSERT_EQ(s, TGRT_OK) << tgrt_status_string(s) << ": " << tgrt_last_error();
  }

  void TearDown() override {
    for (tgrt_graph *g : graphs)
      TGRT_EXPECT_OK(tgrt_graph_destroy(g));
    RuntimeTest::TearDown();
  }

  KernelFormat format() const { return GetParam().format; }

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
    std::vector<uint8_t> bin = binary(k, device);
    tgrt_program_desc d = programDesc(k, bin);
    tgrt_program *p = nullptr;
    EXPECT_EQ(tgrt_program_create(device, &d, &p), TGRT_OK) << k.name << ": " << tgrt_last_error();
    if (p && owned)
      programs.push_back(p);
    return p;
  }

  /// The bytes of the binary holding `k` for `device`: one ELF object for
  /// the CPU, one SPIR-V module per kernel, one PTX module (NUL-terminated
  /// text) for every CUDA GPU, one HSACO per gfx chip.
  std::vector<uint8_t> binary(const KernelSig &k, tgrt_device *device) {
    switch (format()) {
    case KernelFormat::Elf:
      return tgrt_test::kernelObject("conformance");
    case KernelFormat::Spirv:
      return tgrt_test::kernelObject(k.name, ".spv");
    case KernelFormat::Ptx: {
      std::vector<uint8_t> ptx = tgrt_test::kernelObject("cts_sm80", ".ptx");
      ptx.push_back(0);
      return ptx;
    }
    case KernelFormat::Hsaco: {
      tgrt_device_info info{};
      info.api_version = TGRT_API_VERSION;
      EXPECT_EQ(tgrt_device_query(device, &info), TGRT_OK) << tgrt_last_error();
      // Built for the chips in unittests/Runtime/CMakeLists.txt only.
      return tgrt_test::kernelObject(std::string("cts_") + info.arch, ".hsaco");
    }
    }
    return {};
  }

  /// What tgrt_program_create needs to know of `k` in this driver's format.
  tgrt_program_desc programDesc(const KernelSig &k, const std::vector<uint8_t> &bin) const {
    tgrt_program_desc d{};
    d.api_version = TGRT_API_VERSION;
    d.format = programFormat(format());
    d.binary = bin.data();
    d.size = bin.size();
    d.entry_name = k.name;
    // The CPU's ELF kernels declare no interface: every argument is a
    // 64-bit slot, as tgrt_program_load makes them.
    if (format() == KernelFormat::Elf)
      return d;
    d.num_buffers = k.buffers;
    d.num_scalars = static_cast<uint32_t>(k.scalarBytes.size());
    d.scalar_bytes = k.scalarBytes.data();
    // SPIR-V takes views as aligned bindings plus their offsets in the word
    // pack; PTX and HSACO take addresses with the offset added.
    d.offsets_word = format() == KernelFormat::Spirv ? 1 : 0;
    d.local_size[0] = kLocal, d.local_size[1] = d.local_size[2] = 1;
    return d;
  }

  /// The driver's argument list and launch for `n` elements: buffers, then
  /// scalars; the CPU kernels also take the thread count and core_id and
  /// run one slice per thread, the GPU ones one element per thread in
  /// workgroups of kLocal.
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
    if (format() == KernelFormat::Elf) {
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
