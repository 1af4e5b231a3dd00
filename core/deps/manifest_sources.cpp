#include "core/deps/manifest_sources.h"

#include <regex>

#include "core/semver/range.h"
#include "core/util/text.h"

namespace reviewer::deps {
namespace {

util::Refusal refused(const std::string& where, const std::string& name, const std::string& spec,
                      const std::string& why) {
  return util::refusal("dependency-source-refused",
                       "package.json " + where + " " + util::quote(name) + ": " +
                           util::quote(spec) + " " + why +
                           "; without a lock the review resolves registry packages only, since "
                           "npm runs something of the source's own while it fetches any other "
                           "(commit the lock npm writes, or depend on a registry release)");
}

// npm's rule for a package name (validate-npm-package-name), legacy capitals allowed.
bool valid_name(const std::string& name) {
  static const std::regex kName(
      R"((@[A-Za-z0-9~-][A-Za-z0-9._~-]*/)?[A-Za-z0-9~-][A-Za-z0-9._~-]*)");
  return !name.empty() && name.size() <= 214 && std::regex_match(name, kName);
}

// What other source `spec` names, or "" when it names none npm fetches from elsewhere.
std::string other_source(const std::string& spec) {
  static const std::pair<const char*, const char*> kPrefixes[] = {
      {"git+", "is a git source"},
      {"git:", "is a git source"},
      {"github:", "is a GitHub source"},
      {"gitlab:", "is a GitLab source"},
      {"bitbucket:", "is a Bitbucket source"},
      {"gist:", "is a gist"},
      {"file:", "is a file source"},
      {"link:", "is a link to a folder"},
      {"http:", "is a tarball URL"},
      {"https:", "is a tarball URL"},
      {"workspace:", "is a workspace source"},
      {"portal:", "is a folder source"},
      {"patch:", "is a patch source"},
      {"./", "is a path"},
      {"../", "is a path"},
      {"/", "is a path"},
      {"~/", "is a path"},
  };
  for (const auto& [prefix, why] : kPrefixes) {
    if (spec.rfind(prefix, 0) == 0) {
      return why;
    }
  }
  if (spec.find("://") != std::string::npos || spec.find(':') != std::string::npos) {
    return "names another protocol";
  }
  if (spec.find('/') != std::string::npos) {
    return "is a GitHub shorthand (user/repository)";
  }
  return "";
}

// A semver range or a dist-tag ("latest", "next").
bool range_or_tag(const std::string& spec) {
  static const std::regex kTag(R"([A-Za-z0-9][A-Za-z0-9._-]*)");
  return spec.empty() || semver::Range::parse(spec).ok() ||
         (spec.size() <= 128 && std::regex_match(spec, kTag));
}

util::Status check_spec(const std::string& where, const std::string& name,
                        const std::string& spec) {
  if (!valid_name(name)) {
    return refused(where, name, spec, "is not a package name npm's registry has");
  }
  std::string target = spec;
  if (spec.rfind("npm:", 0) == 0) {
    // An alias: npm:NAME or npm:NAME@RANGE, NAME possibly scoped.
    const std::string alias = spec.substr(4);
    const auto at = alias.find('@', 1);
    const std::string alias_name = alias.substr(0, at);
    target = at == std::string::npos ? "" : alias.substr(at + 1);
    if (!valid_name(alias_name)) {
      return refused(where, name, spec, "aliases no registry package");
    }
  }
  if (const std::string why = other_source(target); !why.empty()) {
    return refused(where, name, spec, why);
  }
  if (!range_or_tag(target)) {
    return refused(where, name, spec, "is neither a semver range nor a dist-tag");
  }
  return util::ok_status();
}

// `overrides` nests: a value is a spec, "$NAME" (a dependency's own spec), or an object whose
// "." is the spec and whose other keys override below it.
util::Status check_overrides(const nlohmann::json& overrides, const std::string& where, int depth) {
  if (depth > 32) {
    return refused(where, "overrides", "", "nests deeper than 32 levels");
  }
  for (const auto& [key, value] : overrides.items()) {
    if (value.is_object()) {
      if (auto ok = check_overrides(value, where + " " + key, depth + 1); !ok) {
        return ok;
      }
      continue;
    }
    if (!value.is_string()) {
      return refused(where, key, value.dump().substr(0, 120), "is not a spec");
    }
    const std::string spec = value.get<std::string>();
    if (spec.rfind('$', 0) == 0) {
      continue;
    }
    // `NAME@RANGE` keys select what is overridden; the name is the part before the version.
    const auto at = key.find('@', 1);
    const std::string name = key == "." ? "." : key.substr(0, at);
    if (auto ok = check_spec(where, name == "." ? "overridden" : name, spec); !ok) {
      return ok;
    }
  }
  return util::ok_status();
}

}  // namespace

util::Status check_registry_specs(const nlohmann::json& manifest) {
  for (const char* group :
       {"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"}) {
    const auto it = manifest.find(group);
    if (it == manifest.end() || !it->is_object()) {
      continue;
    }
    for (const auto& [name, spec] : it->items()) {
      if (!spec.is_string()) {
        return refused(group, name, spec.dump().substr(0, 120), "is not a spec");
      }
      if (auto ok = check_spec(group, name, spec.get<std::string>()); !ok) {
        return ok;
      }
    }
  }
  if (const auto it = manifest.find("overrides"); it != manifest.end() && it->is_object()) {
    return check_overrides(*it, "overrides", 0);
  }
  return util::ok_status();
}

util::Status check_registry_spec(const std::string& name, const std::string& spec,
                                 const std::string& where) {
  return check_spec(where, name, spec == "*" ? "" : spec);
}

}  // namespace reviewer::deps
