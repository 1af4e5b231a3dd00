// yarn_package: a yarn 1 lock block as a package the fetch plan judges like npm's.
#include "core/deps/yarn_source.h"

#include "core/deps/package_source.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// A git source keeps its fragment (the commit) so the refusal names it as yarn wrote it.
bool is_git(const std::string& url) {
  return starts_with(url, "git+") || starts_with(url, "git:") || starts_with(url, "github:") ||
         url.find(".git#") != std::string::npos;
}

}  // namespace

util::Result<LockedPackage> yarn_package(const YarnEntry& entry, const std::string& file,
                                         const std::string& registry) {
  LockedPackage p = entry.package;
  for (const auto& pattern : entry.patterns) {
    const std::string spec = split_yarn_pattern(pattern).second;
    for (const char* local : {"file:", "link:", "portal:", "workspace:"}) {
      if (starts_with(spec, local)) {
        return util::refusal("dependency-source-refused",
                             file + " pins " + util::quote(pattern, '"') + " to the local source " +
                                 util::quote(spec, '"') + "; accepted: a tarball of " + registry +
                                 " with a sha512 integrity");
      }
    }
  }
  if (p.resolved.empty()) {
    // yarn 1 then asks the registry for the package's metadata at install time.
    return util::refusal("dependency-resolved-missing",
                         file + " has no `resolved` URL for " + util::quote(p.path, '"') +
                             "; yarn would look the tarball up in the registry's metadata at "
                             "install time, which the review cannot serve offline; accepted: a "
                             "lock written by `yarn install`");
  }
  if (!is_git(p.resolved)) {
    p.resolved = p.resolved.substr(0, p.resolved.find('#'));
  }
  // registry.yarnpkg.com answers every path of registry.npmjs.org with the same bytes, and the
  // lock's sha512 is checked either way; the host reaches npm's registry, so it asks there.
  if (registry == kDefaultRegistry && starts_with(p.resolved, kYarnRegistry)) {
    p.resolved = registry + p.resolved.substr(std::string(kYarnRegistry).size());
  }
  return p;
}

std::string yarn_mirror_name(const std::string& url) {
  const std::size_t last = url.rfind('/');
  const std::string base = url.substr(last + 1);
  const std::size_t dash = url.rfind("/-/");
  if (dash == std::string::npos || dash == 0) {
    return base;
  }
  const std::size_t name_start = url.rfind('/', dash - 1);
  if (name_start == std::string::npos || name_start == 0) {
    return base;
  }
  const std::size_t scope_start = url.rfind('/', name_start - 1);
  const std::string scope = url.substr(scope_start + 1, name_start - scope_start - 1);
  return scope.starts_with("@") ? scope + "-" + base : base;
}

}  // namespace reviewer::deps
