// One path segment against a pattern of `*` (any run of characters) and `?` (any one character),
// everything else literal; a leading '.' is matched like any character (minimatch's `dot: true`,
// which @actions/glob and hashFiles use). Callers that follow other dot rules check the leading
// '.' themselves. Iterative with one backtrack point: linear in practice, never exponential.
#pragma once

#include <cstddef>
#include <string_view>

namespace reviewer::sdk {

inline bool wildcard_match(std::string_view pat, std::string_view name) {
  std::size_t p = 0;
  std::size_t n = 0;
  std::size_t star = std::string_view::npos;
  std::size_t mark = 0;
  while (n < name.size()) {
    if (p < pat.size() && (pat[p] == '?' || pat[p] == name[n])) {
      ++p;
      ++n;
    } else if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = n;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') {
    ++p;
  }
  return p == pat.size();
}

}  // namespace reviewer::sdk
