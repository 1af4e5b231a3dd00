#include "core/plugins/manifest.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "core/plugins/file_checks.h"
#include "core/util/file_read.h"

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
      return util::refusal("plugin-manifest-invalid", "line is not '<sha256>  <file name>'",
                           util::SourceLocation{path, n, 1});
    }
    m[name] = hash;
  }
  return m;
}

util::Result<Manifest> read_manifest(const std::string& dir) {
  std::string path = dir + "/" + kManifestName;
  const util::SourceLocation where{path, 0, 0};
  struct stat st {};
  auto fd = util::open_regular_file(AT_FDCWD, path, false, st);
  if (!fd) {
    if (fd.error().rule == util::kFileNotRegular) {
      return util::refusal("plugin-manifest-missing", "'" + path + "' is not a regular file",
                           where);
    }
    return util::refusal("plugin-manifest-missing",
                         "cannot open '" + path + "': " + fd.error().message, where);
  }
  // Who may have written it is checked on the open file, before a byte of it is trusted.
  if (auto owned = check_ownership(st, path, "plugin-permissions"); !owned) {
    return owned.error();
  }
  auto text = util::read_open_file(fd->get(), st, {1 << 20});
  if (!text) {
    if (text.error().rule == util::kFileTooLarge) {
      return util::refusal("plugin-manifest-invalid", "manifest larger than 1 MiB", where);
    }
    return util::refusal("plugin-manifest-missing",
                         "cannot read '" + path + "': " + text.error().message, where);
  }
  return parse_manifest(*text, path);
}

}  // namespace reviewer::plugins
