#pragma once

#include <string_view>

namespace reviewer::workflow {

// True if `text` holds a `${{` expression opener anywhere (GitHub evaluates every occurrence,
// including inside quotes and comments of a script).
inline bool contains_expression(std::string_view text) {
  return text.find("${{") != std::string_view::npos;
}

// True if `condition` is exactly one of the accepted gates: `success()` or `always()`, bare or
// wrapped in `${{ }}` (surrounding whitespace allowed).
bool is_accepted_condition(std::string_view condition);

}  // namespace reviewer::workflow
