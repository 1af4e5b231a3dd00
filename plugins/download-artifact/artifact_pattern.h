// download-artifact's `pattern` (a Minimatch with default options, matched against artifact
// names) and `path` inputs, in the subset the review follows exactly.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace download_artifact_plugin {

// Why the review does not follow `pattern` (braces, classes, extglobs, negation, comments,
// escapes), or empty: what is left is literal text with '*' and '?'.
std::string pattern_problem(std::string_view pattern);

// Minimatch(pattern).match(name) for an accepted pattern: '*' any run and '?' one character,
// neither matching a leading '.' of the name (dot: false).
bool pattern_matches(std::string_view pattern, std::string_view name);

// The destination `path` as a plain path relative to the workspace ("" = the workspace, which is
// also the default): '.' and empty segments dropped. nullopt for what leaves the worktree: an
// absolute path, '~' (the home directory) or a '..' segment.
std::optional<std::string> destination(std::string_view path);

// `dir`/`name`, for an artifact downloaded into its own directory.
std::string below(const std::string& dir, const std::string& name);

}  // namespace download_artifact_plugin
