#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace reviewer::workflow {

// GitHub's workflow reader types an unquoted (plain) scalar by the YAML 1.2 core schema before
// it becomes an env value, an action input or a script: `1.20` is the number 1.2, `010` is 10,
// `0x10` is 16, `1e3` is 1000, `True` is the boolean true. A number or boolean is then passed on
// in its own spelling, not as the file writes it.
struct PlainScalar {
  std::string text;  // what GitHub passes on: the booleans in lower case, anything else as is
  // Set when GitHub would pass on a number whose spelling differs from the text (its exact
  // formatting is not reproduced, so the value is refused rather than guessed).
  std::optional<std::string> refusal;
};
PlainScalar read_plain_scalar(std::string_view text);

}  // namespace reviewer::workflow
