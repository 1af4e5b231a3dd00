#include "artifact_pattern.h"

namespace download_artifact_plugin {

std::string pattern_problem(std::string_view pattern) {
  if (!pattern.empty() && (pattern.front() == '!' || pattern.front() == '#')) {
    return "starts with '" + std::string(1, pattern.front()) + "' (negation or comment)";
  }
  for (char c : std::string_view("[]{}()\\")) {
    if (pattern.find(c) != std::string_view::npos) {
      return "uses '" + std::string(1, c) + "' (a class, brace, extglob or escape)";
    }
  }
  return {};
}

bool pattern_matches(std::string_view pat, std::string_view name) {
  if (!name.empty() && name.front() == '.' && !pat.empty() &&
      (pat.front() == '*' || pat.front() == '?')) {
    return false;
  }
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

std::optional<std::string> destination(std::string_view path) {
  if (!path.empty() && (path.front() == '/' || path.front() == '~')) {
    return std::nullopt;
  }
  std::string out;
  std::size_t at = 0;
  while (at <= path.size()) {
    auto slash = path.find('/', at);
    auto end = slash == std::string_view::npos ? path.size() : slash;
    std::string_view part = path.substr(at, end - at);
    at = end + 1;
    if (part == "..") {
      return std::nullopt;
    }
    if (part.empty() || part == ".") {
      continue;
    }
    out += (out.empty() ? "" : "/") + std::string(part);
  }
  return out;
}

std::string below(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

}  // namespace download_artifact_plugin
