#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/util/result.h"
#include "core/yaml/node.h"

namespace reviewer::yaml {

// The hard bounds a workflow must stay within before any tree is built or walked.
struct Bounds {
  std::size_t max_bytes = 256 * 1024;
  std::size_t max_nodes = 50'000;  // every alias use counts as the whole subtree it names
  std::size_t max_depth = 32;      // also counted through aliases
  // The scalar text (keys included) that aliases may add, each alias use counting the text of
  // the subtree it names: a few bytes of aliases would otherwise stand for gigabytes of text.
  // 4 MiB is 16 times the largest file, and less than GitHub's own reader admits in a whole
  // template (10 MiB of template memory, two bytes a character: docs/planner.md).
  std::size_t max_alias_bytes = 4 * 1024 * 1024;
  // Whether a key may be a quoted scalar. Workflows keep keys plain (GitHub's reader and ours
  // then agree on every key); pnpm-lock.yaml quotes every key that starts with '@' or holds a
  // ':' ('@babel/core@7.24.0'), so its reader accepts quoted keys, still printable ASCII.
  bool quoted_keys = false;
};

// Loads one YAML document from `text` (named `file` in locations) within `bounds`, building the
// tree from the parser's event stream. Refuses (Error::code is the rule id) an oversized file,
// too many nodes, too deep nesting or too much text added by aliases (counted through aliases,
// without expanding them first), a key that is not a plain printable-ASCII scalar, a duplicate
// key, more than one document, an explicit tag, a merge key, and malformed YAML or anchors; the
// error carries the position where the bound was crossed.
util::Result<Node> load(std::string_view text, const std::string& file, const Bounds& bounds = {});

// Reads `path`: no symlink followed, a regular file, at most bounds.max_bytes + 1 bytes read (so
// that load() can still name where the bound was crossed). Refuses workflow-symlink or
// workflow-unreadable.
util::Result<std::string> read_bounded(const std::string& path, const std::string& display_name,
                                       const Bounds& bounds = {});

// read_bounded's verdict on a text read some other way, at most bounds.max_bytes + 1 bytes (the
// launcher reads the workflow link by link, as plan::WorktreeFiles does): the text, or the
// error (util::kFile* codes) as workflow-symlink or workflow-unreadable.
util::Result<std::string> name_read_error(util::Result<std::string> read,
                                          const std::string& display_name);

// read_bounded() and load().
util::Result<Node> load_file(const std::string& path, const std::string& display_name,
                             const Bounds& bounds = {});

}  // namespace reviewer::yaml
