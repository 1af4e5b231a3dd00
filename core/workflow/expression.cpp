#include "core/workflow/expression.h"

namespace reviewer::workflow {
namespace {

std::string_view trim(std::string_view s) {
  const auto* ws = " \t\r\n";
  auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) {
    return {};
  }
  auto e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

}  // namespace

bool is_accepted_condition(std::string_view condition) {
  std::string_view c = trim(condition);
  if (c.starts_with("${{") && c.ends_with("}}") && c.size() >= 5) {
    c = trim(c.substr(3, c.size() - 5));
  }
  return c == "success()" || c == "always()";
}

}  // namespace reviewer::workflow
