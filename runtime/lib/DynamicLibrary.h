//===- DynamicLibrary.h - vendor libraries opened at run time ----*- C++ -*-===//
//
// The runtime links no vendor library: CUDA's driver and NVRTC, and AMD's
// HSA runtime, are opened with dlopen when a device (or a compile) first
// needs them, so that a machine without them still runs every other driver
// and gets an error status naming what is missing. Each library is opened
// once per process (and stays loaded: devices may be opened again later).
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_DYNAMICLIBRARY_H
#define TGRT_LIB_DYNAMICLIBRARY_H

#include "Status.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace tgrt {

/// A library opened by openLibrary: `handle` is null when none of the
/// candidates could be opened, with `error` listing each attempt.
struct DynamicLibrary {
  void *handle = nullptr;
  std::string path;  ///< the candidate that was opened
  std::string error; ///< why nothing was opened
  /// The address of `symbol`, or null.
  void *symbol(const char *name) const;
};

/// Opens the first of `candidates` that dlopen accepts, or the path in the
/// environment variable `overrideEnv` alone when it is set (tests point it
/// at a stub or a missing file). The result is cached per candidate list.
const DynamicLibrary &openLibrary(const char *overrideEnv,
                                  const std::vector<std::string> &candidates);

/// `name` in the CUDA toolkit's library folders ($CUDA_PATH/lib64,
/// $CUDA_HOME/lib64, /usr/local/cuda/lib64), where NVRTC and nvJitLink
/// live when they are not on the loader's path.
std::vector<std::string> cudaToolkitLibraries(const std::string &name);

/// The entry points `Api` of `lib`, resolved by `resolve(lib, api)` (which
/// returns "" or why the library is unusable) once per library and process;
/// TGRT_UNAVAILABLE with that reason, later calls included, or "<absent>:
/// <dlopen's errors>" when the library was not found.
template <typename Api, typename Resolve>
Status loadApi(const DynamicLibrary &lib, const char *absent, Resolve resolve, const Api *&out) {
  static std::mutex mutex;
  static std::map<const DynamicLibrary *, std::pair<Api, std::string>> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = loaded.try_emplace(&lib);
  auto &[api, error] = it->second;
  if (fresh)
    error = lib.handle ? resolve(lib, api) : std::string(absent) + ": " + lib.error;
  if (!error.empty())
    return fail(TGRT_UNAVAILABLE, error);
  out = &api;
  return TGRT_OK;
}

} // namespace tgrt

#endif // TGRT_LIB_DYNAMICLIBRARY_H
