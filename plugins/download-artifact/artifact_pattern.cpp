#include "artifact_pattern.h"

#include <reviewer/sdk/wildcard.hpp>

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
  return reviewer::sdk::wildcard_match(pat, name);
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
