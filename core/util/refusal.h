#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/util/source_location.h"

namespace reviewer::util {

// The one failure value of the core: something the review cannot reproduce faithfully, or
// cannot do, named by a stable kebab-case rule id (catalogued in docs/refusals.md), with a
// message that names the offending thing, quotes the value and says what would be accepted,
// and where it applies, the location.
// What a refusal says of its input, for the code that decides what to do next: a kind is set
// where the refusal is made, so no code compares rule ids (one id is given in many places).
enum class RefusalKind : std::uint8_t {
  kRefused,     // the input cannot be reproduced as written (most rules)
  kBound,       // the input crossed a bound the review sets (expression-too-large,
                // dependency-too-large)
  kAbsent,      // a file the input names is not there (version-file-missing)
  kHost,        // the host could not do its part, which says nothing of the input
                // (dependency-fetch-failed, dependency-store)
  kSource,      // the repository or ref the user named cannot be read (review-source)
  kUnknowable,  // a value only the real run has (action-output-unavailable)
};

struct Refusal {
  std::string rule;
  std::string message;
  std::optional<SourceLocation> location;
  RefusalKind kind = RefusalKind::kRefused;

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

inline Refusal refusal(RefusalKind kind, std::string rule, std::string message,
                       std::optional<SourceLocation> where = std::nullopt) {
  return Refusal{std::move(rule), std::move(message), std::move(where), kind};
}

}  // namespace reviewer::util
