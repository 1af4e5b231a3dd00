#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reviewer::cli {

// docs/refusals.md, compiled in: one "### `rule-id`" section per rule.
std::string_view refusal_catalogue();

// The section for `rule` (heading included), or nullopt.
std::optional<std::string> find_refusal_entry(std::string_view rule);

// Every rule id the catalogue lists, in order.
std::vector<std::string> catalogued_rules();

}  // namespace reviewer::cli
