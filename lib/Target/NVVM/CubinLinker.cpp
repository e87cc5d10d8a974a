//===- CubinLinker.cpp - PTX to a cubin: nvJitLink, else ptxas ------------===//
//
// nvJitLink assembles PTX into a cubin inside this process (about 15-25 ms
// for a small kernel, against 30+ for spawning ptxas). It is opened with
// dlopen when a cubin is first asked for, not linked: the compiler builds
// and emits PTX on machines without CUDA, and only the cubin step needs
// the toolkit, which then fails with a message naming what is missing.
// nvJitLink.h's few declarations are repeated here (its C API; CUDA 12 and
// 13 export the same unversioned names next to the versioned ones).
// ptxas, the toolkit's executable, is the fallback and the second opinion
// the lit tests use.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/NVVM/NVVMTarget.h"

#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

using nvJitLinkHandle = struct nvJitLink *;
using nvJitLinkResult = int;
constexpr int NVJITLINK_INPUT_PTX = 2;

struct NvJitLink {
  nvJitLinkResult (*create)(nvJitLinkHandle *, uint32_t, const char **) = nullptr;
  nvJitLinkResult (*destroy)(nvJitLinkHandle *) = nullptr;
  nvJitLinkResult (*addData)(nvJitLinkHandle, int, const void *, size_t, const char *) = nullptr;
  nvJitLinkResult (*complete)(nvJitLinkHandle) = nullptr;
  nvJitLinkResult (*cubinSize)(nvJitLinkHandle, size_t *) = nullptr;
  nvJitLinkResult (*cubin)(nvJitLinkHandle, void *) = nullptr;
  nvJitLinkResult (*errorLogSize)(nvJitLinkHandle, size_t *) = nullptr;
  nvJitLinkResult (*errorLog)(nvJitLinkHandle, char *) = nullptr;
  std::string error; ///< why it is unusable
};

/// nvJitLink from the toolkit (or the loader's path), once per toolkit.
const NvJitLink &loadNvJitLink(const std::string &toolkit) {
  static std::mutex mutex;
  static llvm::StringMap<NvJitLink> loaded;
  std::lock_guard<std::mutex> lock(mutex);
  const char *env = std::getenv("TG_NVJITLINK_LIBRARY");
  auto [it, fresh] = loaded.try_emplace(toolkit + "\n" + (env ? env : ""));
  NvJitLink &api = it->second;
  if (!fresh)
    return api;
  std::string tried;
  llvm::sys::DynamicLibrary lib;
  // TG_NVJITLINK_LIBRARY names the one file to try (tests of its absence).
  std::vector<std::string> paths = {toolkit + "/lib64/libnvJitLink.so.13", toolkit + "/lib64/libnvJitLink.so.12",
                                    "libnvJitLink.so.13", "libnvJitLink.so.12"};
  if (const char *env = std::getenv("TG_NVJITLINK_LIBRARY"); env && *env)
    paths = {env};
  for (const std::string &path : paths) {
    std::string error;
    lib = llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
    if (lib.isValid())
      break;
    tried += (tried.empty() ? " " : "; ") + error;
  }
  if (!lib.isValid()) {
    api.error = "no nvJitLink (libnvJitLink.so.13/.12 in " + toolkit +
                "/lib64 or on the loader's path, or TG_NVJITLINK_LIBRARY):" + tried;
    return api;
  }
  auto get = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(lib.getAddressOfSymbol(name));
    if (!fn && api.error.empty())
      api.error = std::string("nvJitLink has no ") + name;
  };
  get(api.create, "nvJitLinkCreate");
  get(api.destroy, "nvJitLinkDestroy");
  get(api.addData, "nvJitLinkAddData");
  get(api.complete, "nvJitLinkComplete");
  get(api.cubinSize, "nvJitLinkGetLinkedCubinSize");
  get(api.cubin, "nvJitLinkGetLinkedCubin");
  get(api.errorLogSize, "nvJitLinkGetErrorLogSize");
  get(api.errorLog, "nvJitLinkGetErrorLog");
  return api;
}

FailureOr<std::string> withNvJitLink(Location loc, const NvJitLink &api, StringRef ptx, StringRef chip) {
  std::string arch = ("-arch=" + chip).str();
  const char *opts[] = {arch.c_str(), "-O3"};
  nvJitLinkHandle h = nullptr;
  if (nvJitLinkResult r = api.create(&h, 2, opts))
    return emitError(loc) << "nvJitLinkCreate(" << arch << ") failed with " << r
                          << (r == 16 || r == 17 ? " (an arch this nvJitLink cannot target)" : "");
  auto log = [&] {
    size_t n = 0;
    std::string text;
    if (!api.errorLogSize(h, &n) && n > 1) {
      text.resize(n);
      api.errorLog(h, text.data());
      text.resize(strnlen(text.data(), n));
    }
    return text;
  };
  std::string source = ptx.str(); // nvJitLink reads PTX up to its NUL
  nvJitLinkResult r = api.addData(h, NVJITLINK_INPUT_PTX, source.c_str(), source.size() + 1, "kernel.ptx");
  if (!r)
    r = api.complete(h);
  std::string cubin;
  size_t size = 0;
  if (!r && !(r = api.cubinSize(h, &size))) {
    cubin.resize(size);
    r = api.cubin(h, cubin.data());
  }
  std::string errors = r ? log() : "";
  api.destroy(&h);
  if (r)
    return emitError(loc) << "nvJitLink rejected the PTX for " << chip << " (error " << r << "): " << errors;
  return cubin;
}

FailureOr<std::string> withPtxas(Location loc, const std::string &ptxas, StringRef ptx, StringRef chip) {
  llvm::SmallString<128> in, out;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("tg-kernel", "ptx", fd, in) ||
      llvm::sys::fs::createTemporaryFile("tg-kernel", "cubin", out))
    return emitError(loc) << "cannot create temporary files for ptxas";
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << ptx;
  }
  llvm::FileRemover removeIn(in), removeOut(out);
  llvm::SmallString<128> errors;
  llvm::sys::fs::createTemporaryFile("tg-ptxas", "log", errors);
  llvm::FileRemover removeLog(errors);
  std::string arch = ("-arch=" + chip).str();
  StringRef args[] = {ptxas, arch, "-O3", in, "-o", out};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(errors), StringRef(errors)};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &message);
  if (rc != 0) {
    auto log = llvm::MemoryBuffer::getFile(errors);
    return emitError(loc) << "ptxas " << arch << " failed" << (message.empty() ? "" : ": " + message)
                          << (log ? ": " + (*log)->getBuffer().trim().str() : "");
  }
  auto cubin = llvm::MemoryBuffer::getFile(out, /*IsText=*/false);
  if (!cubin)
    return emitError(loc) << "ptxas wrote no cubin";
  return (*cubin)->getBuffer().str();
}

} // namespace

FailureOr<std::string> nvvm_target::linkCubin(Location loc, StringRef ptx, StringRef chip, const Options &options) {
  gpu_codegen::reserveHeapForBackends(); // nvJitLink's memory stays mapped between kernels
  std::string toolkit = cudaToolkit(options);
  std::string ptxas = toolkit + "/bin/ptxas";
  bool havePtxas = llvm::sys::fs::can_execute(ptxas);
  if (options.linker != CubinLinker::Ptxas) {
    const NvJitLink &api = loadNvJitLink(toolkit);
    if (api.error.empty())
      return withNvJitLink(loc, api, ptx, chip);
    if (options.linker == CubinLinker::NvJitLink || !havePtxas)
      return emitError(loc) << "cannot make a cubin: " << api.error
                            << (options.linker == CubinLinker::Auto ? "; and no ptxas at " + ptxas : "")
                            << " (set CUDA_PATH, or --cuda-path, to a CUDA toolkit)";
  }
  if (!havePtxas)
    return emitError(loc) << "cannot make a cubin: no ptxas at " << ptxas
                          << " (set CUDA_PATH, or --cuda-path, to a CUDA toolkit)";
  return withPtxas(loc, ptxas, ptx, chip);
}
