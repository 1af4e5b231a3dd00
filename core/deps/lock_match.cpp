#include "core/deps/lock_match.h"

#include <map>

#include "core/semver/functions.h"

namespace reviewer::deps {
namespace {

// Whether the locked entry can serve `spec`, as arborist's depValid judges a registry spec. A
// spec that is no range (a dist-tag such as `latest`) is satisfied by whatever was locked.
bool satisfied(const LockedPackage& locked, const std::string& name, const std::string& spec) {
  std::string range = spec;
  std::string wanted = name;
  if (spec.rfind("npm:", 0) == 0) {
    const std::string target = spec.substr(4);
    const auto at = target.find('@', 1);
    wanted = target.substr(0, at);
    range = at == std::string::npos ? "*" : target.substr(at + 1);
  }
  if (locked.name != wanted) {
    return false;
  }
  const semver::Options loose{true, false};
  if (range.empty() || range == "*" || !semver::valid_range(range, loose)) {
    return true;
  }
  return semver::satisfies(locked.version, range, loose);
}

}  // namespace

util::Status check_lock_matches(const LockedPackage& manifest, const NpmLock& lock) {
  std::map<std::string, const LockedPackage*> top;
  for (const auto& p : lock.packages) {
    if (p.path.rfind("node_modules/", 0) == 0 &&
        p.path.find("/node_modules/") == std::string::npos) {
      top[p.path.substr(13)] = &p;
    }
  }
  util::Refusals out;
  auto check = [&](const std::map<std::string, std::string>& wants) {
    for (const auto& [name, spec] : wants) {
      auto it = top.find(name);
      if (it == top.end()) {
        out.push_back(util::refusal(
            "dependency-lock-mismatch",
            "package.json and " + lock.file + " are not in sync: Missing: " + name + "@" + spec +
                " from lock file; npm ci would refuse it (update the lock with `npm install`)"));
      } else if (!satisfied(*it->second, name, spec)) {
        out.push_back(util::refusal(
            "dependency-lock-mismatch",
            "package.json and " + lock.file + " are not in sync: Invalid: lock file's " +
                it->second->name + "@" + it->second->version + " does not satisfy " + name + "@" +
                spec + "; npm ci would refuse it (update the lock with `npm install`)"));
      }
    }
  };
  check(manifest.wants);
  check(manifest.wants_optional);
  return util::status_of(std::move(out));
}

}  // namespace reviewer::deps
