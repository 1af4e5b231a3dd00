#include "core/plan/branch_filter.h"

namespace reviewer::plan {
namespace {

bool match_from(std::string_view p, std::string_view n) {
  if (p.empty()) return n.empty();
  if (p.starts_with("**")) {
    for (std::size_t i = 0; i <= n.size(); ++i) {
      if (match_from(p.substr(2), n.substr(i))) return true;
    }
    return false;
  }
  if (p[0] == '*') {
    for (std::size_t i = 0; i <= n.size(); ++i) {
      if (match_from(p.substr(1), n.substr(i))) return true;
      if (i < n.size() && n[i] == '/') break;
    }
    return false;
  }
  if (n.empty()) return false;
  if (p[0] == '?') return match_from(p.substr(1), n.substr(1));
  return p[0] == n[0] && match_from(p.substr(1), n.substr(1));
}

}  // namespace

std::optional<bool> glob_match(std::string_view pattern, std::string_view name) {
  if (pattern.find_first_of("+[]\\") != std::string_view::npos) return std::nullopt;
  // Patterns are short and bounded by the file size; the backtracking stays small.
  if (pattern.size() > 256 || name.size() > 256) return std::nullopt;
  return match_from(pattern, name);
}

std::optional<bool> branches_admit(const std::vector<std::string>& patterns,
                                   std::string_view base) {
  bool admitted = false;
  for (const auto& raw : patterns) {
    bool negate = raw.starts_with("!");
    std::string_view p = negate ? std::string_view(raw).substr(1) : std::string_view(raw);
    auto m = glob_match(p, base);
    if (!m) return std::nullopt;
    if (*m) admitted = !negate;
  }
  return admitted;
}

}  // namespace reviewer::plan
