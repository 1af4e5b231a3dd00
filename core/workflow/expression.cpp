#include "core/workflow/expression.h"

#include "core/util/text.h"

namespace reviewer::workflow {
namespace {

// YAML's own white space: what may surround a condition in a plain or quoted scalar.
std::string_view trim(std::string_view s) { return util::trim(s, " \t\r\n"); }

}  // namespace

std::optional<Gate> parse_gate(std::string_view condition) {
  std::string_view c = trim(condition);
  if (c.starts_with("${{") && c.ends_with("}}") && c.size() >= 5) {
    c = trim(c.substr(3, c.size() - 5));
  }
  if (c == "success()") {
    return Gate::kSuccess;
  }
  if (c == "always()") {
    return Gate::kAlways;
  }
  return std::nullopt;
}

}  // namespace reviewer::workflow
