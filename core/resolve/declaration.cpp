#include "core/resolve/declaration.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/resolve/node_schedule.h"
#include "core/resolve/safe_file.h"
#include "core/semver/js_text.h"

namespace reviewer::resolve {
namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// nvm, setup-node, asdf and mise names that need an online release index (or the host).
bool is_alias(std::string_view raw) {
  std::string v(js::trim(raw));
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  static constexpr std::array kNames = {"node",    "stable", "unstable", "iojs",
                                        "system",  "latest", "current",  "lts",
                                        "default", "canary", "nightly"};
  if (std::find(kNames.begin(), kNames.end(), v) != kNames.end()) {
    return true;
  }
  return starts_with(v, "lts/") || starts_with(v, "lts-") || starts_with(v, "ref:") ||
         starts_with(v, "path:");
}

}  // namespace

void DeclarationSet::add(const DeclarationSet& other) {
  declarations.insert(declarations.end(), other.declarations.begin(), other.declarations.end());
  refusals.insert(refusals.end(), other.refusals.begin(), other.refusals.end());
}

report::Refusal invalid_declaration(std::string message, util::SourceLocation where) {
  return report::Refusal{"invalid-declaration", std::move(message), std::move(where)};
}

DeclarationSet make_declaration(std::string tool, std::string value, std::string source,
                                util::SourceLocation where) {
  DeclarationSet out;
  if (is_alias(value)) {
    out.refusals.push_back(invalid_declaration(
        source + " declares " + tool + " " + quote(value) +
            ", an alias that cannot be resolved offline; write a version such as 22.22.1 or a "
            "semver range such as 22.x",
        where));
    return out;
  }
  auto range = semver::Range::parse(value);
  if (!range) {
    out.refusals.push_back(invalid_declaration(source + " declares " + tool + " " + quote(value) +
                                                   ", which is not a version or semver range (" +
                                                   range.error().message + ")",
                                               where));
    return out;
  }
  out.declarations.push_back(Declaration{std::move(tool), std::move(value), std::move(source),
                                         std::move(where), std::move(range).value()});
  return out;
}

DeclarationSet make_exact_declaration(std::string tool, std::string value, std::string source,
                                      util::SourceLocation where) {
  DeclarationSet out;
  auto version = semver::parse_version(value);
  if (!version) {
    out.refusals.push_back(invalid_declaration(
        source + " declares " + tool + " " + quote(value) +
            ", which is not an exact version (expected MAJOR.MINOR.PATCH, e.g. 1.3.10)",
        where));
    return out;
  }
  auto range = semver::Range::parse(version->to_string());
  REVIEWER_CHECK(range.ok());  // a valid version is always a valid one-comparator range
  out.declarations.push_back(Declaration{std::move(tool), std::move(value), std::move(source),
                                         std::move(where), std::move(range).value()});
  return out;
}

DeclarationSet make_node_spec_declaration(std::string value, std::string source,
                                          util::SourceLocation where) {
  if (!is_schedule_alias(value)) {
    return make_declaration("node", std::move(value), std::move(source), std::move(where));
  }
  // Resolved against the matrix's schedule when the image is selected (resolver.cpp).
  auto any = semver::Range::parse("*");
  REVIEWER_CHECK(any.ok());
  Declaration d{"node", std::move(value), std::move(source), std::move(where),
                std::move(any).value()};
  d.alias = true;
  DeclarationSet out;
  out.declarations.push_back(std::move(d));
  return out;
}

}  // namespace reviewer::resolve
