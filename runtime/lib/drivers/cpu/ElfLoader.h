//===- ElfLoader.h - in-memory loader for x86-64 ELF objects ----*- C++ -*-===//
//
// Loads an ELF relocatable object (ET_REL) the way a static linker plus
// loader would, but into this process and without touching the file system:
// allocated sections are laid out in three page-aligned regions (code, read-
// only data + GOT, writable data + .bss), relocations are applied, and the
// code region is made read+execute only after it has been written (the
// mapping is never writable and executable at once).
//
//===----------------------------------------------------------------------===//
#ifndef TGRT_LIB_ELFLOADER_H
#define TGRT_LIB_ELFLOADER_H

#include "Status.h"

#include <cstddef>
#include <string>

namespace tgrt {

/// A loaded object: one anonymous mapping, unmapped on destruction.
class LoadedImage {
public:
  LoadedImage() = default;
  ~LoadedImage();
  LoadedImage(LoadedImage &&o) noexcept;
  LoadedImage &operator=(LoadedImage &&o) noexcept;
  LoadedImage(const LoadedImage &) = delete;
  LoadedImage &operator=(const LoadedImage &) = delete;

  void *entry() const { return entry_; }
  const std::string &entryName() const { return entryName_; }
  void *base() const { return base_; }
  size_t size() const { return size_; }

private:
  friend class ElfLinker;
  void *base_ = nullptr;
  size_t size_ = 0;
  void *entry_ = nullptr;
  std::string entryName_;
};

/// Loads `object` (size bytes). entryName: the symbol to run, or nullptr for
/// the first function in .text. Errors name what is wrong with the object
/// (TGRT_INVALID_OBJECT), what is not handled (TGRT_UNSUPPORTED), or which
/// symbol is missing (TGRT_NOT_FOUND).
Status loadElfObject(const void *object, size_t size, const char *entryName, LoadedImage &out);

/// The host-process address of an allow-listed external function (libm,
/// compiler-rt builtins, mem*). TGRT_NOT_FOUND naming the symbol if it is not
/// on the list or the host has no definition.
Status resolveHostSymbol(const char *name, void **address);

} // namespace tgrt

#endif // TGRT_LIB_ELFLOADER_H
