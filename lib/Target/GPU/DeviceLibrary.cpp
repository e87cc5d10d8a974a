//===- DeviceLibrary.cpp - the vendors' bitcode math libraries, linked ----===//
//
// A kernel calls a few functions of libdevice (470 KB of bitcode, about 350
// functions) or ocml/ockl. Parsing the library lazily for each kernel (its
// symbol table, types and metadata, before LLVM's linker pulls the few
// bodies asked for) cost about 1 ms of a kernel's PTX. So the file is read
// once, and for each set of names kernels ask for the library is reduced
// once to what they need (LLVM's linker, LinkOnlyNeeded, into an empty
// module in a scratch context, kept as bitcode): a kernel then parses and
// links only that. Both links pull the same definitions, so the kernel's
// code is the same (TG_DEVICE_LIBRARY_CACHE=0 links from the whole file
// each time; test/Target/NVVM/libdevice-cache.mlir compares the two).
//
//===----------------------------------------------------------------------===//
#include "tinygrad/Target/GPU/DeviceCodegen.h"
#include "tinygrad/Target/GuardedLLVM.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace mlir::tinygrad;

namespace {

/// A library file, read once, and its reductions by the names asked for.
struct Library {
  std::unique_ptr<llvm::MemoryBuffer> file;
  std::map<std::string, std::string> reduced; ///< names, one a line -> bitcode
};
/// Distinct name sets kept per library before the oldest are dropped (a
/// long-running process compiling kernels with ever new math mixes).
constexpr size_t kMaxReductions = 256;

/// What `module` declares without defining, sorted, one a line: what a
/// link with LinkOnlyNeeded pulls out of a library.
std::string declaredNames(const llvm::Module &module) {
  std::vector<std::string> names;
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && !f.isIntrinsic())
      names.push_back(f.getName().str());
  for (const llvm::GlobalVariable &g : module.globals())
    if (g.isDeclaration())
      names.push_back(g.getName().str());
  llvm::sort(names);
  return llvm::join(names, "\n");
}

/// The library `file` reduced to the definitions `module`'s declarations
/// need (and what those call), as bitcode; or an error at `loc`.
FailureOr<std::string> reduce(Location loc, llvm::MemoryBufferRef file, const llvm::Module &module, StringRef path) {
  llvm::LLVMContext scratch;
  auto lib = llvm::getLazyBitcodeModule(file, scratch);
  if (!lib)
    return emitError(loc) << "the device library " << path
                          << " is not LLVM bitcode: " << llvm::toString(lib.takeError());
  auto needs = std::make_unique<llvm::Module>("needs", scratch);
  needs->setTargetTriple((*lib)->getTargetTriple());
  needs->setDataLayout((*lib)->getDataLayout());
  for (const llvm::Function &f : module)
    if (f.isDeclaration() && !f.isIntrinsic())
      if (llvm::Function *def = (*lib)->getFunction(f.getName()))
        needs->getOrInsertFunction(def->getName(), def->getFunctionType());
  for (const llvm::GlobalVariable &g : module.globals())
    if (g.isDeclaration())
      if (llvm::GlobalVariable *def = (*lib)->getNamedGlobal(g.getName()))
        new llvm::GlobalVariable(*needs, def->getValueType(), def->isConstant(), llvm::GlobalValue::ExternalLinkage,
                                 nullptr, def->getName(), nullptr, def->getThreadLocalMode(),
                                 def->getAddressSpace());
  if (llvm::Linker::linkModules(*needs, std::move(*lib), llvm::Linker::LinkOnlyNeeded))
    return emitError(loc) << "reducing the device library " << path << " to what the kernel calls failed";
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(*needs, os);
  return bitcode;
}

} // namespace

LogicalResult gpu_codegen::linkLibrary(Location loc, Context &ctx, llvm::Module &module, StringRef path) {
  static std::mutex mutex;
  static llvm::StringMap<Library> libraries;
  const char *env = std::getenv("TG_DEVICE_LIBRARY_CACHE");
  bool cached = !(env && StringRef(env) == "0");
  std::string bitcode; // the reduction linked (cached), else the whole file
  llvm::MemoryBufferRef buffer;
  {
    std::lock_guard<std::mutex> lock(mutex);
    Library &library = libraries[path];
    if (!library.file) {
      auto file = llvm::MemoryBuffer::getFile(path);
      if (!file)
        return emitError(loc) << "cannot read the device library " << path << ": " << file.getError().message();
      library.file = std::move(*file);
    }
    buffer = library.file->getMemBufferRef();
    if (cached) {
      std::string names = declaredNames(module);
      auto it = library.reduced.find(names);
      if (it == library.reduced.end()) {
        // Guarded inside the lock: a crash in LLVM's linker is this
        // kernel's error and the lock is released as the frame unwinds
        // (under the compile's guard alone it would stay held).
        std::optional<FailureOr<std::string>> guarded;
        if (!runGuardedLLVM([&] { guarded.emplace(reduce(loc, buffer, module, path)); }))
          return emitError(loc) << "reducing the device library " << path << " crashed (an LLVM bug)";
        FailureOr<std::string> &reduced = *guarded;
        if (failed(reduced))
          return failure();
        if (library.reduced.size() >= kMaxReductions)
          library.reduced.clear();
        it = library.reduced.emplace(std::move(names), std::move(*reduced)).first;
      }
      bitcode = it->second; // a copy: the map may change once the lock is released
      buffer = llvm::MemoryBufferRef(bitcode, path);
    }
  }
  auto lib = llvm::getLazyBitcodeModule(buffer, ctx.llvm());
  if (!lib)
    return emitError(loc) << "the device library " << path
                          << " is not LLVM bitcode: " << llvm::toString(lib.takeError());
  (*lib)->setTargetTriple(module.getTargetTriple());
  (*lib)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*lib), llvm::Linker::LinkOnlyNeeded))
    return ctx.fail(loc, "linking the device library " + path + " failed");
  return success();
}
