// upload-artifact's file search (src/shared/search.ts over @actions/glob), for the emulated
// upload: the `path` input's patterns, the files they find and the root the artifact's paths are
// relative to. Paths are relative to the worktree, '/'-separated; "" is the worktree itself.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace upload_artifact_plugin {

struct Pattern {
  bool negate = false;
  std::vector<std::string> segments;  // "" segments never; "**" a globstar
  bool trailing_separator = false;    // written with a final '/': matches directories only
  bool implicit = false;              // the descendants @actions/glob adds (implicitDescendants)
  std::string search_path;            // the literal segments before the first glob segment
};

// What the plan refuses in a `path` input: the rule id and a message naming the line; nullopt
// when every line is a pattern the emulation follows exactly.
struct PathProblem {
  std::string rule;
  std::string message;
};
std::optional<PathProblem> path_problem(std::string_view path_input);

// The patterns of a `path` input the plan accepted, in order (empty lines and `#` comments
// dropped, `!` negations read), without the implicit descendants.
std::vector<Pattern> parse_patterns(std::string_view path_input);

// globber.getSearchPaths(): each non-negated pattern's search path, in order, without duplicates
// or paths below another one.
std::vector<std::string> search_paths(const std::vector<Pattern>& patterns);

// One entry the search met (from the host's walk, links never entered).
struct Met {
  std::string path;
  enum class Kind { kFile, kDirectory, kLink, kOther } kind = Kind::kOther;
};

// The search's outcome: the files to upload, in the order met, or the first link the real
// action would follow (the review refuses it).
struct Found {
  std::vector<std::string> files;
  std::optional<std::string> link;
};
// Applies @actions/glob's traversal to the entries met below one search path (parents first):
// an entry is visited when its parent was entered and it matches or partially matches a
// pattern; hidden names (a leading '.') are passed over unless `include_hidden`; a visited file
// matched as a file is found.
void search(const std::vector<Pattern>& patterns, const std::string& root,
            const std::vector<Met>& met, bool include_hidden, Found& found);

// search.ts's root directory: the least common ancestor of several search paths; with one, the
// file's own directory when the search path is that one file, else the search path.
std::string artifact_root(const std::vector<std::string>& search_paths,
                          const std::vector<std::string>& files);

// The file's path inside the artifact (below `root`).
std::string path_inside(const std::string& root, const std::string& file);

}  // namespace upload_artifact_plugin
