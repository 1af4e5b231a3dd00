#include "core/resolve/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace reviewer::resolve {
namespace {

util::Error declaration_error(const std::string& name, std::string message) {
  return util::make_error("invalid-declaration", std::move(message), util::SourceLocation{name});
}

// Reads until EOF or `limit` bytes; EINTR retried.
bool read_up_to(int fd, std::size_t limit, std::string& out) {
  out.clear();
  char buf[8192];
  while (out.size() < limit) {
    const std::size_t want = std::min(sizeof buf, limit - out.size());
    const ssize_t n = ::read(fd, buf, want);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return false;
    }
    if (n == 0) {
      break;
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

util::Result<util::UniqueFd> open_worktree(const std::string& path) {
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd.valid()) {
    return util::make_error("invalid-declaration", "cannot open the worktree " + quote(path) +
                                                       ": " + std::strerror(errno));
  }
  return fd;
}

util::Result<std::optional<std::string>> read_worktree_file(int dir, const std::string& name,
                                                            std::size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO planted under a declaration's name must not hang.
  util::UniqueFd fd(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) {
    if (errno == ENOENT) {
      return std::optional<std::string>();
    }
    if (errno == ELOOP) {
      return declaration_error(name, name +
                                         " is a symlink; declaration files must be regular "
                                         "files in the worktree, not links");
    }
    return declaration_error(name, "cannot open " + name + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return declaration_error(name, "cannot stat " + name + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return declaration_error(name, name + " is not a regular file");
  }
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    return declaration_error(name, name + " is " + std::to_string(st.st_size) +
                                       " bytes, over the " + std::to_string(max_bytes) +
                                       "-byte bound for this file");
  }
  std::string text;
  // One byte past the bound catches a file that grew after fstat.
  if (!read_up_to(fd.get(), max_bytes + 1, text)) {
    return declaration_error(name, "cannot read " + name + ": " + std::strerror(errno));
  }
  if (text.size() > max_bytes) {
    return declaration_error(
        name, name + " is over the " + std::to_string(max_bytes) + "-byte bound for this file");
  }
  return std::optional<std::string>(std::move(text));
}

util::Result<std::string> read_bounded_file(const std::string& path, std::size_t max_bytes,
                                            const std::string& code) {
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) {
    return util::make_error(code, "cannot open " + quote(path) + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return util::make_error(code, quote(path) + " is not a regular file");
  }
  std::string text;
  if (!read_up_to(fd.get(), max_bytes + 1, text)) {
    return util::make_error(code, "cannot read " + quote(path) + ": " + std::strerror(errno));
  }
  if (text.size() > max_bytes) {
    return util::make_error(
        code, quote(path) + " is over the " + std::to_string(max_bytes) + "-byte bound");
  }
  return text;
}

std::string quote(std::string_view value) {
  constexpr std::size_t kMax = 120;
  std::string out = "\"";
  for (std::size_t i = 0; i < value.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (value.size() > kMax) {
    out += "...";
  }
  return out + "\"";
}

}  // namespace reviewer::resolve
