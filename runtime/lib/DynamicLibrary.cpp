//===- DynamicLibrary.cpp - vendor libraries opened at run time -----------===//

#include "DynamicLibrary.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>

using namespace tgrt;

void *DynamicLibrary::symbol(const char *name) const {
  return handle ? dlsym(handle, name) : nullptr;
}

const DynamicLibrary &tgrt::openLibrary(const char *overrideEnv,
                                        const std::vector<std::string> &candidates) {
  static std::mutex mutex;
  static std::map<std::string, DynamicLibrary> opened;
  std::string key;
  const char *env = overrideEnv ? std::getenv(overrideEnv) : nullptr;
  if (env && *env)
    key = env;
  else
    for (const std::string &c : candidates)
      key += c + '\n';
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, fresh] = opened.try_emplace(key);
  DynamicLibrary &lib = it->second;
  if (!fresh)
    return lib;
  auto attempt = [&](const std::string &path) {
    lib.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib.handle) {
      lib.path = path;
      return true;
    }
    const char *e = dlerror();
    lib.error += (lib.error.empty() ? "" : "; ") + (e ? std::string(e) : path);
    return false;
  };
  if (env && *env) {
    if (!attempt(env))
      lib.error += std::string(" (from ") + overrideEnv + ")";
    return lib;
  }
  for (const std::string &c : candidates)
    if (attempt(c))
      break;
  return lib;
}

std::vector<std::string> tgrt::cudaToolkitLibraries(const std::string &name) {
  std::vector<std::string> paths;
  for (const char *env : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *root = std::getenv(env); root && *root)
      paths.push_back(std::string(root) + "/lib64/" + name);
  paths.push_back("/usr/local/cuda/lib64/" + name);
  return paths;
}
