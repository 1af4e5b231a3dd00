#include "search.h"

#include <reviewer/sdk/inputs.hpp>
#include <reviewer/sdk/js_text.hpp>
#include <reviewer/sdk/wildcard.hpp>

#include <algorithm>
#include <set>

namespace upload_artifact_plugin {
namespace {

namespace js = reviewer::sdk::js;

constexpr int kDirectory = 1;  // @actions/glob's MatchKind
constexpr int kFile = 2;
constexpr int kAll = 3;

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    auto slash = s.find('/', at);
    auto end = slash == std::string_view::npos ? s.size() : slash;
    if (end > at) {
      out.emplace_back(s.substr(at, end - at));
    }
    at = end + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n && i < parts.size(); ++i) {
    out += (i == 0 ? "" : "/") + parts[i];
  }
  return out;
}

bool has_glob(std::string_view segment) {
  return segment.find_first_of("*?") != std::string_view::npos;
}

// The lines @actions/glob reads: split on '\n', each trimmed, empty ones and `#` comments
// dropped; each with its `!` negations taken off (every `!` toggles, as in Pattern's constructor).
struct Line {
  std::string text;
  bool negate = false;
};
std::vector<Line> lines(std::string_view input) {
  std::vector<Line> out;
  std::size_t at = 0;
  while (at <= input.size()) {
    auto nl = input.find('\n', at);
    auto end = nl == std::string_view::npos ? input.size() : nl;
    std::string_view line = js::trim(input.substr(at, end - at));
    at = end + 1;
    if (line.empty() || line.front() == '#') {
      continue;
    }
    Line l;
    while (!line.empty() && line.front() == '!') {
      l.negate = !l.negate;
      line = js::trim(line.substr(1));
    }
    l.text = std::string(line);
    out.push_back(std::move(l));
  }
  return out;
}

// A globstar matches any number of segments; a final one written by the user also matches none
// (Pattern.match appends a separator to the path), the implicit one at least one.
bool full_match(const Pattern& pat, std::size_t i, const std::vector<std::string>& path,
                std::size_t j) {
  const auto& segs = pat.segments;
  while (i < segs.size()) {
    if (segs[i] == "**") {
      const bool last = i + 1 == segs.size();
      const std::size_t from = last && pat.implicit ? j + 1 : j;
      for (std::size_t k = from; k <= path.size(); ++k) {
        if (full_match(pat, i + 1, path, k)) {
          return true;
        }
      }
      return false;
    }
    if (j >= path.size() || !reviewer::sdk::wildcard_match(segs[i], path[j])) {
      return false;
    }
    ++i;
    ++j;
  }
  return j == path.size();
}

// minimatch's partial match: `path` could still lead to a match further down.
bool partial_match(const Pattern& pat, const std::vector<std::string>& path) {
  for (std::size_t j = 0; j < path.size(); ++j) {
    if (j >= pat.segments.size()) {
      return false;
    }
    if (pat.segments[j] == "**") {
      return true;
    }
    if (!reviewer::sdk::wildcard_match(pat.segments[j], path[j])) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<PathProblem> path_problem(std::string_view path_input) {
  for (const auto& line : lines(path_input)) {
    const std::string shown = "'" + reviewer::sdk::printable(line.text) + "'";
    if (line.text.empty()) {
      return PathProblem{"failing-input-value",
                         "actions/upload-artifact 'path' has a line that is only '!', which fails "
                         "the step (pattern cannot be empty)"};
    }
    if (line.text.front() == '/' || line.text.front() == '~') {
      return PathProblem{"artifact-path-unsupported",
                         "actions/upload-artifact 'path' line " + shown +
                             " is absolute or in the home directory; the review uploads from the "
                             "worktree only: write it relative to the workspace"};
    }
    if (line.text.find_first_of("[\\") != std::string::npos) {
      return PathProblem{"artifact-path-unsupported",
                         "actions/upload-artifact 'path' line " + shown +
                             " uses a character class or an escape, which the review's search "
                             "does not follow; accepted: literal names, '*', '?' and '**'"};
    }
    const auto segs = split(line.text);
    for (std::size_t i = 0; i < segs.size(); ++i) {
      if (segs[i] == ".." || (segs[i] == "." && i > 0)) {
        return PathProblem{"failing-input-value",
                           "actions/upload-artifact 'path' line " + shown +
                               " has a '.' or '..' segment, which fails the step (@actions/glob: "
                               "relative pathing '.' and '..' is not allowed)"};
      }
    }
  }
  return std::nullopt;
}

std::vector<Pattern> parse_patterns(std::string_view path_input) {
  std::vector<Pattern> out;
  for (const auto& line : lines(path_input)) {
    Pattern p;
    p.negate = line.negate;
    p.segments = split(line.text);
    if (!p.segments.empty() && p.segments.front() == ".") {
      p.segments.erase(p.segments.begin());
    }
    p.trailing_separator = !line.text.empty() && line.text.back() == '/';
    std::size_t literal = 0;
    while (literal < p.segments.size() && !has_glob(p.segments[literal])) {
      ++literal;
    }
    p.search_path = join(p.segments, literal);
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<std::string> search_paths(const std::vector<Pattern>& patterns) {
  std::set<std::string> candidates;
  for (const auto& p : patterns) {
    if (!p.negate) {
      candidates.insert(p.search_path);
    }
  }
  std::set<std::string> included;
  std::vector<std::string> out;
  for (const auto& p : patterns) {
    if (p.negate || included.contains(p.search_path)) {
      continue;
    }
    bool ancestor = false;
    auto segs = split(p.search_path);
    for (std::size_t n = segs.size(); n-- > 0 && !ancestor;) {
      ancestor = candidates.contains(join(segs, n));
    }
    if (!ancestor) {
      out.push_back(p.search_path);
      included.insert(p.search_path);
    }
  }
  return out;
}

void search(const std::vector<Pattern>& written, const std::string& root,
            const std::vector<Met>& met, bool include_hidden, Found& found) {
  std::vector<Pattern> patterns;
  for (const auto& p : written) {
    patterns.push_back(p);
    if (p.trailing_separator || p.segments.empty() || p.segments.back() != "**") {
      Pattern descendants{p.negate, p.segments, false, true, p.search_path};
      descendants.segments.push_back("**");
      patterns.push_back(std::move(descendants));
    }
  }
  std::set<std::string> entered;
  for (const auto& item : met) {
    const auto slash = item.path.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : item.path.substr(0, slash);
    if (item.path != root && !entered.contains(parent)) {
      continue;
    }
    const auto segs = split(item.path);
    int kind = 0;
    bool partial = false;
    for (const auto& p : patterns) {
      const int k = full_match(p, 0, segs, 0) ? (p.trailing_separator ? kDirectory : kAll) : 0;
      kind = p.negate ? kind & ~k : kind | k;
      partial = partial || (!p.negate && partial_match(p, segs));
    }
    if (kind == 0 && !partial) {
      continue;
    }
    const std::string base = slash == std::string::npos ? item.path : item.path.substr(slash + 1);
    if (!include_hidden && !base.empty() && base.front() == '.') {
      continue;
    }
    if (item.kind == Met::Kind::kLink) {
      found.link = item.path;
      return;
    }
    if (item.kind == Met::Kind::kDirectory) {
      entered.insert(item.path);
    } else if ((kind & kFile) != 0) {
      found.files.push_back(item.path);
    }
  }
}

std::string artifact_root(const std::vector<std::string>& paths,
                          const std::vector<std::string>& files) {
  if (paths.size() > 1) {
    std::vector<std::string> common = split(paths.front());
    for (const auto& p : paths) {
      const auto segs = split(p);
      std::size_t n = 0;
      while (n < common.size() && n < segs.size() && common[n] == segs[n]) {
        ++n;
      }
      common.resize(n);
    }
    return join(common, common.size());
  }
  if (files.size() == 1 && !paths.empty() && paths.front() == files.front()) {
    const auto slash = files.front().rfind('/');
    return slash == std::string::npos ? "" : files.front().substr(0, slash);
  }
  return paths.empty() ? "" : paths.front();
}

std::string path_inside(const std::string& root, const std::string& file) {
  return root.empty() ? file : file.substr(std::min(file.size(), root.size() + 1));
}

}  // namespace upload_artifact_plugin
