#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace reviewer::expr {

// One piece of a workflow value: literal text, or the inside of one `${{ }}`.
struct TemplatePart {
  bool expression = false;
  std::string text;
  std::size_t offset = 0;  // byte offset of the part (of `${{` for an expression) in the value
};

// Splits a workflow value the way the runner's template reader does: each `${{` opens an
// expression that ends at the first `}}` outside a single-quoted string literal. Errors
// (`expression-invalid`): an unclosed `${{`, an empty `${{ }}`.
util::Result<std::vector<TemplatePart>> split_template(std::string_view value);

// True when `parts` is exactly one expression and nothing else (white space around the value
// aside): its value keeps its kind (a boolean stays a boolean) instead of becoming text.
bool is_single_expression(const std::vector<TemplatePart>& parts);

}  // namespace reviewer::expr
