#include "core/expr/template.h"

#include "core/util/text.h"

namespace reviewer::expr {
namespace {

util::Refusal invalid(std::string message) {
  return util::Refusal{"expression-invalid", std::move(message), std::nullopt};
}

}  // namespace

util::Result<std::vector<TemplatePart>> split_template(std::string_view value) {
  std::vector<TemplatePart> parts;
  std::size_t at = 0;
  while (at < value.size()) {
    const std::size_t open = value.find("${{", at);
    if (open == std::string_view::npos) {
      parts.push_back({false, std::string(value.substr(at)), at});
      break;
    }
    if (open > at) {
      parts.push_back({false, std::string(value.substr(at, open - at)), at});
    }
    bool in_string = false;
    std::size_t close = std::string_view::npos;
    for (std::size_t i = open + 3; i + 1 < value.size(); ++i) {
      if (value[i] == '\'') {
        in_string = !in_string;  // '' inside a literal toggles twice: still inside
      } else if (!in_string && value[i] == '}' && value[i + 1] == '}') {
        close = i;
        break;
      }
    }
    if (close == std::string_view::npos) {
      return invalid("the expression opened at character " + std::to_string(open + 1) +
                     " is not closed by '}}'");
    }
    const std::string inner(util::trim(value.substr(open + 3, close - open - 3), " \t\r\n"));
    if (inner.empty()) {
      return invalid("an empty expression '${{ }}' at character " + std::to_string(open + 1));
    }
    parts.push_back({true, inner, open});
    at = close + 2;
  }
  return parts;
}

bool is_single_expression(const std::vector<TemplatePart>& parts) {
  std::size_t expressions = 0;
  for (const auto& p : parts) {
    if (p.expression) {
      ++expressions;
    } else if (!util::trim(p.text, " \t\r\n").empty()) {
      return false;
    }
  }
  return expressions == 1;
}

}  // namespace reviewer::expr
