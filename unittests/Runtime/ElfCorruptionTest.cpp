//===- ElfCorruptionTest.cpp - malformed objects give errors, not crashes -===//
//
// Takes real kernel objects and breaks them: truncations, header fields,
// section table entries, symbols, relocations, and a deterministic random
// byte-flipping loop. Each load must return an error (or, for the random
// flips that only touch code bytes, succeed) and never crash; the sanitized
// build of this test checks that no load reads outside the object.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <elf.h>

#include <cstring>
#include <random>

using namespace tgrt_test;

namespace {

class ElfCorruptionTest : public RuntimeTest {
protected:
  void SetUp() override {
    RuntimeTest::SetUp();
    obj = kernelObject("rodata");
    ASSERT_GT(obj.size(), sizeof(Elf64_Ehdr));
  }

  template <typename T> T get(size_t offset) const {
    T v;
    std::memcpy(&v, obj.data() + offset, sizeof(T));
    return v;
  }
  template <typename T> void put(std::vector<uint8_t> &o, size_t offset, T v) {
    std::memcpy(o.data() + offset, &v, sizeof(T));
  }
  Elf64_Ehdr header() const { return get<Elf64_Ehdr>(0); }
  size_t shdrOffset(unsigned i) const { return header().e_shoff + i * sizeof(Elf64_Shdr); }
  Elf64_Shdr shdr(unsigned i) const { return get<Elf64_Shdr>(shdrOffset(i)); }
  /// Index of the first section of `type` (0 if none).
  unsigned find(uint32_t type) const {
    for (unsigned i = 1; i < header().e_shnum; ++i)
      if (shdr(i).sh_type == type)
        return i;
    return 0;
  }

  /// Loads `o` and expects `code`, with `substring` in the message.
  void expectRejected(const std::vector<uint8_t> &o, tgrt_status code, const char *substring) {
    tgrt_program *p = nullptr;
    TGRT_EXPECT_ERROR(tgrt_program_load(dev, o.data(), o.size(), nullptr, &p), code, substring);
    EXPECT_EQ(p, nullptr);
    if (p)
      tgrt_program_free(p);
  }

  /// A copy of the object with one field of section `i`'s header replaced.
  template <typename T>
  std::vector<uint8_t> withSectionField(unsigned i, size_t fieldOffset, T value) {
    std::vector<uint8_t> o = obj;
    put(o, shdrOffset(i) + fieldOffset, value);
    return o;
  }

  std::vector<uint8_t> obj;
};

TEST_F(ElfCorruptionTest, TheUnmodifiedObjectLoads) {
  ASSERT_NE(load("rodata"), nullptr);
}

TEST_F(ElfCorruptionTest, EveryTruncationIsRejected) {
  // clang puts the section header table at the end, so every proper prefix
  // of the object lacks part of it.
  for (size_t n = 0; n < obj.size(); ++n) {
    std::vector<uint8_t> o(obj.begin(), obj.begin() + n);
    o.shrink_to_fit(); // so ASan sees reads past the end
    tgrt_program *p = nullptr;
    tgrt_status s = tgrt_program_load(dev, o.empty() ? obj.data() : o.data(), n, nullptr, &p);
    EXPECT_EQ(s, TGRT_INVALID_OBJECT) << "prefix of " << n << " bytes: " << tgrt_last_error();
    EXPECT_EQ(p, nullptr);
  }
}

TEST_F(ElfCorruptionTest, BadHeaders) {
  std::vector<uint8_t> o = obj;
  o[0] = 0x7e;
  expectRejected(o, TGRT_INVALID_OBJECT, "bad magic");
  o = obj;
  o[EI_CLASS] = ELFCLASS32;
  expectRejected(o, TGRT_INVALID_OBJECT, "64-bit");
  o = obj;
  o[EI_DATA] = ELFDATA2MSB;
  expectRejected(o, TGRT_INVALID_OBJECT, "little-endian");
  o = obj;
  put<uint16_t>(o, offsetof(Elf64_Ehdr, e_type), ET_DYN);
  expectRejected(o, TGRT_UNSUPPORTED, "ET_REL");
  o = obj;
  put<uint16_t>(o, offsetof(Elf64_Ehdr, e_machine), EM_AARCH64);
  expectRejected(o, TGRT_UNSUPPORTED, "x86-64");
  o = obj;
  put<uint16_t>(o, offsetof(Elf64_Ehdr, e_shentsize), 32);
  expectRejected(o, TGRT_INVALID_OBJECT, "section header size");
  o = obj;
  put<uint16_t>(o, offsetof(Elf64_Ehdr, e_shnum), 0xffff);
  expectRejected(o, TGRT_INVALID_OBJECT, "past the end");
  o = obj;
  put<uint64_t>(o, offsetof(Elf64_Ehdr, e_shoff), ~uint64_t(0) - 8);
  expectRejected(o, TGRT_INVALID_OBJECT, "past the end");
  o = obj;
  put<uint16_t>(o, offsetof(Elf64_Ehdr, e_shstrndx), header().e_shnum);
  expectRejected(o, TGRT_INVALID_OBJECT, "name table");
  o = obj;
  put<uint16_t>(o, offsetof(Elf64_Ehdr, e_shnum), 0);
  expectRejected(o, TGRT_INVALID_OBJECT, "no section header table");
}

TEST_F(ElfCorruptionTest, BadSections) {
  unsigned text = find(SHT_PROGBITS); // .text comes first
  ASSERT_NE(text, 0u);
  expectRejected(withSectionField<uint64_t>(text, offsetof(Elf64_Shdr, sh_offset), obj.size() - 4),
                 TGRT_INVALID_OBJECT, "past the end");
  expectRejected(withSectionField<uint64_t>(text, offsetof(Elf64_Shdr, sh_size), ~uint64_t(0)),
                 TGRT_INVALID_OBJECT, "past the end");
  expectRejected(withSectionField<uint64_t>(text, offsetof(Elf64_Shdr, sh_addralign), 24),
                 TGRT_INVALID_OBJECT, "not a power of two");
  expectRejected(withSectionField<uint64_t>(text, offsetof(Elf64_Shdr, sh_addralign), 1 << 20),
                 TGRT_UNSUPPORTED, "more than a page");
  expectRejected(withSectionField<uint32_t>(text, offsetof(Elf64_Shdr, sh_name), 0x7fffffff),
                 TGRT_INVALID_OBJECT, "string table");
  // A code section that is no longer executable leaves no code.
  uint64_t flags = shdr(text).sh_flags & ~uint64_t(SHF_EXECINSTR);
  expectRejected(withSectionField<uint64_t>(text, offsetof(Elf64_Shdr, sh_flags), flags),
                 TGRT_INVALID_OBJECT, "no executable section");
  flags = shdr(text).sh_flags | SHF_TLS;
  expectRejected(withSectionField<uint64_t>(text, offsetof(Elf64_Shdr, sh_flags), flags),
                 TGRT_UNSUPPORTED, "thread-local");
  unsigned symtab = find(SHT_SYMTAB);
  ASSERT_NE(symtab, 0u);
  expectRejected(withSectionField<uint32_t>(symtab, offsetof(Elf64_Shdr, sh_type), SHT_PROGBITS),
                 TGRT_INVALID_OBJECT, "no symbol table");
  expectRejected(withSectionField<uint64_t>(symtab, offsetof(Elf64_Shdr, sh_entsize), 16),
                 TGRT_INVALID_OBJECT, "symbol table entry size");
  expectRejected(withSectionField<uint32_t>(symtab, offsetof(Elf64_Shdr, sh_link), 0xffff),
                 TGRT_INVALID_OBJECT, "not a string table");
}

TEST_F(ElfCorruptionTest, HugeBssIsRefused) {
  obj = kernelObject("bss");
  unsigned bss = find(SHT_NOBITS);
  ASSERT_NE(bss, 0u);
  expectRejected(withSectionField<uint64_t>(bss, offsetof(Elf64_Shdr, sh_size), uint64_t(1) << 40),
                 TGRT_INVALID_OBJECT, "bytes");
  expectRejected(withSectionField<uint64_t>(bss, offsetof(Elf64_Shdr, sh_size), (uint64_t(1) << 30) - 16),
                 TGRT_UNSUPPORTED, "exceed 1 GiB");
}

TEST_F(ElfCorruptionTest, BadSymbols) {
  unsigned symtab = find(SHT_SYMTAB);
  Elf64_Shdr st = shdr(symtab);
  size_t count = st.sh_size / sizeof(Elf64_Sym);
  ASSERT_GT(count, 2u);
  // The last symbol is global (ELF orders locals first): break its fields.
  size_t last = st.sh_offset + (count - 1) * sizeof(Elf64_Sym);
  std::vector<uint8_t> o = obj;
  put<uint32_t>(o, last + offsetof(Elf64_Sym, st_name), 0x7fffffff);
  expectRejected(o, TGRT_INVALID_OBJECT, "string offset");
  o = obj;
  put<uint16_t>(o, last + offsetof(Elf64_Sym, st_shndx), 200);
  expectRejected(o, TGRT_INVALID_OBJECT, "past the");
  o = obj;
  put<uint16_t>(o, last + offsetof(Elf64_Sym, st_shndx), SHN_LORESERVE + 5);
  expectRejected(o, TGRT_UNSUPPORTED, "reserved section index");
  o = obj;
  put<uint64_t>(o, last + offsetof(Elf64_Sym, st_value), uint64_t(1) << 40);
  expectRejected(o, TGRT_INVALID_OBJECT, "outside its section");
  // An unterminated string table.
  o = obj;
  Elf64_Shdr strtab = shdr(st.sh_link);
  std::memset(o.data() + strtab.sh_offset, 'x', strtab.sh_size);
  expectRejected(o, TGRT_INVALID_OBJECT, "unterminated");
}

TEST_F(ElfCorruptionTest, BadRelocations) {
  unsigned rela = find(SHT_RELA);
  ASSERT_NE(rela, 0u);
  Elf64_Shdr rh = shdr(rela);
  ASSERT_GE(rh.sh_size, sizeof(Elf64_Rela));
  size_t first = rh.sh_offset;
  Elf64_Rela r = get<Elf64_Rela>(first);
  auto withRela = [&](Elf64_Rela nr) {
    std::vector<uint8_t> o = obj;
    put(o, first, nr);
    return o;
  };
  Elf64_Rela nr = r;
  nr.r_info = ELF64_R_INFO(0xffffff, ELF64_R_TYPE(r.r_info));
  expectRejected(withRela(nr), TGRT_INVALID_OBJECT, "names symbol");
  nr = r;
  nr.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), 0xff);
  expectRejected(withRela(nr), TGRT_UNSUPPORTED, "relocation type 255");
  nr = r;
  nr.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), R_X86_64_TPOFF32);
  expectRejected(withRela(nr), TGRT_UNSUPPORTED, "relocation type");
  nr = r;
  nr.r_offset = shdr(rh.sh_info).sh_size - 2;
  expectRejected(withRela(nr), TGRT_INVALID_OBJECT, "outside its");
  nr = r;
  nr.r_offset = ~uint64_t(0) - 1;
  expectRejected(withRela(nr), TGRT_INVALID_OBJECT, "outside its");
  // A PC32 whose addend puts the target 4 GiB away cannot be encoded.
  nr = r;
  nr.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), R_X86_64_PC32);
  nr.r_addend = int64_t(1) << 32;
  expectRejected(withRela(nr), TGRT_UNSUPPORTED, "does not fit in 32 bits");
  // Section-table damage of the relocation section itself.
  expectRejected(withSectionField<uint32_t>(rela, offsetof(Elf64_Shdr, sh_info), 0xffff),
                 TGRT_INVALID_OBJECT, "does not exist");
  expectRejected(withSectionField<uint32_t>(rela, offsetof(Elf64_Shdr, sh_link), 0),
                 TGRT_INVALID_OBJECT, "symbol table");
  expectRejected(withSectionField<uint64_t>(rela, offsetof(Elf64_Shdr, sh_entsize), 16),
                 TGRT_INVALID_OBJECT, "entry size");
  expectRejected(withSectionField<uint32_t>(rela, offsetof(Elf64_Shdr, sh_type), SHT_REL),
                 TGRT_UNSUPPORTED, "SHT_REL");
}

TEST_F(ElfCorruptionTest, RandomByteFlipsNeverCrash) {
  // Deterministic: the same mutations every run.
  std::vector<std::vector<uint8_t>> bases = {obj, kernelObject("bss"), kernelObject("libm"),
                                             kernelObject("abs64")};
  std::mt19937 rng(20260822);
  int loaded = 0, rejected = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    const std::vector<uint8_t> &base = bases[iter % bases.size()];
    std::vector<uint8_t> o = base;
    uint64_t shoff;
    std::memcpy(&shoff, base.data() + offsetof(Elf64_Ehdr, e_shoff), 8);
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) {
      size_t at = rng() % o.size();
      // Half the time aim at the headers (ELF header, section table), where
      // damage matters most; clang puts the section table last.
      if (rng() & 1) {
        at = (rng() & 1) ? rng() % sizeof(Elf64_Ehdr) : shoff + rng() % (o.size() - shoff);
      }
      o[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    tgrt_program *p = nullptr;
    if (tgrt_program_load(dev, o.data(), o.size(), nullptr, &p) == TGRT_OK) {
      ++loaded; // never run: the code may be garbage
      TGRT_EXPECT_OK(tgrt_program_free(p));
    } else {
      ++rejected;
      EXPECT_GT(std::strlen(tgrt_last_error()), 0u);
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(loaded, 0);
}

} // namespace
