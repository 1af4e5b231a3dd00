// The key rules of @actions/cache's restoreCache, as actions/cache applies them to its inputs
// (toolkit packages/cache/src/cache.ts checkKey; actions/cache src/utils/actionUtils.ts).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cache_plugin {

inline constexpr std::size_t kMaxKeyLength = 512;  // UTF-16 code units; 512 itself is allowed
inline constexpr std::size_t kMaxKeys = 10;        // the primary key plus restore keys

// `restore-keys` as getInputAsArray reads it: the trimmed input split on "\n", each line with a
// leading "!" and whitespace collapsed to "!" and trimmed, blank lines dropped.
std::vector<std::string> restore_key_lines(std::string_view input);

// Why restoreCache would throw a ValidationError for `key` (trimmed as getInput does), or empty.
std::string key_problem(std::string_view key);

}  // namespace cache_plugin
