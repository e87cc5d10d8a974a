//===- HsaApi.cpp - loading the HSA runtime at run time -------------------===//

#include "HsaApi.h"

#include "DynamicLibrary.h"


using namespace tgrt;
using namespace tgrt::hsa;

namespace {

/// Resolves the entry points and runs hsa_init: "" or why HSA is unusable.
std::string initialize(const DynamicLibrary &lib, Api &api) {
#define TGRT_HSA_LOAD(name, type)                                                                  \
  if (!(api.name = reinterpret_cast<std::add_pointer_t<type>>(lib.symbol(#name))))                 \
    return "the HSA runtime " + lib.path + " has no " #name;
  TGRT_HSA_FUNCTIONS(TGRT_HSA_LOAD)
#undef TGRT_HSA_LOAD
  if (hsa_status_t s = api.hsa_init(); s != HSA_STATUS_SUCCESS)
    return "the HSA runtime " + lib.path + " failed to initialize: hsa_init: " + describe(api, s);
  return "";
}

} // namespace

Status hsa::load(const Api *&out) {
  const DynamicLibrary &lib = openLibrary(
      "TGRT_HSA_LIBRARY", {"libhsa-runtime64.so.1", "/opt/rocm/lib/libhsa-runtime64.so.1"});
  return loadApi(lib, "no HSA runtime (ROCm)", initialize, out);
}

std::string hsa::describe(const Api &api, hsa_status_t s) {
  const char *text = nullptr;
  if (!api.hsa_status_string || api.hsa_status_string(s, &text) != HSA_STATUS_SUCCESS || !text)
    text = "HSA error";
  return std::string(text) + " (" + std::to_string(s) + ")";
}

Status hsa::check(const Api &api, hsa_status_t s, const char *call) {
  if (s == HSA_STATUS_SUCCESS)
    return TGRT_OK;
  Status code = s == HSA_STATUS_ERROR_OUT_OF_RESOURCES ? TGRT_OUT_OF_MEMORY : TGRT_INTERNAL;
  return failf(code, "%s failed: %s", call, describe(api, s).c_str());
}
