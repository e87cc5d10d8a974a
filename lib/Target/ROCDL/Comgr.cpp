//===- Comgr.cpp - relocatable AMDGPU object to an HSACO with ROCm's comgr -===//
//
// The design card names ROCm's code-object manager (comgr) as the AMD
// linker. Debian ships comgr 5.2 (libamd-comgr2, built on LLVM 15): it
// links code object v4 and v5 for the ISAs it knows, gfx90a and older (not
// gfx940+, not gfx11), and not code object v6. It is opened with dlopen when
// asked for, never linked: loading it pulls libLLVM-15 into the process,
// which only this path needs (it coexists with libLLVM-22: versioned
// symbols). amd_comgr.h (libamd-comgr-dev) is needed at build time only
// for its declarations (TG_HAVE_COMGR_H).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/ROCDL/ROCDLTarget.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/DynamicLibrary.h"

#if TG_HAVE_COMGR_H
#include <amd_comgr.h>
#endif

#include <mutex>

using namespace mlir;

namespace rocdl_target_detail {
FailureOr<std::string> linkWithComgr(Location loc, StringRef object, StringRef chip, unsigned abi);
} // namespace rocdl_target_detail

#if TG_HAVE_COMGR_H
namespace {

#define TG_COMGR_FUNCTIONS(X)                                                                      \
  X(amd_comgr_status_string)                                                                       \
  X(amd_comgr_create_data)                                                                         \
  X(amd_comgr_set_data)                                                                            \
  X(amd_comgr_set_data_name)                                                                       \
  X(amd_comgr_get_data)                                                                            \
  X(amd_comgr_release_data)                                                                        \
  X(amd_comgr_create_data_set)                                                                     \
  X(amd_comgr_destroy_data_set)                                                                    \
  X(amd_comgr_data_set_add)                                                                        \
  X(amd_comgr_action_data_get_data)                                                                \
  X(amd_comgr_create_action_info)                                                                  \
  X(amd_comgr_destroy_action_info)                                                                 \
  X(amd_comgr_action_info_set_isa_name)                                                            \
  X(amd_comgr_action_info_set_logging)                                                             \
  X(amd_comgr_do_action)

struct Comgr {
#define TG_COMGR_DECLARE(name) decltype(&::name) name = nullptr;
  TG_COMGR_FUNCTIONS(TG_COMGR_DECLARE)
#undef TG_COMGR_DECLARE
  std::string error;
};

const Comgr &loadComgr() {
  static Comgr api;
  static std::once_flag once;
  std::call_once(once, [] {
    std::string error;
    auto lib = llvm::sys::DynamicLibrary::getPermanentLibrary("libamd_comgr.so.2", &error);
    if (!lib.isValid()) {
      api.error = "no ROCm comgr (libamd_comgr.so.2; install libamd-comgr2): " + error;
      return;
    }
#define TG_COMGR_LOAD(name)                                                                        \
  api.name = reinterpret_cast<decltype(&::name)>(lib.getAddressOfSymbol(#name));                   \
  if (!api.name && api.error.empty())                                                              \
    api.error = "comgr has no " #name;
    TG_COMGR_FUNCTIONS(TG_COMGR_LOAD)
#undef TG_COMGR_LOAD
  });
  return api;
}

} // namespace

FailureOr<std::string> rocdl_target_detail::linkWithComgr(Location loc, StringRef object, StringRef chip,
                                                          unsigned abi) {
  const Comgr &api = loadComgr();
  if (!api.error.empty())
    return emitError(loc) << "cannot link the HSACO with comgr: " << api.error;
  if (abi > 500)
    return emitError(loc) << "comgr 5.2 cannot link code object v" << abi / 100
                          << " (it knows v4 and v5; use abi=500 or lld)";
  amd_comgr_data_t input{}, output{};
  amd_comgr_data_set_t inputs{}, outputs{};
  amd_comgr_action_info_t info{};
  std::string failure;
  auto check = [&](amd_comgr_status_t s, const char *what) {
    if (s == AMD_COMGR_STATUS_SUCCESS || !failure.empty())
      return s == AMD_COMGR_STATUS_SUCCESS;
    const char *text = nullptr;
    api.amd_comgr_status_string(s, &text);
    failure = std::string(what) + ": " + (text ? text : "error");
    return false;
  };
  std::string isa = ("amdgcn-amd-amdhsa--" + chip).str();
  std::string hsaco;
  bool ok = check(api.amd_comgr_create_data(AMD_COMGR_DATA_KIND_RELOCATABLE, &input), "create_data") &&
            check(api.amd_comgr_set_data(input, object.size(), object.data()), "set_data") &&
            check(api.amd_comgr_set_data_name(input, "kernel.o"), "set_data_name") &&
            check(api.amd_comgr_create_data_set(&inputs), "create_data_set") &&
            check(api.amd_comgr_data_set_add(inputs, input), "data_set_add") &&
            check(api.amd_comgr_create_data_set(&outputs), "create_data_set") &&
            check(api.amd_comgr_create_action_info(&info), "create_action_info");
  if (ok && api.amd_comgr_action_info_set_isa_name(info, isa.c_str()) != AMD_COMGR_STATUS_SUCCESS) {
    failure = "comgr 5.2 does not know the ISA " + isa + " (it links gfx90a and older; use lld)";
    ok = false;
  }
  ok = ok && check(api.amd_comgr_do_action(AMD_COMGR_ACTION_LINK_RELOCATABLE_TO_EXECUTABLE, info, inputs, outputs),
                   "link relocatable to executable") &&
       check(api.amd_comgr_action_data_get_data(outputs, AMD_COMGR_DATA_KIND_EXECUTABLE, 0, &output),
             "action_data_get_data");
  if (ok) {
    size_t size = 0;
    ok = check(api.amd_comgr_get_data(output, &size, nullptr), "get_data");
    hsaco.resize(size);
    ok = ok && check(api.amd_comgr_get_data(output, &size, hsaco.data()), "get_data");
  }
  if (output.handle) api.amd_comgr_release_data(output);
  if (info.handle) api.amd_comgr_destroy_action_info(info);
  if (outputs.handle) api.amd_comgr_destroy_data_set(outputs);
  if (inputs.handle) api.amd_comgr_destroy_data_set(inputs);
  if (input.handle) api.amd_comgr_release_data(input);
  if (!ok)
    return emitError(loc) << "comgr failed to link the HSACO for " << chip << ": " << failure;
  return hsaco;
}

#else

FailureOr<std::string> rocdl_target_detail::linkWithComgr(Location loc, StringRef, StringRef, unsigned) {
  return emitError(loc) << "this build has no comgr support (amd_comgr.h was not found: install "
                           "libamd-comgr-dev and reconfigure)";
}

#endif
