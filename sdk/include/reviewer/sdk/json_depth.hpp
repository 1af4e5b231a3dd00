// How deeply a JSON text nests, counted before any parser sees it, so a hostile file cannot drive
// a recursive parser (or its dump() and destructor) deep enough to exhaust the stack. Header-only,
// part of the SDK (1.11); the core's package.json reader uses the same count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace reviewer::sdk {

// The deepest nesting of arrays and objects parsed, for the readers of repository JSON files.
inline constexpr int kMaxJsonDepth = 64;

// The deepest nesting of arrays and objects in `text` (strings skipped).
inline int json_nesting_depth(std::string_view text) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace reviewer::sdk
