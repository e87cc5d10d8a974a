//===- ElfLoader.cpp - in-memory loader for x86-64 ELF objects ------------===//
//
// Every field read from the object is bounds-checked before use; the object
// is read with memcpy, so it may sit at any alignment. Layout:
//
//   code      [SHF_EXECINSTR sections][16-byte jump stubs for externals]  RX
//   read-only [other non-writable sections][GOT]                          R
//   writable  [writable PROGBITS][NOBITS (.bss)][SHN_COMMON symbols]      RW
//
// Externals (host libm etc.) may be further than +-2 GiB away, so PC-relative
// references to them go through a stub (`jmp *0(%rip)` + address) and
// GOTPCREL references through a GOT slot holding the real address. When the
// object uses absolute 32-bit relocations (code built without -fPIC), the
// image is mapped below 2 GiB (MAP_32BIT) so that they fit.
//
//===----------------------------------------------------------------------===//

#include "ElfLoader.h"

#include <elf.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#ifndef SHT_X86_64_UNWIND
#define SHT_X86_64_UNWIND 0x70000001
#endif
#ifndef R_X86_64_GOTPCRELX
#define R_X86_64_GOTPCRELX 41
#endif
#ifndef R_X86_64_REX_GOTPCRELX
#define R_X86_64_REX_GOTPCRELX 42
#endif

namespace tgrt {

LoadedImage::~LoadedImage() {
  if (base_)
    munmap(base_, size_);
}

LoadedImage::LoadedImage(LoadedImage &&o) noexcept
    : base_(std::exchange(o.base_, nullptr)), size_(std::exchange(o.size_, 0)),
      entry_(std::exchange(o.entry_, nullptr)), entryName_(std::move(o.entryName_)) {}

LoadedImage &LoadedImage::operator=(LoadedImage &&o) noexcept {
  if (this != &o) {
    if (base_)
      munmap(base_, size_);
    base_ = std::exchange(o.base_, nullptr);
    size_ = std::exchange(o.size_, 0);
    entry_ = std::exchange(o.entry_, nullptr);
    entryName_ = std::move(o.entryName_);
  }
  return *this;
}

namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kMaxImage = uint64_t(1) << 30; // refuse absurd layouts
constexpr uint64_t kStubSize = 16;
constexpr uint64_t kGotEntry = 8;

enum Region { kCode = 0, kReadOnly = 1, kWritable = 2, kNumRegions = 3 };
const char *const kRegionNames[kNumRegions] = {"code", "read-only data", "writable data"};

uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }
bool isPowerOfTwo(uint64_t v) { return v && !(v & (v - 1)); }

struct Section {
  Elf64_Shdr hdr{};
  std::string_view name;
  bool mapped = false;
  Region region = kReadOnly;
  uint64_t offset = 0; // within its region
  uint64_t align = 1;
};

struct Symbol {
  Elf64_Sym sym{};
  std::string_view name;
  bool external = false; // SHN_UNDEF, resolved against the host
  uint64_t hostAddress = 0;
  bool common = false; // SHN_COMMON, placed in the writable region
  uint64_t commonOffset = 0;
  int64_t got = -1;  // GOT slot, if referenced GOT-relatively
  int64_t stub = -1; // jump stub, if an external referenced PC-relatively
};

struct RelocationSet {
  uint32_t target; // section index
  uint32_t relaSection;
  std::vector<Elf64_Rela> relas;
};

const char *relocationName(uint32_t type) {
  switch (type) {
  case R_X86_64_NONE: return "R_X86_64_NONE";
  case R_X86_64_64: return "R_X86_64_64";
  case R_X86_64_PC32: return "R_X86_64_PC32";
  case R_X86_64_PLT32: return "R_X86_64_PLT32";
  case R_X86_64_GOTPCREL: return "R_X86_64_GOTPCREL";
  case R_X86_64_32: return "R_X86_64_32";
  case R_X86_64_32S: return "R_X86_64_32S";
  case R_X86_64_PC64: return "R_X86_64_PC64";
  case R_X86_64_GOTPCRELX: return "R_X86_64_GOTPCRELX";
  case R_X86_64_REX_GOTPCRELX: return "R_X86_64_REX_GOTPCRELX";
  default: return nullptr;
  }
}

/// Bytes a relocation of this type patches (0 for NONE).
unsigned relocationWidth(uint32_t type) {
  switch (type) {
  case R_X86_64_64:
  case R_X86_64_PC64: return 8;
  case R_X86_64_NONE: return 0;
  default: return 4;
  }
}

bool isGotRelocation(uint32_t type) {
  return type == R_X86_64_GOTPCREL || type == R_X86_64_GOTPCRELX ||
         type == R_X86_64_REX_GOTPCRELX;
}

/// Relocations that need a target within +-2 GiB (or below 2/4 GiB): an
/// external function referenced this way goes through a stub.
bool isNear32Relocation(uint32_t type) {
  return type == R_X86_64_PC32 || type == R_X86_64_PLT32 || type == R_X86_64_32 ||
         type == R_X86_64_32S;
}

} // namespace

class ElfLinker {
public:
  ElfLinker(const void *data, size_t size) : data_(static_cast<const uint8_t *>(data)), size_(size) {}

  Status link(const char *entryName, LoadedImage &out) {
    TGRT_RETURN_IF_ERROR(readHeader());
    TGRT_RETURN_IF_ERROR(readSections());
    TGRT_RETURN_IF_ERROR(readSymbols());
    TGRT_RETURN_IF_ERROR(layoutSections());
    TGRT_RETURN_IF_ERROR(readRelocations());
    TGRT_RETURN_IF_ERROR(resolveExternals());
    TGRT_RETURN_IF_ERROR(layoutExtras());
    uint64_t entryOffset = 0;
    std::string_view entry;
    TGRT_RETURN_IF_ERROR(findEntry(entryName, entryOffset, entry));
    TGRT_RETURN_IF_ERROR(mapImage(out));
    copyContents();
    writeStubsAndGot();
    TGRT_RETURN_IF_ERROR(applyRelocations());
    TGRT_RETURN_IF_ERROR(protect());
    out.entry_ = out.base_ == nullptr ? nullptr : static_cast<uint8_t *>(out.base_) + entryOffset;
    out.entryName_ = std::string(entry);
    return TGRT_OK;
  }

private:
  bool inFile(uint64_t offset, uint64_t length) const {
    return offset <= size_ && length <= size_ - offset;
  }
  template <typename T> T readAt(uint64_t offset) const {
    T v;
    std::memcpy(&v, data_ + offset, sizeof(T));
    return v;
  }
  static Status bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
  std::string sectionLabel(uint32_t index) const {
    std::string s = std::to_string(index);
    if (index < sections_.size() && !sections_[index].name.empty())
      s += " (" + std::string(sections_[index].name.substr(0, 64)) + ")";
    return s;
  }
  std::string symbolLabel(uint32_t index) const {
    std::string s = "#" + std::to_string(index);
    if (index < symbols_.size() && !symbols_[index].name.empty())
      s += " '" + std::string(symbols_[index].name.substr(0, 128)) + "'";
    return s;
  }

  /// A NUL-terminated string at `offset` inside string table `table`.
  Status stringAt(uint32_t table, uint64_t offset, std::string_view &out) const {
    const Elf64_Shdr &h = sections_[table].hdr;
    if (offset >= h.sh_size)
      return bad("string offset %llu is past the end of string table %u", (unsigned long long)offset,
                 table);
    const char *begin = reinterpret_cast<const char *>(data_ + h.sh_offset + offset);
    const void *nul = std::memchr(begin, 0, h.sh_size - offset);
    if (!nul)
      return bad("unterminated string in string table %u", table);
    out = std::string_view(begin, static_cast<const char *>(nul) - begin);
    return TGRT_OK;
  }

  Status readHeader() {
    if (!data_)
      return fail(TGRT_INVALID_ARGUMENT, "tgrt_program_load: object is NULL");
    if (size_ < sizeof(Elf64_Ehdr))
      return bad("object is %zu bytes, smaller than an ELF header (%zu)", size_, sizeof(Elf64_Ehdr));
    eh_ = readAt<Elf64_Ehdr>(0);
    if (std::memcmp(eh_.e_ident, ELFMAG, SELFMAG) != 0)
      return bad("not an ELF file (bad magic)");
    if (eh_.e_ident[EI_CLASS] != ELFCLASS64)
      return bad("not a 64-bit ELF object (class %u)", eh_.e_ident[EI_CLASS]);
    if (eh_.e_ident[EI_DATA] != ELFDATA2LSB)
      return bad("not a little-endian ELF object");
    if (eh_.e_ident[EI_VERSION] != EV_CURRENT || eh_.e_version != EV_CURRENT)
      return bad("unknown ELF version");
    if (eh_.e_type != ET_REL)
      return fail(TGRT_UNSUPPORTED, eh_.e_type == ET_DYN || eh_.e_type == ET_EXEC
                                        ? "tgrt_program_load: linked ELF files (ET_EXEC/ET_DYN) "
                                          "are not loaded; pass a relocatable object (ET_REL, "
                                          "clang -c)"
                                        : "tgrt_program_load: not a relocatable ELF object");
    if (eh_.e_machine != EM_X86_64)
      return fail(TGRT_UNSUPPORTED, "tgrt_program_load: not an x86-64 object (e_machine " +
                                        std::to_string(eh_.e_machine) + ")");
#if !defined(__x86_64__)
    return fail(TGRT_UNSUPPORTED, "tgrt_program_load: x86-64 objects run only on x86-64 hosts");
#endif
    if (eh_.e_shoff == 0 || eh_.e_shnum == 0)
      return bad("no section header table (extended section numbering is not supported)");
    if (eh_.e_shentsize != sizeof(Elf64_Shdr))
      return bad("section header size %u, expected %zu", eh_.e_shentsize, sizeof(Elf64_Shdr));
    if (!inFile(eh_.e_shoff, uint64_t(eh_.e_shnum) * sizeof(Elf64_Shdr)))
      return bad("section header table (offset %llu, %u entries) is past the end of the %zu-byte "
                 "object",
                 (unsigned long long)eh_.e_shoff, eh_.e_shnum, size_);
    if (eh_.e_shstrndx == SHN_UNDEF || eh_.e_shstrndx >= eh_.e_shnum)
      return bad("section name table index %u is out of range", eh_.e_shstrndx);
    return TGRT_OK;
  }

  Status readSections() {
    sections_.resize(eh_.e_shnum);
    for (uint32_t i = 0; i < eh_.e_shnum; ++i) {
      Elf64_Shdr &h = sections_[i].hdr;
      h = readAt<Elf64_Shdr>(eh_.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr));
      if (h.sh_type != SHT_NOBITS && h.sh_type != SHT_NULL && !inFile(h.sh_offset, h.sh_size))
        return bad("section %u (offset %llu, size %llu) is past the end of the %zu-byte object", i,
                   (unsigned long long)h.sh_offset, (unsigned long long)h.sh_size, size_);
      uint64_t align = h.sh_addralign ? h.sh_addralign : 1;
      if (!isPowerOfTwo(align))
        return bad("section %u has alignment %llu, not a power of two", i,
                   (unsigned long long)h.sh_addralign);
      sections_[i].align = align;
    }
    const Elf64_Shdr &names = sections_[eh_.e_shstrndx].hdr;
    if (names.sh_type != SHT_STRTAB)
      return bad("section name table %u is not a string table", eh_.e_shstrndx);
    for (uint32_t i = 1; i < eh_.e_shnum; ++i)
      TGRT_RETURN_IF_ERROR(stringAt(eh_.e_shstrndx, sections_[i].hdr.sh_name, sections_[i].name));
    return TGRT_OK;
  }

  Status readSymbols() {
    for (uint32_t i = 0; i < sections_.size(); ++i) {
      if (sections_[i].hdr.sh_type != SHT_SYMTAB)
        continue;
      if (symtab_)
        return bad("more than one symbol table");
      symtab_ = i;
    }
    if (!symtab_)
      return bad("no symbol table");
    const Elf64_Shdr &h = sections_[symtab_].hdr;
    if (h.sh_entsize != sizeof(Elf64_Sym) || h.sh_size % sizeof(Elf64_Sym))
      return bad("symbol table entry size %llu / table size %llu is not a multiple of %zu",
                 (unsigned long long)h.sh_entsize, (unsigned long long)h.sh_size, sizeof(Elf64_Sym));
    if (h.sh_link == 0 || h.sh_link >= sections_.size() ||
        sections_[h.sh_link].hdr.sh_type != SHT_STRTAB)
      return bad("symbol table links to section %u, which is not a string table", h.sh_link);
    size_t count = h.sh_size / sizeof(Elf64_Sym);
    symbols_.resize(count);
    for (size_t i = 0; i < count; ++i) {
      Symbol &s = symbols_[i];
      s.sym = readAt<Elf64_Sym>(h.sh_offset + i * sizeof(Elf64_Sym));
      TGRT_RETURN_IF_ERROR(stringAt(h.sh_link, s.sym.st_name, s.name));
      uint16_t shndx = s.sym.st_shndx;
      if (shndx == SHN_UNDEF || shndx == SHN_ABS)
        continue;
      if (shndx == SHN_COMMON) {
        // st_value holds the alignment of a common symbol.
        if (!isPowerOfTwo(s.sym.st_value) || s.sym.st_value > kPage || s.sym.st_size > kMaxImage)
          return bad("common symbol %s has alignment %llu / size %llu", symbolLabel(i).c_str(),
                     (unsigned long long)s.sym.st_value, (unsigned long long)s.sym.st_size);
        s.common = true;
        continue;
      }
      if (shndx >= SHN_LORESERVE)
        return fail(TGRT_UNSUPPORTED, "tgrt_program_load: symbol " + symbolLabel(i) +
                                          " uses reserved section index " + std::to_string(shndx));
      if (shndx >= sections_.size())
        return bad("symbol %s is in section %u, past the %zu sections", symbolLabel(i).c_str(), shndx,
                   sections_.size());
      if (ELF64_ST_TYPE(s.sym.st_info) != STT_SECTION && s.sym.st_value > sections_[shndx].hdr.sh_size)
        return bad("symbol %s (value %llu) lies outside its section %s", symbolLabel(i).c_str(),
                   (unsigned long long)s.sym.st_value, sectionLabel(shndx).c_str());
    }
    return TGRT_OK;
  }

  Status layoutSections() {
    for (uint32_t i = 1; i < sections_.size(); ++i) {
      Section &s = sections_[i];
      const Elf64_Shdr &h = s.hdr;
      if (!(h.sh_flags & SHF_ALLOC))
        continue;
      // Unwind tables are not registered with the host unwinder; skip them
      // and their relocations, as tinygrad's loader does.
      if (h.sh_type == SHT_X86_64_UNWIND || s.name == ".eh_frame")
        continue;
      if (h.sh_flags & SHF_TLS)
        return fail(TGRT_UNSUPPORTED, std::string("tgrt_program_load: thread-local section ") +
                                          sectionLabel(i) + " is not supported");
      if (h.sh_type == SHT_INIT_ARRAY || h.sh_type == SHT_FINI_ARRAY ||
          h.sh_type == SHT_PREINIT_ARRAY)
        return fail(TGRT_UNSUPPORTED, std::string("tgrt_program_load: section ") + sectionLabel(i) +
                                          " holds static constructors/destructors, which are not run");
      if (s.align > kPage)
        return fail(TGRT_UNSUPPORTED, std::string("tgrt_program_load: section ") + sectionLabel(i) +
                                          " wants alignment " + std::to_string(s.align) +
                                          ", more than a page");
      if (h.sh_size > kMaxImage)
        return bad("section %s is %llu bytes", sectionLabel(i).c_str(), (unsigned long long)h.sh_size);
      s.region = (h.sh_flags & SHF_EXECINSTR) ? kCode
                 : (h.sh_flags & SHF_WRITE) || h.sh_type == SHT_NOBITS ? kWritable
                                                                       : kReadOnly;
      // NOBITS goes after every PROGBITS of the writable region (second pass).
      if (h.sh_type == SHT_NOBITS)
        continue;
      TGRT_RETURN_IF_ERROR(place(s.region, h.sh_size, s.align, s.offset));
      s.mapped = true;
    }
    for (uint32_t i = 1; i < sections_.size(); ++i) {
      Section &s = sections_[i];
      if (!(s.hdr.sh_flags & SHF_ALLOC) || s.hdr.sh_type != SHT_NOBITS || s.hdr.sh_flags & SHF_TLS)
        continue;
      s.region = kWritable;
      TGRT_RETURN_IF_ERROR(place(kWritable, s.hdr.sh_size, s.align, s.offset));
      s.mapped = true;
    }
    for (Symbol &s : symbols_)
      if (s.common)
        TGRT_RETURN_IF_ERROR(place(kWritable, s.sym.st_size, s.sym.st_value, s.commonOffset));
    return TGRT_OK;
  }

  /// Reserves size bytes at `align` in region r.
  Status place(Region r, uint64_t size, uint64_t align, uint64_t &offset) {
    offset = alignUp(regionSize_[r], align);
    if (offset > kMaxImage || size > kMaxImage - offset)
      return fail(TGRT_UNSUPPORTED, std::string("tgrt_program_load: the ") + kRegionNames[r] +
                                        " region would exceed 1 GiB");
    regionSize_[r] = offset + size;
    return TGRT_OK;
  }

  Status readRelocations() {
    for (uint32_t i = 1; i < sections_.size(); ++i) {
      const Elf64_Shdr &h = sections_[i].hdr;
      if (h.sh_type != SHT_RELA && h.sh_type != SHT_REL)
        continue;
      if (h.sh_info == 0 || h.sh_info >= sections_.size())
        return bad("relocation section %s applies to section %u, which does not exist", sectionLabel(i).c_str(),
                   h.sh_info);
      const Section &target = sections_[h.sh_info];
      if (!target.mapped)
        continue; // relocations of debug info, unwind tables, ...
      if (h.sh_type == SHT_REL)
        return fail(TGRT_UNSUPPORTED, std::string("tgrt_program_load: SHT_REL section ") +
                                          sectionLabel(i) + " (x86-64 objects use SHT_RELA)");
      if (target.hdr.sh_type == SHT_NOBITS)
        return bad("relocation section %s applies to NOBITS section %u", sectionLabel(i).c_str(), h.sh_info);
      if (h.sh_link != symtab_)
        return bad("relocation section %s uses symbol table %u, not %u", sectionLabel(i).c_str(), h.sh_link,
                   symtab_);
      if (h.sh_entsize != sizeof(Elf64_Rela) || h.sh_size % sizeof(Elf64_Rela))
        return bad("relocation section %s has entry size %llu / size %llu", sectionLabel(i).c_str(),
                   (unsigned long long)h.sh_entsize, (unsigned long long)h.sh_size);
      RelocationSet set{h.sh_info, i, {}};
      size_t count = h.sh_size / sizeof(Elf64_Rela);
      set.relas.reserve(count);
      for (size_t k = 0; k < count; ++k) {
        Elf64_Rela r = readAt<Elf64_Rela>(h.sh_offset + k * sizeof(Elf64_Rela));
        uint32_t type = ELF64_R_TYPE(r.r_info), sym = ELF64_R_SYM(r.r_info);
        if (!relocationName(type))
          return fail(TGRT_UNSUPPORTED, "tgrt_program_load: relocation type " + std::to_string(type) +
                                            " in " + sectionLabel(i) + " is not supported");
        if (sym >= symbols_.size())
          return bad("relocation %zu in %s names symbol %u, past the %zu symbols", k, sectionLabel(i).c_str(),
                     sym, symbols_.size());
        unsigned width = relocationWidth(type);
        if (r.r_offset > target.hdr.sh_size || width > target.hdr.sh_size - r.r_offset)
          return bad("relocation %zu in %s patches offset %llu, outside its %llu-byte section", k,
                     sectionLabel(i).c_str(), (unsigned long long)r.r_offset,
                     (unsigned long long)target.hdr.sh_size);
        Symbol &s = symbols_[sym];
        if (type == R_X86_64_32 || type == R_X86_64_32S)
          needLow32_ = true;
        if (isGotRelocation(type) && s.got < 0)
          s.got = numGot_++;
        if (s.sym.st_shndx == SHN_UNDEF && sym != 0) {
          s.external = true;
          if (isNear32Relocation(type) && s.stub < 0)
            s.stub = numStubs_++;
        }
        set.relas.push_back(r);
      }
      relocations_.push_back(std::move(set));
    }
    return TGRT_OK;
  }

  Status resolveExternals() {
    for (size_t i = 0; i < symbols_.size(); ++i) {
      Symbol &s = symbols_[i];
      if (!s.external)
        continue;
      std::string name(s.name);
      if (name.empty())
        return bad("relocation against unnamed undefined symbol #%zu", i);
      void *addr = nullptr;
      Status st = resolveHostSymbol(name.c_str(), &addr);
      if (st != TGRT_OK) {
        if (ELF64_ST_BIND(s.sym.st_info) != STB_WEAK)
          return st;
        addr = nullptr; // an unresolved weak reference is 0, as with a linker
      }
      s.hostAddress = reinterpret_cast<uint64_t>(addr);
    }
    return TGRT_OK;
  }

  Status layoutExtras() {
    if (regionSize_[kCode] == 0)
      return bad("no executable section");
    TGRT_RETURN_IF_ERROR(place(kCode, uint64_t(numStubs_) * kStubSize, kStubSize, stubOffset_));
    TGRT_RETURN_IF_ERROR(place(kReadOnly, uint64_t(numGot_) * kGotEntry, kGotEntry, gotOffset_));
    uint64_t total = 0;
    for (int r = 0; r < kNumRegions; ++r) {
      regionStart_[r] = total;
      total += alignUp(regionSize_[r], kPage);
    }
    if (total > kMaxImage)
      return fail(TGRT_UNSUPPORTED, "tgrt_program_load: image would exceed 1 GiB");
    imageSize_ = total;
    return TGRT_OK;
  }

  /// Image offset of a section (mapped sections only).
  uint64_t sectionOffset(uint32_t index) const {
    const Section &s = sections_[index];
    return regionStart_[s.region] + s.offset;
  }

  Status findEntry(const char *entryName, uint64_t &offset, std::string_view &name) {
    auto definedIn = [&](const Symbol &s, bool needCode) {
      uint16_t shndx = s.sym.st_shndx;
      if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || !sections_[shndx].mapped)
        return false;
      return !needCode || sections_[shndx].region == kCode;
    };
    const Symbol *best = nullptr;
    if (entryName) {
      for (const Symbol &s : symbols_) {
        uint8_t type = ELF64_ST_TYPE(s.sym.st_info);
        if (s.name != entryName || (type != STT_FUNC && type != STT_NOTYPE) || !definedIn(s, true))
          continue;
        // A global definition wins over a local one of the same name.
        if (!best || (ELF64_ST_BIND(best->sym.st_info) == STB_LOCAL &&
                      ELF64_ST_BIND(s.sym.st_info) != STB_LOCAL))
          best = &s;
      }
      if (!best)
        return fail(TGRT_NOT_FOUND, std::string("tgrt_program_load: entry symbol '") + entryName +
                                        "' is not a function defined in an executable section");
    } else {
      // tinygrad runs byte 0 of .text: take the lowest-addressed function in
      // .text (or in the first executable section, without a .text).
      uint32_t text = 0;
      for (uint32_t i = 1; i < sections_.size() && !text; ++i)
        if (sections_[i].mapped && sections_[i].name == ".text" && sections_[i].region == kCode)
          text = i;
      for (uint32_t i = 1; i < sections_.size() && !text; ++i)
        if (sections_[i].mapped && sections_[i].region == kCode)
          text = i;
      for (const Symbol &s : symbols_)
        if (ELF64_ST_TYPE(s.sym.st_info) == STT_FUNC && s.sym.st_shndx == text &&
            s.sym.st_value < sections_[text].hdr.sh_size &&
            (!best || s.sym.st_value < best->sym.st_value))
          best = &s;
      if (!best)
        return fail(TGRT_NOT_FOUND, std::string("tgrt_program_load: no function in section ") +
                                        sectionLabel(text).c_str());
    }
    if (best->sym.st_value >= sections_[best->sym.st_shndx].hdr.sh_size)
      return bad("entry symbol '%.*s' lies at the end of its section", (int)best->name.size(),
                 best->name.data());
    offset = sectionOffset(best->sym.st_shndx) + best->sym.st_value;
    name = best->name;
    return TGRT_OK;
  }

  Status mapImage(LoadedImage &out) {
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_32BIT
    if (needLow32_)
      flags |= MAP_32BIT;
#endif
    void *p = mmap(nullptr, imageSize_, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (p == MAP_FAILED)
      return failf(TGRT_OUT_OF_MEMORY, "tgrt_program_load: mmap of %llu bytes%s failed: %s",
                   (unsigned long long)imageSize_, needLow32_ ? " below 2 GiB" : "",
                   std::strerror(errno));
    out.base_ = p;
    out.size_ = imageSize_;
    image_ = static_cast<uint8_t *>(p);
    return TGRT_OK;
  }

  void copyContents() {
    for (uint32_t i = 1; i < sections_.size(); ++i) {
      const Section &s = sections_[i];
      if (s.mapped && s.hdr.sh_type != SHT_NOBITS && s.hdr.sh_size)
        std::memcpy(image_ + sectionOffset(i), data_ + s.hdr.sh_offset, s.hdr.sh_size);
    }
  }

  uint64_t stubAddress(const Symbol &s) const {
    return reinterpret_cast<uint64_t>(image_) + regionStart_[kCode] + stubOffset_ +
           uint64_t(s.stub) * kStubSize;
  }
  uint64_t gotAddress(const Symbol &s) const {
    return reinterpret_cast<uint64_t>(image_) + regionStart_[kReadOnly] + gotOffset_ +
           uint64_t(s.got) * kGotEntry;
  }

  /// The symbol's real address (S). Symbol 0 is 0.
  Status symbolAddress(uint32_t index, uint64_t &address) const {
    const Symbol &s = symbols_[index];
    address = 0;
    if (index == 0)
      return TGRT_OK;
    if (s.external) {
      address = s.hostAddress;
      return TGRT_OK;
    }
    if (s.common) {
      address = reinterpret_cast<uint64_t>(image_) + regionStart_[kWritable] + s.commonOffset;
      return TGRT_OK;
    }
    uint16_t shndx = s.sym.st_shndx;
    if (shndx == SHN_ABS) {
      address = s.sym.st_value;
      return TGRT_OK;
    }
    if (shndx == SHN_UNDEF)
      return bad("relocation against undefined symbol %s", symbolLabel(index).c_str());
    if (!sections_[shndx].mapped)
      return bad("relocation against symbol %s in section %s, which is not loaded",
                 symbolLabel(index).c_str(), sectionLabel(shndx).c_str());
    address = reinterpret_cast<uint64_t>(image_) + sectionOffset(shndx) + s.sym.st_value;
    return TGRT_OK;
  }

  void writeStubsAndGot() {
    for (size_t i = 0; i < symbols_.size(); ++i) {
      const Symbol &s = symbols_[i];
      if (s.stub >= 0) {
        // jmp *0(%rip); .quad target; int3 int3
        uint8_t stub[kStubSize] = {0xff, 0x25, 0, 0, 0, 0};
        std::memcpy(stub + 6, &s.hostAddress, 8);
        stub[14] = stub[15] = 0xcc;
        std::memcpy(reinterpret_cast<void *>(stubAddress(s)), stub, kStubSize);
      }
      if (s.got >= 0) {
        uint64_t address = 0;
        (void)symbolAddress(static_cast<uint32_t>(i), address); // errors surface in applyRelocations
        std::memcpy(reinterpret_cast<void *>(gotAddress(s)), &address, 8);
      }
    }
  }

  Status applyRelocations() {
    for (const RelocationSet &set : relocations_) {
      uint64_t base = reinterpret_cast<uint64_t>(image_) + sectionOffset(set.target);
      for (size_t k = 0; k < set.relas.size(); ++k) {
        const Elf64_Rela &r = set.relas[k];
        uint32_t type = ELF64_R_TYPE(r.r_info), sym = ELF64_R_SYM(r.r_info);
        if (type == R_X86_64_NONE)
          continue;
        const Symbol &s = symbols_[sym];
        uint64_t S = 0;
        TGRT_RETURN_IF_ERROR(symbolAddress(sym, S));
        if (s.stub >= 0 && isNear32Relocation(type))
          S = stubAddress(s);
        uint64_t A = static_cast<uint64_t>(r.r_addend), P = base + r.r_offset;
        uint8_t *where = reinterpret_cast<uint8_t *>(P);
        uint64_t v = 0;
        switch (type) {
        case R_X86_64_64:
          v = S + A;
          std::memcpy(where, &v, 8);
          continue;
        case R_X86_64_PC64:
          v = S + A - P;
          std::memcpy(where, &v, 8);
          continue;
        case R_X86_64_PC32:
        case R_X86_64_PLT32:
          v = S + A - P;
          break;
        case R_X86_64_GOTPCREL:
        case R_X86_64_GOTPCRELX:
        case R_X86_64_REX_GOTPCRELX:
          v = gotAddress(s) + A - P;
          break;
        case R_X86_64_32S:
          v = S + A;
          break;
        case R_X86_64_32:
          v = S + A;
          if (v > UINT32_MAX)
            return outOfRange(set, k, s);
          {
            uint32_t w = static_cast<uint32_t>(v);
            std::memcpy(where, &w, 4);
          }
          continue;
        default:
          return failf(TGRT_INTERNAL, "tgrt_program_load: relocation type %u slipped through", type);
        }
        int64_t sv = static_cast<int64_t>(v);
        if (sv < INT32_MIN || sv > INT32_MAX)
          return outOfRange(set, k, s);
        int32_t w = static_cast<int32_t>(sv);
        std::memcpy(where, &w, 4);
      }
    }
    return TGRT_OK;
  }

  Status outOfRange(const RelocationSet &set, size_t k, const Symbol &s) const {
    const Elf64_Rela &r = set.relas[k];
    return failf(TGRT_UNSUPPORTED,
                 "tgrt_program_load: %s at offset %llu of %s against '%.*s' does not fit in 32 bits",
                 relocationName(ELF64_R_TYPE(r.r_info)), (unsigned long long)r.r_offset,
                 sectionLabel(set.target).c_str(), (int)std::min<size_t>(s.name.size(), 128), s.name.data());
  }

  Status protect() {
    const int prot[kNumRegions] = {PROT_READ | PROT_EXEC, PROT_READ, PROT_READ | PROT_WRITE};
    for (int r = 0; r < kNumRegions; ++r) {
      uint64_t len = alignUp(regionSize_[r], kPage);
      if (len == 0 || r == kWritable)
        continue;
      if (mprotect(image_ + regionStart_[r], len, prot[r]) != 0)
        return failf(TGRT_INTERNAL, "tgrt_program_load: mprotect of the %s region failed: %s",
                     kRegionNames[r], std::strerror(errno));
    }
    __builtin___clear_cache(reinterpret_cast<char *>(image_),
                            reinterpret_cast<char *>(image_ + alignUp(regionSize_[kCode], kPage)));
    return TGRT_OK;
  }

  const uint8_t *data_;
  size_t size_;
  Elf64_Ehdr eh_{};
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  std::vector<RelocationSet> relocations_;
  uint32_t symtab_ = 0;
  uint64_t regionSize_[kNumRegions] = {0, 0, 0};
  uint64_t regionStart_[kNumRegions] = {0, 0, 0};
  uint64_t imageSize_ = 0;
  uint64_t stubOffset_ = 0, gotOffset_ = 0;
  int64_t numStubs_ = 0, numGot_ = 0;
  bool needLow32_ = false;
  uint8_t *image_ = nullptr;
};

Status ElfLinker::bad(const char *fmt, ...) {
  char buf[768];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return fail(TGRT_INVALID_OBJECT, std::string("tgrt_program_load: corrupt ELF object: ") + buf);
}

Status loadElfObject(const void *object, size_t size, const char *entryName, LoadedImage &out) {
  LoadedImage image;
  ElfLinker linker(object, size);
  TGRT_RETURN_IF_ERROR(linker.link(entryName, image)); // image unmaps itself on error
  out = std::move(image);
  return TGRT_OK;
}

} // namespace tgrt
