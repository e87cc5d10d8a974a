//===- HsacoLinker.cpp - relocatable AMDGPU object to an HSACO ------------===//
//
// An HSACO is the relocatable object linked as a shared ELF (`ld.lld
// -shared`). With Debian's liblld-22-dev the ELF linker runs in this process
// (TG_HAVE_LLD: lldMain, serialized by a mutex since lld keeps global
// state; after a crash it recovered from, lld says it cannot run again and
// the process's later links take the executable); without it, the ld.lld
// executable. lld reads and writes files
// either way, so the object and the HSACO pass through a temporary folder.
// comgr (Comgr.cpp) is the third linker.
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/ROCDL/ROCDLTarget.h"

#include "tinygrad/Target/GPU/DeviceCodegen.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#if TG_HAVE_LLD
#include "lld/Common/Driver.h"
LLD_HAS_DRIVER(elf)
#endif

#include <atomic>
#include <mutex>

using namespace mlir;
using namespace mlir::tinygrad;

namespace rocdl_target_detail {
/// Comgr.cpp: `object` linked by comgr.
FailureOr<std::string> linkWithComgr(Location loc, StringRef object, StringRef chip, unsigned abi);
} // namespace rocdl_target_detail

namespace {

/// A temporary folder with the object written in it, removed afterwards.
struct Scratch {
  llvm::SmallString<128> dir, object, hsaco;
  ~Scratch() {
    if (!dir.empty()) {
      llvm::sys::fs::remove(object);
      llvm::sys::fs::remove(hsaco);
      llvm::sys::fs::remove(dir);
    }
  }
  LogicalResult create(Location loc, StringRef bytes) {
    if (llvm::sys::fs::createUniqueDirectory("tg-hsaco", dir))
      return emitError(loc) << "cannot create a temporary folder for the HSACO link";
    object = dir, hsaco = dir;
    llvm::sys::path::append(object, "kernel.o");
    llvm::sys::path::append(hsaco, "kernel.hsaco");
    std::error_code ec;
    llvm::raw_fd_ostream os(object, ec);
    if (ec)
      return emitError(loc) << "cannot write " << object << ": " << ec.message();
    os << bytes;
    return success();
  }
  FailureOr<std::string> read(Location loc) {
    auto file = llvm::MemoryBuffer::getFile(hsaco, /*IsText=*/false);
    if (!file)
      return emitError(loc) << "the linker wrote no HSACO";
    return (*file)->getBuffer().str();
  }
};

/// Whether lld may run in this process again: lldMain recovers from a crash
/// inside a link but then says it cannot run again (lld::Result's
/// canRunAgain: its global state is not reset), and every later link in
/// this process must take the ld.lld executable instead.
std::atomic<bool> lldCanRunAgain{true};

FailureOr<std::string> withInProcessLld(Location loc, StringRef object) {
#if TG_HAVE_LLD
  Scratch s;
  if (failed(s.create(loc, object)))
    return failure();
  std::string out, err;
  llvm::raw_string_ostream outs(out), errs(err);
  const char *args[] = {"ld.lld", "-shared", s.object.c_str(), "-o", s.hsaco.c_str()};
  lld::Result r;
  {
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    if (!lldCanRunAgain)
      return emitError(loc) << "in-process lld cannot run again in this process after a crash in an earlier link "
                               "(use the ld.lld executable)";
    r = lld::lldMain(args, outs, errs, {{lld::Gnu, &lld::elf::link}});
    if (!r.canRunAgain)
      lldCanRunAgain = false;
  }
  if (r.retCode != 0)
    return emitError(loc) << "lld failed to link the HSACO: " << StringRef(err).trim();
  return s.read(loc);
#else
  return emitError(loc) << "this build has no in-process lld (install liblld-22-dev and reconfigure), "
                           "use the ld.lld executable";
#endif
}

FailureOr<std::string> withLdLld(Location loc, StringRef object) {
  std::string ldLld;
  for (const char *name : {"ld.lld-22", "ld.lld"}) {
    auto found = llvm::sys::findProgramByName(name, {"/usr/lib/llvm-22/bin"});
    if (!found)
      found = llvm::sys::findProgramByName(name);
    if (found) {
      ldLld = *found;
      break;
    }
  }
  if (ldLld.empty())
    return emitError(loc) << "no ld.lld executable (ld.lld-22 on PATH or in /usr/lib/llvm-22/bin; install lld-22)";
  Scratch s;
  if (failed(s.create(loc, object)))
    return failure();
  llvm::SmallString<128> log(s.dir);
  llvm::sys::path::append(log, "ld.log");
  llvm::FileRemover removeLog(log);
  StringRef args[] = {ldLld, "-shared", s.object, "-o", s.hsaco};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(log), StringRef(log)};
  std::string message;
  if (llvm::sys::ExecuteAndWait(ldLld, args, std::nullopt, redirects, 0, 0, &message) != 0) {
    auto text = llvm::MemoryBuffer::getFile(log);
    return emitError(loc) << ldLld << " failed to link the HSACO" << (message.empty() ? "" : ": " + message)
                          << (text ? ": " + (*text)->getBuffer().trim().str() : "");
  }
  return s.read(loc);
}

} // namespace

bool rocdl_target::hasInProcessLld() { return TG_HAVE_LLD; }

FailureOr<std::string> rocdl_target::linkHsaco(Location loc, StringRef object, StringRef chip, unsigned abi,
                                               const Options &options) {
  gpu_codegen::reserveHeapForBackends(); // lld's memory stays mapped between kernels
  switch (options.linker) {
  case HsacoLinker::Auto:
    // The same linker out of process where this one cannot run again.
    return hasInProcessLld() && lldCanRunAgain ? withInProcessLld(loc, object) : withLdLld(loc, object);
  case HsacoLinker::Lld:
    return withInProcessLld(loc, object);
  case HsacoLinker::LdLld:
    return withLdLld(loc, object);
  case HsacoLinker::Comgr:
    return rocdl_target_detail::linkWithComgr(loc, object, chip, abi);
  }
  return failure();
}
