#pragma once

#include <optional>
#include <string_view>

namespace reviewer::workflow {

// True if `text` holds a `${{` expression opener anywhere (GitHub evaluates every occurrence,
// including inside quotes and comments of a script).
inline bool contains_expression(std::string_view text) {
  return text.find("${{") != std::string_view::npos;
}

// The `if:` conditions a review reproduces: run only if everything before succeeded, or run
// whatever happened before.
enum class Gate { kSuccess, kAlways };

// The gate `condition` states when it is exactly `success()` or `always()`, bare or wrapped in
// `${{ }}` (surrounding whitespace allowed); nullopt for anything else. The planner decides the
// gate with this once; the launcher reads the decision from the plan.
std::optional<Gate> parse_gate(std::string_view condition);

}  // namespace reviewer::workflow
