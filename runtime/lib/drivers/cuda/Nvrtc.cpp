//===- Nvrtc.cpp - CUDA C source to cubin or PTX through NVRTC ------------===//
//
// tinygrad lets users write kernels as CUDA C source (its CUSTOM ops and
// the CUDA backend's own renderer compile through NVRTC). This is that
// compile, runtime-side so a host without the MLIR compiler can use it:
// NVRTC is opened at run time like libcuda (never linked), and needs no GPU.
// nvrtc.h's few types and values are declared here (its API has kept these
// names and values since CUDA 7).
//
//===----------------------------------------------------------------------===//

#include "DynamicLibrary.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

using namespace tgrt;

namespace {

using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram *;
constexpr nvrtcResult NVRTC_SUCCESS = 0;

#define TGRT_NVRTC_FUNCTIONS(X)                                                                    \
  X(nvrtcGetErrorString, const char *(nvrtcResult))                                                \
  X(nvrtcCreateProgram,                                                                            \
    nvrtcResult(nvrtcProgram *, const char *, const char *, int, const char *const *,             \
                const char *const *))                                                              \
  X(nvrtcDestroyProgram, nvrtcResult(nvrtcProgram *))                                              \
  X(nvrtcCompileProgram, nvrtcResult(nvrtcProgram, int, const char *const *))                      \
  X(nvrtcGetProgramLogSize, nvrtcResult(nvrtcProgram, size_t *))                                   \
  X(nvrtcGetProgramLog, nvrtcResult(nvrtcProgram, char *))                                         \
  X(nvrtcGetCUBINSize, nvrtcResult(nvrtcProgram, size_t *))                                        \
  X(nvrtcGetCUBIN, nvrtcResult(nvrtcProgram, char *))                                              \
  X(nvrtcGetPTXSize, nvrtcResult(nvrtcProgram, size_t *))                                          \
  X(nvrtcGetPTX, nvrtcResult(nvrtcProgram, char *))

struct NvrtcApi {
#define TGRT_NVRTC_DECLARE(name, type) std::add_pointer_t<type> name = nullptr;
  TGRT_NVRTC_FUNCTIONS(TGRT_NVRTC_DECLARE)
#undef TGRT_NVRTC_DECLARE
};

std::string resolve(const DynamicLibrary &lib, NvrtcApi &api) {
#define TGRT_NVRTC_LOAD(name, type)                                                                \
  if (!(api.name = reinterpret_cast<std::add_pointer_t<type>>(lib.symbol(#name))))                 \
    return "NVRTC " + lib.path + " has no " #name;
  TGRT_NVRTC_FUNCTIONS(TGRT_NVRTC_LOAD)
#undef TGRT_NVRTC_LOAD
  return "";
}

/// NVRTC's entry points, resolved once per library.
Status loadNvrtc(const NvrtcApi *&out) {
  std::vector<std::string> candidates = {"libnvrtc.so.13", "libnvrtc.so.12"};
  for (const char *v : {"13", "12"}) {
    std::vector<std::string> more = cudaToolkitLibraries(std::string("libnvrtc.so.") + v);
    candidates.insert(candidates.end(), more.begin(), more.end());
  }
  const DynamicLibrary &lib = openLibrary("TGRT_NVRTC_LIBRARY", candidates);
  if (loadApi(lib, "no NVRTC", resolve, out) != TGRT_OK)
    return fail(TGRT_UNAVAILABLE, std::string("tgrt_nvrtc_compile: ") + tgrt_last_error());
  return TGRT_OK;
}

/// NVRTC's result as text, with the program's log when there is one.
Status nvrtcFailure(const NvrtcApi &api, nvrtcProgram prog, nvrtcResult r, const char *call) {
  std::string message = std::string("tgrt_nvrtc_compile: ") + call + " failed: " + api.nvrtcGetErrorString(r);
  size_t logSize = 0;
  if (prog && api.nvrtcGetProgramLogSize(prog, &logSize) == NVRTC_SUCCESS && logSize > 1) {
    std::string log(logSize, '\0');
    if (api.nvrtcGetProgramLog(prog, log.data()) == NVRTC_SUCCESS)
      message += "\n" + std::string(log.c_str());
  }
  return fail(TGRT_INVALID_ARGUMENT, message);
}

Status compile(const char *source, const char *arch, uint32_t format, const char *const *options,
               uint32_t numOptions, void **outBinary, size_t *outSize) {
  if (!source || !arch || !outBinary || !outSize)
    return fail(TGRT_INVALID_ARGUMENT, "tgrt_nvrtc_compile: source, arch, out_binary and out_size "
                                       "must not be NULL");
  if (format != TGRT_FORMAT_CUBIN && format != TGRT_FORMAT_PTX)
    return failf(TGRT_INVALID_ARGUMENT, "tgrt_nvrtc_compile: format %u is not TGRT_FORMAT_CUBIN or "
                                        "TGRT_FORMAT_PTX", format);
  if (numOptions && !options)
    return fail(TGRT_INVALID_ARGUMENT, "tgrt_nvrtc_compile: options is NULL but num_options is not 0");
  if (std::strncmp(arch, "sm_", 3) != 0 && std::strncmp(arch, "compute_", 8) != 0)
    return failf(TGRT_INVALID_ARGUMENT, "tgrt_nvrtc_compile: arch '%s' is not sm_<N> or compute_<N>", arch);
  if (format == TGRT_FORMAT_CUBIN && arch[0] != 's')
    return failf(TGRT_INVALID_ARGUMENT, "tgrt_nvrtc_compile: a cubin needs a real arch (sm_<N>), not '%s'",
                 arch);
  const NvrtcApi *api = nullptr;
  TGRT_RETURN_IF_ERROR(loadNvrtc(api));
  std::string archOption = std::string("--gpu-architecture=") + arch;
  std::vector<const char *> opts = {archOption.c_str()};
  for (uint32_t i = 0; i < numOptions; ++i) {
    if (!options[i])
      return failf(TGRT_INVALID_ARGUMENT, "tgrt_nvrtc_compile: option %u is NULL", i);
    opts.push_back(options[i]);
  }
  nvrtcProgram prog = nullptr;
  nvrtcResult r = api->nvrtcCreateProgram(&prog, source, "tgrt_nvrtc.cu", 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS)
    return nvrtcFailure(*api, nullptr, r, "nvrtcCreateProgram");
  struct Destroy {
    const NvrtcApi *api;
    nvrtcProgram *prog;
    ~Destroy() { api->nvrtcDestroyProgram(prog); }
  } destroy{api, &prog};
  r = api->nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
  if (r != NVRTC_SUCCESS)
    return nvrtcFailure(*api, prog, r, "nvrtcCompileProgram");
  bool cubin = format == TGRT_FORMAT_CUBIN;
  size_t size = 0;
  r = cubin ? api->nvrtcGetCUBINSize(prog, &size) : api->nvrtcGetPTXSize(prog, &size);
  if (r != NVRTC_SUCCESS)
    return nvrtcFailure(*api, prog, r, cubin ? "nvrtcGetCUBINSize" : "nvrtcGetPTXSize");
  char *binary = static_cast<char *>(std::malloc(size ? size : 1));
  if (!binary)
    return fail(TGRT_OUT_OF_MEMORY, "tgrt_nvrtc_compile: out of memory");
  r = cubin ? api->nvrtcGetCUBIN(prog, binary) : api->nvrtcGetPTX(prog, binary);
  if (r != NVRTC_SUCCESS) {
    std::free(binary);
    return nvrtcFailure(*api, prog, r, cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX");
  }
  *outBinary = binary;
  *outSize = size;
  return TGRT_OK;
}

} // namespace

extern "C" {

tgrt_status tgrt_nvrtc_compile(const char *source, const char *arch, uint32_t format,
                               const char *const *options, uint32_t num_options, void **out_binary,
                               size_t *out_size) {
  return apiCall("tgrt_nvrtc_compile", [&]() -> Status {
    return compile(source, arch, format, options, num_options, out_binary, out_size);
  });
}

tgrt_status tgrt_nvrtc_free(void *binary) {
  std::free(binary);
  return TGRT_OK;
}

} // extern "C"
