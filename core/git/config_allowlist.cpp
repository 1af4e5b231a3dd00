#include "core/git/config_allowlist.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/util/text.h"

namespace reviewer::git {
namespace {

// git compares section and variable names case-insensitively.
using util::lower;

struct Allowed {
  std::string_view section;
  bool subsection;  // true: any subsection (a remote or branch name), false: none allowed
  std::string_view key;
};

// Evidence for each row is in docs/git-guards.md and tests/unit/git/clone_allowlist_test.cpp.
constexpr std::array<Allowed, 11> kAllowed{{
    {"core", false, "repositoryformatversion"},
    {"core", false, "filemode"},
    {"core", false, "bare"},
    {"core", false, "logallrefupdates"},
    {"remote", true, "url"},
    {"remote", true, "fetch"},
    {"remote", true, "tagopt"},  // git clone --no-tags
    {"branch", true, "remote"},
    {"branch", true, "merge"},
    {"user", false, "name"},
    {"user", false, "email"},
}};

}  // namespace

std::string ConfigKey::canonical() const {
  if (!has_subsection) {
    return section + "." + key;
  }
  return section + "." + subsection + "." + key;
}

ConfigKey parse_config_key(std::string_view name) {
  ConfigKey k;
  const auto first = name.find('.');
  const auto last = name.rfind('.');
  if (first == std::string_view::npos) {
    return k;
  }
  k.section = lower(name.substr(0, first));
  k.key = lower(name.substr(last + 1));
  if (last != first) {
    k.has_subsection = true;
    k.subsection = std::string(name.substr(first + 1, last - first - 1));
  }
  return k;
}

bool config_key_allowed(std::string_view name) {
  const ConfigKey k = parse_config_key(name);
  if (k.section.empty() || k.key.empty()) {
    return false;
  }
  if (k.has_subsection && k.subsection.empty()) {
    return false;
  }
  return std::any_of(kAllowed.begin(), kAllowed.end(), [&](const Allowed& a) {
    return a.section == k.section && a.key == k.key && a.subsection == k.has_subsection;
  });
}

}  // namespace reviewer::git
