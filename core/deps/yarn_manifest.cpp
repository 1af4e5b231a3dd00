// The frozen-lockfile check of yarn 1: package.json's normalized patterns against the lock's keys.
#include "core/deps/yarn_manifest.h"

#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/deps/json_fields.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

using nlohmann::json;

bool trivial(const std::string& spec) { return spec.empty() || spec == "*"; }

}  // namespace

util::Status check_yarn_manifest(std::string_view package_json, const YarnLock& lock) {
  const json doc = json::parse(package_json, nullptr, false);
  // yarn's normalization (validate.js cleanDependencies) visits the groups in this order.
  const char* const kGroups[] = {"optionalDependencies", "dependencies", "devDependencies"};
  std::vector<std::map<std::string, std::string>> groups(3);
  for (std::size_t g = 0; g < 3; ++g) {
    if (!doc.is_object() || !read_string_map(doc, kGroups[g], groups[g])) {
      return util::refusal("dependency-manifest-invalid",
                           "package.json is not an object whose dependency fields map names to "
                           "version strings");
    }
  }
  util::Refusals out;
  if (doc.contains("workspaces")) {
    out.push_back(util::refusal(
        "dependency-source-refused",
        "package.json declares yarn `workspaces`, whose packages yarn links from the worktree's "
        "folders; accepted: a single project whose packages all come from the registry"));
  }
  std::map<std::string, std::string> specs;  // name -> the spec yarn installs it by
  for (const auto& group : groups) {
    for (const auto& [name, spec] : group) {
      auto it = specs.find(name);
      if (it == specs.end()) {
        specs[name] = spec;
      } else if (trivial(it->second) && !trivial(spec)) {
        it->second = spec;
      }
    }
  }
  for (const auto& [name, spec] : specs) {
    bool local_source = false;
    for (const char* local : {"file:", "link:", "portal:"}) {
      if (spec.rfind(local, 0) == 0) {
        local_source = true;
        out.push_back(util::refusal("dependency-source-refused",
                                    "package.json takes " + util::quote(name, '"') +
                                        " from the local source " + util::quote(spec, '"') +
                                        "; accepted: packages of the registry, pinned in " +
                                        lock.file));
      }
    }
    if (local_source || lock.patterns.count(name) != 0 ||
        lock.patterns.count(name + "@" + spec) != 0) {
      continue;
    }
    out.push_back(util::refusal(
        "dependency-lock-mismatch",
        "package.json and " + lock.file +
            " are not in sync: " + util::quote(name + "@" + spec, '"') +
            " is not a key of the lock; `yarn install --frozen-lockfile` would refuse it (\"Your "
            "lockfile needs to be updated\"; update the lock with `yarn install`)"));
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::deps
