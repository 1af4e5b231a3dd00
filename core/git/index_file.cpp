#include "core/git/index_file.h"

#include <openssl/evp.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "core/util/text.h"

namespace reviewer::git::detail {
namespace {

constexpr size_t kHeaderSize = 12;
constexpr size_t kChecksumSize = 20;
constexpr size_t kShortPathOffset = 62;  // offsetof(entry_short, path) in libgit2
constexpr size_t kLongPathOffset = 64;   // offsetof(entry_long, path)
constexpr size_t kPathMax = 4096;        // libgit2's GIT_PATH_MAX, for v4 paths
constexpr int kMaxTreeDepth = 4096;      // deeper TREE extensions are left to libgit2

std::uint32_t be32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (std::uint32_t{u[0]} << 24) | (std::uint32_t{u[1]} << 16) | (std::uint32_t{u[2]} << 8) |
         std::uint32_t{u[3]};
}
std::uint16_t be16(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<std::uint16_t>((u[0] << 8) | u[1]);
}

// Whether NTFS could take `c` for `reserved` (".git" or its short name "git~1"): libgit2
// rejects the name followed by nothing, by spaces and dots only, or by '\\' or ':'. Declining
// every such name followed by one of those bytes covers them all.
bool ntfs_alias(std::string_view c, std::string_view reserved) {
  if (c.size() < reserved.size() || util::lower(c.substr(0, reserved.size())) != reserved) {
    return false;
  }
  const std::string_view rest = c.substr(reserved.size());
  return rest.empty() || rest[0] == ' ' || rest[0] == '.' || rest[0] == '\\' || rest[0] == ':';
}

// True only for a component libgit2 certainly accepts with GIT_PATH_REJECT_INDEX_DEFAULTS and any
// HFS/NTFS protection: it rejects ".", "..", ".git" and the names NTFS folds to it (above), and
// with core.protectHFS ".git" spelled with ignorable code points, which needs a '.' and a
// non-ASCII byte; those are left to libgit2 rather than modelled here. (".github" is plain.)
bool plainly_valid_component(std::string_view c) {
  if (c.empty() || c == "." || c == ".." || ntfs_alias(c, ".git") || ntfs_alias(c, "git~1")) {
    return false;
  }
  bool high = false;
  bool dot = false;
  for (const char ch : c) {
    high = high || static_cast<unsigned char>(ch) >= 0x80;
    dot = dot || ch == '.';
  }
  return !(high && dot);
}

bool plainly_valid_path(std::string_view path) {
  size_t start = 0;
  while (true) {
    const size_t slash = path.find('/', start);
    const std::string_view c = path.substr(
        start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!plainly_valid_component(c)) {
      return false;
    }
    if (slash == std::string_view::npos) {
      return true;
    }
    start = slash + 1;
  }
}

// git's offset varint (libgit2 `git_decode_varint`), bounded by `end`; 0 length on any error.
std::uint64_t decode_varint(const char* p, const char* end, size_t* len) {
  *len = 0;
  if (p >= end) {
    return 0;
  }
  const char* start = p;
  auto c = static_cast<unsigned char>(*p++);
  std::uint64_t val = c & 127U;
  while ((c & 128U) != 0) {
    val += 1;
    if (val == 0 || (val >> 57) != 0 || p >= end) {
      return 0;
    }
    c = static_cast<unsigned char>(*p++);
    val = (val << 7) + (c & 127U);
  }
  *len = static_cast<size_t>(p - start);
  return val;
}

// An ASCII decimal int32 ending at `stop`: a strict subset of what git__strntol32 takes.
bool read_int(const char*& p, const char* end, char stop, std::int64_t* out) {
  bool negative = false;
  if (p < end && *p == '-') {
    negative = true;
    ++p;
  }
  const char* digits = p;
  std::int64_t v = 0;
  while (p < end && *p >= '0' && *p <= '9') {
    v = v * 10 + (*p - '0');
    if (v > 0x80000000LL) {
      return false;
    }
    ++p;
  }
  if (p == digits || p >= end || *p != stop) {
    return false;
  }
  ++p;
  *out = negative ? -v : v;
  return negative ? v <= 0x80000000LL : v <= 0x7fffffffLL;
}

// The TREE extension as libgit2's `git_tree_cache_read` accepts it, read iteratively.
bool valid_tree_extension(const char* p, const char* end) {
  size_t pending = 1;  // trees still to read, depth-first
  std::vector<size_t> stack;
  while (pending > 0 || !stack.empty()) {
    if (pending == 0) {
      pending = stack.back();
      stack.pop_back();
      continue;
    }
    --pending;
    const void* nul = std::memchr(p, '\0', static_cast<size_t>(end - p));
    if (nul == nullptr) {
      return false;
    }
    p = static_cast<const char*>(nul) + 1;
    std::int64_t entries = 0;
    std::int64_t children = 0;
    if (!read_int(p, end, ' ', &entries) || !read_int(p, end, '\n', &children) || children < 0) {
      return false;
    }
    if (entries >= 0) {
      if (end - p < static_cast<std::ptrdiff_t>(GIT_OID_RAWSZ)) {
        return false;
      }
      p += GIT_OID_RAWSZ;
    }
    if (children > 0) {
      if (stack.size() >= static_cast<size_t>(kMaxTreeDepth)) {
        return false;
      }
      stack.push_back(pending);
      pending = static_cast<size_t>(children);
    }
  }
  return p == end;
}

bool checksum_matches(std::string_view body, const char* expected) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  return EVP_Digest(body.data(), body.size(), digest, &size, EVP_sha1(), nullptr) == 1 &&
         size == kChecksumSize && std::memcmp(digest, expected, kChecksumSize) == 0;
}

// Where a file's parts stand, once its header and checksum are libgit2's.
struct Layout {
  const char* begin;
  const char* end;
  const char* footer;  // the checksum
  std::uint32_t count;
  bool compressed;  // v4: paths prefix-compressed against the previous entry's
};

std::optional<Layout> read_layout(const std::string& bytes) {
  const char* const begin = bytes.data();
  const size_t total = bytes.size();
  if (total < kHeaderSize + kChecksumSize || std::memcmp(begin, "DIRC", 4) != 0) {
    return std::nullopt;
  }
  const std::uint32_t version = be32(begin + 4);
  const std::uint32_t count = be32(begin + 8);
  if (version < 2 || version > 4) {
    return std::nullopt;
  }
  const char* const footer = begin + total - kChecksumSize;
  if (!checksum_matches(std::string_view(begin, total - kChecksumSize), footer)) {
    return std::nullopt;
  }
  return Layout{begin, begin + total, footer, count, version == 4};
}

// One entry's fixed fields from `p`, `left` bytes before the checksum; returns where its path
// starts, or nullopt when the fields run past `left`.
std::optional<size_t> read_fixed_fields(const char* p, size_t left, git_index_entry& e) {
  if (left < kShortPathOffset) {
    return std::nullopt;
  }
  e.ctime.seconds = static_cast<std::int32_t>(be32(p));
  e.ctime.nanoseconds = be32(p + 4);
  e.mtime.seconds = static_cast<std::int32_t>(be32(p + 8));
  e.mtime.nanoseconds = be32(p + 12);
  e.dev = be32(p + 16);
  e.ino = be32(p + 20);
  e.mode = be32(p + 24);
  e.uid = be32(p + 28);
  e.gid = be32(p + 32);
  e.file_size = be32(p + 36);
  std::memcpy(e.id.id, p + 40, GIT_OID_RAWSZ);
  e.flags = be16(p + 60);
  if ((e.flags & GIT_INDEX_ENTRY_EXTENDED) == 0) {
    return kShortPathOffset;
  }
  if (left < kLongPathOffset) {
    return std::nullopt;
  }
  e.flags_extended = be16(p + 62);
  return kLongPathOffset;
}

// An entry's path, and the entry's whole size in the file.
struct EntryPath {
  std::string_view name;
  size_t size = 0;
};

// A v2 or v3 path: NUL-terminated, the entry padded to a multiple of 8.
std::optional<EntryPath> read_plain_path(const char* path, size_t path_at, std::uint16_t flags,
                                         const char* footer) {
  size_t length = flags & GIT_INDEX_ENTRY_NAMEMASK;
  const void* nul = std::memchr(path, '\0', static_cast<size_t>(footer - path));
  if (nul == nullptr) {
    return std::nullopt;
  }
  const auto found = static_cast<size_t>(static_cast<const char*>(nul) - path);
  // libgit2 takes the path up to its NUL; only a name length that agrees is modelled.
  if (length == GIT_INDEX_ENTRY_NAMEMASK ? found < length : found != length) {
    return std::nullopt;
  }
  length = found;
  return EntryPath{std::string_view(path, length), (path_at + length + 8) & ~size_t{7}};
}

// The v4 paths read so far: each stored NUL-terminated in `storage` at its offset.
struct V4Paths {
  std::string& storage;
  std::vector<size_t> offsets;
  std::string last;  // the previous entry's path
};

// A v4 path: how much of the previous path to strip (a varint), then the NUL-terminated suffix.
std::optional<EntryPath> read_compressed_path(const char* path, size_t path_at, const char* footer,
                                              V4Paths& v4) {
  size_t varint_len = 0;
  const std::uint64_t strip = decode_varint(path, footer, &varint_len);
  if (varint_len == 0 || strip > v4.last.size()) {
    return std::nullopt;
  }
  const char* const suffix = path + varint_len;
  const void* nul = std::memchr(suffix, '\0', static_cast<size_t>(footer - suffix));
  if (nul == nullptr) {
    return std::nullopt;
  }
  const auto suffix_len = static_cast<size_t>(static_cast<const char*>(nul) - suffix);
  const size_t prefix_len = v4.last.size() - static_cast<size_t>(strip);
  if (prefix_len + suffix_len + 1 > kPathMax) {
    return std::nullopt;
  }
  v4.last.resize(prefix_len);
  v4.last.append(suffix, suffix_len);
  v4.offsets.push_back(v4.storage.size());
  v4.storage.append(v4.last).push_back('\0');
  return EntryPath{v4.last, path_at + suffix_len + 1 + varint_len};
}

// The entries, read from `p` on (left after the last); false when any is not certainly libgit2's.
bool read_entries(const Layout& layout, const char*& p, V4Paths& v4,
                  std::vector<git_index_entry>& entries) {
  for (std::uint32_t i = 0; i < layout.count; ++i) {
    git_index_entry e{};
    const auto path_at = read_fixed_fields(p, static_cast<size_t>(layout.footer - p), e);
    if (!path_at) {
      return false;
    }
    const char* const path = p + *path_at;
    const auto read = layout.compressed ? read_compressed_path(path, *path_at, layout.footer, v4)
                                        : read_plain_path(path, *path_at, e.flags, layout.footer);
    if (!read || read->size + kChecksumSize > static_cast<size_t>(layout.end - p) ||
        !plainly_valid_path(read->name)) {
      return false;
    }
    e.path = read->name.data();  // v4: set by the caller, once v4 paths stop growing
    entries.push_back(e);
    p += read->size;
  }
  return true;
}

// The extensions between the entries (from `p`) and the checksum: only TREE is modelled; every
// other extension, optional or not, is libgit2's to judge.
bool only_valid_tree_extensions(const char* p, const char* footer) {
  while (p < footer) {
    if (footer - p < 8) {
      return false;
    }
    const std::uint32_t length = be32(p + 4);
    if (length > static_cast<size_t>(footer - p) - 8) {
      return false;
    }
    if (std::memcmp(p, "TREE", 4) != 0 || !valid_tree_extension(p + 8, p + 8 + length)) {
      return false;
    }
    p += 8 + length;
  }
  return true;
}

}  // namespace

std::optional<ParsedIndex> parse_index_file(std::string bytes) {
  ParsedIndex out;
  out.bytes = std::make_unique<const std::string>(std::move(bytes));
  out.v4_paths = std::make_unique<std::string>();
  const auto layout = read_layout(*out.bytes);
  if (!layout) {
    return std::nullopt;
  }
  // Each entry takes at least 63 bytes, so a count the file cannot hold is not reserved for.
  out.entries.reserve(std::min<size_t>(layout->count, out.bytes->size() / (kShortPathOffset + 1)));
  const char* p = layout->begin + kHeaderSize;
  V4Paths v4{*out.v4_paths, {}, {}};
  if (!read_entries(*layout, p, v4, out.entries) ||
      !only_valid_tree_extensions(p, layout->footer)) {
    return std::nullopt;
  }
  if (layout->compressed) {
    for (size_t i = 0; i < out.entries.size(); ++i) {
      out.entries[i].path = out.v4_paths->data() + v4.offsets[i];
    }
  }
  return out;
}

}  // namespace reviewer::git::detail
