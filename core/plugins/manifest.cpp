#include "core/plugins/manifest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "core/plugins/file_checks.h"
#include "core/util/unique_fd.h"

namespace reviewer::plugins {
namespace {

bool is_hex64(const std::string& s) {
  if (s.size() != 64) {
    return false;
  }
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
      return false;
    }
  }
  return true;
}

}  // namespace

util::Result<Manifest> parse_manifest(const std::string& text, const std::string& path) {
  Manifest m;
  std::istringstream in(text);
  std::string line;
  std::uint32_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) {
      continue;
    }
    auto sp = line.find("  ");
    std::string hash = line.substr(0, sp);
    std::string name = sp == std::string::npos ? "" : line.substr(sp + 2);
    if (!is_hex64(hash) || name.empty() || name.find('/') != std::string::npos) {
      return util::make_error("plugin-manifest-invalid", "line is not '<sha256>  <file name>'",
                              util::SourceLocation{path, n, 1});
    }
    m[name] = hash;
  }
  return m;
}

util::Result<Manifest> read_manifest(const std::string& dir) {
  std::string path = dir + "/" + kManifestName;
  util::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  if (!fd.valid()) {
    return util::make_error("plugin-manifest-missing",
                            "cannot open '" + path + "': " + std::strerror(errno),
                            util::SourceLocation{path, 0, 0});
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return util::make_error("plugin-manifest-missing", "'" + path + "' is not a regular file",
                            util::SourceLocation{path, 0, 0});
  }
  if (auto r = check_ownership(st, path, "plugin-permissions")) {
    return util::make_error(r->rule, r->message, r->location);
  }
  std::string text;
  char buf[4096];
  for (;;) {
    ssize_t got = ::read(fd.get(), buf, sizeof buf);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got <= 0) {
      break;
    }
    text.append(buf, static_cast<std::size_t>(got));
    if (text.size() > 1 << 20) {
      return util::make_error("plugin-manifest-invalid", "manifest larger than 1 MiB",
                              util::SourceLocation{path, 0, 0});
    }
  }
  return parse_manifest(text, path);
}

}  // namespace reviewer::plugins
