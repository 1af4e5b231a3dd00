#include "core/deps/package_source.h"

#include <algorithm>

#include "core/util/text.h"

namespace reviewer::deps {
namespace {

bool starts_with_any(const std::string& s, std::initializer_list<const char*> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](const char* p) { return s.rfind(p, 0) == 0; });
}

// scheme://host[:port] of an http(s) URL, for naming the foreign host.
std::string origin_of(const std::string& url) {
  auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    return url;
  }
  auto path = url.find('/', scheme_end + 3);
  return url.substr(0, path);
}

// What a registry tarball path holds: package names (lower-case, `@scope/`), versions and `-`.
// No query, fragment, percent escape or `..`, so the URL means one file of the registry.
bool plain_tarball_path(const std::string& path) {
  if (path.find("..") != std::string::npos || !path.ends_with(".tgz") ||
      path.find("/-/") == std::string::npos) {
    return false;
  }
  return std::all_of(path.begin(), path.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || c == '/' || c == '@' || c == '.' || c == '-' || c == '_' ||
           c == '+' || c == '~';
  });
}

}  // namespace

bool inside_project(std::string_view rel) {
  if (rel.empty() || rel == ".") {
    return true;
  }
  if (rel.size() > 4096) {
    return false;
  }
  for (const auto& part : util::split_path(std::string(rel))) {
    if (part.empty() || part == "." || part == ".." || part == "node_modules" || part == ".git" ||
        std::any_of(part.begin(), part.end(),
                    [](unsigned char c) { return c < 0x20 || c == 0x7f || c == '\\'; })) {
      return false;
    }
  }
  return true;
}

std::string registry_url_name(const std::string& name) {
  const auto slash = name.find('/');
  return slash == std::string::npos ? name : name.substr(0, slash) + "%2f" + name.substr(slash + 1);
}

std::string registry_tarball_of(const std::string& registry, const std::string& name,
                                const std::string& version) {
  const auto slash = name.find('/');
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  return registry + name + "/-/" + base + "-" + version + ".tgz";
}

util::Result<std::string> registry_tarball_url(const LockedPackage& p, const std::string& file,
                                               const std::string& registry) {
  auto refuse = [&](const std::string& kind, const std::string& what) {
    return util::refusal("dependency-source-refused", file + " pins \"" + p.path + "\" to " + kind +
                                                          " " + util::quote(what, '"') +
                                                          "; accepted: a tarball of " + registry +
                                                          " with a sha512 integrity");
  };
  if (p.link) {
    return refuse("a link to the folder", p.resolved.empty() ? p.path : p.resolved);
  }
  if (p.folder) {
    return refuse("the folder", p.path);  // a workspace package, not under node_modules
  }
  if (p.resolved.empty()) {
    // npm then asks the registry for the package's metadata at install time to find the
    // tarball (measured with npm 11: ENOTCACHED offline even with every tarball cached), and
    // that metadata changes over time, so it cannot be fetched by hash in advance.
    return util::refusal("dependency-resolved-missing",
                         file + " has no `resolved` URL for \"" + p.path +
                             "\" (written with omit-lockfile-registry-resolved); npm would look "
                             "the tarball up in the registry's metadata at install time, which "
                             "the review cannot serve offline; accepted: a lock written with "
                             "`npm install --omit-lockfile-registry-resolved=false`");
  }
  const std::string& url = p.resolved;
  if (starts_with_any(url, {"git+", "git:", "github:", "gitlab:", "bitbucket:", "gist:"}) ||
      url.find(".git#") != std::string::npos) {
    return refuse("the git source", url);
  }
  if (starts_with_any(url, {"file:"})) {
    return refuse("the file", url);
  }
  if (starts_with_any(url, {"http://"})) {
    return refuse("the plain http URL", url);
  }
  if (!starts_with_any(url, {"https://"})) {
    return refuse("the source", url);
  }
  if (url.rfind(registry, 0) != 0) {
    return refuse("the foreign host " + origin_of(url) + ":", url);
  }
  if (!plain_tarball_path(url.substr(registry.size() - 1))) {
    return refuse("a registry URL that is not a tarball", url);
  }
  return url;
}

}  // namespace reviewer::deps
