#include "core/plugins/manifest.h"

#include <sstream>

#include "core/plugins/file_checks.h"

namespace reviewer::plugins {

bool is_sha256_hex(const std::string& s) {
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
    if (!is_sha256_hex(hash) || name.empty() || name.find('/') != std::string::npos) {
      return util::refusal("plugin-manifest-invalid", "line is not '<sha256>  <file name>'",
                           util::SourceLocation{path, n, 1});
    }
    m[name] = hash;
  }
  return m;
}

util::Result<Manifest> read_manifest(const std::string& dir) {
  const std::string path = dir + "/" + kManifestName;
  auto text =
      read_install_file(path, "manifest", "plugin-manifest-missing", "plugin-manifest-invalid");
  if (!text) {
    return text.refusals();
  }
  return parse_manifest(*text, path);
}

}  // namespace reviewer::plugins
