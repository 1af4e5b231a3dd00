#include "core/plugins/elf_entry.h"

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace reviewer::plugins {
namespace {

class FileView {
 public:
  explicit FileView(int fd) : fd_(fd) {
    struct stat st {};
    size_ = ::fstat(fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
  }
  std::uint64_t size() const { return size_; }
  // Reads `n` bytes at `offset` into `out`, false if any of them lies outside the file.
  bool read(std::uint64_t offset, void* out, std::uint64_t n) const {
    if (offset > size_ || n > size_ - offset) {
      return false;
    }
    auto* p = static_cast<char*>(out);
    while (n > 0) {
      ssize_t got = ::pread(fd_, p, n, static_cast<off_t>(offset));
      if (got <= 0) {
        return false;
      }
      p += got;
      offset += static_cast<std::uint64_t>(got);
      n -= static_cast<std::uint64_t>(got);
    }
    return true;
  }
  template <class T>
  bool read(std::uint64_t offset, T& out) const {
    return read(offset, &out, sizeof(T));
  }
  // A NUL-terminated string inside [table, table + table_size) at `index`.
  bool string_at(std::uint64_t table, std::uint64_t table_size, std::uint64_t index,
                 std::string& out) const {
    constexpr std::uint64_t kMaxName = 256;
    if (index >= table_size) {
      return false;
    }
    std::uint64_t n = std::min(kMaxName, table_size - index);
    std::string buf(n, '\0');
    if (!read(table + index, buf.data(), n)) {
      return false;
    }
    auto nul = buf.find('\0');
    if (nul == std::string::npos) {
      return false;
    }
    out = buf.substr(0, nul);
    return true;
  }

 private:
  int fd_;
  std::uint64_t size_ = 0;
};

}  // namespace

util::Result<std::vector<std::string>> section_symbols(int fd, const std::string& section,
                                                       const std::string& name) {
  auto bad = [&](const std::string& why) {
    return util::refusal("plugin-malformed",
                         "'" + name + "' is not a readable ELF shared object: " + why,
                         util::SourceLocation{name, 0, 0});
  };
  FileView f(fd);
  Elf64_Ehdr eh{};
  if (!f.read(0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    return bad("no ELF header");
  }
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_machine != EM_X86_64 || eh.e_type != ET_DYN) {
    return bad("not a little-endian x86-64 ELF64 shared object");
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shnum > 4096 ||
      eh.e_shstrndx >= eh.e_shnum) {
    return bad("malformed section header table");
  }
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  if (!f.read(eh.e_shoff, sh.data(), sizeof(Elf64_Shdr) * sh.size())) {
    return bad("section headers outside the file");
  }
  const Elf64_Shdr& names = sh[eh.e_shstrndx];
  std::size_t wanted = 0;
  std::size_t dynsym = 0;
  for (std::size_t i = 1; i < sh.size(); ++i) {
    std::string n;
    if (!f.string_at(names.sh_offset, names.sh_size, sh[i].sh_name, n)) {
      return bad("section name outside its table");
    }
    if (n == section) {
      wanted = i;
    }
    if (sh[i].sh_type == SHT_DYNSYM) {
      dynsym = i;
    }
  }
  std::vector<std::string> out;
  if (wanted == 0) {
    return out;
  }
  if (dynsym == 0) {
    return bad("no dynamic symbol table");
  }
  const Elf64_Shdr& syms = sh[dynsym];
  if (syms.sh_entsize != sizeof(Elf64_Sym) || syms.sh_link == 0 || syms.sh_link >= sh.size()) {
    return bad("malformed dynamic symbol table");
  }
  const Elf64_Shdr& strtab = sh[syms.sh_link];
  const std::uint64_t count = syms.sh_size / sizeof(Elf64_Sym);
  if (count > 1'000'000) {
    return bad("implausibly many symbols");
  }
  for (std::uint64_t i = 1; i < count; ++i) {
    Elf64_Sym s{};
    if (!f.read(syms.sh_offset + i * sizeof(Elf64_Sym), s)) {
      return bad("symbol outside the file");
    }
    if (s.st_shndx != wanted || ELF64_ST_BIND(s.st_info) == STB_LOCAL ||
        ELF64_ST_VISIBILITY(s.st_other) != STV_DEFAULT) {
      continue;
    }
    std::string n;
    if (!f.string_at(strtab.sh_offset, strtab.sh_size, s.st_name, n)) {
      return bad("symbol name outside its table");
    }
    out.push_back(n);
  }
  return out;
}

}  // namespace reviewer::plugins
