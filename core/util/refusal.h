#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/util/source_location.h"

namespace reviewer::util {

// The one failure value of the core: something the review cannot reproduce faithfully, or
// cannot do, named by a stable kebab-case rule id (catalogued in docs/refusals.md), with a
// message that names the offending thing, quotes the value and says what would be accepted,
// and where it applies, the location.
struct Refusal {
  std::string rule;
  std::string message;
  std::optional<SourceLocation> location;

  // "file:line:column: rule: message", the location left out when unknown (report::to_text
  // renders the same for a terminal, with control bytes escaped).
  std::string to_string() const {
    std::string out;
    if (location) {
      out += location->to_string() + ": ";
    }
    return out + rule + ": " + message;
  }

  friend bool operator==(const Refusal&, const Refusal&) = default;
};

using Refusals = std::vector<Refusal>;

inline Refusal refusal(std::string rule, std::string message,
                       std::optional<SourceLocation> where = std::nullopt) {
  return Refusal{std::move(rule), std::move(message), std::move(where)};
}

}  // namespace reviewer::util
