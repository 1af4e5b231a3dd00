#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/util/source_location.h"

namespace reviewer::report {

// Something the review cannot reproduce faithfully, named by a stable kebab-case rule id
// (catalogued in docs/refusals.md), with a message that names the offending thing.
struct Refusal {
  std::string rule;
  std::string message;
  std::optional<util::SourceLocation> location;

  friend bool operator==(const Refusal&, const Refusal&) = default;
};

using Refusals = std::vector<Refusal>;

}  // namespace reviewer::report
