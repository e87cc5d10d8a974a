//===- CudaApi.cpp - loading the CUDA driver at run time ------------------===//

#include "CudaApi.h"

#include "DynamicLibrary.h"

#include <string>

using namespace tgrt;
using namespace tgrt::cuda;

namespace {

/// Names for the results cuInit can give before cuGetErrorName is usable.
const char *knownName(CUresult r) {
  switch (r) {
  case CUDA_ERROR_STUB_LIBRARY: return "CUDA_ERROR_STUB_LIBRARY";
  case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
  case CUDA_ERROR_INSUFFICIENT_DRIVER: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
  case CUDA_ERROR_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
  default: return nullptr;
  }
}

/// Resolves the entry points and runs cuInit: "" or why CUDA is unusable.
std::string initialize(const DynamicLibrary &lib, Api &api) {
#define TGRT_CUDA_LOAD(name, sym, type)                                                            \
  if (!(api.name = reinterpret_cast<std::add_pointer_t<type>>(lib.symbol(sym))))                   \
    return "the CUDA driver " + lib.path + " has no " sym " (too old?)";
  TGRT_CUDA_FUNCTIONS(TGRT_CUDA_LOAD)
#undef TGRT_CUDA_LOAD
  CUresult r = api.cuInit(0);
  if (r == CUDA_SUCCESS)
    return "";
  if (r == CUDA_ERROR_STUB_LIBRARY)
    return "no CUDA driver: " + lib.path +
           " is the CUDA toolkit's stub library (cuInit: CUDA_ERROR_STUB_LIBRARY), not a driver";
  if (r == CUDA_ERROR_NO_DEVICE)
    return "no CUDA device (cuInit: CUDA_ERROR_NO_DEVICE)";
  return "the CUDA driver " + lib.path + " failed to initialize: cuInit: " + describe(api, r);
}

} // namespace

Status cuda::load(const Api *&out) {
  const DynamicLibrary &lib = openLibrary("TGRT_CUDA_LIBRARY", {"libcuda.so.1", "libcuda.so"});
  return loadApi(lib, "no CUDA driver", initialize, out);
}

std::string cuda::describe(const Api &api, CUresult r) {
  const char *name = knownName(r), *text = nullptr;
  if (!name && api.cuGetErrorName && api.cuGetErrorName(r, &name) != CUDA_SUCCESS)
    name = nullptr;
  if (api.cuGetErrorString && api.cuGetErrorString(r, &text) != CUDA_SUCCESS)
    text = nullptr;
  std::string s = name ? name : "CUDA error";
  s += " (" + std::to_string(r) + ")";
  if (text)
    s += std::string(": ") + text;
  return s;
}

Status cuda::check(const Api &api, CUresult r, const char *call) {
  if (r == CUDA_SUCCESS)
    return TGRT_OK;
  Status code = r == CUDA_ERROR_OUT_OF_MEMORY ? TGRT_OUT_OF_MEMORY
                : r == CUDA_ERROR_NOT_FOUND   ? TGRT_NOT_FOUND
                : r == CUDA_ERROR_LAUNCH_TIMEOUT ? TGRT_TIMEOUT
                                                 : TGRT_INTERNAL;
  return failf(code, "%s failed: %s", call, describe(api, r).c_str());
}
