#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/deps/npm_lock.h"
#include "core/util/result.h"

namespace reviewer::deps {

// One block of a yarn 1 lock: every pattern that resolved to it and what it pins.
struct YarnEntry {
  // The block's keys, unquoted, in the order written: "ansi-styles@^4.1.0", "ansi-styles@^4.3.0".
  std::vector<std::string> patterns;
  // `path` the first pattern (for messages), `name` the package name of the first pattern (its
  // alias for an `npm:` pattern), `version`, and `resolved` and `integrity` exactly as written
  // (`resolved` keeps its `#sha1` fragment; empty when absent).
  LockedPackage package;
};

// A yarn.lock of yarn 1 ("# yarn lockfile v1"), as `yarn install --frozen-lockfile` reads it.
struct YarnLock {
  std::string file;
  std::vector<YarnEntry> entries;  // in the order written
  std::set<std::string> patterns;  // every key of every block
};

// Parses `text` (the contents of `file`) within `bounds` (bytes; blocks as packages; patterns as
// nodes), line by line in the shape yarn 1 writes: a block header of comma-separated keys ending
// in ':' at column 0, its fields `name value` indented by two spaces, and one level of maps
// (`dependencies:`) below that; values quoted as JSON strings or plain. Refusals:
//   dependency-lock-version  no "# yarn lockfile v1" line
//   dependency-lock-invalid  a `__metadata:` block (yarn 2+'s lock, deps/berry_lock.h), over a
//                            bound, a merge-conflict marker, a tab or odd indentation,
//                            nesting deeper than a block's maps, a malformed key or string, a
//                            pattern given twice, a block without `version`
util::Result<YarnLock> parse_yarn_lock(std::string_view text, const std::string& file,
                                       const LockBounds& bounds = {});

// The package name and the spec of a pattern: "@s/x@^1.0.0" -> {"@s/x", "^1.0.0"}, "a@npm:b@1"
// -> {"a", "npm:b@1"}, "a" -> {"a", ""}.
std::pair<std::string, std::string> split_yarn_pattern(const std::string& pattern);

}  // namespace reviewer::deps
