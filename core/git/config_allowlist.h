#pragma once

#include <string>
#include <string_view>

namespace reviewer::git {

// A configuration key split the way git reads it: `section` and `key` are case-insensitive
// (returned lower-cased), `subsection` is case-sensitive (returned as written, empty if none).
struct ConfigKey {
  std::string section;
  std::string subsection;
  std::string key;
  bool has_subsection = false;

  // "section.subsection.key" (or "section.key") in canonical case.
  std::string canonical() const;
};

// Splits `name` at its first and last dot (the subsection may itself hold dots); `section` is
// empty when `name` has no dot.
ConfigKey parse_config_key(std::string_view name);

// True iff a plain clone or an identity write produces this key (docs/git-guards.md lists the
// keys and the clone that writes each). Decided by key only, never by value.
bool config_key_allowed(std::string_view name);

}  // namespace reviewer::git
