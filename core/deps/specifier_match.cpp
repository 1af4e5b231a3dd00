// The frozen-lockfile check of pnpm and Bun: package.json's specifier strings against the lock's.
#include "core/deps/specifier_match.h"

#include <nlohmann/json.hpp>

#include "core/deps/json_fields.h"

namespace reviewer::deps {
namespace {

using nlohmann::json;

}  // namespace

util::Result<Specifiers> manifest_specifiers(std::string_view text, bool peers_as_dependencies) {
  // parse_manifest has already bounded and parsed the same bytes; this reads the groups apart.
  const json doc = json::parse(text, nullptr, false);
  Specifiers out;
  std::map<std::string, std::string> peers;
  if (!doc.is_object() || !read_string_map(doc, "dependencies", out["dependencies"]) ||
      !read_string_map(doc, "devDependencies", out["devDependencies"]) ||
      !read_string_map(doc, "optionalDependencies", out["optionalDependencies"]) ||
      !read_string_map(doc, "peerDependencies", peers)) {
    return util::refusal("dependency-manifest-invalid",
                         "package.json is not an object whose dependency fields map names to "
                         "version strings");
  }
  // pnpm's satisfiesPackageManifest: a name in optionalDependencies is only optional, and with
  // auto-install-peers a peer not declared elsewhere is installed as a dependency.
  for (const auto& [name, spec] : out["optionalDependencies"]) {
    out["dependencies"].erase(name);
    out["devDependencies"].erase(name);
  }
  if (peers_as_dependencies) {
    for (const auto& [name, spec] : peers) {
      if (!out["dependencies"].count(name) && !out["devDependencies"].count(name) &&
          !out["optionalDependencies"].count(name)) {
        out["dependencies"][name] = spec;
      }
    }
  }
  return out;
}

util::Status check_specifiers_match(const Specifiers& manifest, const Specifiers& lock,
                                    const std::string& file, const std::string& tool) {
  util::Refusals out;
  const std::map<std::string, std::string> none;
  auto group_of = [&](const Specifiers& s, const std::string& g) -> const auto& {
    auto it = s.find(g);
    return it == s.end() ? none : it->second;
  };
  auto refuse = [&](const std::string& what) {
    out.push_back(util::refusal("dependency-lock-mismatch",
                                "package.json and " + file + " are not in sync: " + what +
                                    "; a frozen-lockfile install would refuse it (update the "
                                    "lock with `" +
                                    tool + "`)"));
  };
  for (const char* g : {"dependencies", "devDependencies", "optionalDependencies"}) {
    const auto& want = group_of(manifest, g);
    const auto& have = group_of(lock, g);
    for (const auto& [name, spec] : want) {
      auto it = have.find(name);
      if (it == have.end()) {
        refuse(std::string(g) + " \"" + name + "\": \"" + spec + "\" is not in the lock");
      } else if (it->second != spec) {
        refuse(std::string(g) + " \"" + name + "\" is \"" + spec + "\" in package.json but \"" +
               it->second + "\" in the lock");
      }
    }
    for (const auto& [name, spec] : have) {
      if (!want.count(name)) {
        refuse(std::string(g) + " \"" + name + "\": \"" + spec + "\" is in the lock only");
      }
    }
  }
  return util::status_of(std::move(out));
}

}  // namespace reviewer::deps
