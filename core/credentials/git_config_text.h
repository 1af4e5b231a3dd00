#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::credentials {

// One `key = value` of a git configuration file.
struct GitConfigEntry {
  std::string section;     // lower case
  std::string subsection;  // as written (git compares it case-sensitively); empty when none
  std::string key;         // lower case
  std::string value;       // quotes and escapes resolved; empty for a bare `key`
  std::uint32_t line = 0;  // 1-based, where the key is written
};

// The entries of a file in git-config(1) syntax: `[section]`, `[section "subsection"]`, the
// legacy `[section.subsection]`, `#`/`;` comments, quoted values, escapes and continuation lines.
// Lenient where git is strict: a line git would reject is skipped and reading goes on, so the
// result is never less than what git reads from a file it accepts (git reads nothing from a file
// it rejects). Includes are returned as entries (include.path, includeif.<cond>.path), not
// followed.
std::vector<GitConfigEntry> parse_git_config(std::string_view text);

}  // namespace reviewer::credentials
